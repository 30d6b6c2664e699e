"""Inclusive cumulative sum of each row, a chunked scan carrying an fp32 prefix."""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.proposers.base import KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.idioms import (FLOAT_DTYPES, analyse, index_is, is_row_major, launch_position, numel,
                                        row_index, signature_dtype)
from kernelopt.templates.kernel_template import KernelTemplate, Refusal, next_pow2, render_kernel, single_launch

# ---------------------------------------------------------------------------------------------------
# Matcher: out[x, r] = cumsum(v)[x, r] of one row-major load v [M, N] (Inductor's persistent scan,
# `tl.associative_scan` with an add combine; idioms reads it as ("cumsum", v)).

@dataclass(frozen=True)
class CumsumMatch:
    n_rows: int
    n_cols: int
    roles: dict[str, int]         # x, out -> launch position
    dtype: str                    # x's


def match_cumsum(kernel: KernelSpec, launch: LaunchSpec) -> CumsumMatch | Refusal | None:
    facts = analyse(kernel)
    if facts is None or facts.has_assert or len(facts.stores) != 1:
        return None
    n, m = facts.sizes.get("r0_numel"), facts.sizes.get("xnumel")
    ptr, index, value = facts.stores[0]
    if value[0] != "cumsum" or not n or not m or not index_is(index, row_index(n)):
        return None
    out_type = signature_dtype(kernel, ptr).lstrip("*")
    if not out_type.startswith(("fp", "bf")):
        return Refusal(f"a {out_type} prefix sum: the template accumulates in fp32, exact for float rows only")
    operand = value[1]
    if operand[0] != "load" or not index_is(operand[2], row_index(n)):
        return Refusal("the scanned value is computed in the kernel; the template scans one loaded row")
    roles = {"x": launch_position(launch, operand[1]), "out": launch_position(launch, ptr)}
    if None in roles.values() or roles["x"] == roles["out"]:
        return None
    x, out = launch.args[roles["x"]], launch.args[roles["out"]]
    if x.dtype not in FLOAT_DTYPES or out.dtype not in FLOAT_DTYPES:
        return Refusal(f"{x.dtype} -> {out.dtype}: the template reads and writes bf16/fp16/fp32")
    if not (is_row_major(x, n) and is_row_major(out, n) and numel(x) == m * n == numel(out)):
        return Refusal(f"x {x.sizes}/{x.strides} or out {out.sizes}/{out.strides} is not {m} contiguous rows of {n}")
    return CumsumMatch(m, n, roles, x.dtype)


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

def cumsum_source(roles: dict, block: int, rows: int = 1, num_warps: int = 4, n_cols: int | None = None) -> str:
    """`n_cols` views x and out as rows of that length (default: x's last dim)."""
    return render_kernel("cumsum", roles=roles, block=block, rows=rows, num_warps=num_warps, n_cols=n_cols)


def cumsum_variants(n_cols: int) -> list[tuple[int, int, int]]:
    """(BLOCK, ROWS, num_warps): the whole row as one chunk where it is short (several rows per
    program), else chunks of 1024 / 2048 carrying the prefix."""
    block = next_pow2(n_cols)
    if block <= 1024:
        rows = max(1, min(16, 1024 // block))
        return [(block, rows, max(1, min(8, rows * block // 256))), (block, 1, max(1, min(4, block // 128)))]
    return [(1024, 1, 4), (2048, 1, 8)]


class CumsumTemplate(KernelTemplate):
    name = "cumsum"
    order = 60

    def match(self, target: RewriteTarget) -> CumsumMatch | Refusal | None:
        return match_cumsum(*single_launch(target))

    def variants(self, match: CumsumMatch) -> list[tuple[int, int, int]]:
        return cumsum_variants(match.n_cols)

    def render(self, match: CumsumMatch, variant: tuple[int, int, int]) -> str:
        block, rows, warps = variant
        return cumsum_source(match.roles, block=block, rows=rows, num_warps=warps, n_cols=match.n_cols)

    def strategy(self, match: CumsumMatch, variant: tuple[int, int, int]) -> str:
        block, rows, warps = variant
        return f"cumsum chunked-scan BLOCK={block} rows={rows} warps={warps}"

    def notes(self, match: CumsumMatch, variant: tuple[int, int, int]) -> str:
        return f"prefix sums of [{match.n_rows}, {match.n_cols}] {match.dtype} rows in fp32; roles {match.roles}"
