"""The `split-row` proposer: few, long reduction rows split across programs.

Applies to one Inductor looped-reduction kernel (`kind = reduction`) whose rows are too few to fill
the GPU: fewer than MAX_PROGRAMS_PER_SM x SMs rows, where a program per row leaves most SMs idle
or each program streams megabytes alone. What it does and why it is exact is in structure.py and
phases.py; it is derived from the kernel's statements, whatever the kernel is named or computes.

Rows that read memory together (a group norm over a channels-last tensor: each row reads runs of its group's 4
channels, 16 bytes of every 256, and the next row continues each run) are split XBLOCK at a time
(access_strides.interleaved_rows: enough rows for 128 contiguous bytes), so that one program's loads cover whole
sectors; the programs are counted in such tiles of rows, so many rows can still be too few tiles.

Tunable: the chunk count. Each variant aims at a number of programs per SM (2, 4, 8 waves of the
SM count Inductor compiled the kernel for, 132 on an H200) with an R0_BLOCK / num_warps pair; chunks
are whole R0_BLOCKs of at least MIN_CHUNK elements. Later rounds try the neighbours (half and
double the chunk count) of the fastest legal variant.

Refused, with the reason `declined()` returns (the agentic-rewrite pass puts it in the remarks):
groups, non-reduction kernels, persistent reductions, rows that already fill the GPU, rows too
short for two chunks, and every kernel structure.py cannot prove splittable.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from ..access_strides import kernel_interleaved_rows
from ..base import Attempt, Candidate, RewriteTarget
from .phases import CHUNK_AXIS_LIMIT, Split, candidate_source, phases, split_for
from .structure import NotSplittable, RowKernel, parse_row_kernel

DEFAULT_SMS = 132                 # an H200, when the kernel does not say what it was compiled for
MAX_PROGRAMS_PER_SM = 8
MIN_CHUNK = 256                   # row elements per program, at least
# (programs per SM, R0_BLOCK, num_warps): the first round of the chunk-count search
VARIANTS = ((2, 2048, 8), (4, 2048, 8), (4, 1024, 4), (8, 1024, 4), (8, 2048, 8), (2, 4096, 16))


def compiled_sm_count(source: str) -> int:
    """The SM count in the kernel's DeviceProperties (Inductor writes the device it compiled for)."""
    match = re.search(r"multi_processor_count=(\d+)", source)
    return int(match.group(1)) if match else DEFAULT_SMS


@dataclass(frozen=True)
class SplitPlan:
    kernel: RowKernel
    sms: int
    tensor_position: int
    x_block: int = 1             # rows per program (interleaved_rows), dividing the rows


def plan_split(target: RewriteTarget) -> SplitPlan:
    """Check that split-row applies to `target` (NotSplittable says why not)."""
    if len(target.kernels) != 1 or target.group_args:
        raise NotSplittable("split-row rewrites one reduction kernel, not a group of launches")
    spec = target.kernels[0]
    if spec.kind != "reduction":
        raise NotSplittable(f"{spec.name} is a {spec.kind or 'unknown'} kernel; split-row splits looped reductions "
                            "(a persistent reduction's row already fits one block)")
    kernel = parse_row_kernel(spec.source, spec.name)
    for launch in target.launches:
        if len(launch.args) != len(kernel.params):
            raise NotSplittable(f"{spec.name} is launched with {len(launch.args)} arguments for "
                                f"{len(kernel.params)} parameters")
    sms = compiled_sm_count(spec.source)
    x_block = kernel_interleaved_rows(spec.source, spec.name, spec.signature)
    x_block = x_block if kernel.rows % x_block == 0 else 1
    if kernel.rows // x_block >= MAX_PROGRAMS_PER_SM * sms:
        tiles = f" ({kernel.rows // x_block} tiles of {x_block} rows read together)" if x_block > 1 else ""
        raise NotSplittable(f"{spec.name}: its {kernel.rows} rows{tiles} already give each of {sms} SMs "
                            f"{MAX_PROGRAMS_PER_SM} or more programs")
    if kernel.row_length < 2 * MIN_CHUNK:
        raise NotSplittable(f"{spec.name}: rows of {kernel.row_length} elements are too short to split "
                            f"(chunks of at least {MIN_CHUNK})")
    position = next((i for i, a in enumerate(target.launches[0].args) if a.is_tensor), None)
    if position is None:
        raise NotSplittable(f"{spec.name} is launched without a tensor argument")
    if not phases(kernel):
        raise NotSplittable(f"{spec.name} stores nothing")
    return SplitPlan(kernel, sms, position, x_block)


def variant_split(kernel: RowKernel, sms: int, per_sm: int, r0_block: int, num_warps: int,
                  x_block: int = 1) -> Split | None:
    """The split giving about `per_sm` programs per SM, or None when the row cannot be cut that way. With
    several rows per program the block keeps about the same number of elements (R0_BLOCK / XBLOCK)."""
    r0_block = max(16, r0_block // x_block)
    wanted = -(-per_sm * sms // (kernel.rows // x_block))
    wanted = min(wanted, kernel.row_length // MIN_CHUNK, CHUNK_AXIS_LIMIT)
    if wanted < 2:
        return None
    # a block of at most half a chunk, so that whole blocks cut the row into about `wanted` chunks
    half_chunk = max(1, kernel.row_length // wanted // 2)
    block = min(r0_block, 1 << (half_chunk.bit_length() - 1))
    split = split_for(kernel.row_length, wanted, block, num_warps, x_block=x_block)
    return split if split.chunks >= 2 else None


@dataclass
class SplitRowProposer:
    name: str = "split-row"
    summary: str = ("Split few, long reduction rows across programs: per-chunk partial states, then a "
                    "fixed-order combine with the epilogue (and any second pass over the row, in parallel)")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_split(target)
        except NotSplittable:
            return
        tried = {a.candidate.strategy for a in history if a.candidate.proposer == self.name}
        for split in self._splits(plan, history):
            label = f"split-row {split.label()}"
            if label in tried:
                continue
            tried.add(label)
            kernel = plan.kernel
            yield Candidate(candidate_source(kernel, split, plan.tensor_position), self.name, label,
                            notes=f"{kernel.rows} rows x {split.chunks} chunks = "
                                  f"{kernel.rows // split.x_block * split.chunks} programs "
                                  f"on {plan.sms} SMs; {len(phases(kernel))} launches; reductions: "
                                  f"{', '.join(dict.fromkeys(kernel.reductions))}")

    def _splits(self, plan: SplitPlan, history: list[Attempt]) -> list[Split]:
        kernel = plan.kernel
        best = max((a for a in history if a.accepted and a.speedup and a.candidate.proposer == self.name),
                   key=lambda a: a.speedup, default=None)
        out: list[Split] = []
        if best is None:
            for per_sm, block, warps in VARIANTS:
                split = variant_split(kernel, plan.sms, per_sm, block, warps, plan.x_block)
                if split is not None and split not in out:
                    out.append(split)
            return out
        center = _parse_label(best.candidate.strategy)
        if center is None:
            return out
        for chunks in (center.chunks // 2, center.chunks * 2):
            if 2 <= chunks <= min(CHUNK_AXIS_LIMIT, kernel.row_length // MIN_CHUNK):
                split = split_for(kernel.row_length, chunks, center.r0_block, center.num_warps, x_block=center.x_block)
                if split.chunks >= 2 and split not in out:
                    out.append(split)
        return out

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why split-row does not apply to a reduction or scan kernel ("" when it does, or for other targets)."""
        if target.kind == "kernel" and [k.kind for k in target.kernels] == ["split_scan"]:
            return (f"{target.kernels[0].name} is Inductor's split scan: each row is already split across "
                    "programs, their carries chained through a workspace (retune times its chunk size)")
        if target.kind != "kernel" or not any("reduction" in k.kind for k in target.kernels):
            return ""
        try:
            plan_split(target)
        except NotSplittable as why:
            return str(why)
        return ""


def _parse_label(label: str) -> Split | None:
    values = dict(re.findall(r"(\w+)=(\d+)", label))
    try:
        return Split(int(values["chunks"]), int(values["chunk"]), int(values["R0_BLOCK"]),
                     int(values["num_warps"]), int(values["num_stages"]), int(values.get("XBLOCK", 1)))
    except KeyError:
        return None
