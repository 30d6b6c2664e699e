"""Per-row KL divergence of two temperature log-softmaxes (distillation losses): Inductor reads each
logit row five times, the template once."""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.proposers.base import KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.idioms import (FLOAT_DTYPES, Expr, guarded_factors, guarded_scaled_centred, index_is,
                                        is_row_major, launch_position, numel, positive_factors, row_index,
                                        scaled_centred, single_row_store, unify)
from kernelopt.templates.kernel_template import KernelTemplate, next_pow2, render_kernel, single_launch, stat_stride

# ---------------------------------------------------------------------------------------------------
# Matcher: Inductor's multi-pass form of
#   out[row] = sum_j exp(lq_j) * (lq_j - lp_j),   lq = log_softmax(k * c * q), lp = log_softmax(k * c * p)
# written as ((c*v - max(c*v)) * k) - log(sum(exp(...))) for each of the two loads (torch 2.11), or with
# the shifted row guarded against non-finite rows (torch 2.13, idioms.guarded_scaled_centred).

@dataclass(frozen=True)
class RowKLDivMatch:
    n_rows: int
    n_cols: int
    scale: float                  # c: the factor inside the max (Inductor writes 1.0)
    temperature_scale: float      # k: the factor applied after the max is subtracted (1 / T)
    roles: dict[str, int]         # p_logits (the input's), q_logits (the target's), out -> launch position
    dtype: str                    # logits dtype
    out_stride: int = 1           # element stride between rows of the output


def _log_softmax(shifted: Expr) -> Expr:
    return ("sub", shifted, ("log", ("sum", ("exp", shifted))))


def _row_kl(shift, n: int) -> Expr:
    """The per-row KL with `shift(load)` the shifted, scaled row of each of the two logits."""
    target = _log_softmax(shift(("load", "?q", row_index(n))))
    source = _log_softmax(shift(("load", "?p", row_index(n))))
    return ("sum", ("mul", ("exp", target), ("sub", target, source)))


def _kl_scale_factors(value: Expr, n: int) -> tuple[dict[str, Expr], float, float] | None:
    """(binds, C, K) of the first form of the per-row KL `value` has, factors positive; else None."""
    binds = unify(_row_kl(scaled_centred, n), value, {})
    if binds is not None:
        c, k = binds["?c"], binds["?k"]
        return (binds, float(c), float(k)) if positive_factors(c, k) else None
    for divide in (False, True):
        binds = unify(_row_kl(lambda load: guarded_scaled_centred(load, divide), n), value, {})
        if binds is not None:
            factors = guarded_factors(binds, divide)
            return (binds, *factors) if factors else None
    return None


def match_row_kl_div(kernel: KernelSpec, launch: LaunchSpec) -> RowKLDivMatch | None:
    """One store per row of sum(exp(lq) * (lq - lp)); both logits row-major, same shape and dtype;
    positive scale factors only (a negative temperature flips which element bounds the exponent)."""
    store = single_row_store(kernel)
    if store is None or not index_is(store[3], ("var", "x")):
        return None
    n, m, ptr, _, value = store
    found = _kl_scale_factors(value, n)
    if found is None or found[0]["?p"] == found[0]["?q"]:
        return None
    binds, c, k = found
    roles = {"p_logits": launch_position(launch, binds["?p"]), "q_logits": launch_position(launch, binds["?q"]),
             "out": launch_position(launch, ptr)}
    if None in roles.values():
        return None
    args = launch.args
    p, q, out = args[roles["p_logits"]], args[roles["q_logits"]], args[roles["out"]]
    if p.dtype not in FLOAT_DTYPES or q.dtype != p.dtype or p.sizes != q.sizes:
        return None
    if not (is_row_major(p, n) and is_row_major(q, n) and numel(p) == m * n):
        return None
    if not (out.is_tensor and out.dtype == "float32" and numel(out) == m):
        return None
    return RowKLDivMatch(m, n, c, k, roles, p.dtype, stat_stride(out))


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

def row_kl_div_source(roles: dict, *, scale: float, temperature_scale: float, block: int, num_warps: int,
                      unroll: int = 1, out_stride: int = 1) -> str:
    return render_kernel("row_kl_div", roles=roles, scale=repr(float(scale)), k=repr(float(temperature_scale)),
                         block=block, num_warps=num_warps, unroll=unroll, out_stride=out_stride)


def row_kl_div_variants(n_cols: int) -> list[tuple[int, int, int]]:
    """(BLOCK, num_warps, UNROLL) for one program per row streaming two logit rows; each variant keeps
    5 fp32 lane states per element of BLOCK. Ordered by what the H200 zoo runs measured against
    Inductor's five-pass kernel (benchmarks/results/); the widest block (4096/16) was slower than
    Inductor there and is tried last."""
    menu = [(512, 4, 2), (1024, 8, 2), (1024, 4, 1), (2048, 8, 1), (256, 2, 2), (4096, 16, 1)]
    variants = []
    for block, warps, unroll in menu:
        block = min(block, max(16, next_pow2(n_cols)))
        unroll = min(unroll, max(1, next_pow2(n_cols) // block))
        warps = max(1, min(warps, block // 64))
        if (block, warps, unroll) not in variants:
            variants.append((block, warps, unroll))
    return variants


class RowKLDivTemplate(KernelTemplate):
    name = "row_kl_div"
    order = 30

    def match(self, target: RewriteTarget) -> RowKLDivMatch | None:
        return match_row_kl_div(*single_launch(target))

    def variants(self, match: RowKLDivMatch) -> list[tuple[int, int, int]]:
        return row_kl_div_variants(match.n_cols)

    def render(self, match: RowKLDivMatch, variant: tuple[int, int, int]) -> str:
        block, warps, unroll = variant
        return row_kl_div_source(match.roles, scale=match.scale, temperature_scale=match.temperature_scale,
                                 block=block, num_warps=warps, unroll=unroll, out_stride=match.out_stride)

    def strategy(self, match: RowKLDivMatch, variant: tuple[int, int, int]) -> str:
        block, warps, unroll = variant
        unrolled = f"UNROLL={unroll} " if unroll > 1 else ""
        return f"online-kl-div {unrolled}BLOCK={block} warps={warps}"

    def notes(self, match: RowKLDivMatch, variant: tuple[int, int, int]) -> str:
        return (f"one pass over both logit rows [{match.n_rows}, {match.n_cols}] {match.dtype} (the original "
                f"reads each five times); per-row KL of log_softmax({match.temperature_scale} * x), fp32")
