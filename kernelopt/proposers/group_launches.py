"""A fusion group's launches, some kernels rewritten: where a split reduction's partials go, and the candidate.

A transform that changes which elements each program of a split reduction covers (memory-order re-addresses
them, align-split moves the chunks' ends) leaves each partial result different: it is sound only inside a
fusion group whose later launches merge those partials and nothing else reads them. `partials_merged` checks
that much; `merged_results` follows the partial buffers through every merge of the group and says how many
results they end in (or why they escape), for a transform that moves elements between rows;
`group_candidate` writes every launch of the group in order, the rewritten kernels from their new source.
"""
from __future__ import annotations

import math

from kernelopt.codegen.configs import next_pow2
from kernelopt.inductor_source import strip_heuristics

from .base import RewriteTarget
from .candidate_source import (LaunchConfig, NotRetunable, block_params_of, config_overruns, grid_text,
                               grid_type_of, recorded_config)
from .retune import RetuneProposer

MERGING_KINDS = ("reduction", "persistent_reduction")
MORE_CONFIGS = 3                 # configurations tried beside the recorded one, for a rewritten kernel


class PartialsEscape(Exception):
    """A split reduction's partials are read outside their merges, or not merged inside the group."""


def merged_results(target: RewriteTarget, name: str) -> int:
    """How many results the split kernel's partials are merged into before they leave the group. Each buffer
    it writes must be a scratch slot of the group, read only by later reductions of the group; following
    what those write through scratch slots, every buffer that leaves the group must hold the same number of
    results (else PartialsEscape)."""
    start = _split_launch(target, name)
    pending = [(start, slot) for slot in _written_slots(target, start)]
    seen, results = set(), set()
    while pending:
        writer, slot = pending.pop()
        if (writer, slot) in seen:
            continue
        seen.add((writer, slot))
        if slot not in target.scratch_args and writer != start:
            results.add(math.prod(target.group_args[slot].sizes))
            continue
        pending += [(j, s) for j in _merges(target, writer, slot) for s in _written_slots(target, j)]
    if len(results) != 1:
        raise PartialsEscape(f"its partials leave the group merged into {sorted(results)} results")
    return results.pop()


def partials_merged(target: RewriteTarget, name: str) -> None:
    """Every buffer the split kernel writes is a scratch slot of the group read only by later reductions of
    the group (its merges); what those merges write may go anywhere (else PartialsEscape)."""
    start = _split_launch(target, name)
    for slot in _written_slots(target, start):
        _merges(target, start, slot)


def _split_launch(target: RewriteTarget, name: str) -> int:
    if not target.group_args:
        raise PartialsEscape("its reduction is split across programs: its partials change, which only its fusion "
                             "group may allow")
    return next(i for i, spec in enumerate(target.launches) if spec.kernel == name)


def _written_slots(target: RewriteTarget, launch: int) -> list[int]:
    return [slot for arg, slot in zip(target.launches[launch].args, target.group_positions[launch])
            if arg.is_tensor and arg.written]


def _merges(target: RewriteTarget, writer: int, slot: int) -> list[int]:
    """The later launches of the group that read a buffer of partials `writer` wrote: each must reduce them,
    and the buffer must be scratch (else PartialsEscape)."""
    arg = target.group_args[slot]
    if slot not in target.scratch_args:
        raise PartialsEscape(f"its partial results ({arg.name}) are read after the group")
    readers = [j for j in range(writer + 1, len(target.launches)) if slot in target.group_positions[j]]
    if not readers:
        raise PartialsEscape(f"a buffer of partial results ({arg.name}) is not merged inside the group")
    kinds = {k.name: k.kind for k in target.kernels}
    for j in readers:
        if kinds[target.launches[j].kernel] not in MERGING_KINDS:
            raise PartialsEscape(f"its partial results are read by {target.launches[j].kernel}, which does not "
                                 "reduce them")
    return readers


def launch_configs(kernel, recorded: dict, more: bool) -> tuple[LaunchConfig, ...]:
    """The recorded configuration first; for a rewritten kernel (`more`) a few more from retune's even spread
    (its loads changed, which may want other tiles)."""
    config = recorded_config(kernel, recorded)
    first = () if config is None else (config,)
    if first and not more:
        return first
    space = RetuneProposer().space(kernel.kind, block_params_of(kernel), kernel.size_hints)
    space = [c for c in space if not config_overruns(kernel.source, c) and c not in first]
    if not first and not space:      # a tiny kernel retune's space skips (2 partials merged): one program per row
        space = [c for c in [_smallest(kernel)] if not config_overruns(kernel.source, c)]
    return first + tuple(RetuneProposer(first_round=MORE_CONFIGS).order(space, []))


def _smallest(kernel) -> LaunchConfig:
    """One row per program, the whole (masked) row in one block: valid for any reduction Inductor writes."""
    r_hint = kernel.size_hints.get("r0_", 1)
    blocks = tuple((p, 1 if p != "R0_BLOCK" else next_pow2(max(2, r_hint))) for p in block_params_of(kernel))
    return LaunchConfig(blocks, 1, 1)


def group_candidate(target: RewriteTarget, rewritten: dict[str, str], chosen: dict, header: str,
                    prelude: tuple[str, ...] = (), extra_args: dict[int, str] | None = None, helpers: str = "") -> str:
    """Every launch of the target in order at the `chosen` configurations (launch index -> LaunchConfig), each
    kernel defined once: the rewritten ones from their new source (kernel name -> source), the others from
    their own. A kernel target's run(*args) is its one launch. `prelude`: lines `run` starts with (a scratch
    buffer it allocates, with `torch` imported); `extra_args`: launch index -> what that launch passes after
    its own arguments (a rewritten kernel's added parameters); `helpers`: module-level code (kernels, functions)
    the prelude calls, placed before `run`."""
    kernels = {k.name: k for k in target.kernels}
    parts = [f"# {header}"] + (["import torch"] if prelude else [])
    for name, kernel in kernels.items():
        parts.append(strip_heuristics(rewritten.get(name, kernel.source), name, missing=NotRetunable))
    if helpers:
        parts.append(helpers)
    lines = ["", "def run(*args):"] + [f"    {line}" for line in prelude]
    group = bool(target.group_args)
    for i, spec in enumerate(target.launches):
        kernel, config = kernels[spec.kernel], chosen[i]
        params = [a.name for a in spec.args]
        grid = grid_text(params, kernel.signature, grid_type_of(kernel), config)
        blocks = "".join(f"{k}={v}, " for k, v in config.blocks)
        call_args = ", ".join(f"args[{s}]" for s in target.group_positions[i]) if group else "*args"
        if (extra_args or {}).get(i):
            call_args += f", {extra_args[i]}"
        lines.append(f"    launch = ({call_args},)" if group else "    launch = args")
        lines.append(f"    grid = {grid.replace('args[', 'launch[')}")
        lines.append(f"    {spec.kernel}[grid](*launch, {blocks}num_warps={config.num_warps}, "
                     f"num_stages={config.num_stages})")
        if not group:
            break                    # a kernel target: run(*args) is one launch, called per launch
    return "\n".join(parts) + "\n".join(lines) + "\n"


def with_original_kernels(target: RewriteTarget, source: str, rewritten: dict[str, str]) -> str:
    """A group candidate's module with each rewritten kernel's own code put back (kernel name -> the rewritten
    source it was made from): the same launches at the same configurations, for a side-by-side comparison of
    the code (benchmarks/ptx_census.py)."""
    for name, new in rewritten.items():
        kernel = next(k for k in target.kernels if k.name == name)
        source = source.replace(strip_heuristics(new, name, missing=NotRetunable),
                                strip_heuristics(kernel.source, name, missing=NotRetunable))
    return source


__all__ = ["MERGING_KINDS", "PartialsEscape", "group_candidate", "launch_configs", "merged_results", "partials_merged",
           "with_original_kernels"]
