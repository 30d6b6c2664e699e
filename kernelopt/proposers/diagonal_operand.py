"""diagonal-operand: a GEMM whose operand a kernel builds as a diagonal matrix is a scaling of the other operand.

`torch.diag(a) @ b` compiles to a pointwise kernel that writes the n x n matrix `where(row == col, a[col], 0)`
and a library `mm` over it: n x n x m multiply-adds (2.7 ms in fp32 at n = m = 4096 on an H100) for what is
n x m products. The proposer reads the kernel's code, not its name: the target is a `detect-fusion` prologue
group (`targets.prologue_target`: a Triton pointwise launch, then the `extern_kernels.mm` reading what it
wrote), and it proves, from the kernel's own index arithmetic, that the matrix is diagonal:

- the kernel stores once, at `xindex`, over xnumel = n * n elements, into a buffer of exactly n * n elements
  that the GEMM reads as an n x n operand (row-major, or its transpose: a diagonal matrix is its own
  transpose);
- the stored value is `tl.where(c, v, 0)` (or `tl.where(c, 0, v)`) with a +0.0 constant, and `c`, evaluated
  with numpy at every one of the n * n positions (`index_values.IndexEvaluator`), takes the zero branch at
  every position off the diagonal. The value on the diagonal is whatever the kernel computes there: the
  candidate runs the kernel's own statements at the diagonal positions (`xindex = i * (n + 1)`), so those
  elements keep the kernel's bits.

The candidate computes out = d[:, None] * b (diagonal on the left) or b * d[None, :] (on the right), with the
product in the precision the GEMM accumulates in (fp32 for 16-bit operands, where the product of two 16-bit
values is exact; the operands' own type otherwise), rounded once to the output's dtype. That is the GEMM's
value exactly where it is finite: every other product in the GEMM's sum is +0.0 times an element of b, and
adding zeros to a nonzero value leaves it unchanged. Where the GEMM's sum holds 0 * inf or 0 * nan (an
element of b that is not finite, in the same column of b for a left diagonal, the same row for a right one,
at another position than the diagonal's), it is NaN: a first kernel counts b's non-finite elements per
column (row), with integer atomics (exact, so deterministic), and the output is NaN wherever another
element than its own is counted. Only the sign of a zero result may differ from the GEMM's, which is the
library's own business (an accumulator started at +0.0 gives +0.0).

If the diagonal matrix is read after the GEMM (it is not scratch), the candidate still runs the kernel that
builds it. Declined, with the reason: another callee than `mm`, a kernel that stores more than once or not at
`xindex`, a value that is not a `where` with a zero branch, a condition that reads memory or is nonzero off
the diagonal, both GEMM operands the same matrix, non-float dtypes, and matrices over 2^28 elements (the
proof's evaluation).
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from kernelopt.inductor_source import ZERO_FILLS, dotted_name, filled_with
from kernelopt.ir.rewrite_record import GROUP

from .base import Attempt, Candidate, RewriteTarget
from .candidate_source import TL_DTYPES
from .fuse import Decline, ParsedKernel, parse_pointwise
from .index_values import IndexEvaluator, parse_kernel, single_assignments

GEMM = "extern_kernels.mm"
MAX_ELEMENTS = 1 << 28           # the proof evaluates the condition at every position of the matrix
CHUNK = 1 << 22                  # positions per numpy evaluation (bounds the proof's memory)
INT32_LIMIT = 1 << 31            # the kernels' row/column offsets are 32-bit
FLOATS = ("float32", "float16", "bfloat16", "float64")
CONFIGS = ((32, 128, 4), (64, 64, 4), (16, 256, 4), (64, 128, 8))   # XBLOCK (diagonal), KO_BLOCK (across), warps


class DiagonalDeclined(Exception):
    """The group's operand cannot be proven diagonal, or the rewrite does not handle it (the message says why)."""


class NotAPrologue(DiagonalDeclined):
    """Not a launch followed by a vendor GEMM: nothing this proposer reads (no remark)."""


@dataclass(frozen=True)
class DiagonalPlan:
    side: str                    # "left": diag(d) @ b; "right": b @ diag(d)
    n: int                       # the diagonal's length
    other: int                   # b's extent across the diagonal's axis
    builder: ParsedKernel
    builder_slots: tuple[int, ...]
    b_slot: int
    out_slot: int
    b_strides: tuple[int, int]
    out_strides: tuple[int, int]
    dtype: str                   # the GEMM's operands and result
    value: ast.expr              # the stored value (the builder's expression)
    keep_builder: bool           # the matrix is read after the GEMM: the builder still runs


def plan_diagonal(target: RewriteTarget) -> DiagonalPlan:
    if target.kind != GROUP or len(target.launches) != 2 or not target.group_args:
        raise NotAPrologue("not a prologue group")
    launch, gemm = target.launches
    if gemm.kernel != GEMM:
        raise NotAPrologue(f"the group's second launch is {gemm.kernel}, not {GEMM}")
    spec = next((k for k in target.kernels if k.name == launch.kernel and k.kind != "vendor"), None)
    if spec is None:
        raise NotAPrologue("the group's first launch is not a Triton kernel")
    try:
        builder = parse_pointwise(spec)
    except Decline as why:
        raise DiagonalDeclined(str(why)) from None
    builder_slots, gemm_slots = target.group_positions
    stores = [a for a in builder.accesses if a.store]
    if len(stores) != 1:
        raise DiagonalDeclined(f"{spec.name} stores {len(stores)} times; one store of the matrix is handled")
    store = stores[0]
    written = builder_slots[builder.params.index(store.param)]
    roles = {arg.name: slot for arg, slot in zip(gemm.args, gemm_slots)}
    storage = target.storage_slots or tuple(range(len(target.group_args)))
    sides = [side for side, role in (("left", "mat1"), ("right", "mat2")) if storage[roles[role]] == storage[written]]
    if len(sides) != 1:
        raise DiagonalDeclined("the GEMM does not read the kernel's matrix as exactly one of its operands")
    side = sides[0]
    d_arg = target.group_args[roles["mat1" if side == "left" else "mat2"]]
    b_slot = roles["mat2" if side == "left" else "mat1"]
    b_arg, out_arg, built = target.group_args[b_slot], target.group_args[roles["out"]], target.group_args[written]
    n = d_arg.sizes[0] if len(d_arg.sizes) == 2 else 0
    if len(d_arg.sizes) != 2 or d_arg.sizes[1] != n or n < 1 or d_arg.storage_offset != 0 \
            or tuple(d_arg.strides) not in ((n, 1), (1, n)):
        raise DiagonalDeclined(f"the GEMM reads the matrix as {list(d_arg.sizes)} with strides "
                               f"{list(d_arg.strides)}: a dense square operand is handled")
    if math.prod(built.sizes) != n * n or built.storage_offset != 0 or builder.xnumel != n * n:
        raise DiagonalDeclined(f"{spec.name} writes {builder.xnumel} elements into a buffer of "
                               f"{math.prod(built.sizes)}; the {n} x {n} operand exactly is handled")
    if store.index != "xindex" or store.mask not in ("lt", "all"):
        raise DiagonalDeclined(f"{spec.name} stores at `{store.index}`, not at xindex")
    dtypes = {d_arg.dtype, b_arg.dtype, out_arg.dtype, built.dtype}
    if len(dtypes) != 1 or d_arg.dtype not in FLOATS:
        raise DiagonalDeclined(f"operands of {', '.join(sorted(dtypes))}: one float dtype is handled")
    if any(isinstance(n_, ast.Name) and n_.id == "xoffset" for s in builder.body for n_ in ast.walk(s)):
        raise DiagonalDeclined(f"{spec.name} reads xoffset")
    value = store.node.args[1]
    _prove_diagonal(spec, value, n)
    other = b_arg.sizes[1] if side == "left" else b_arg.sizes[0]
    spans = [1 + sum((size - 1) * abs(stride) for size, stride in zip(a.sizes, a.strides)) for a in (b_arg, out_arg)]
    if max(spans) >= INT32_LIMIT:
        raise DiagonalDeclined(f"an operand spans {max(spans)} elements: the kernels index in 32 bits")
    return DiagonalPlan(side, n, other, builder, builder_slots, b_slot, roles["out"], tuple(b_arg.strides),
                        tuple(out_arg.strides), d_arg.dtype, value, written not in target.scratch_args)


def _prove_diagonal(spec, value: ast.expr, n: int) -> None:
    """Raise unless the stored value is +0.0 at every off-diagonal position of the n x n matrix."""
    if n * n > MAX_ELEMENTS:
        raise DiagonalDeclined(f"a {n} x {n} matrix: the proof evaluates at most {MAX_ELEMENTS} positions")
    _, function = parse_kernel(spec.source, spec.name, DiagonalDeclined)
    assigns = single_assignments(function)
    where = _resolved(value, assigns)
    if not (isinstance(where, ast.Call) and dotted_name(where.func) == "tl.where" and len(where.args) == 3):
        raise DiagonalDeclined(f"the stored value `{ast.unparse(value)}` is not a tl.where")
    condition, then, otherwise = where.args
    if _is_zero(otherwise, assigns):
        zero_when = False                  # where(c, v, 0): zero where c is false
    elif _is_zero(then, assigns):
        zero_when = True
    else:
        raise DiagonalDeclined("neither branch of the stored tl.where is a +0.0 constant")
    evaluator = IndexEvaluator(assigns, DiagonalDeclined, refused=("xindex",), what="diagonal-operand")
    for start in range(0, n * n, CHUNK):
        xs = np.arange(start, min(start + CHUNK, n * n), dtype=np.int64)
        taken = np.broadcast_to(np.asarray(evaluator.value(condition, {"xindex": xs, "xnumel": np.int64(n * n)}),
                                           bool), xs.shape)
        off_diagonal = (xs // n) != (xs % n)
        if np.any(off_diagonal & (taken != zero_when)):
            where_ = int(xs[np.argmax(off_diagonal & (taken != zero_when))])
            raise DiagonalDeclined(f"the stored value is not the zero branch at row {where_ // n}, column "
                                   f"{where_ % n}: the matrix is not diagonal")


def _resolved(node: ast.expr, assigns: dict[str, ast.expr]) -> ast.expr:
    seen = 0
    while isinstance(node, ast.Name) and node.id in assigns and seen < 50:
        node, seen = assigns[node.id], seen + 1
    return node


def _is_zero(node: ast.expr, assigns: dict[str, ast.expr]) -> bool:
    """A +0.0 (or integer 0) constant: `0.0`, `tl.full(shape, 0.0, dtype)` (a -0.0 is not: it is a unary minus)."""
    return filled_with(_resolved(node, assigns)) in ZERO_FILLS


# ---------------------------------------------------------------------------------------------------
# Writing the candidate

def _tile(plan: DiagonalPlan) -> list[str]:
    """The tile's rows and columns (`ko_r`, `ko_c`), its mask, and the diagonal's index along its axis."""
    n, other = plan.n, plan.other
    lines = [f"ko_tiles = tl.cdiv({other}, KO_BLOCK)",
             "ko_pid = tl.program_id(0)",
             "ko_along = (ko_pid // ko_tiles) * XBLOCK + tl.arange(0, XBLOCK)",
             "ko_across = (ko_pid % ko_tiles) * KO_BLOCK + tl.arange(0, KO_BLOCK)"]
    if plan.side == "left":      # out[i, j] = d[i] * b[i, j]: the diagonal runs down the rows
        lines += ["ko_r = ko_along[:, None]", "ko_c = ko_across[None, :]",
                  f"ko_m = (ko_r < {n}) & (ko_c < {other})"]
    else:                        # out[j, i] = b[j, i] * d[i]: along the columns
        lines += ["ko_r = ko_across[:, None]", "ko_c = ko_along[None, :]",
                  f"ko_m = (ko_r < {other}) & (ko_c < {n})"]
    sb0, sb1 = plan.b_strides
    acc = _accumulator(plan.dtype)
    lines += [f"ko_b_value = tl.load(ko_b + (ko_r * {sb0} + ko_c * {sb1}), ko_m, other=0.0).to({acc})",
              "ko_own = ((ko_b_value != ko_b_value) | (tl.abs(ko_b_value) == float('inf'))).to(tl.int32)"]
    return lines


def _count_kernel(plan: DiagonalPlan) -> str:
    axis = 0 if plan.side == "left" else 1      # a column's count sums down the rows (left), a row's across
    body = _tile(plan) + [
        f"ko_part = tl.sum(tl.where(ko_m, ko_own, 0), axis={axis})",
        f"tl.atomic_add(ko_count + ko_across, ko_part, mask=(ko_across < {plan.other}) & (ko_part > 0))"]
    return ("@triton.jit\ndef ko_nonfinite_count(ko_b, ko_count, XBLOCK: tl.constexpr, KO_BLOCK: tl.constexpr):\n"
            + "".join(f"    {line}\n" for line in body))


def _scale_kernel(plan: DiagonalPlan) -> str:
    n = plan.n
    dtype, acc = TL_DTYPES[plan.dtype], _accumulator(plan.dtype)
    params = ", ".join(plan.builder.params)
    builder = "".join(f"    {line}\n" for stmt in plan.builder.body
                      if not _is_store(stmt) for line in ast.unparse(stmt).splitlines())
    count = "ko_count + ko_c" if plan.side == "left" else "ko_count + ko_r"
    count_mask = f"ko_c < {plan.other}" if plan.side == "left" else f"ko_r < {plan.other}"
    d = "ko_d[:, None]" if plan.side == "left" else "ko_d[None, :]"
    so0, so1 = plan.out_strides
    tail = _tile(plan) + [
        f"ko_others = tl.load({count}, {count_mask}, other=0) - ko_own",
        f"ko_product = {d}.to({acc}) * ko_b_value",
        "ko_result = tl.where(ko_others > 0, float('nan'), ko_product)",
        f"tl.store(ko_out + (ko_r * {so0} + ko_c * {so1}), ko_result.to({dtype}), ko_m)"]
    return (f"@triton.jit\ndef ko_diagonal_scale({params}, ko_b, ko_out, ko_count, XBLOCK: tl.constexpr, "
            f"KO_BLOCK: tl.constexpr):\n"
            f"    # the diagonal's elements: the builder's own statements at positions i * (n + 1)\n"
            f"    ko_i = tl.minimum((tl.program_id(0) // tl.cdiv({plan.other}, KO_BLOCK)) * XBLOCK "
            f"+ tl.arange(0, XBLOCK), {n - 1})\n"
            f"    xnumel = {n * n}\n    xindex = ko_i * {n + 1}\n{builder}"
            f"    ko_d = tl.broadcast_to(({ast.unparse(plan.value)}).to({dtype}), [XBLOCK])\n"
            + "".join(f"    {line}\n" for line in tail))


def _accumulator(dtype: str) -> str:
    return "tl.float32" if dtype in ("float16", "bfloat16") else TL_DTYPES[dtype]


def _is_store(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
        and dotted_name(stmt.value.func) == "tl.store"


def candidate_source(plan: DiagonalPlan, block: int, across: int, warps: int) -> str:
    builder_args = ", ".join(f"args[{s}]" for s in plan.builder_slots)
    keep = ""
    if plan.keep_builder:           # the matrix is read after the GEMM: build it as the original did
        keep = (f"    {plan.builder.name}[(triton.cdiv({plan.n * plan.n}, 1024),)]({builder_args}, XBLOCK=1024)\n")
    header = "\n".join(dict.fromkeys(["import torch", "import triton", "import triton.language as tl",
                                      *plan.builder.header]))
    builder_function = (plan.builder.function + "\n\n") if plan.keep_builder else ""
    return (f"# diagonal-operand: {plan.side} operand of the GEMM is diagonal ({plan.n} x {plan.n}); "
            f"out = scaling of the other operand\n{header}\n\n{builder_function}"
            f"{_count_kernel(plan)}\n\n{_scale_kernel(plan)}\n\n"
            f"def run(*args):\n"
            f"    b, out = args[{plan.b_slot}], args[{plan.out_slot}]\n"
            f"    count = torch.zeros({plan.other}, dtype=torch.int32, device=b.device)\n"
            f"    grid = (triton.cdiv({plan.n}, {block}) * triton.cdiv({plan.other}, {across}),)\n"
            f"    ko_nonfinite_count[grid](b, count, XBLOCK={block}, KO_BLOCK={across}, num_warps={warps})\n{keep}"
            f"    ko_diagonal_scale[grid]({builder_args}, b, out, count, XBLOCK={block}, KO_BLOCK={across}, "
            f"num_warps={warps})\n")


@dataclass
class DiagonalOperandProposer:
    name: str = "diagonal-operand"
    summary: str = ("Replace a GEMM whose operand a kernel builds as a diagonal matrix (proven from the kernel's "
                    "index arithmetic) by a scaling of the other operand, NaN where the GEMM's 0 * inf gives it")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_diagonal(target)
        except DiagonalDeclined:
            return
        tried = {a.candidate.strategy for a in history}
        for block, across, warps in CONFIGS:
            label = f"{self.name} {plan.side} XBLOCK={block} KO_BLOCK={across} num_warps={warps}"
            if label not in tried:
                yield Candidate(candidate_source(plan, block, across, warps), self.name, label,
                                notes=f"diag({plan.n}) {'@ b' if plan.side == 'left' else 'on the right'}: "
                                      f"{plan.n} x {plan.n} x {plan.other} multiply-adds become "
                                      f"{plan.n} x {plan.other} products")

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        try:
            plan_diagonal(target)
        except NotAPrologue:
            return ""
        except DiagonalDeclined as why:
            return str(why)
        return ""


__all__ = ["DiagonalDeclined", "DiagonalOperandProposer", "DiagonalPlan", "candidate_source", "plan_diagonal"]
