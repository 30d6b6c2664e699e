"""Names of library calls: what op a `ko.call`'s callee string denotes.

Shared by the dispatch classifier (a pass) and the cost model (profile), so it sits in the IR layer
that both import.
"""
from __future__ import annotations


def op_basename(callee: str) -> str:
    """`torch.ops.aten.addmm.default` -> `addmm`; `aten.mm.dtype` -> `mm`; `extern_kernels.mm` -> `mm`.

    The op is the part after its namespace (`torch.ops.<ns>.`, `aten.`, `extern_kernels.`), whatever
    the overload is called (`default`, `out`, `dtype`, `dim_IntList`, ...).
    """
    parts = callee.split(".")
    if parts[:2] == ["torch", "ops"] and len(parts) >= 4:
        return parts[3]
    for namespace in ("aten", "prims", "extern_kernels", "inductor_ops"):
        if namespace in parts[:-1]:
            return parts[parts.index(namespace) + 1]
    parts = [p for p in parts if p not in ("default", "out", "Tensor", "Scalar")]
    return parts[-1] if parts else callee


def library_callee(name: str) -> str | None:
    """The fully qualified callee of a vendor or library op call, None for anything else."""
    if name.startswith("extern_kernels."):
        return name
    if name.startswith(("torch.ops.", "torch.")):
        return name
    if name.startswith(("aten.", "prims.", "inductor_ops.", "_quantized.")):
        head, rest = name.split(".", 1)
        return f"torch.ops.{ {'inductor_ops': 'inductor'}.get(head, head) }.{rest}".replace(" ", "")
    return None
