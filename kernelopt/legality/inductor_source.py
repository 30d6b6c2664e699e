"""Read Triton kernels out of an Inductor output module, as text.

Inductor writes each kernel as `name = async_compile.triton('name', '''<source>''', device_str=...)`.
The gate needs that source for three things: the parameter names (which arguments are outputs),
static screening (does the original already use low-precision dtypes?), and a float64 variant of the
kernel that serves as the accuracy reference. Shrinking hard-coded sizes (`xnumel = 4096`) for
CPU-interpreter runs lives here too, because tests and the suite build small versions of real kernels.
"""
from __future__ import annotations

import re

from kernelopt.errors import InputError

_KERNEL_RE = r"^{name}\s*=\s*async_compile\.triton\(\s*'{name}'\s*,\s*'''(?P<src>.*?)'''"
_WRITTEN_PARAM = re.compile(r"^(out_ptr\d+|in_out_ptr\d+)$")


def kernel_sources(module_text: str) -> dict[str, str]:
    """All `async_compile.triton` kernels of a module: name -> source."""
    found = {}
    for match in re.finditer(r"^(\w+)\s*=\s*async_compile\.triton\(\s*'(\w+)'\s*,\s*'''(.*?)'''",
                             module_text, re.S | re.M):
        found[match.group(2)] = match.group(3)
    return found


def kernel_source(module_text: str, name: str, path: str = "<module>") -> str:
    match = re.search(_KERNEL_RE.format(name=re.escape(name)), module_text, re.S | re.M)
    if match is None:
        raise InputError(f"{path}: no Triton kernel named {name!r} (known: "
                         f"{', '.join(sorted(kernel_sources(module_text))) or 'none'})")
    return match.group("src")


def kernel_params(source: str, name: str) -> list[str]:
    """The parameter names of `def name(...)` without the constexpr block sizes."""
    match = re.search(rf"def\s+{re.escape(name)}\s*\((.*?)\)\s*:", source, re.S)
    if match is None:
        raise InputError(f"kernel {name!r}: no `def {name}(...)` in its source")
    params = []
    for part in match.group(1).split(","):
        part = part.strip()
        if not part or "constexpr" in part:
            continue
        params.append(part.split(":")[0].strip())
    return params


def mutated_arg_names(source: str) -> list[str]:
    match = re.search(r"'mutated_arg_names':\s*\[(.*?)\]", source)
    return re.findall(r"'(\w+)'", match.group(1)) if match else []


def written_param_indices(source: str, name: str) -> set[int]:
    """Positions (in `.run(...)` order) of the arguments the kernel writes: out_ptr*, in_out_ptr*,
    and whatever Inductor lists in `mutated_arg_names`."""
    params = kernel_params(source, name)
    mutated = set(mutated_arg_names(source))
    return {i for i, p in enumerate(params) if _WRITTEN_PARAM.match(p) or p in mutated}


def strip_heuristics(source: str) -> str:
    """Drop the `@triton_heuristics.*(...)` decorator and the GPU driver switch, keeping `@triton.jit`."""
    out_lines, depth, skipping = [], 0, False
    for line in source.splitlines():
        if not skipping and line.lstrip().startswith("@triton_heuristics."):
            skipping = True
        if skipping:
            depth += line.count("(") - line.count(")")
            if depth <= 0:
                skipping, depth = False, 0
            continue
        if line.strip() == "triton_helpers.set_driver_to_gpu()":
            continue
        out_lines.append(line)
    return "\n".join(out_lines) + "\n"


def shrink_sizes(source: str, sizes: dict[int, int]) -> str:
    """Replace hard-coded integer sizes (whole numbers only) in the kernel body: {4096: 8, 32000: 300}.
    Block-size constants (`R0_BLOCK: tl.constexpr = 1024`) are numbers too; list them to change them."""
    head, sep, body = source.partition("@triton.jit")
    if not sep:
        head, body = "", source
    for old, new in sizes.items():
        body = re.sub(rf"(?<![\w.]){old}(?![\w.])", str(new), body)
        body = re.sub(rf"(?<![\w.]){old}\.0(?![\w])", f"{new}.0", body)
    return head + sep + body


_LOW_FLOAT = re.compile(r"\btl\.(float32|bfloat16|float16)\b")


def float64_variant(source: str) -> str:
    """The same kernel computing in float64: every explicit float dtype becomes tl.float64.

    Inductor kernels cast loads with `.to(tl.float32)` and build accumulators with tl.float32, so
    upcasting the tensors alone would still compute in fp32; rewriting the dtypes gives the math in
    float64 on float64 tensors, which is the reference the accuracy check needs."""
    source = _LOW_FLOAT.sub("tl.float64", source)
    # the signature in triton_meta decides how a GPU build types the pointers
    return re.sub(r"'\*(fp32|bf16|fp16)'", "'*fp64'", source)


def float64_module_text(module_text: str, name: str) -> str:
    """The module with kernel `name` replaced by its float64 variant (everything else unchanged)."""
    source = kernel_source(module_text, name)
    return module_text.replace(source, float64_variant(source), 1)
