"""argmax / argmin of each row: the first index of the extreme value, NaN counting as the extreme."""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.proposers.base import KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.idioms import (analyse, index_is, is_row_major, launch_position, numel, row_index,
                                        row_stride)
from kernelopt.templates.kernel_template import KernelTemplate, Refusal, next_pow2, render_kernel, single_launch

# ---------------------------------------------------------------------------------------------------
# Matcher: out[x] = argmax(v) / argmin(v) of one row-major load v [M, N] (Inductor's persistent
# `max_with_index(v, rindex, 1)`; idioms reads it as ("argmax" | "argmin", v)).

ARG_DTYPES = ("float32", "bfloat16", "float16", "int32", "int64", "int16", "int8", "uint8")


@dataclass(frozen=True)
class ArgReduceMatch:
    op: str                       # "argmax" | "argmin"
    n_rows: int
    n_cols: int
    roles: dict[str, int]         # x, out -> launch position
    out_stride: int
    dtype: str                    # x's


def match_arg_reduce(kernel: KernelSpec, launch: LaunchSpec) -> ArgReduceMatch | Refusal | None:
    facts = analyse(kernel)
    if facts is None or facts.has_assert or len(facts.stores) != 1:
        return None
    n, m = facts.sizes.get("r0_numel"), facts.sizes.get("xnumel")
    ptr, index, value = facts.stores[0]
    if value[0] not in ("argmax", "argmin") or not n or not m or not index_is(index, ("var", "x")):
        return None
    operand = value[1]
    if operand[0] != "load" or not index_is(operand[2], row_index(n)):
        return Refusal(f"the {value[0]} is of a value computed in the kernel; the template reads one loaded row")
    roles = {"x": launch_position(launch, operand[1]), "out": launch_position(launch, ptr)}
    if None in roles.values() or roles["x"] == roles["out"]:
        return None
    x, out = launch.args[roles["x"]], launch.args[roles["out"]]
    if x.dtype not in ARG_DTYPES or not (is_row_major(x, n) and numel(x) == m * n):
        return Refusal(f"x {x.sizes}/{x.strides} {x.dtype} is not {m} contiguous rows of {n} numbers")
    stride = row_stride(out, m)
    if out.dtype != "int64" or stride is None:
        return Refusal(f"out {out.sizes}/{out.strides} {out.dtype} is not {m} evenly strided int64 indices")
    return ArgReduceMatch(value[0], m, n, roles, stride, x.dtype)


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

def arg_reduce_source(op: str, roles: dict, block: int, rows: int = 1, num_warps: int = 4,
                      n_cols: int | None = None, out_stride: int | None = None) -> str:
    """`n_cols` views x as rows of that length (default: its last dim); `out_stride` defaults to out's first."""
    return render_kernel("arg_reduce", roles=roles, op=op, block=block, rows=rows, num_warps=num_warps,
                         n_cols=n_cols, out_stride=out_stride)


def arg_reduce_variants(n_cols: int) -> list[tuple[int, int, int]]:
    """(BLOCK, ROWS, num_warps): short rows whole, several per program; long rows in chunks."""
    block = next_pow2(n_cols)
    if block <= 2048:
        rows = max(1, min(16, 2048 // block))
        return [(block, rows, max(1, min(8, rows * block // 256))), (block, 1, max(1, min(4, block // 128)))]
    return [(2048, 1, 8), (1024, 1, 4)]


class ArgReduceTemplate(KernelTemplate):
    name = "arg_reduce"
    order = 50

    def match(self, target: RewriteTarget) -> ArgReduceMatch | Refusal | None:
        return match_arg_reduce(*single_launch(target))

    def variants(self, match: ArgReduceMatch) -> list[tuple[int, int, int]]:
        return arg_reduce_variants(match.n_cols)

    def render(self, match: ArgReduceMatch, variant: tuple[int, int, int]) -> str:
        block, rows, warps = variant
        return arg_reduce_source(match.op, match.roles, block=block, rows=rows, num_warps=warps,
                                 n_cols=match.n_cols, out_stride=match.out_stride)

    def strategy(self, match: ArgReduceMatch, variant: tuple[int, int, int]) -> str:
        block, rows, warps = variant
        return f"{match.op} chunked BLOCK={block} rows={rows} warps={warps}"

    def notes(self, match: ArgReduceMatch, variant: tuple[int, int, int]) -> str:
        return f"{match.op} over [{match.n_rows}, {match.n_cols}] {match.dtype} rows, read once; roles {match.roles}"
