"""Welford in block form: a looped reduction's running (mean, M2, weight) kept per row, updated once per block.

Inductor writes the mean and variance of a looped layer, group or instance norm as a tile of per-lane
Welford states, `welford_reduce(x, mean, m2, weight, first)` on every element: a division per element and
three running tiles, combined across lanes after the loop (`triton_helpers.welford`). On bf16 rows the
division makes the pass compute-bound. In block form each block is reduced first, two-pass on its registers,

    n = count(mask);  m = sum(x) / n;  d = x - m;  c = sum(d) / n
    mean_b = m + c;  m2_b = sum(d^2) - n c^2          (the corrected two-pass form)

and merged into one running state per row with Inductor's own `welford_combine` (Chan's formula): one
division per block. The result is the same statistic, summed in another order (the legality gate judges it
against its float64 reference); a fully masked block has weight 0 and leaves the state as it is.

Applies to an r-loop that commits a `welford_reduce` triple (`acc = tl.where(mask, acc_next, acc)`) whose
running tiles are read only by the `triton_helpers.welford(mean, m2, weight, 1)` after the loop. Found
from the kernel's own code, whatever it is named. Used by `block_online` (its proposer) and by row-on-chip,
whose one block per row would otherwise combine lane by lane.
"""
from __future__ import annotations

import ast

from .loop_state import (commit_mask, final_reduction, one_column, rewrite_helper_calls, splice,
                         state_read_only_by_update, welford_parts)


# Commit masks that let a block in up to the row's end (r0_mask is `r0_index < r0_numel` in an r-loop)
WHOLE_ROW_MASKS = ("r0_mask", "r0_mask & xmask", "xmask & r0_mask")


class BlockWelfordDeclined(Exception):
    """Why a Welford reduction cannot be kept per row (the message goes to the remarks)."""


def blockwise_welford(function: ast.FunctionDef) -> tuple[ast.FunctionDef, int]:
    """A copy of `function` with every looped Welford triple kept per row; how many triples."""
    return rewrite_helper_calls(function, "triton_helpers.welford_reduce", _rewrite, BlockWelfordDeclined,
                                "a Welford reduction")


def _rewrite(function: ast.FunctionDef, loop: ast.For, stmt: ast.Assign, call: ast.Call, number: int) -> None:
    value, running, following = welford_parts(stmt, call, BlockWelfordDeclined)     # mean, m2, weight
    masks = [commit_mask(loop, name, nxt, stmt.lineno, BlockWelfordDeclined) for name, nxt in zip(running, following)]
    if len({ast.unparse(m) for m in masks}) != 1:
        raise BlockWelfordDeclined(f"line {stmt.lineno}: the Welford state is committed under different masks")
    state_read_only_by_update(loop, stmt, running, following, BlockWelfordDeclined, "Welford state")
    position = function.body.index(loop)
    for name in running:
        one_column(function.body[:position], name, BlockWelfordDeclined)
    _rewrite_final(function.body[position + 1:], running)
    mask, x = ast.unparse(masks[0]), f"({ast.unparse(value)})"
    mean, m2, weight = running
    n, rough, dev, fix = (f"_ko_wcount{number}", f"_ko_wrough{number}", f"_ko_wdev{number}", f"_ko_wfix{number}")
    # The block's own count, mean and M2 on its registers, by the corrected two-pass form: a first mean,
    # the deviations from it, and their mean as its correction (a plain sum of values far from zero loses
    # the digits that a small spread lives in; the deviations are exact when close to the first mean).
    # Then Chan's merge as Inductor's welford_combine writes it: a block with no element has weight 0
    # and changes nothing.
    if mask in WHOLE_ROW_MASKS and "XBLOCK" in {a.arg for a in function.args.args}:
        # every element of the block up to the row's end: the count needs no reduction across the program
        # (a row past xnumel gets a count and no values; it is never stored)
        count = f"tl.full([XBLOCK, 1], 0.0, tl.float32) + tl.minimum(r0_numel - r0_offset, R0_BLOCK).to(tl.float32)"
    else:
        count = f"tl.sum(tl.where({mask}, tl.full({x}.shape, 1.0, tl.float32), 0.0), 1)[:, None]"
    block = ast.parse(
        f"{n} = {count}\n"
        f"{rough} = tl.sum(tl.where({mask}, {x}, 0.0), 1)[:, None] / tl.maximum({n}, 1.0)\n"
        f"{dev} = tl.where({mask}, {x} - {rough}, 0.0)\n"
        f"{fix} = tl.sum({dev}, 1)[:, None] / tl.maximum({n}, 1.0)\n"
        f"{mean}, {m2}, {weight} = triton_helpers.welford_combine({mean}, {m2}, {weight}, {rough} + {fix}, "
        f"tl.sum({dev} * {dev}, 1)[:, None] - {fix} * {fix} * {n}, {n})\n").body
    splice(loop, stmt, block, tuple(running))


def _rewrite_final(after: list[ast.stmt], running: list[str]) -> None:
    stmt = final_reduction(after, running, "triton_helpers.welford", BlockWelfordDeclined)
    # one column per row: reducing it is the value itself, with the reduced dimension dropped
    stmt.value = ast.parse(f"(tl.sum({running[0]}, 1), tl.sum({running[1]}, 1), tl.sum({running[2]}, 1))",
                           mode="eval").body
