"""Row softmax of a scaled row, the whole row in registers where it fits, else an online two-pass form."""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.proposers.base import KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.idioms import (FLOAT_DTYPES, Expr, guarded_factors, guarded_scaled_centred, index_is,
                                        is_row_major, launch_position, numel, positive_factors, row_index,
                                        scaled_centred, single_row_store, unify)
from kernelopt.templates.kernel_template import (MAX_ROW_ON_CHIP, KernelTemplate, next_pow2, render_kernel,
                                                 single_launch)

# ---------------------------------------------------------------------------------------------------
# Idiom: row softmax of a scaled row, Inductor's looped or persistent form
#   out[x, r] = exp(k * (c*v - max(c*v))) / sum(exp(k * (c*v - max(c*v))))
# torch 2.11 writes the shifted row as above; torch 2.13 guards it against non-finite rows
# (idioms.guarded_scaled_centred), multiplying or dividing by the scale.

@dataclass(frozen=True)
class RowSoftmaxMatch:
    n_rows: int
    n_cols: int
    scale: float                  # c (inside the max)
    temperature_scale: float      # k (after the max is subtracted)
    roles: dict[str, int]         # x, out -> launch position
    out_dtype: str


def _softmax(shifted: Expr) -> Expr:
    return ("div", ("exp", shifted), ("sum", ("exp", shifted)))


def _scale_factors(value: Expr, n: int) -> tuple[dict[str, Expr], float, float] | None:
    """(binds, C, K) of the first softmax form `value` has, factors positive; else None."""
    load = ("load", "?x", row_index(n))
    for shifted in (scaled_centred(load), scaled_centred(load, with_k=False)):
        binds = unify(_softmax(shifted), value, {})
        if binds is not None:
            c, k = binds["?c"], binds.get("?k", 1.0)
            return (binds, float(c), float(k)) if positive_factors(c, k) else None
    for divide in (False, True):
        binds = unify(_softmax(guarded_scaled_centred(load, divide)), value, {})
        if binds is not None:
            factors = guarded_factors(binds, divide)
            return (binds, *factors) if factors else None
    return None


def match_row_softmax(kernel: KernelSpec, launch: LaunchSpec) -> RowSoftmaxMatch | None:
    """One elementwise store of a row softmax; input and output row-major [M, N], float dtypes,
    positive scale factors."""
    store = single_row_store(kernel)
    if store is None or not index_is(store[3], row_index(store[0])):
        return None
    n, m, ptr, _, value = store
    found = _scale_factors(value, n)
    if found is None:
        return None
    binds, c, k = found
    roles = {"x": launch_position(launch, binds["?x"]), "out": launch_position(launch, ptr)}
    if None in roles.values() or roles["x"] == roles["out"]:
        return None
    x, out = launch.args[roles["x"]], launch.args[roles["out"]]
    if x.dtype not in FLOAT_DTYPES or out.dtype not in FLOAT_DTYPES:
        return None
    if not (is_row_major(x, n) and is_row_major(out, n) and numel(x) == m * n == numel(out)):
        return None
    return RowSoftmaxMatch(m, n, c, k, roles, out.dtype)


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

def row_softmax_source(mode: str, roles: dict, block: int, num_warps: int = 4, rows: int = 1,
                       row_on_chip: bool = False, scale: float = 1.0, temperature_scale: float = 1.0) -> str:
    """`mode` of K * (C * x) over the last dim, C = scale, K = temperature_scale (see the template)."""
    return render_kernel("row_softmax", roles=roles, mode=mode, block=block, num_warps=num_warps, rows=rows,
                         row_on_chip=row_on_chip, scale=repr(float(scale)), k=repr(float(temperature_scale)))


def row_softmax_variants(n_cols: int) -> list[tuple[bool, int, int, int]]:
    """(row_on_chip, BLOCK, ROWS, num_warps): the whole row in registers (8..64 fp32 per thread) where
    it fits, likeliest first; then the online two-pass form, which fits any row length. On the H200
    (softmax, bf16 [8192, 8192], run3/zoo.log) the row-on-chip variants were 1.32-1.45x over Inductor's
    three-pass kernel, within ~5% of each other across the two starting modules; two-pass 0.98-1.04x."""
    variants = []
    block = next_pow2(n_cols)
    if block <= MAX_ROW_ON_CHIP:
        for rows, warps in ((1, 8), (1, 16), (1, 4), (2, 8), (4, 4)):
            if 8 <= rows * block / (32 * warps) <= 64:
                variants.append((True, block, rows, warps))
        if not variants:                       # short rows: several per program
            rows = max(1, min(16, 1024 // block))
            variants.append((True, block, rows, max(1, min(8, rows * block // 256))))
    for chunk, warps in ((2048, 8), (1024, 4)):
        chunk = min(chunk, block)
        if (False, chunk, 1, warps) not in variants and chunk < block:
            variants.append((False, chunk, 1, warps))
    return variants


class RowSoftmaxTemplate(KernelTemplate):
    name = "row_softmax"
    order = 20

    def match(self, target: RewriteTarget) -> RowSoftmaxMatch | None:
        return match_row_softmax(*single_launch(target))

    def variants(self, match: RowSoftmaxMatch) -> list[tuple[bool, int, int, int]]:
        return row_softmax_variants(match.n_cols)

    def render(self, match: RowSoftmaxMatch, variant: tuple[bool, int, int, int]) -> str:
        row_on_chip, block, rows, warps = variant
        return row_softmax_source("softmax", match.roles, block=block, num_warps=warps, rows=rows,
                                  row_on_chip=row_on_chip, scale=match.scale,
                                  temperature_scale=match.temperature_scale)

    def strategy(self, match: RowSoftmaxMatch, variant: tuple[bool, int, int, int]) -> str:
        row_on_chip, block, rows, warps = variant
        label = "row-on-chip" if row_on_chip else "online two-pass"
        return f"softmax {label} BLOCK={block} rows={rows} warps={warps}"

    def notes(self, match: RowSoftmaxMatch, variant: tuple[bool, int, int, int]) -> str:
        return (f"softmax of {match.temperature_scale} * ({match.scale} * x) over rows of [{match.n_rows}, "
                f"{match.n_cols}], {match.out_dtype} out; "
                + ("input read once" if variant[0] else "statistics in one pass, a second writes"))
