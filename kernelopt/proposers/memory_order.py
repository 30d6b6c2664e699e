"""The `memory-order` proposer: a reduction that walks a permuted tensor in logical order walks it in memory order.

traversal.py reads and rewrites one kernel (a mean over C, H and W of a channels-last tensor reads a
sector per element; re-addressed, a row of positions is a run of contiguous memory). Where the positions
are the reduction's own r index, each row reduces the same elements in another order, and the kernel is
a target by itself. Where Inductor split the reduction across programs (the positions span x names too),
each program's partial result now covers other elements: the rewrite is only sound inside a fusion group
whose next launches merge those partials (sum them, take their max) and nothing else reads them, so the
partial buffers must be the group's scratch slots, and the results that leave the group must each merge a
whole outer key or an equal part of one (a group that detect-fusion's max-group cut after its first merge:
positions then trade places only within each part). That is proven, not inferred from buffer sizes: the
first outer key's partials are followed element by element through the merges (row_access.py), each read
once, no row mixing two parts or keys, each result holding one part whole. The gate then checks the
group's real results.

Every launch of the group is in the candidate, the re-addressed kernels at their recorded configuration
and a few of retune's, the others exactly as recorded.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernelopt.inductor_source import strip_heuristics

from .base import Candidate, RewriteTarget
from .candidate_source import NotRetunable, block_params_of, config_overruns
from .group_launches import MERGING_KINDS, PartialsEscape, group_candidate, launch_configs, merged_results
from .group_launches import with_original_kernels as original_group
from .retune import RetuneProposer, config_distance
from .row_access import RowAccessUnknown, row_access
from .traversal import NO_DIGITS, NOT_A_REDUCTION, NotPermuted, Retraversal, retraverse

NEIGHBOURS = 4                   # configurations a step from the fastest, asked for in a later round


class MemoryOrderDeclined(Exception):
    """Why memory-order offers nothing for a target (the message goes to the remarks)."""


@dataclass(frozen=True)
class _Plan:
    rewritten: dict                  # kernel name -> Retraversal
    configs: dict                    # launch index -> tuple[LaunchConfig, ...] (first: the one to keep)


@dataclass
class MemoryOrderProposer:
    name: str = "memory-order"
    summary: str = ("A reduction that walks a permuted (channels-last) tensor in logical order reads it in "
                    "memory order; split partials are re-covered inside their fusion group")

    def propose(self, target: RewriteTarget, history):
        try:
            plan = _plan(target)
        except MemoryOrderDeclined:
            return
        mine = [a for a in history if a.candidate.proposer == self.name]
        tried = {a.candidate.strategy for a in mine}
        varied = [i for i, spec in enumerate(target.launches) if spec.kernel in plan.rewritten]
        rounds = [{i: configs[min(n, len(configs) - 1)] for i, configs in plan.configs.items()}
                  for n in range(max(len(plan.configs[i]) for i in varied))]
        rounds += _neighbours(target, plan, varied, mine)
        for chosen in rounds:
            label = f"{self.name} " + "; ".join(f"{target.launches[i].kernel} {chosen[i].label()}" for i in varied)
            if label in tried:
                continue
            tried.add(label)
            try:
                source = group_candidate(target, {n: f.source for n, f in plan.rewritten.items()}, chosen,
                                         f"memory-order: {', '.join(sorted(plan.rewritten))} read in memory order")
            except NotRetunable:
                return
            yield Candidate(source, self.name, label, notes=_notes(plan))

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a reduction that reads a permuted tensor gets no candidate ('' when it gets some, or when no
        kernel of the target reads one: not this transform's kind of kernel)."""
        try:
            _plan(target)
        except MemoryOrderDeclined as why:
            return str(why)
        return ""


def _plan(target: RewriteTarget) -> _Plan:
    kernels = {k.name: k for k in target.kernels}
    rewritten: dict[str, Retraversal] = {}
    reasons = []
    for name, kernel in kernels.items():
        if kernel.kind not in MERGING_KINDS:
            continue
        try:
            rewritten[name] = retraverse(kernel.source, name)
        except NotPermuted as why:
            if str(why) not in (NO_DIGITS, NOT_A_REDUCTION):     # a near miss is worth a remark
                reasons.append(f"{name}: {why}")
    if not rewritten:
        raise MemoryOrderDeclined("; ".join(reasons))
    for name, found in list(rewritten.items()):
        if not found.split:
            continue
        try:
            unit = _merge_unit(found, merged_results(target, name))
            if unit != found.count:      # the group merges parts of an outer key alone: permute within them
                rewritten[name] = retraverse(kernels[name].source, name, unit)
            _prove_merges(target, name, rewritten[name])
        except (MemoryOrderDeclined, NotPermuted, PartialsEscape) as why:
            del rewritten[name]
            reasons.append(f"{name}: {why}")
    if not rewritten:
        raise MemoryOrderDeclined("; ".join(reasons))
    configs = {}
    launches = target.launches if target.group_args else target.launches[:1]   # a kernel target: one run()
    for i, spec in enumerate(launches):
        kernel = kernels[spec.kernel]
        configs[i] = launch_configs(kernel, spec.config or {}, more=spec.kernel in rewritten)
        if not configs[i]:
            raise MemoryOrderDeclined(f"{spec.kernel} has no launch configuration to run it at")
    return _Plan(rewritten, configs)


def _merge_unit(found: Retraversal, results: int) -> int:
    """The positions one result of the group merges: a whole outer key (or several), or an equal part of one
    (Inductor splits a key into consecutive chunks of positions, and a group that stops before the last merge
    leaves one result per chunk). Only positions within such a unit may trade places."""
    keys = found.outer_keys
    if results <= keys and keys % results == 0:
        return found.count
    if results % keys == 0 and found.count % (results // keys) == 0:
        return found.count // (results // keys)
    raise MemoryOrderDeclined(f"the group merges its partials into {results} results for {keys} outer keys")


def _neighbours(target: RewriteTarget, plan: _Plan, varied: list[int], mine: list) -> list[dict]:
    """Later rounds: the configurations one step from the fastest legal one so far (a factor of 2 in XBLOCK or
    warps), for a group with one re-addressed launch; the others keep theirs."""
    winners = sorted((a for a in mine if a.accepted and a.speedup), key=lambda a: -a.speedup)
    if len(varied) != 1 or not winners:
        return []
    index = varied[0]
    kernel = next(k for k in target.kernels if k.name == target.launches[index].kernel)
    space = [c for c in RetuneProposer().space(kernel.kind, block_params_of(kernel), kernel.size_hints)
             if not config_overruns(kernel.source, c)]
    best = next((c for c in space + list(plan.configs[index])
                 if winners[0].candidate.strategy.endswith(f"{kernel.name} {c.label()}")), None)
    if best is None:
        return []
    base = {i: configs[0] for i, configs in plan.configs.items()}
    return [{**base, index: c} for c in space if config_distance(c, best) == 1][:NEIGHBOURS]


def _prove_merges(target: RewriteTarget, name: str, found: Retraversal) -> None:
    """Follow the first outer key's partial results through the group, element by element (row_access.py):
    every row of a later launch that reads them reads one unit's only, and each result that leaves the
    group holds every partial of its unit, once. Else MemoryOrderDeclined, saying what mixes or is missing."""
    kernels = {k.name: k for k in target.kernels}
    start = next(i for i, spec in enumerate(target.launches) if spec.kernel == name)
    units = np.asarray(found.row_units)
    expected = {int(u): int(n) for u, n in zip(*np.unique(units[units >= 0], return_counts=True))}
    try:
        stores = row_access(kernels[name].source, name, rows=len(units), loads=False).stores
        held = {}                     # group slot -> {element offset: (unit, partials merged into it)}
        for arg, slot in zip(target.launches[start].args, target.group_positions[start]):
            if arg.is_tensor and arg.written:
                held[slot] = {int(o): (int(u), 1) for o, u in zip(stores[arg.name], units) if o >= 0 and u >= 0}
        for j in range(start + 1, len(target.launches)):
            spec, slots = target.launches[j], target.group_positions[j]
            read = [(a.name, s) for a, s in zip(spec.args, slots) if a.is_tensor and s in held]
            if not read:
                continue
            access = row_access(kernels[spec.kernel].source, spec.kernel)
            rows: dict[int, tuple[set, int]] = {}
            for param, slot in read:
                counts: dict[int, int] = {}
                others: set[int] = set()          # rows that read this buffer outside the first key's partials
                row_of, offsets = access.reads.get(param, (np.zeros(0, np.int64), np.zeros(0, np.int64)))
                for row, offset in zip(row_of.tolist(), offsets.tolist()):
                    if offset not in held[slot]:
                        others.add(row)
                        continue
                    unit, n = held[slot][offset]
                    rows.setdefault(row, (set(), 0))[0].add(unit)
                    counts[row] = counts.get(row, 0) + n
                if others & counts.keys():
                    raise MemoryOrderDeclined(f"{spec.kernel} merges the first outer key's partials with others")
                taken = [o for o in offsets.tolist() if o in held[slot]]
                if len(taken) != len(set(taken)) or set(taken) != held[slot].keys():
                    raise MemoryOrderDeclined(f"{spec.kernel} does not read each partial of {param} once")
                for row, n in counts.items():     # several buffers of one state (Welford): the same partials
                    rows[row] = (rows[row][0], max(rows[row][1], n))
            for row, (seen, _) in rows.items():
                if len(seen) != 1:
                    raise MemoryOrderDeclined(f"{spec.kernel} merges partials of {len(seen)} parts in one row")
            for arg, slot in zip(spec.args, slots):
                if arg.is_tensor and arg.written and arg.name in access.stores:
                    where = access.stores[arg.name]
                    held[slot] = {int(where[row]): (next(iter(seen)), n) for row, (seen, n) in rows.items()
                                  if where[row] >= 0}
    except RowAccessUnknown as why:
        raise MemoryOrderDeclined(f"its partials' merges are not read: {why}") from None
    except (ArithmeticError, LookupError, TypeError, ValueError, MemoryError, SyntaxError) as error:  # noqa: BLE001
        # a merge kernel of a form row_access did not foresee: no candidate, never a failed search
        raise MemoryOrderDeclined(f"its partials' merges are not read ({type(error).__name__}: {error})") from None
    for slot, elements in held.items():
        if slot in target.scratch_args or not elements:
            continue
        merged = {}
        for unit, n in elements.values():
            merged.setdefault(unit, []).append(n)
        if merged != {u: [n] for u, n in expected.items()}:
            raise MemoryOrderDeclined(f"the group's result {target.group_args[slot].name} does not hold each part's "
                                      "partials whole, once")


def with_original_kernels(target: RewriteTarget, source: str) -> str:
    """A memory-order candidate's module with each re-addressed kernel's own code put back (ptx_census.py)."""
    return original_group(target, source, {name: found.source for name, found in _plan(target).rewritten.items()})


def _notes(plan: _Plan) -> str:
    return "; ".join(f"{name}: positions {' + '.join(found.positions)} ({found.count} per outer key) read "
                     f"in memory order" + (", its partials merged in the group" if found.split else "")
                     for name, found in sorted(plan.rewritten.items()))
