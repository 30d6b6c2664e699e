"""Variance (any correction, or the bare sum of squared deviations) and mean of each row, Welford in fp32."""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.proposers.base import KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.idioms import (FLOAT_DTYPES, Expr, analyse, index_is, is_row_major, launch_position,
                                        loaded_pointers, numel, row_index, row_stride)
from kernelopt.templates.kernel_template import (MAX_ROW_ON_CHIP, KernelTemplate, Refusal, next_pow2, render_kernel,
                                                 single_launch)

# ---------------------------------------------------------------------------------------------------
# Matcher: per-row statistics of one row-major load v [M, N], each stored at row x:
#   mean(v);  m2(v) / d  (torch.var_mean: d = N - correction)  or  m2(v)  (GroupNorm's statistics kernel)
# in Inductor's persistent (two sums) or looped (Welford) form.

@dataclass(frozen=True)
class VarMeanMatch:
    n_rows: int
    n_cols: int
    correction: int               # var = m2 / (N - correction); N - 1 for a bare m2
    roles: dict[str, int]         # x, var, mean -> launch position
    var_stride: int
    mean_stride: int


def _statistic(value: Expr, n: int) -> tuple[str, Expr, float] | None:
    """("mean" | "var", the row value, divisor of m2) of one stored statistic."""
    if value[0] == "mean":
        return "mean", value[1], 1.0
    if value[0] == "m2":
        return "var", value[1], 1.0
    if value[0] == "div" and value[1][0] == "m2" and value[2][0] == "const" and \
            isinstance(value[2][1], (int, float)) and not isinstance(value[2][1], bool):
        return "var", value[1][1], float(value[2][1])
    return None


def match_var_mean(kernel: KernelSpec, launch: LaunchSpec) -> VarMeanMatch | Refusal | None:
    facts = analyse(kernel)
    if facts is None or facts.has_assert or "xnumel" not in facts.sizes or "r0_numel" not in facts.sizes:
        return None
    n, m = facts.sizes["r0_numel"], facts.sizes["xnumel"]
    stats: dict[str, tuple[str, float]] = {}
    rows = set()
    for ptr, index, value in facts.stores:
        found = _statistic(value, n)
        if found is None or not index_is(index, ("var", "x")):
            return None                    # a store that is no row statistic: another idiom
        role, row, divisor = found
        if role in stats:
            return None
        stats[role] = (ptr, divisor)
        rows.add(row)
    if len(rows) != 1:
        return None
    row = rows.pop()
    if row[0] != "load" or not index_is(row[2], row_index(n)):
        return Refusal("the statistics are of a value computed in the kernel, not of one loaded row")
    if "var" not in stats:
        return None                        # a row mean alone is no var_mean
    if "mean" not in stats:
        return Refusal("the kernel stores the variance without the mean; the template writes both")
    divisor = stats["var"][1]
    if divisor != round(divisor) or not 0 <= divisor <= n:    # 0: torch's NaN for one element, correction 1
        return Refusal(f"m2 is divided by {divisor}, not by N - correction for an integer correction")
    roles = {"x": launch_position(launch, row[1]), "var": launch_position(launch, stats["var"][0]),
             "mean": launch_position(launch, stats["mean"][0])}
    if None in roles.values() or row[1] in (stats["var"][0], stats["mean"][0]):
        return None
    if loaded_pointers(facts) - {row[1]}:
        return None                        # in_out buffers read back: not modelled
    x = launch.args[roles["x"]]
    if x.dtype not in FLOAT_DTYPES or not (is_row_major(x, n) and numel(x) == m * n):
        return Refusal(f"x {x.sizes}/{x.strides} {x.dtype} is not {m} contiguous float rows of {n}")
    strides = {}
    for role in ("var", "mean"):
        arg = launch.args[roles[role]]
        strides[role] = row_stride(arg, m)
        if strides[role] is None or arg.dtype not in FLOAT_DTYPES:
            return Refusal(f"the {role} buffer {arg.sizes}/{arg.strides} {arg.dtype} is not {m} evenly strided floats")
    return VarMeanMatch(m, n, n - int(divisor), roles, strides["var"], strides["mean"])


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

def var_mean_source(roles: dict, block: int, correction: int = 1, rows: int = 1, num_warps: int = 4,
                    row_on_chip: bool = False, n_cols: int | None = None, var_stride: int | None = None,
                    mean_stride: int | None = None) -> str:
    """`n_cols` views x as rows of that length (default: its last dim); the strides default to the
    outputs' first."""
    return render_kernel("var_mean", roles=roles, block=block, correction=correction, rows=rows, num_warps=num_warps,
                         row_on_chip=row_on_chip, n_cols=n_cols, var_stride=var_stride, mean_stride=mean_stride)


def var_mean_variants(n_cols: int) -> list[tuple[bool, int, int, int]]:
    """(row_on_chip, BLOCK, ROWS, num_warps): the row in registers (4..64 fp32 per thread) where it
    fits, several short rows per program; then the chunked Welford form, which fits any row."""
    block = next_pow2(n_cols)
    variants = []
    if block <= MAX_ROW_ON_CHIP:
        for rows, warps in ((1, 4), (1, 8), (1, 16), (2, 8), (4, 4)):
            if 4 <= rows * block / (32 * warps) <= 64:
                variants.append((True, block, rows, warps))
        if not variants:                   # short rows: several per program
            rows = max(1, min(16, 1024 // block))
            variants.append((True, block, rows, max(1, min(8, rows * block // 256))))
    for chunk, warps in ((1024, 4), (2048, 8)):
        chunk = min(chunk, block)
        if chunk < block or not variants:
            variants.append((False, chunk, 1, max(1, min(warps, chunk // 32))))
    return variants


class VarMeanTemplate(KernelTemplate):
    name = "var_mean"
    order = 40

    def match(self, target: RewriteTarget) -> VarMeanMatch | Refusal | None:
        return match_var_mean(*single_launch(target))

    def variants(self, match: VarMeanMatch) -> list[tuple[bool, int, int, int]]:
        return var_mean_variants(match.n_cols)

    def render(self, match: VarMeanMatch, variant: tuple[bool, int, int, int]) -> str:
        row_on_chip, block, rows, warps = variant
        return var_mean_source(match.roles, block=block, correction=match.correction, rows=rows, num_warps=warps,
                               row_on_chip=row_on_chip, n_cols=match.n_cols, var_stride=match.var_stride,
                               mean_stride=match.mean_stride)

    def strategy(self, match: VarMeanMatch, variant: tuple[bool, int, int, int]) -> str:
        row_on_chip, block, rows, warps = variant
        return f"var-mean {'row-on-chip' if row_on_chip else 'chunked welford'} BLOCK={block} rows={rows} warps={warps}"

    def notes(self, match: VarMeanMatch, variant: tuple[bool, int, int, int]) -> str:
        return (f"var (m2 / {match.n_cols - match.correction}) and mean of [{match.n_rows}, {match.n_cols}] rows, "
                f"input read once; roles {match.roles}")
