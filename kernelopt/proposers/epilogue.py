"""epilogue: fold an activation kernel into the vendor GEMM before it (cuBLASLt's fused epilogue).

Target: a `detect-fusion` epilogue group turned into a RewriteTarget by
`kernelopt.rewrite.targets.epilogue_target` — `extern_kernels.mm` or `.addmm` followed by one Triton
pointwise launch; `group_args` are the GEMM's arguments in call order (addmm: input, mat1, mat2,
alpha, beta, out; mm: mat1, mat2, out), then what the launch adds (a bias, xnumel). The evaluator
replays the original as the vendor call then the kernel (`kernels[0].kind == "vendor"`).

Handled: a Grid1D pointwise kernel (the shape `fuse.parse_pointwise` accepts) that works in place on
the GEMM output — loads it at `xindex`, stores at `xindex`, nothing else written — and computes
`act(y)` or, after an `mm`, `act(y + bias[xindex % N])` with a 1-D bias of the output's N columns,
where act is ReLU or GELU. Which function the kernel computes is read off its expression: the
stored value, with the body's locals inlined, is evaluated in float64 on probe points and compared
with the candidate functions (the kernel's own arithmetic, not its name, decides). The candidate is
`torch._addmm_activation(bias, mat1, mat2, beta=, alpha=, use_gelu=, out=out)`:
- ReLU everywhere;
- GELU only where the vendor op computes the same GELU as the kernel: on CUDA the epilogue (cuBLASLt
  `CUBLASLT_EPILOGUE_GELU`, and PyTorch's non-Lt fallback, which calls `gelu_(..., "tanh")`) is the
  tanh approximation, so only a tanh-GELU kernel qualifies; on the CPU `_addmm_activation` is
  `addmm` then the exact erf `gelu_`, so only an erf-GELU kernel qualifies.
- An `mm` without bias gets a zero bias (cached per shape/dtype/device): y + 0 is y.
The fused epilogue applies the activation before the output is rounded to its dtype (the original
rounds the GEMM result first); that is a rounding difference the legality gate measures against the
original's own error, so a candidate that is too far off is simply rejected. Whether cuBLAS plus
the separate kernel is faster is for the timing to say: the search times both.

Declined: other activations (SiLU, SwiGLU-style products of two GEMMs), kernels reading other
tensors than the GEMM output and a column bias, out-of-place kernels (the GEMM result would then
still be an output), several launches after the GEMM, bmm/convolution producers. A Triton GEMM with
the epilogue fused is not generated here (the `templates`/`llm` proposers' business).
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Callable, Iterable

import torch

from kernelopt.inductor_source import expression_excerpt

from kernelopt.ir.rewrite_record import GROUP

from .base import Attempt, Candidate, RewriteTarget
from .fuse import Decline, normalise, parse_pointwise

PROBE_POINTS = 4096


def _gelu_erf(y):
    return 0.5 * y * (1.0 + torch.erf(y / math.sqrt(2.0)))


def _gelu_tanh(y):
    return 0.5 * y * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (y + 0.044715 * y ** 3)))


ACTIVATIONS: dict[str, Callable] = {"relu": torch.relu, "gelu-erf": _gelu_erf, "gelu-tanh": _gelu_tanh}


@dataclass(frozen=True)
class EpiloguePlan:
    callee: str                 # extern_kernels.mm | extern_kernels.addmm
    activation: str             # relu | gelu-erf | gelu-tanh
    slots: dict                 # role -> group-args slot: input, mat1, mat2, alpha, beta, out, bias
    columns: int


def plan_epilogue(target: RewriteTarget) -> EpiloguePlan:
    if not target.kernels or target.kernels[0].kind != "vendor":
        raise Decline("not a vendor epilogue target")
    callee = target.kernels[0].name
    if callee not in ("extern_kernels.mm", "extern_kernels.addmm"):
        raise Decline(f"{callee} is not mm/addmm")
    if len(target.launches) != 2 or len(target.kernels) != 2:
        raise Decline("the GEMM is followed by more than one launch")
    gemm, launch = target.launches
    roles = {a.name: slot for a, slot in zip(gemm.args, target.group_positions[0])}
    out = target.group_args[roles["out"]]
    if len(out.sizes) != 2 or out.strides != (out.sizes[1], 1) or out.storage_offset:
        raise Decline("the GEMM output is not a contiguous row-major matrix")
    rows, columns = out.sizes
    kernel = parse_pointwise(target.kernels[1])
    if kernel.xnumel != rows * columns:
        raise Decline(f"the kernel covers {kernel.xnumel} elements, the GEMM output {rows * columns}")
    slot_of = dict(zip(kernel.params, target.group_positions[1]))
    stores = [a for a in kernel.accesses if a.store]
    if len(stores) != 1 or slot_of[stores[0].param] != roles["out"] or stores[0].index != "xindex":
        raise Decline("the kernel does not rewrite the GEMM output in place at xindex")
    variables: dict[str, str] = {}
    for access in kernel.accesses:
        if access.store:
            continue
        slot = slot_of[access.param]
        if slot == roles["out"] and access.index == "xindex":
            variables[access.param] = "y"
        elif (callee == "extern_kernels.mm" and access.index == f"xindex % {columns}"
              and target.group_args[slot].sizes == (columns,) and target.group_args[slot].strides == (1,)):
            variables[access.param] = "bias"
            roles["bias"] = slot
        else:
            raise Decline(f"the kernel reads {access.param} at `{access.index}`: not the GEMM output or a column bias")
    if "y" not in variables.values():
        raise Decline("the kernel does not read the GEMM output")
    value = stores[0].node.args[1]
    defs = _defs(kernel)
    activation = identify_activation(value, defs, variables)
    if activation is None:
        raise Decline("the kernel computes no activation this proposer maps to a vendor epilogue")
    return EpiloguePlan(callee, activation, roles, columns)


def _defs(kernel) -> dict[str, ast.expr]:
    return {s.targets[0].id: s.value for s in kernel.body if isinstance(s, ast.Assign)}


def identify_activation(value: ast.expr, defs: dict, variables: dict[str, str]) -> str | None:
    """Which of ACTIVATIONS the stored expression computes (of y, or of y + bias), by float64 probes."""
    expr = ast.parse(normalise(value, defs), mode="eval").body
    generator = torch.Generator().manual_seed(0)
    y = torch.cat([torch.linspace(-8, 8, PROBE_POINTS // 2, dtype=torch.float64),
                   torch.randn(PROBE_POINTS // 2, generator=generator, dtype=torch.float64) * 3])
    bias = torch.randn(PROBE_POINTS, generator=generator, dtype=torch.float64)
    inputs = {"y": y, "bias": bias}
    try:
        got = _Probe(variables, inputs).eval(expr)
    except _Unknown:
        return None
    got = torch.as_tensor(got, dtype=torch.float64).expand_as(y)
    argument = y + bias if "bias" in variables.values() else y
    for name, fn in ACTIVATIONS.items():
        want = fn(argument)
        if torch.allclose(got, want, rtol=1e-9, atol=1e-12):
            return name
    return None


class _Unknown(Exception):
    pass


class _Probe:
    """Evaluate an inlined Inductor pointwise expression on float64 tensors (casts are the identity)."""

    FUNCTIONS = {"libdevice.erf": torch.erf, "libdevice.tanh": torch.tanh, "libdevice.exp": torch.exp,
                 "tl_math.exp": torch.exp, "tl.exp": torch.exp, "libdevice.sqrt": torch.sqrt,
                 "tl.sigmoid": torch.sigmoid, "tl_math.abs": torch.abs, "tl.abs": torch.abs,
                 "libdevice.pow": torch.pow, "triton_helpers.maximum": torch.maximum,
                 "triton_helpers.minimum": torch.minimum, "tl.where": torch.where,
                 "libdevice.rsqrt": torch.rsqrt, "libdevice.log1p": torch.log1p}

    def __init__(self, variables: dict[str, str], inputs: dict[str, torch.Tensor]):
        self.variables, self.inputs = variables, inputs

    def eval(self, node: ast.expr):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return torch.tensor(float(node.value), dtype=torch.float64)
        if isinstance(node, ast.BinOp):
            a, b = self.eval(node.left), self.eval(node.right)
            ops = {ast.Add: torch.add, ast.Sub: torch.sub, ast.Mult: torch.mul, ast.Div: torch.div, ast.Pow: torch.pow}
            if type(node.op) not in ops:
                raise _Unknown(ast.unparse(node))
            return ops[type(node.op)](a, b)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.eval(node.operand)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            a, b = self.eval(node.left), self.eval(node.comparators[0])
            ops = {ast.Lt: torch.lt, ast.Gt: torch.gt, ast.LtE: torch.le, ast.GtE: torch.ge}
            if type(node.ops[0]) not in ops:
                raise _Unknown(ast.unparse(node))
            return ops[type(node.ops[0])](a, b)
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if isinstance(node.func, ast.Attribute) and node.func.attr == "to":
                return self.eval(node.func.value)   # casts: identity in float64
            if name == "tl.load":
                pointer = node.args[0]
                param = pointer.left.id if isinstance(pointer, ast.BinOp) else getattr(pointer, "id", None)
                if param not in self.variables:
                    raise _Unknown(name)
                return self.inputs[self.variables[param]]
            if name == "tl.full" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                return torch.tensor(float(node.args[1].value), dtype=torch.float64)
            if name in self.FUNCTIONS and not node.keywords:
                return self.FUNCTIONS[name](*[torch.as_tensor(self.eval(a)) for a in node.args])
        raise _Unknown(expression_excerpt(node, 60))


def vendor_matches(activation: str, on_gpu: bool) -> bool:
    """Does `torch._addmm_activation` compute this activation on this device (see the docstring)?"""
    if activation == "relu":
        return True
    return activation == ("gelu-tanh" if on_gpu else "gelu-erf")


def compiled_for_gpu(kernel_source: str) -> bool:
    """Inductor writes the target device into the kernel source (`set_driver_to_gpu()`, DeviceProperties)."""
    return "set_driver_to_gpu()" in kernel_source or "type='cuda'" in kernel_source


_UNFUSED = {"relu": "torch.relu_(out)", "gelu-erf": "out.copy_(torch.nn.functional.gelu(out))",
            "gelu-tanh": "out.copy_(torch.nn.functional.gelu(out, approximate='tanh'))"}


def candidate_source(plan: EpiloguePlan, on_gpu: bool) -> str:
    """`run(*group_args)`: the fused vendor op where it computes the kernel's activation; on the
    other kind of device (a GELU variant the vendor op does not compute there) the GEMM and then the
    same activation through torch, so the candidate is right wherever it runs."""
    slots = plan.slots
    use_gelu = plan.activation != "relu"
    if plan.callee == "extern_kernels.addmm":
        bias = f"args[{slots['input']}]"
        scale = f"beta=args[{slots['beta']}], alpha=args[{slots['alpha']}], "
    elif "bias" in slots:
        bias, scale = f"args[{slots['bias']}]", ""
    else:
        bias, scale = "_zero_bias(out)", ""
    condition = "True" if plan.activation == "relu" else ("out.is_cuda" if on_gpu else "not out.is_cuda")
    return (
        f"# epilogue: {plan.callee} + {plan.activation} as torch._addmm_activation (vendor fused epilogue)\n"
        "import torch\n\n"
        "_ZEROS = {}\n\n\n"
        "def _zero_bias(out):\n"
        "    # mm has no bias: y + 0 is y; one zero vector per (columns, dtype, device)\n"
        "    key = (out.shape[1], out.dtype, out.device)\n"
        "    if key not in _ZEROS:\n"
        "        _ZEROS[key] = torch.zeros(out.shape[1], dtype=out.dtype, device=out.device)\n"
        "    return _ZEROS[key]\n\n\n"
        "def run(*args):\n"
        f"    out = args[{slots['out']}]\n"
        f"    if {condition}:\n"
        f"        torch._addmm_activation({bias}, args[{slots['mat1']}], args[{slots['mat2']}], {scale}"
        f"use_gelu={use_gelu}, out=out)\n"
        "        return\n"
        f"    torch.addmm({bias}, args[{slots['mat1']}], args[{slots['mat2']}], {scale}out=out)\n"
        f"    {_UNFUSED[plan.activation]}\n"
    )


@dataclass
class EpilogueProposer:
    name: str = "epilogue"
    summary: str = "Fold a ReLU/GELU kernel after mm/addmm into the vendor GEMM's fused epilogue"

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_epilogue(target)
        except (Decline, KeyError):
            return
        on_gpu = compiled_for_gpu(target.kernels[1].source)
        if not vendor_matches(plan.activation, on_gpu):
            return
        label = f"epilogue {plan.callee.split('.')[-1]}+{plan.activation} torch._addmm_activation"
        if any(a.candidate.strategy == label for a in history if a.candidate.proposer == self.name):
            return
        yield Candidate(candidate_source(plan, on_gpu), self.name, label,
                        notes="cuBLASLt applies the activation in the GEMM epilogue; cuBLAS + the kernel is timed against it")

    @staticmethod
    def explain(target: RewriteTarget) -> str:
        try:
            plan = plan_epilogue(target)
        except (Decline, KeyError) as why:
            return str(why)
        if not vendor_matches(plan.activation, compiled_for_gpu(target.kernels[1].source)):
            return f"{plan.activation}: the vendor epilogue computes another GELU on this device"
        return ""

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """The reason agentic-rewrite's remarks and the census show (the protocol's name for `explain`), for the
        targets epilogue is made for: a vendor GEMM's group with the launches after it; "" for any other."""
        if target.kind != GROUP or not target.kernels or target.kernels[0].kind != "vendor":
            return ""
        return EpilogueProposer.explain(target)
