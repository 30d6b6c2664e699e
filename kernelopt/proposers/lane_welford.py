"""Welford per lane without a division per element: the lane form of a looped norm's statistics.

Inductor's per-lane `welford_reduce(x, mean, m2, weight, first)` divides by the lane's weight on every
element. Each lane can instead sum its values' deviations from a shift K, the lane's first value,

    d = x - K;  s1 += d;  s2 += d * d;  n += 1

and turn them into the lane's (mean, M2, weight) once after the loop,

    mean = K + s1 / n;  M2 = s2 - s1 * s1 / n

before Inductor's own cross-lane `triton_helpers.welford` merges the lanes as before. K is one of the
lane's own values, so the deviations stay small where the values sit far from zero (the shifted-data
form), and the gate judges the result against its float64 reference like any reordering. The block form
(`block_welford`) keeps one state per row and reduces each block across the program; this one keeps the
per-lane tiles and needs no reduction inside the loop, so the search times both.

Applies where `block_welford` does, except that the running tiles may only be read by the final
`triton_helpers.welford` (they hold sums until just before it).
"""
from __future__ import annotations

import ast
import copy

from .loop_state import commit_mask, final_reduction, rewrite_helper_calls, welford_parts


class LaneWelfordDeclined(Exception):
    """Why a Welford reduction cannot take the division-free lane form (the message says why)."""


def shifted_lane_welford(function: ast.FunctionDef) -> tuple[ast.FunctionDef, int]:
    """A copy of `function` whose looped welford_reduce triples sum shifted deviations per lane."""
    return rewrite_helper_calls(function, "triton_helpers.welford_reduce", _rewrite, LaneWelfordDeclined,
                                "a Welford reduction")


def _rewrite(function: ast.FunctionDef, loop: ast.For, stmt: ast.Assign, call: ast.Call, number: int) -> None:
    value, (mean, m2, weight), (next_mean, next_m2, next_weight) = welford_parts(stmt, call, LaneWelfordDeclined)
    for name, nxt in ((mean, next_mean), (m2, next_m2), (weight, next_weight)):
        commit_mask(loop, name, nxt, stmt.lineno, LaneWelfordDeclined)   # committed as Inductor does
    position = function.body.index(loop)
    final = final_reduction(function.body[position + 1:], [mean, m2, weight], "triton_helpers.welford",
                            LaneWelfordDeclined)
    shift, delta, n = f"_ko_shift{number}", f"_ko_dev{number}", f"_ko_count{number}"
    x = f"({ast.unparse(value)})"
    init = next((s for s in function.body[:position] if isinstance(s, ast.Assign)
                 and ast.unparse(s.targets[0]) == mean), None)
    if init is None:
        raise LaneWelfordDeclined(f"{mean} is not initialised before its loop")
    shift_init = copy.deepcopy(init)
    shift_init.targets = [ast.Name(shift, ast.Store())]
    function.body.insert(position, shift_init)                    # zeros shaped like the running mean
    update = ast.parse(
        f"{shift} = tl.where(r0_offset == 0, {x}, {shift})\n"       # the lane's first value (0 where masked)
        f"{delta} = {x} - {shift}\n"
        f"{next_mean} = {mean} + {delta}\n"
        f"{next_m2} = {m2} + {delta} * {delta}\n"
        f"{next_weight} = {weight} + 1.0\n").body
    loop.body[loop.body.index(stmt):loop.body.index(stmt) + 1] = update
    # after the loop, the sums become the lane's (mean, M2, weight); an empty lane keeps mean 0, as
    # Inductor's does, so the merge adds nothing for it
    convert = ast.parse(
        f"{n} = tl.maximum({weight}, 1.0)\n"
        f"{m2} = {m2} - {mean} * {mean} / {n}\n"
        f"{mean} = tl.where({weight} == 0.0, 0.0, {shift} + {mean} / {n})\n").body
    at = function.body.index(final)
    function.body[at:at] = convert
