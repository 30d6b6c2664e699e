"""block-online: keep an online softmax's running max and sum per row, updated once per block, not per lane.

Inductor writes the max and sum of exponentials of a looped softmax, log-softmax or cross-entropy as one
pass in "online" form (`prepare_softmax_online`): an [XBLOCK, R0_BLOCK] tile of running maxima and sums,
where every lane of every block computes

    new = max(m, x);  s = s * exp(m - new) + exp(x - new);  m = new

two exponentials per element, then combines the lanes at the end (`online_softmax_reduce`). On a bf16 row
of 32K that is compute-bound on the GPU's special-function units: an H100 ran such a kernel at 42 % of its
bandwidth floor under max-autotune. Keeping one running (max, sum) per row instead, updated once per
block,

    bmax = max over the block of x;  new = max(m, bmax)
    s = s * exp(m - new) + sum over the block of exp(x - new);  m = new

needs one exponential per element and one per block. Found from the kernel's own code: any r-loop that
commits an `online_softmax_combine` pair (`acc = tl.where(mask, acc_next, acc)`) whose accumulators are
read only by the `online_softmax_reduce` after the loop, whatever the kernel is named or fuses around it.

Each online softmax is also offered in its lane form (`lane_online`): Inductor's per-lane tiles kept, each
update with one exponential instead of two. The block form pays two cross-program reductions per block,
the lane form none; candidates of both forms come config by config, and the search's timings choose.
A Welford state has a lane form too (`lane_welford`: shifted sums per lane, no division per element).

A looped Welford state (a layer, group or instance norm's per-lane mean, M2 and weight: a division per
element) is kept per row the same way (`block_welford`): the block's own statistics, merged once per block.

Semantics kept: a row whose values are all -inf (or fully masked) counts its elements into the sum as the
helper does (the scale is 1 where the new max is -inf); a NaN propagates through the max; masked lanes add
nothing. The sums are reassociated (per block, not per lane): the legality gate compares against its
float64 reference. Max and min run on the GPU's NaN-propagating instruction (`hardware_minmax`). Where
fold-pass applies too (a later pass summing a value linear in the row), the folded kernel is offered in
this form first: one pass over the row, one exponential per element.
"""
from __future__ import annotations

import ast
import copy
import dataclasses
from dataclasses import dataclass
from typing import Iterable

from kernelopt.codegen.configs import next_pow2

from .base import Attempt, Candidate, RewriteTarget
from .candidate_source import (LaunchConfig, NotRetunable, block_params_of, config_overruns, grid_text, grid_type_of,
                               recorded_config)
from .access_strides import kernel_load_strides, outer_layout
from .block_welford import BlockWelfordDeclined, blockwise_welford
from .exp_forms import flushed_exp
from .fold_passes import FoldDeclined, candidate_module, plan_fold
from .hardware_minmax import with_hardware_minmax
from .lane_online import LaneOnlineDeclined, one_exponential_online
from .lane_welford import LaneWelfordDeclined, shifted_lane_welford
from .loop_state import (commit_mask, final_reduction, one_column, online_pair_parts, rewrite_helper_calls, splice,
                         state_read_only_by_update)
from .outer_tile import OuterTileProposer
from .retune import RetuneProposer
from .row_loops import LoopNestUnsupported, analyse_loop_nest

# Rows of at least this many elements get one row per program (XBLOCK=1) and these (R0_BLOCK, num_warps),
# in this order: a block wide enough that its two cross-warp reductions are paid rarely, and 8-16 elements
# per thread so the loads stay vectorised.
LONG_ROW = 1024
LONG_ROW_CONFIGS = ((2048, 8), (4096, 16), (1024, 4), (4096, 8), (2048, 16), (8192, 16))
MAX_CONFIGS = 6
SHORT_ROW_CONFIGS = 4            # rows shorter than LONG_ROW: this many from retune's space


class BlockOnlineDeclined(Exception):
    """Why the kernel's online softmax cannot be kept per row (the message goes to the remarks)."""


def blockwise_states(function: ast.FunctionDef) -> tuple[ast.FunctionDef, int]:
    """A copy of `function` with every online softmax and every Welford state of its r-loops kept per row
    (`block_welford` for the latter); how many. Declined with the reasons when none can be."""
    count, reasons = 0, []
    for marker, rewrite, declined in (("online_softmax_combine", blockwise_online, BlockOnlineDeclined),
                                      ("welford_reduce", blockwise_welford, BlockWelfordDeclined)):
        if marker not in ast.unparse(function):
            continue
        try:
            function, found = rewrite(function)
            count += found
        except declined as why:
            reasons.append(str(why))
    if not count:
        raise BlockOnlineDeclined("; ".join(reasons) or "no r-loop keeps an online softmax or a Welford state")
    return function, count


def blockwise_online(function: ast.FunctionDef) -> tuple[ast.FunctionDef, int]:
    """A copy of `function` with every online-softmax accumulator pair kept per row; how many pairs."""
    return rewrite_helper_calls(function, "triton_helpers.online_softmax_combine", _rewrite_pair,
                                BlockOnlineDeclined, "an online softmax")


def _rewrite_pair(function: ast.FunctionDef, loop: ast.For, combine: ast.Assign, call: ast.Call, number: int) -> None:
    value, running, following = online_pair_parts(combine, call, BlockOnlineDeclined)
    masks = [commit_mask(loop, name, nxt, combine.lineno, BlockOnlineDeclined) for name, nxt in zip(running, following)]
    if ast.unparse(masks[0]) != ast.unparse(masks[1]):
        raise BlockOnlineDeclined(f"line {combine.lineno}: the running max and sum are committed under different masks")
    state_read_only_by_update(loop, combine, running, following, BlockOnlineDeclined, "max or sum")
    position = function.body.index(loop)
    for name in running:
        one_column(function.body[:position], name, BlockOnlineDeclined)
    _rewrite_reduce(function.body[position + 1:], running)
    running_max, running_sum = running
    v, m, e = f"_ko_block{number}", f"_ko_max{number}", f"_ko_exp{number}"
    mask_text, value_text = ast.unparse(masks[0]), ast.unparse(value)
    # The helper's scale is 1 where the new max is -inf (all -inf so far): the elements are counted. The
    # exponentials are flushed ones: the sum holds exp(0) = 1, a subnormal term cannot move it (exp_forms).
    replacement = ast.parse(
        f"{v} = tl.where({mask_text}, {value_text}, float('-inf'))\n"
        f"{m} = triton_helpers.maximum({running_max}, triton_helpers.max2({v}, 1)[:, None])\n"
        f"{e} = tl.where({mask_text}, tl.where({m} == float('-inf'), 1.0, {flushed_exp(f'{v} - {m}')}), 0.0)\n"
        f"{running_sum} = {running_sum} * tl.where({m} == float('-inf'), 1.0, "
        f"{flushed_exp(f'{running_max} - {m}')}) + tl.sum({e}, 1)[:, None]\n"
        f"{running_max} = {m}\n").body
    splice(loop, combine, replacement, tuple(running))


def _rewrite_reduce(after: list[ast.stmt], running: list[str]) -> None:
    """`a, b = online_softmax_reduce(max, sum, 1, flag)` -> the one column of each, as [rows] values."""
    stmt = final_reduction(after, running, "triton_helpers.online_softmax_reduce", BlockOnlineDeclined)
    # reducing a one-wide column is exact: the value itself, with the reduced dimension dropped
    stmt.value = ast.parse(f"(triton_helpers.max2({running[0]}, 1), tl.sum({running[1]}, 1))", mode="eval").body


# ---------------------------------------------------------------------------------------------------
# The proposer

@dataclass
class BlockOnlineProposer:
    name: str = "block-online"
    summary: str = ("Keep an online softmax's running max and sum, or a Welford state, per row, updated once per "
                    "block (one exponential per element, not two; one division per block, not per element); folded "
                    "with fold-pass where it applies")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            variants = _variants(target)
        except BlockOnlineDeclined:
            return
        kernel, launch = target.kernels[0], target.launches[0]
        tried = {a.candidate.strategy for a in history}
        configs = _configs(kernel, launch.config or {})
        # config by config, every form at each: the search's first look (its scouts) sees the forms side by side
        for config in configs:
            for form, plan in variants:
                label = f"{self.name}{form} {config.label()}"
                if label in tried:
                    continue
                try:
                    grid = grid_text([a.name for a in launch.args], kernel.signature, grid_type_of(kernel), config)
                except NotRetunable:
                    return
                # no launch_config: that marks a retune (the original code at another configuration),
                # which codegen would emit as the original kernel
                yield Candidate(candidate_module(plan, grid, config, self.name), self.name, label,
                                notes=plan.description)

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a looped reduction gets no candidate ('' when it gets some, or keeps no online softmax)."""
        if len(target.kernels) != 1 or target.kernels[0].kind != "reduction":
            return ""
        if not _keeps_online_state(target.kernels[0].source):
            return ""
        try:
            _variants(target)
        except BlockOnlineDeclined as why:
            return str(why)
        return ""


def _variants(target: RewriteTarget) -> list[tuple[str, object]]:
    """(label suffix, fold plan) of each form offered: folded with fold-pass first, where that applies."""
    if len(target.kernels) != 1 or target.group_args:
        raise BlockOnlineDeclined("block-online rewrites one kernel")
    kernel = target.kernels[0]
    if kernel.kind != "reduction" or not _keeps_online_state(kernel.source):
        raise BlockOnlineDeclined("no online softmax or Welford state")
    try:
        nest = analyse_loop_nest(kernel.source, kernel.name)
    except LoopNestUnsupported as why:
        raise BlockOnlineDeclined(str(why)) from None
    names = [a.name for a in target.launches[0].args] if target.launches else []
    if names != nest.params:
        raise BlockOnlineDeclined(f"a launch passes ({', '.join(names)}), the kernel takes ({', '.join(nest.params)})")
    plans = []
    try:
        plans.append(("+fold-pass", plan_fold(target)))
    except FoldDeclined:
        pass
    plans.append(("", _PlainPlan(kernel.name, nest.module, nest.function)))
    variants, block_declined = [], None
    for suffix, plan in plans:
        for form, rewrite in (("", _block_form), ("+lane", _lane_form)):
            try:
                variants.append((suffix + form, _in_form(plan, rewrite)))
            except (BlockOnlineDeclined, LaneOnlineDeclined, LaneWelfordDeclined) as why:
                if not form and not suffix:
                    block_declined = why          # the kernel's own block form: the reason a user reads
    if not variants:
        raise BlockOnlineDeclined(str(block_declined))
    return variants


def _keeps_online_state(source: str) -> bool:
    return "online_softmax_combine" in source or "welford_reduce" in source


@dataclass(frozen=True)
class _PlainPlan:
    """The kernel alone, in the shape `fold_passes.candidate_module` builds a candidate from (no overlap
    checks: its run() launches the rewritten kernel only)."""
    kernel: str
    module: ast.Module
    original: ast.FunctionDef
    overlap_checks: tuple = ()
    description: str = ""


def _in_form(plan, rewrite):
    """`plan` with its kernel function passed through `rewrite(function) -> (function, note)`."""
    module = copy.deepcopy(plan.module)
    index = next(i for i, n in enumerate(module.body) if isinstance(n, ast.FunctionDef) and n.name == plan.kernel)
    module.body[index], note = rewrite(module.body[index])
    # each block's max: one NaN-propagating instruction per element, not two compares and a select
    with_hardware_minmax(module, {plan.kernel})
    note = f"{plan.kernel}: {note}"
    return dataclasses.replace(plan, module=module,
                               description=f"{plan.description}; {note}" if plan.description else note)


def _block_form(function: ast.FunctionDef) -> tuple[ast.FunctionDef, str]:
    function, states = blockwise_states(function)
    return function, (f"{states} online softmax or Welford state(s) kept per row, updated once per block "
                      "(one exponential or division per block, not per element)")


def _lane_form(function: ast.FunctionDef) -> tuple[ast.FunctionDef, str]:
    """Per-lane tiles kept: an online softmax's update with one exponential per element (`lane_online`), a
    Welford state's without a division per element (`lane_welford`)."""
    notes = []
    for marker, rewrite, what in (("online_softmax_combine", one_exponential_online, "online softmax update(s) with "
                                   "one exponential per element"),
                                  ("welford_reduce", shifted_lane_welford, "Welford state(s) summing shifted "
                                   "deviations, no division per element")):
        if marker in ast.unparse(function):
            function, found = rewrite(function)
            notes.append(f"{found} {what}")
    if not notes:
        raise LaneOnlineDeclined("no online softmax or Welford state")
    return function, f"{'; '.join(notes)}, per lane"


def _configs(kernel, recorded: dict) -> list[LaunchConfig]:
    """The recorded launch configuration first, then outer-tile's tiles for a reduction over a non-last
    dimension, row-wide blocks for long rows, or else retune's spread."""
    block_params = block_params_of(kernel)
    first = recorded_config(kernel, recorded)
    configs = [] if first is None else [first]
    r_numel = (kernel.size_hints or {}).get("r0_") or (kernel.size_hints or {}).get("r")
    if outer_layout(kernel_load_strides(kernel.source, kernel.name)):
        # a reduction over a non-last dimension: outer-tile's wide-x, short-r tiles keep the loads coalesced
        configs += OuterTileProposer().space_for(kernel, block_params)[:SHORT_ROW_CONFIGS]
    elif block_params == ["XBLOCK", "R0_BLOCK"] and r_numel and r_numel >= LONG_ROW:
        for r_block, warps in LONG_ROW_CONFIGS:
            configs.append(LaunchConfig((("XBLOCK", 1), ("R0_BLOCK", min(r_block, next_pow2(r_numel)))), warps, 1))
    else:
        space = RetuneProposer().space(kernel.kind, block_params, kernel.size_hints)
        configs += RetuneProposer(first_round=SHORT_ROW_CONFIGS).order(space, [])[:SHORT_ROW_CONFIGS]
    unique = list(dict.fromkeys(c for c in configs if not config_overruns(kernel.source, c)))
    return unique[:MAX_CONFIGS]
