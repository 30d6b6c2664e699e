"""window-through-gemm: a GEMM whose output is only averaged in windows of its features is a narrower GEMM.

`gelu(avg_pool1d(linear(x), k)) * 2` (KernelBench's Matmul_AvgPool_... chains): Inductor calls the library GEMM
(M x N x K multiply-adds, an M x N output) and a pointwise kernel that loads each window's k elements one by one,
adds them and divides. The sum of a window needs no GEMM of that width:

    sum over n in window q of (A @ B)[m, n] = A[m, :] . (sum over n in window q of B[:, n]),

so the M x N/k window sums are one GEMM k times narrower, against B's window sums. The target is a
`detect-fusion` epilogue group of a GEMM (`extern_kernels.mm`/`.addmm`) and the one pointwise launch reading its
output, which nothing reads afterwards. What is proven, from the pointwise kernel's code and never from names:

- its outputs depend on the GEMM's output y only through one equal-weight sum of all its loads of y, a * (y0 +
  ... + y{k-1}) + c (`window_reads`: the average, then any epilogue);
- each lane's k loads read one whole chunk of k consecutive elements of one row of y, each element once, at every
  lane a launch can have (`summed_reads.window_layout`: the loads' addresses and masks evaluated with numpy). A
  width N that k does not divide leaves each row's last N mod k elements in no window (avg_pool1d drops them):
  no lane may read them, and the windows' columns are the first k * (N // k).

The candidate:
1. `ko_operand_sums` (sum-through-gemm's) sums B's columns over each window in float64, and takes |B|'s largest;
2. the window sums S = alpha * A @ v (+ beta * the bias's window sums): v rounded once to float32, one library
   GEMM of N/k columns;
3. `ko_window_flags` flags a window whose sum is not finite, or whose row's elements may overflow float32 (A's row
   magnitudes times |B|'s largest over 1e36 / N, as sum-through-gemm flags a row), and forms its k elements of y
   as the GEMM forms them (float32 dot products rounded to y's dtype, into y's own buffer);
4. the pointwise kernel runs its own code with each load of y reading the window's sum in the window's first
   element and 0 in the others (`summed_reads.read_sums`), or y as written in a flagged window: the same sums up
   to the order of the additions, with the original's arithmetic after them (the division, the epilogue) as is.

Declined, with the reason: y read in any other way (one element alone, a weighted or overlapping window, a window
across rows), y not dense and row-major, y of another dtype than float32 or bfloat16, y read after the kernel,
alpha = 0, and more than 2^28 lanes.
"""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.codegen.configs import next_pow2

from .base import KernelSpec, RewriteTarget
from .candidate_source import TL_DTYPES
from .sum_through_gemm import _HELPERS as SUM_HELPERS
from .sum_through_gemm import FORMED_BLOCK, GemmSumsProposer, NotAReductionEpilogue, SumDeclined, gemm_roles
from .planned import LastPlan, plan_field
from .summed_reads import FLAGS, SUMS, NotSummed, prove_summed, reduction_reading_sums, windowed_reader

# (IB, KS, warps): rows per program of the flags, k per program of B's window sums (a whole window of j each: a
# k-wide tile per window, read along k where B is a transposed weight), warps. On an H100 at 8192 x 8192 in windows
# of 16, KS=64 with 64 j lanes (3/4 of them masked) summed B at 0.57 TB/s (448 us of the call's 771 us)
CONFIGS = ((128, 256, 4), (64, 128, 8))


@dataclass(frozen=True)
class WindowPlan:
    m: int
    n: int
    window: int                  # k: the elements each window sums
    mat1: int                    # group slots
    mat2: int
    out: int                     # y: the GEMM's output, scratch (the windows the candidate forms go there)
    bias: int | None
    alpha: float
    beta: float
    dtype: str                   # y's
    kernel: KernelSpec           # the pointwise kernel, as written
    rewritten: str               # its source reading the window sums instead of y

    def describe(self) -> str:
        return (f"the {self.m} x {self.n} GEMM output is only summed in windows of {self.window} features: one "
                f"{self.m} x {self.n // self.window} GEMM against the other operand's window sums instead")


def plan_window_through_gemm(target: RewriteTarget) -> WindowPlan:
    kernel = windowed_reader(target)
    if kernel is None:
        raise NotAReductionEpilogue("not a library op and one Triton kernel loading its output more than once per "
                                    "lane")
    gemm = gemm_roles(target, "kernel")
    if gemm.roles["out"][1].strides[-1] != 1:
        raise SumDeclined("the GEMM writes a column-major output: row-major is handled")
    try:
        proof = prove_summed(target, kernel, gemm.out, "GEMM's output", windows=True)
    except NotSummed as why:
        raise SumDeclined(str(why)) from None
    layout = proof.layout
    if layout.split is None or layout.split[0] != 1 or layout.dims != (2,):
        raise SumDeclined(f"{kernel.name}'s windows are not chunks of a row of the GEMM's output")
    return WindowPlan(gemm.m, gemm.n, layout.split[1], gemm.roles["mat1"][0], gemm.roles["mat2"][0], gemm.out,
                      gemm.bias, gemm.alpha, gemm.beta, gemm.dtype, kernel, proof.rewritten())


_WINDOW_HELPERS = '''

@triton.jit
def ko_window_flags(ko_a, ko_amag, ko_bmax, ko_b, ko_c, ko_cmax, ko_y, ko_s, ko_flags, I, K, J, Q, sa_i, sa_k, sb_k,
                    sb_j, sc_i, sc_j, sy_i, sy_j, alpha, beta, HAS_BIAS: tl.constexpr, Y_DTYPE: tl.constexpr,
                    IB: tl.constexpr, JB: tl.constexpr):
    # window q of rows i: flagged when its sum is not finite or its row's elements may overflow (A's row magnitude
    # times |B|'s largest, plus |beta| |C|'s largest, times J over 1e36); a flagged window of y is formed
    q = tl.program_id(0)
    i = tl.program_id(1) * IB + tl.arange(0, IB)
    im = i < I
    s = tl.load(ko_s + i * Q + q, im, other=0.0)
    bound = tl.load(ko_amag + i, im, other=0.0) * tl.load(ko_bmax) * tl.abs(alpha)
    if HAS_BIAS:
        bound += tl.abs(beta) * tl.load(ko_cmax)
    bad = im & ~((tl.abs(s) < float("inf")) & (bound * J < 1e36))
    ko_form_flagged(ko_a, ko_b, ko_c, ko_y, bad, i, q, K, J, Q, sa_i, sa_k, sb_k, sb_j, sc_i, sc_j, sy_i, sy_j, alpha,
                    beta, HAS_BIAS, Y_DTYPE, JB)
    tl.store(ko_flags + i * Q + q, bad.to(tl.int8), im)
'''


def _prelude(plan: WindowPlan, ib: int, ks: int, warps: int) -> tuple[str, ...]:
    q = plan.n // plan.window
    js = next_pow2(plan.window)
    scaled = "" if plan.alpha == 1.0 else f" * {plan.alpha!r}"
    lines = [f"ko_a, ko_b = (args[{plan.mat1}], args[{plan.mat2}])",
             "ko_i, ko_k = ko_a.shape",
             f"ko_q = {q}",
             # the windows' columns: a width the window does not divide leaves its last columns in no window
             f"ko_j = {q * plan.window}",
             f"ko_parts = triton.cdiv(ko_k, {ks})",
             "ko_v = torch.empty(ko_k * ko_q, dtype=torch.float64, device=ko_a.device)",
             "ko_bmax = torch.empty(ko_parts * ko_q, dtype=torch.float32, device=ko_a.device)",
             f"ko_operand_sums[(ko_parts, ko_q)](ko_b, ko_v, ko_bmax, ko_k, ko_j, ko_q, ko_b.stride(0), "
             f"ko_b.stride(1), KS={ks}, JS={js}, num_warps={warps})",
             # the window sums: one library GEMM against B's window sums, rounded once to float32
             "ko_wide = ko_a.to(torch.float32)",
             f"ko_s = torch.mm(ko_wide, ko_v.view(ko_k, ko_q).to(torch.float32)){scaled}"]
    if plan.bias is not None:
        lines += [f"ko_c = args[{plan.bias}].expand({plan.m}, {plan.n})",
                  f"ko_s = ko_s + {plan.beta!r} * ko_bias_sums(ko_c[:, :ko_j], ko_q)",
                  f"ko_cmax = args[{plan.bias}].abs().amax().to(torch.float32).reshape(1)"]
    else:
        lines += ["ko_c = ko_cmax = ko_a"]
    # |B|'s largest once (each program of the flags would otherwise read every program's maximum: parts x Q values)
    lines += [f"{SUMS} = ko_s.to(torch.float32).reshape(-1).contiguous()",
              "ko_amag = torch.linalg.vector_norm(ko_wide, 1, dim=1)",     # one pass, no |A| copy
              "ko_bmax = ko_bmax.amax().reshape(1)",
              f"ko_y = args[{plan.out}]",
              f"{FLAGS} = torch.empty(ko_i * ko_q, dtype=torch.int8, device=ko_a.device)",
              f"ko_window_flags[(ko_q, triton.cdiv(ko_i, {ib}))](ko_a, ko_amag, ko_bmax, ko_b, ko_c, ko_cmax, ko_y, "
              f"{SUMS}, {FLAGS}, ko_i, ko_k, ko_j, ko_q, ko_a.stride(0), ko_a.stride(1), "
              f"ko_b.stride(0), ko_b.stride(1), ko_c.stride(0), ko_c.stride(1), ko_y.stride(0), ko_y.stride(1), "
              f"{plan.alpha!r}, {plan.beta!r}, HAS_BIAS={plan.bias is not None}, Y_DTYPE={TL_DTYPES[plan.dtype]}, "
              f"IB={ib}, JB={FORMED_BLOCK}, num_warps={warps})"]
    return tuple(lines)


def candidate_source(target: RewriteTarget, plan: WindowPlan, config: tuple[int, ...]) -> str:
    ib, ks, warps = config
    return reduction_reading_sums(target, plan.kernel, plan.rewritten, f"window-through-gemm: {plan.describe()}",
                                  _prelude(plan, ib, ks, warps), SUM_HELPERS + _WINDOW_HELPERS, windows=True)


@dataclass
class WindowThroughGemmProposer(GemmSumsProposer):
    name: str = "window-through-gemm"
    summary: str = ("Replace a GEMM whose output a pointwise kernel only sums in windows of its features (an average "
                    "pool, proven from the kernel's code) by a GEMM with the other operand's window sums")

    _plan: LastPlan = plan_field(plan_window_through_gemm, SumDeclined)
    build = staticmethod(candidate_source)

    def options(self, plan: WindowPlan) -> list[tuple[str, tuple[int, ...]]]:
        return [(f"{self.name} windows of {plan.window} IB={ib} KS={ks} num_warps={warps}", (ib, ks, warps))
                for ib, ks, warps in CONFIGS]


__all__ = ["WindowPlan", "WindowThroughGemmProposer", "candidate_source", "plan_window_through_gemm"]
