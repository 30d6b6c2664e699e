"""retune: search over a Triton kernel's launch parameters (block sizes, num_warps, num_stages).

Round one spreads candidates over the space around what Inductor would pick; later rounds take the
fastest legal configurations so far and propose their neighbours (one parameter one step away), a
beam search over configurations. Looped <-> persistent reduction changes need a code transformation
and are the `templates`/`llm` proposers' business, not this one's.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Iterator

from kernelopt.codegen.configs import next_pow2
from kernelopt.inductor_source import hardcoded_numel

from .access_strides import SECTOR_BYTES, coalesced_rows, kernel_interleaved_rows
from .base import Attempt, Candidate, RewriteTarget
from .candidate_source import (LaunchConfig, NotRetunable, block_params_of, candidate_source, config_overruns,
                               grid_rule, grid_type_of, recorded_config)

POINTWISE_X = (64, 128, 256, 512, 1024, 2048)
# A pointwise kernel tiled in two dimensions (a layout change: NCHW <-> channels-last): square and long tiles
# of 256-4096 elements, 1-16 per thread. Inductor's y grid stops at 65535 programs.
POINTWISE_TILE = (4, 8, 16, 32, 64, 128, 256, 512, 1024)
POINTWISE_TILE_ELEMENTS = (256, 4096)
MAX_GRID_Y = 65535
REDUCTION_X = (1, 2, 4, 8, 16, 32, 64)
REDUCTION_R = (64, 128, 256, 512, 1024, 2048, 4096)
WARPS = (1, 2, 4, 8, 16, 32)
STAGES = (1, 2, 3)
MAX_ELEMENTS_PER_PROGRAM = 32768
# A reduction's block held per thread: past 64 elements it spills its registers and takes tens of seconds
# to compile (an XBLOCK=32 R0_BLOCK=512 tile on 2 warps took 21.7 s and ran 0.02x on an H200); under one
# element some threads hold nothing (kept only where the rows allow nothing else). Configurations outside
# are not worth a candidate's time.
MAX_ELEMENTS_PER_THREAD = 64
# A split scan's chunk (R0_BLOCK) and warps: one program per chunk of a row, carries chained through the
# workspace. Inductor's autotuner picks among a few of these in a noisy benchmark (a capture on an H100
# recorded R0_BLOCK=4096 with 16 warps, 1.2x slower than the 8192 with 4 warps a fresh process picked), so
# the search times them itself. Chunks below Inductor's smallest (min_split_scan_rblock, 256) would
# overrun the workspace it sized.
SPLIT_SCAN_R = (1024, 2048, 4096, 8192, 16384)
SPLIT_SCAN_WARPS = (4, 8, 16)
SPLIT_SCAN_MAX_BLOCK_PER_WARP = 4096       # 128 fp32 per thread: past it a chunk spills its registers


@dataclass
class RetuneProposer:
    name: str = "retune"
    summary: str = "Search the kernel's launch parameters: block sizes, num_warps, num_stages"
    beam: int = 3
    first_round: int = 8

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        if len(target.kernels) != 1 or target.group_args:
            return
        kernel = target.kernels[0]
        space, _ = self._relaunchable(kernel)
        if not space:
            return
        tried = {a.candidate.strategy for a in history if a.candidate.proposer == self.name}
        ordered = self.order(space, history)
        for config in ordered:
            label = f"{self.name} {config.label()}"
            if label in tried:
                continue
            try:
                source = candidate_source(kernel.source, kernel.name, [a.name for a in target.launches[0].args],
                                          kernel.signature, grid_type_of(kernel), config, header=self.name)
            except NotRetunable:
                return
            yield Candidate(source, self.name, label, launch_config=(
                *config.blocks, ("num_warps", config.num_warps), ("num_stages", config.num_stages)))

    def declined(self, target: RewriteTarget) -> str:
        """Why a Triton kernel gets no configuration to time ('' when it gets some, or is a group or a library
        call): the user sees that retune looked at it."""
        if len(target.kernels) != 1 or target.group_args or target.kernels[0].kind in ("", "vendor"):
            return ""
        space, why = self._relaunchable(target.kernels[0])
        return "" if space else f"{target.kernels[0].name}: {why}"

    def _relaunchable(self, kernel) -> tuple[list[LaunchConfig], str]:
        """The configurations to time, or none and why: a grid only Inductor's runtime launches, no space for
        the kernel's block sizes, or every block running past an extent whose mask Inductor dropped."""
        try:
            grid_rule(kernel.signature, grid_type_of(kernel))
        except NotRetunable as why:
            return [], str(why)
        block_params = block_params_of(kernel)
        space = self.space_for(kernel, block_params)
        if not space:
            return [], (f"no launch configuration to search for a {kernel.kind} kernel with block sizes "
                        f"{', '.join(block_params) or 'none'} at size hints {kernel.size_hints}")
        overruns = [config_overruns(kernel.source, c) for c in space]
        kept = [c for c, overrun in zip(space, overruns) if not overrun]
        return kept, "" if kept else f"every configuration would run past the tensors: {overruns[0]}"

    def space_for(self, kernel, block_params: list[str]) -> list[LaunchConfig]:
        """The configurations to search for this kernel (a subclass may read more of the kernel). A reduction
        over a non-last dimension reads XBLOCK neighbouring elements per r step: a tile narrower than a DRAM
        sector wastes most of every sector it reads (XBLOCK=1 on a bf16 softmax over channels ran 0.07x and
        0.09x of Inductor's on an H200), so those tiles are left out; wide ones are outer-tile's to try."""
        space = self.space(kernel.kind, block_params, kernel.size_hints)
        if kernel.kind not in ("reduction", "persistent_reduction") or "XBLOCK" not in block_params:
            return space
        rows = coalesced_rows(kernel.source, kernel.name, kernel.signature, hardcoded_numel(kernel.source, "xnumel"),
                              hardcoded_numel(kernel.source, "r0_numel"), width=SECTOR_BYTES)
        # rows whose short runs along r the next row continues (a group norm over channels-last): a sector's worth
        rows = max(rows, kernel_interleaved_rows(kernel.source, kernel.name, kernel.signature, width=SECTOR_BYTES))
        rows = min(rows, next_pow2(kernel.size_hints.get("x", rows)))    # fewer rows than a sector: all of them
        return [c for c in space if dict(c.blocks).get("XBLOCK", 1) >= rows]

    def space(self, kind: str, block_params: list[str], size_hints: dict) -> list[LaunchConfig]:
        x_hint = size_hints.get("x", 1 << 20)
        r_hint = size_hints.get("r0_", 1)
        configs = []
        if kind == "pointwise" and block_params == ["XBLOCK"]:
            for x, w in itertools.product(POINTWISE_X, WARPS[:4]):
                if x <= next_pow2(x_hint) and x >= 32 * w:
                    configs.append(LaunchConfig((("XBLOCK", x),), w, 1))
        elif kind == "pointwise" and block_params == ["XBLOCK", "YBLOCK"]:
            y_hint = size_hints.get("y", 1 << 20)
            low, high = POINTWISE_TILE_ELEMENTS
            for x, y, w in itertools.product(POINTWISE_TILE, POINTWISE_TILE, WARPS[1:4]):
                if (low <= x * y <= high and 32 * w <= x * y <= 16 * 32 * w and x <= next_pow2(x_hint)
                        and y <= next_pow2(y_hint) and -(-y_hint // y) <= MAX_GRID_Y):
                    configs.append(LaunchConfig((("XBLOCK", x), ("YBLOCK", y)), w, 1))
        elif kind == "reduction" and block_params == ["XBLOCK", "R0_BLOCK"]:
            # rows shorter than the smallest block: the whole row in one block (its loop runs once)
            r_blocks = REDUCTION_R if next_pow2(r_hint) >= REDUCTION_R[0] else (next_pow2(r_hint),)
            for x, r, w, s in itertools.product(REDUCTION_X, r_blocks, WARPS[1:], STAGES[:2]):
                if x * r <= MAX_ELEMENTS_PER_PROGRAM and r <= next_pow2(r_hint) and x <= next_pow2(x_hint):
                    configs.append(LaunchConfig((("XBLOCK", x), ("R0_BLOCK", r)), w, s))
        elif kind == "split_scan" and block_params == ["R0_BLOCK"]:
            for w, r in itertools.product(SPLIT_SCAN_WARPS, SPLIT_SCAN_R):     # the first round sees every chunk
                if r <= next_pow2(r_hint) and r <= SPLIT_SCAN_MAX_BLOCK_PER_WARP * w:
                    configs.append(LaunchConfig((("R0_BLOCK", r),), w, 1))
        elif kind == "persistent_reduction" and block_params in (["XBLOCK"], []):
            rows = REDUCTION_X if block_params else (1,)
            for x, w in itertools.product(rows, WARPS[1:]):
                if x * next_pow2(r_hint) <= MAX_ELEMENTS_PER_PROGRAM and x <= next_pow2(x_hint):
                    configs.append(LaunchConfig((("XBLOCK", x),) if block_params else (), w, 1))
        if kind in ("reduction", "persistent_reduction"):
            # no thread holding more than MAX_ELEMENTS_PER_THREAD; none holding nothing, unless the rows are
            # too small for anything else
            fits = [c for c in configs if _block_elements(c, r_hint) <= MAX_ELEMENTS_PER_THREAD * 32 * c.num_warps]
            busy = [c for c in fits if _block_elements(c, r_hint) >= 32 * c.num_warps]
            configs = busy or fits
        return configs

    def order(self, space: list[LaunchConfig], history: list[Attempt]) -> list[LaunchConfig]:
        """First round: an even spread; later: neighbours of the `beam` fastest legal configs."""
        winners = sorted((a for a in history if a.accepted and a.speedup and a.candidate.proposer == self.name),
                         key=lambda a: -a.speedup)[: self.beam]
        if not winners:
            step = max(1, len(space) // self.first_round)
            return space[::step][: self.first_round]
        by_label = {f"{self.name} {c.label()}": c for c in space}
        out = []
        for attempt in winners:
            center = by_label.get(attempt.candidate.strategy)
            if center is not None:
                out += sorted((c for c in space if config_distance(c, center) == 1), key=lambda c: c.label())
        return out


def recorded_or_spread(kernel, recorded: dict, spread: int) -> list[LaunchConfig]:
    """The launch configuration the capture recorded (the one the original runs at, so a transform is timed
    against it at equal blocks); without one, `spread` configurations evenly taken from retune's space, none
    running past an extent whose mask Inductor dropped. For transforms that rewrite a kernel's code."""
    first = recorded_config(kernel, recorded)
    if first is not None:
        return [first]
    space = [c for c in RetuneProposer().space_for(kernel, block_params_of(kernel))
             if not config_overruns(kernel.source, c)]
    return RetuneProposer(first_round=spread).order(space, [])


def own_schedule_candidates(proposer: str, variant: str, module: str, target, tried: set[str], notes: str,
                            spread: int) -> Iterator[Candidate]:
    """Candidates of a transform that rewrites a kernel's code but keeps its schedule: `module` (the rewritten
    kernel's source) at the recorded launch configuration, or at `spread` of retune's (recorded_or_spread),
    labelled `<variant> <config>`; labels in `tried` are skipped, and so is a configuration it cannot launch."""
    kernel, launch = target.kernels[0], target.launches[0]
    for config in recorded_or_spread(kernel, launch.config or {}, spread):
        label = f"{variant} {config.label()}"
        if label in tried:
            continue
        try:
            source = candidate_source(module, kernel.name, [a.name for a in launch.args], kernel.signature,
                                      grid_type_of(kernel), config, header=variant)
        except NotRetunable:
            continue
        yield Candidate(source, proposer, label, notes=notes)


def _block_elements(config: LaunchConfig, r_hint: int) -> int:
    blocks = dict(config.blocks)
    return blocks.get("XBLOCK", 1) * blocks.get("R0_BLOCK", next_pow2(r_hint))


def config_distance(a: LaunchConfig, b: LaunchConfig) -> int:
    """Parameters that differ by one step (a factor of 2 in blocks/warps, one stage)."""
    diff = 0
    for (ka, va), (kb, vb) in zip(a.blocks, b.blocks):
        if ka != kb:
            return 99
        if va != vb:
            diff += 1 if max(va, vb) == 2 * min(va, vb) else 99
    if a.num_warps != b.num_warps:
        diff += 1 if max(a.num_warps, b.num_warps) == 2 * min(a.num_warps, b.num_warps) else 99
    if a.num_stages != b.num_stages:
        diff += 1 if abs(a.num_stages - b.num_stages) == 1 else 99
    return diff

