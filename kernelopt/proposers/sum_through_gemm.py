"""sum-through-gemm: a GEMM whose output is only summed along one dimension is a matrix-vector product.

`(x @ w.T / 2).sum(dim=1)`, a mean over a Linear layer's features, `(linear(x) - shift).sum(dim=0)`: Inductor
calls the library GEMM (M x N x K multiply-adds) and a reduction kernel reading its M x N output. When the
reduction reads that output only through sums along one of its dimensions, the GEMM is unnecessary:
sum_n (A @ B)[m, n] = A[m, :] . (sum_n B[:, n]), and the sum over m likewise with A's column sums. The target is a
`detect-fusion` reduction-epilogue group (`targets.epilogue_target`: `extern_kernels.mm` or `.addmm`,
then the one Triton reduction launch reading its output, which nothing reads afterwards). What is proven, from
the reduction kernel's code and never from names:

- the kernel's outputs depend on the GEMM's output y only through sums over r of a * y + c, with a slope a that
  does not vary along r (`linear_reads`);
- every row of the kernel (each x), over its r lanes under the loads' mask, reads exactly one whole row of y
  (each of its N elements once), or exactly one whole column (`summed_reads.summed_dims`: the loads' addresses and
  masks evaluated with numpy at every (x, r) lane a launch can have), or one whole chunk of a row or column: the
  first half of a split reduction, or an average pool whose windows are reduction rows (a width N the window k
  does not divide leaves each row's last N mod k elements unread; the sums then cover the first k * (N // k)).

The candidate:
1. `ko_operand_sums` sums the other operand along the summed dimension, in float64 (B's rows for row sums, A's
   columns for column sums), and takes its largest magnitude;
2. `ko_gemv_sums` forms the sums s = alpha * A . v (+ beta * the bias's sums), accumulating in float64, rounded once
   to float32;
3. the reduction kernel runs its own code with each load of y replaced by a load of s at the row's (column's) first
   element and 0 elsewhere (`summed_reads.read_sums`): the same sums, so the same results up to the order of the
   additions, with the original's arithmetic after them (its scaling, its max, its logsumexp, its store) untouched.

Special values: where a row's sum is not finite (a NaN or an infinity in its operands, or in the other operand
anywhere), or where the operands' magnitudes bound the GEMM's elements above 1e36 / N (so that y itself, or its
sum, may overflow float32), the row is flagged: `ko_gemv_sums` forms that row of y as the GEMM forms it (float32
dot products rounded to y's dtype, into y's own buffer) and the reduction reads it as written, in its own order.
Infinities and NaNs then land where the original puts them; in a row whose elements overflow, which of +inf,
-inf and NaN an element becomes may follow the GEMM's own order of additions, which differs between libraries
and devices in the original too.

Declined, with the reason: other callees than `mm`/`addmm`, a kernel that reads y in any other way (a product
of two elements, a nonlinear function, a store of one), rows or columns not read whole, y of another dtype than
float32 or bfloat16 (float16's range makes the GEMM's own overflow an everyday event), a y that is not dense,
alpha = 0, and launches over 2^28 lanes (the proof's evaluation).
"""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.ir.rewrite_record import GROUP

from .base import KernelSpec, RewriteTarget
from .candidate_source import TL_DTYPES
from .planned import LastPlan, PlannedProposer, plan_field
from .summed_reads import (FLAGS, SUMS, NotSummed, group_reduction, prove_summed,
                           reduction_reading_sums)

GEMMS = ("extern_kernels.mm", "extern_kernels.addmm")
DTYPES = ("float32", "bfloat16")
# (IB, KB): rows and k per program of the sums' GEMV; (KS, JS): k and j per program of the operand's sums; warps
CONFIGS = ((16, 128, 64, 64, 4), (4, 256, 32, 128, 4), (32, 64, 128, 32, 8), (1, 1024, 16, 256, 4))
FORMED_BLOCK = 32                # elements per step of a flagged row formed as the GEMM forms it (a rare path)


class SumDeclined(Exception):
    """The group's reduction cannot be proven to read the GEMM's output through its sums alone (why)."""


class NotAReductionEpilogue(SumDeclined):
    """Not a vendor GEMM followed by a reduction launch: nothing this proposer reads (no remark)."""


@dataclass(frozen=True)
class SumPlan:
    along: str                   # "rows": each sum runs over a row of y (the GEMM's N); "columns": over M
    m: int
    n: int
    chunks: int                  # sums per row (column): 1, or the chunks of a split reduction's first half
    length: int                  # the elements each sum covers: N (M), or a chunk's (chunks * length may fall short
                                 # of N: an average pool leaving each row's last elements in no window)
    mat1: int                    # group slots
    mat2: int
    out: int                     # y: the GEMM's output, scratch (the rows the candidate forms go there)
    bias: int | None             # addmm's input (None: mm, or beta == 0)
    alpha: float
    beta: float
    dtype: str                   # y's
    kernel: KernelSpec           # the reduction, as written
    rewritten: str               # its source reading the sums instead of y

    @property
    def extent(self) -> int:
        """How many sums: one per row (M) or per column (N), times the chunks."""
        return (self.m if self.along == "rows" else self.n) * self.chunks

    def describe(self) -> str:
        what = "row" if self.along == "rows" else "column"
        if self.chunks > 1:
            return (f"the {self.m} x {self.n} GEMM output is only summed in {self.chunks} chunks per {what} (the "
                    f"first half of a split reduction): {self.extent} sums from the other operand's chunk sums")
        return (f"the {self.m} x {self.n} GEMM output is only summed by {what}: {self.extent} sums from a "
                f"matrix-vector product instead")


@dataclass(frozen=True)
class GemmRoles:
    """A library GEMM's operands as group slots, its output's shape, and its scalars."""

    roles: dict                  # argument name -> (slot, ArgSpec)
    out: int                     # y's slot
    m: int
    n: int
    dtype: str
    alpha: float
    beta: float

    @property
    def bias(self) -> int | None:
        """addmm's input slot (None: mm, or beta == 0)."""
        return self.roles["input"][0] if "input" in self.roles and self.beta != 0.0 else None


def gemm_roles(target: RewriteTarget, reader: str) -> GemmRoles:
    """The roles of a group's leading GEMM, whose output only the group's `reader` ("reduction", "pointwise") reads
    afterwards: NotAReductionEpilogue where the group is not such a pair, SumDeclined where y is not a dense float32
    or bfloat16 2-D output that nothing reads after the group, or alpha is 0."""
    if target.kind != GROUP or len(target.launches) != 2 or not target.group_args:
        raise NotAReductionEpilogue(f"not a GEMM and one {reader} launch")
    gemm = target.launches[0]
    if gemm.kernel not in GEMMS:
        raise NotAReductionEpilogue(f"the group starts with {gemm.kernel}, not a GEMM")
    roles = {arg.name: (slot, target.group_args[slot]) for arg, slot in zip(gemm.args, target.group_positions[0])}
    out_slot, out = roles["out"]
    m, n = (out.sizes + (0, 0))[:2]
    if len(out.sizes) != 2 or out.storage_offset != 0 or tuple(out.strides) not in ((n, 1), (1, m)):
        raise SumDeclined(f"the GEMM writes a {list(out.sizes)} output with strides {list(out.strides)}: a dense "
                          f"2-D one is handled")
    if out_slot not in target.scratch_args:
        raise SumDeclined(f"the GEMM's output is read after the {reader}, so it must still be formed")
    dtypes = {roles[r][1].dtype for r in ("mat1", "mat2", "out")}
    if len(dtypes) != 1 or out.dtype not in DTYPES:
        raise SumDeclined(f"a GEMM of {', '.join(sorted(dtypes))}: float32 or bfloat16 is handled")
    alpha = float(roles["alpha"][1].value) if "alpha" in roles else 1.0
    beta = float(roles["beta"][1].value) if "beta" in roles else 0.0
    if alpha == 0.0:
        raise SumDeclined("alpha = 0")
    return GemmRoles(roles, out_slot, m, n, out.dtype, alpha, beta)


def plan_sum_through_gemm(target: RewriteTarget) -> SumPlan:
    kernel = group_reduction(target) if target.kind == GROUP else None
    if kernel is None:
        raise NotAReductionEpilogue("not a GEMM and one Triton reduction")
    gemm = gemm_roles(target, "reduction")
    try:
        proof = prove_summed(target, kernel, gemm.out, "GEMM's output", tail=True)
    except NotSummed as why:
        raise SumDeclined(str(why)) from None
    layout = proof.layout
    if layout.split is None:
        if layout.dims not in ((1,), (0,)):
            raise SumDeclined(f"{kernel.name} sums the GEMM's output over both dimensions")
        along, chunks = ("rows" if layout.dims == (1,) else "columns"), 1
        length = gemm.n if along == "rows" else gemm.m
    else:               # y viewed with dimension `dim` split (chunks, length): each row sums one chunk
        dim, length = layout.split
        if layout.dims != (dim + 1,):
            raise SumDeclined(f"{kernel.name} sums chunks of one dimension of the GEMM's output and the other whole")
        along, chunks = ("rows" if dim == 1 else "columns"), (gemm.m, gemm.n)[dim] // length
    return SumPlan(along, gemm.m, gemm.n, chunks, length, gemm.roles["mat1"][0], gemm.roles["mat2"][0], gemm.out,
                   gemm.bias, gemm.alpha, gemm.beta, gemm.dtype, kernel, proof.rewritten())


# ---------------------------------------------------------------------------------------------------
# The candidate

_HELPERS = '''
import triton
import triton.language as tl


@triton.jit
def ko_operand_sums(ko_b, ko_v, ko_bmax, K, J, Q, sb_k, sb_j, KS: tl.constexpr, JS: tl.constexpr):
    # v[k, q] = sum over chunk q's j of B[k, j] in float64 (Q chunks of J / Q), and the largest |B| this program saw
    k = tl.program_id(0) * KS + tl.arange(0, KS)
    q = tl.program_id(1)
    km = k < K
    length = J // Q
    acc = tl.zeros([KS], dtype=tl.float64)
    top = tl.zeros([KS, JS], dtype=tl.float32)
    for j0 in range(0, length, JS):
        j = j0 + tl.arange(0, JS)
        b = tl.load(ko_b + k[:, None] * sb_k + (q * length + j)[None, :] * sb_j, km[:, None] & (j[None, :] < length),
                    other=0.0).to(tl.float32)
        acc += tl.sum(b.to(tl.float64), 1)
        top = tl.maximum(top, tl.abs(b))
    tl.store(ko_v + k * Q + q, acc, km)
    tl.store(ko_bmax + tl.program_id(0) * Q + q, tl.max(tl.max(top, 1), 0))


@triton.jit
def ko_gemv_sums(ko_a, ko_v, ko_bmax, ko_b, ko_c, ko_csum, ko_cmax, ko_y, ko_s, ko_flags, I, K, J, Q, parts, sa_i,
                 sa_k, sb_k, sb_j, sc_i, sc_j, sy_i, sy_j, ss_i, ss_q, alpha, beta, HAS_BIAS: tl.constexpr,
                 Y_DTYPE: tl.constexpr, IB: tl.constexpr, KB: tl.constexpr, PB: tl.constexpr, JB: tl.constexpr):
    # s[i, q] = alpha * A[i, :] . v[:, q] + beta * (C[i, :]'s sum over chunk q), in float64, stored at i * ss_i +
    # q * ss_q (Q = 1: the whole row). A sum that is not finite, or whose row's elements may overflow, is
    # flagged, and its chunk of y[i, :] is formed as the GEMM forms it: float32 dot products rounded to y's dtype
    # (the reduction then reads them instead of the sum). Consecutive programs share A's rows (chunks first)
    q = tl.program_id(0)
    i = tl.program_id(1) * IB + tl.arange(0, IB)
    im = i < I
    acc = tl.zeros([IB, KB], dtype=tl.float64)
    mag = tl.zeros([IB, KB], dtype=tl.float32)
    for k0 in range(0, K, KB):
        k = k0 + tl.arange(0, KB)
        a = tl.load(ko_a + i[:, None] * sa_i + k[None, :] * sa_k, im[:, None] & (k[None, :] < K),
                    other=0.0).to(tl.float32)
        acc += a.to(tl.float64) * tl.load(ko_v + k * Q + q, k < K, other=0.0)[None, :]
        mag += tl.abs(a)
    s = tl.sum(acc, 1) * alpha
    bmax = tl.max(tl.load(ko_bmax + tl.arange(0, PB), tl.arange(0, PB) < parts, other=0.0), 0)
    bound = tl.sum(mag, 1) * bmax * tl.abs(alpha)
    if HAS_BIAS:
        s += beta * tl.load(ko_csum + i * Q + q, im, other=0.0)
        bound += tl.abs(beta) * tl.load(ko_cmax)
    good = (tl.abs(s) < float("inf")) & (bound * J < 1e36)
    bad = im & ~good
    ko_form_flagged(ko_a, ko_b, ko_c, ko_y, bad, i, q, K, J, Q, sa_i, sa_k, sb_k, sb_j, sc_i, sc_j, sy_i, sy_j, alpha,
                    beta, HAS_BIAS, Y_DTYPE, JB)
    tl.store(ko_flags + i * ss_i + q * ss_q, bad.to(tl.int8), im)
    tl.store(ko_s + i * ss_i + q * ss_q, s.to(tl.float32), im)


@triton.jit
def ko_form_flagged(ko_a, ko_b, ko_c, ko_y, bad, i, q, K, J, Q, sa_i, sa_k, sb_k, sb_j, sc_i, sc_j, sy_i, sy_j, alpha,
                    beta, HAS_BIAS: tl.constexpr, Y_DTYPE: tl.constexpr, JB: tl.constexpr):
    # chunk q of the rows i flagged `bad`, formed as the GEMM forms y: float32 dot products rounded to y's dtype
    if tl.max(bad.to(tl.int32), 0) > 0:
        length = J // Q
        for j0 in range(q * length, q * length + length, JB):      # JB elements of the flagged rows at a time
            j = j0 + tl.arange(0, JB)
            jm = j < q * length + length
            y = tl.zeros([bad.shape[0], JB], dtype=tl.float32)
            for k in range(0, K):
                a = tl.load(ko_a + i * sa_i + k * sa_k, bad, other=0.0).to(tl.float32)
                b = tl.load(ko_b + k * sb_k + j * sb_j, jm, other=0.0).to(tl.float32)
                y += a[:, None] * b[None, :]
            y = y * alpha
            cell = bad[:, None] & jm[None, :]
            if HAS_BIAS:
                y += beta * tl.load(ko_c + i[:, None] * sc_i + j[None, :] * sc_j, cell, other=0.0).to(tl.float32)
            tl.store(ko_y + i[:, None] * sy_i + j[None, :] * sy_j, y.to(Y_DTYPE), cell)


def ko_bias_sums(c, chunks):
    # the bias as an [I, J] view (a broadcast dimension has stride 0): its sums over each of `chunks` equal chunks
    # of j, in float64, as an [I, chunks] tensor
    i, j = c.shape
    if c.stride(1) == 0:
        return (c[:, :1].to(torch.float64) * (j // chunks)).expand(i, chunks).contiguous()
    if c.stride(0) == 0:
        return c[0].reshape(chunks, j // chunks).sum(dim=1, dtype=torch.float64).expand(i, chunks).contiguous()
    return c.reshape(i, chunks, j // chunks).sum(dim=2, dtype=torch.float64)
'''


def _prelude(plan: SumPlan, ib: int, kb: int, ks: int, js: int, warps: int) -> tuple[str, ...]:
    a, b = f"args[{plan.mat1}]", f"args[{plan.mat2}]"
    rows = plan.along == "rows"
    q = plan.chunks
    # the sums, dense over the kept dimensions of y's view (summed_reads.SummedLayout): row i's chunk q at
    # i * chunks + q for row sums ([M, chunks]), column i's at q * N + i for column sums ([chunks, N])
    ss = "ko_q, 1" if rows else "1, ko_i"
    lines = [f"ko_a, ko_b = ({a}, {b})" if rows else f"ko_a, ko_b = ({b}.t(), {a}.t())",
             "ko_i, ko_k = ko_a.shape",
             f"ko_q = {q}",
             f"ko_j = {q * plan.length}",          # the chunks' extent: what the reduction reads of each row
             f"ko_parts = triton.cdiv(ko_k, {ks})",
             "ko_v = torch.empty(ko_k * ko_q, dtype=torch.float64, device=ko_a.device)",
             "ko_bmax = torch.empty(ko_parts * ko_q, dtype=torch.float32, device=ko_a.device)",
             f"ko_operand_sums[(ko_parts, ko_q)](ko_b, ko_v, ko_bmax, ko_k, ko_j, ko_q, ko_b.stride(0), "
             f"ko_b.stride(1), KS={ks}, JS={js}, num_warps={warps})"]
    if plan.bias is not None:
        view = ".t()" if not rows else ""
        lines += [f"ko_c = args[{plan.bias}].expand({plan.m}, {plan.n}){view}",
                  "ko_csum = ko_bias_sums(ko_c[:, :ko_j], ko_q)",
                  f"ko_cmax = args[{plan.bias}].abs().amax().to(torch.float32).reshape(1)"]
    else:
        lines += ["ko_c = ko_csum = ko_cmax = ko_a"]
    lines += [f"ko_y = args[{plan.out}]" + ("" if rows else ".t()"),
              f"{SUMS} = torch.empty(ko_i * ko_q, dtype=torch.float32, device=ko_a.device)",
              f"{FLAGS} = torch.empty(ko_i * ko_q, dtype=torch.int8, device=ko_a.device)",
              f"ko_gemv_sums[(ko_q, triton.cdiv(ko_i, {ib}))](ko_a, ko_v, ko_bmax, ko_b, ko_c, ko_csum, ko_cmax, "
              f"ko_y, {SUMS}, {FLAGS}, ko_i, ko_k, ko_j, ko_q, ko_parts * ko_q, ko_a.stride(0), ko_a.stride(1), "
              f"ko_b.stride(0), ko_b.stride(1), ko_c.stride(0), ko_c.stride(1), ko_y.stride(0), ko_y.stride(1), "
              f"{ss}, {plan.alpha!r}, {plan.beta!r}, HAS_BIAS={plan.bias is not None}, "
              f"Y_DTYPE={TL_DTYPES[plan.dtype]}, IB={ib}, KB={kb}, PB=triton.next_power_of_2(ko_parts * ko_q), "
              f"JB={FORMED_BLOCK}, num_warps={warps})"]
    return tuple(lines)


def candidate_source(target: RewriteTarget, plan: SumPlan, config: tuple[int, ...]) -> str:
    ib, kb, ks, js, warps = config
    return reduction_reading_sums(target, plan.kernel, plan.rewritten, f"sum-through-gemm: {plan.describe()}",
                                  _prelude(plan, ib, kb, ks, js, warps), _HELPERS)


class GemmSumsProposer(PlannedProposer):
    """A proposer replacing a GEMM by sums of its operands: quiet where the group is no GEMM and its one reader."""

    refused = SumDeclined
    silent = NotAReductionEpilogue


@dataclass
class SumThroughGemmProposer(GemmSumsProposer):
    name: str = "sum-through-gemm"
    summary: str = ("Replace a GEMM whose output a reduction only sums along one dimension (proven from the "
                    "reduction's code) by a matrix-vector product with the other operand's sums")

    _plan: LastPlan = plan_field(plan_sum_through_gemm, SumDeclined)
    build = staticmethod(candidate_source)

    def options(self, plan: SumPlan) -> list[tuple[str, tuple[int, ...]]]:
        along = plan.along if plan.chunks == 1 else f"{plan.along} in {plan.chunks} chunks"
        return [(f"{self.name} {along} IB={ib} KB={kb} KS={ks} JS={js} num_warps={warps}", (ib, kb, ks, js, warps))
                for ib, kb, ks, js, warps in CONFIGS]


__all__ = ["GemmRoles", "GemmSumsProposer", "SumDeclined", "SumPlan", "SumThroughGemmProposer", "candidate_source",
           "gemm_roles", "plan_sum_through_gemm"]
