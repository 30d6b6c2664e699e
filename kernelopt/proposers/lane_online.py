"""An online softmax with one exponential per element, lane by lane: the other form `block-online` offers.

Inductor's per-lane update computes both scales of `online_softmax_combine` for every element,

    new = max(m, x);  s = s * exp(m - new) + exp(x - new)

but one of them is always exp(0): when x is below the running max the first is 1, when it is above the
second is. With d = x - m, one exponential serves both: e = exp(-|d|), and

    d > 0:  s = s * e + 1          (x is the new max)
    else:   s = s + e

The block form keeps one state per row and reduces each block across the program (a max and a sum, each
with barriers); this one keeps Inductor's per-lane tiles and its final `online_softmax_reduce`, and only
the update changes, so which of the two is faster is for the GPU to say (the search times both).

The helper's semantics are kept: a lane whose max is still -inf counts its elements (the helper's scales
are 1 there); a +inf element gives the NaN the helper's exp(inf - inf) gives (the `(x - x)` term: 0 for a
finite x, NaN otherwise); a running max can only become +inf through such an element, so the helper's NaN
for a later element, exp(m - m) with m = +inf, is already in the sum; a NaN propagates through the max and
the sum; the max is the helper's bit for bit. The exponential is the flushed `ex2` form (`exp_forms`), where
the helper (use_fast_math off) takes CUDA's expf: the sums differ by a few ulp, which the legality gate
judges against its float64 reference. Flushing itself changes nothing: once a lane's max is finite its sum
is at least 1 (its max's term), so a subnormal e vanishes from `s + e` and `s * e + 1` alike.
"""
from __future__ import annotations

import ast

from .exp_forms import flushed_exp
from .loop_state import commit_mask, online_pair_parts, rewrite_helper_calls


class LaneOnlineDeclined(Exception):
    """Why the kernel's online softmax cannot take the one-exponential update (the message says why)."""


def one_exponential_online(function: ast.FunctionDef) -> tuple[ast.FunctionDef, int]:
    """A copy of `function` whose online_softmax_combine calls in r-loops compute one exponential each."""
    return rewrite_helper_calls(function, "triton_helpers.online_softmax_combine", _one_exponential,
                                LaneOnlineDeclined, "an online softmax")


def _one_exponential(function: ast.FunctionDef, loop: ast.For, stmt: ast.Assign, call: ast.Call, number: int) -> None:
    value, (running_max, running_sum), (next_max, next_sum) = online_pair_parts(stmt, call, LaneOnlineDeclined)
    for name, nxt in ((running_max, next_max), (running_sum, next_sum)):
        commit_mask(loop, name, nxt, stmt.lineno, LaneOnlineDeclined)     # committed as Inductor does
    x, d, e = f"({ast.unparse(value)})", f"_ko_delta{number}", f"_ko_scale{number}"
    m, s = running_max, running_sum
    at = loop.body.index(stmt)
    loop.body[at:at + 1] = ast.parse(
        f"{d} = {x} - {m}\n"
        f"{e} = {flushed_exp(f'-tl.abs({d})')}\n"
        f"{next_max} = triton_helpers.maximum({m}, {x})\n"
        f"{next_sum} = tl.where({next_max} == float('-inf'), {s} + 1.0, tl.where({d} > 0, "
        f"{s} * {e} + (1.0 + ({x} - {x})), {s} + {e}))\n").body
