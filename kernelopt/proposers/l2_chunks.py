"""The `l2-chunks` proposer: a fusion group that reads a large input twice runs one chunk of rows at a time,
so that the second read comes from L2 instead of memory.

Inductor writes a norm over few long rows as three launches over the whole tensor: partial statistics per
(row, split), a merge per row, and a pointwise pass that reads the input again to normalise it. Each launch
runs at its bandwidth floor, yet the group reads the input twice from memory: when the pointwise pass
starts, L2 (50-60 MB) holds only the tail of a tensor of hundreds of MB. Run every launch of the group on
rows [r0, r1) before any launch touches the next rows, with few enough rows that what the first launch read
is still in L2 when a later one reads it again, and the second read costs L2 bandwidth.

How: each kernel takes an x range (`ko_x_start`: where its first program starts; `ko_x_stop`: where its x
mask ends) and is launched once per chunk; nothing else in it changes. A group of R rows (R divides every
launch's x extent: the largest such, so a row of one launch is the same row of every other) gives each launch
x_numel / R indices per row, and chunk [r0, r1) launches x in [r0 * x_numel / R, r1 * x_numel / R).

Why it is sound: within a chunk the launches run in program order, and a chunk's launches finish before the
next chunk's start, so every element a launch reads was written before, as in the original, as long as each
row of a later launch reads only what earlier launches wrote for rows of the same or an earlier chunk. That
is what the gate checks with nothing assumed: it poisons every buffer the candidate writes, the group's
scratch included, so a row that read an element before its chunk wrote it computes with the poison (a
signalling NaN, or an integer sentinel) and its output differs from the original's: the candidate is rejected.
"""
from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

from kernelopt.inductor_source import hardcoded_numel, strip_heuristics

from .base import Candidate, RewriteTarget
from .candidate_source import LaunchConfig, block_params_of, config_overruns, recorded_config
from .retune import RetuneProposer

# What a chunk of rows reads that a later launch reads again, in bytes: small enough that it is still in L2
# (50 MB on an H100, 60 on an H200, shared with the writes) when the later launch comes; the search tries
# each, smallest number of launches first.
CHUNK_BYTES = (24 << 20, 12 << 20, 48 << 20)
L2_BYTES = 50 << 20              # a group that reads less than this twice already finds it in L2
MAX_LAUNCHES = 256               # launches per call: beyond this the host's launch cost outweighs the saving
_DTYPE_BYTES = {"float64": 8, "int64": 8, "float32": 4, "int32": 4, "float16": 2, "bfloat16": 2, "int16": 2,
                "int8": 1, "uint8": 1, "bool": 1}
_XOFFSET = re.compile(r"^(\s*)xoffset = tl\.program_id\(0\) \* XBLOCK\s*$", re.M)
_XMASK = re.compile(r"^(\s*)xmask = xindex < xnumel\s*$", re.M)
_XMASK_ALL = re.compile(r"^\s*xmask = tl\.full\(.*\bTrue\b.*\)(\[[^\]]*\])?\s*$", re.M)


class L2ChunksDeclined(Exception):
    """Why l2-chunks offers nothing for a target (the message goes to the remarks)."""


@dataclass(frozen=True)
class XRangeKernel:
    """A kernel that runs x in [ko_x_start, ko_x_stop) instead of [0, xnumel)."""

    source: str
    x_numel: int
    unmasked: bool               # its x mask is all true: a chunk's x extent must be a multiple of XBLOCK


@dataclass(frozen=True)
class _Plan:
    kernels: dict                # kernel name -> XRangeKernel
    rows: int                    # R: the group's rows
    configs: tuple               # per launch: its LaunchConfig
    chunk_rows: tuple            # the chunk sizes to try, in rows, in order


@dataclass
class L2ChunksProposer:
    name: str = "l2-chunks"
    summary: str = ("A fusion group that reads a large input twice runs one chunk of rows at a time, so the "
                    "second read comes from L2")
    l2_bytes: int = L2_BYTES
    chunk_bytes: tuple = CHUNK_BYTES

    def propose(self, target: RewriteTarget, history):
        try:
            plan = _plan(target, self.l2_bytes, self.chunk_bytes)
        except L2ChunksDeclined:
            return
        tried = {a.candidate.strategy for a in history if a.candidate.proposer == self.name}
        for rows in plan.chunk_rows:
            label = f"{self.name} {rows} of {plan.rows} rows per chunk"
            if label not in tried:
                yield Candidate(_candidate(target, plan, rows), self.name, label,
                                notes=f"{-(-plan.rows // rows)} chunks of {rows} rows, each launch per chunk")

    def declined(self, target: RewriteTarget) -> str:
        """Why a group that reads an input twice gets no candidate ('' when it gets some, or when the target is
        not a group: not this transform's kind)."""
        if not target.group_args:
            return ""
        try:
            _plan(target, self.l2_bytes, self.chunk_bytes)
        except L2ChunksDeclined as why:
            return str(why)
        return ""


def x_range_kernel(source: str, name: str) -> XRangeKernel:
    """The kernel with an x range: `ko_x_start, ko_x_stop` added after its run-time parameters, its first
    program at ko_x_start and its x mask ending at ko_x_stop. L2ChunksDeclined for a kernel whose programs
    are not one x block each (a 2-D grid, a split scan) or that reads xnumel for anything but its mask."""
    body = strip_heuristics(source, name, missing=L2ChunksDeclined)
    x_numel = hardcoded_numel(body, "xnumel")
    if x_numel is None:
        raise L2ChunksDeclined(f"{name}'s x extent is not a constant")
    if body.count("tl.program_id") != 1 or len(_XOFFSET.findall(body)) != 1:
        raise L2ChunksDeclined(f"{name}'s programs are not one x block each (a 2-D grid or a split scan)")
    masked, unmasked = len(_XMASK.findall(body)), len(_XMASK_ALL.findall(body))
    if masked + unmasked != 1:
        raise L2ChunksDeclined(f"{name}'s x mask is not `xindex < xnumel`")
    function = next((n for n in ast.parse(body).body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    reads = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == "xnumel"
             and isinstance(n.ctx, ast.Load)]
    if len(reads) != masked:
        raise L2ChunksDeclined(f"{name} reads xnumel beyond its x mask")
    params = [a.arg for a in function.args.args]
    runtime = [a.arg for a in function.args.args if not _is_constexpr(a.annotation)]
    if params[:len(runtime)] != runtime or {"ko_x_start", "ko_x_stop"} & set(params):
        raise L2ChunksDeclined(f"{name}'s parameters are not its run-time ones followed by its constexprs")
    header = re.compile(rf"(def {re.escape(name)}\(.*?\b{re.escape(runtime[-1])}\b)", re.S)
    body = header.sub(r"\1, ko_x_start, ko_x_stop", body, count=1)
    body = _XOFFSET.sub(r"\1xoffset = ko_x_start + tl.program_id(0) * XBLOCK", body)
    body = _XMASK.sub(r"\1xmask = xindex < ko_x_stop", body)
    return XRangeKernel(body, x_numel, unmasked == 1)


def _plan(target: RewriteTarget, l2_bytes: int, chunk_bytes: tuple) -> _Plan:
    if not target.group_args or len(target.launches) < 2:
        raise L2ChunksDeclined("it chunks a fusion group's launches; this target is one kernel")
    if target.zeroed_args:
        raise L2ChunksDeclined("the module zeroes a workspace before the group (a split scan waits on it)")
    kernels = {k.name: k for k in target.kernels}
    reread = _reread_slots(target)
    if not reread:
        raise L2ChunksDeclined("no launch after the first reads again an input the first one reads")
    reread_bytes = sum(_nbytes(target.group_args[s]) for s in reread)
    if reread_bytes <= l2_bytes:
        raise L2ChunksDeclined(f"what it reads twice ({reread_bytes / 2**20:.0f} MiB) fits in L2 already")
    chunked = {name: x_range_kernel(kernel.source, name) for name, kernel in kernels.items()}
    x_numels = [chunked[spec.kernel].x_numel for spec in target.launches]
    rows = math.gcd(*x_numels)
    if rows < 2:
        raise L2ChunksDeclined(f"its launches' x extents ({', '.join(map(str, x_numels))}) share no row count")
    configs = tuple(_launch_config(kernels[spec.kernel], spec.config or {}) for spec in target.launches)
    steps = []                   # per launch: a chunk's x extent must be a multiple of this, in rows
    for spec, config, x_numel in zip(target.launches, configs, x_numels):
        block = dict(config.blocks).get("XBLOCK", 1)
        per_row = x_numel // rows
        steps.append(block // math.gcd(block, per_row) if chunked[spec.kernel].unmasked else 1)
    step = math.lcm(*steps)
    chunk_rows = []
    for budget in chunk_bytes:
        want = budget * rows // reread_bytes // step * step
        launches = -(-rows // max(want, 1)) * len(target.launches)
        if step <= want < rows and launches <= MAX_LAUNCHES and want not in chunk_rows:
            chunk_rows.append(want)
    if not chunk_rows:
        raise L2ChunksDeclined(f"no chunk of its {rows} rows fits in L2 ({reread_bytes / rows / 2**20:.1f} MiB "
                               f"read twice per row) within {MAX_LAUNCHES} launches")
    return _Plan(chunked, rows, configs, tuple(chunk_rows))


def _reread_slots(target: RewriteTarget) -> list[int]:
    """Group slots that are inputs of the group (not written by it) read by the first launch and again later."""
    written = {s for spec, slots in zip(target.launches, target.group_positions)
               for a, s in zip(spec.args, slots) if a.is_tensor and a.written}
    first = {s for a, s in zip(target.launches[0].args, target.group_positions[0]) if a.is_tensor}
    later = {s for slots in target.group_positions[1:] for s in slots}
    return sorted(s for s in first & later if s not in written)


def _nbytes(arg) -> int:
    return math.prod(arg.sizes) * _DTYPE_BYTES.get(arg.dtype, 4)


def _launch_config(kernel, recorded: dict) -> LaunchConfig:
    """The capture's configuration, else the first of retune's for the kernel (a capture in default mode
    records none: Inductor's runtime picks at the first call)."""
    config = recorded_config(kernel, recorded)
    if config is not None:
        return config
    space = [c for c in RetuneProposer().space(kernel.kind, block_params_of(kernel), kernel.size_hints)
             if not config_overruns(kernel.source, c)]
    if not space:
        raise L2ChunksDeclined(f"{kernel.name} has no launch configuration to run it at")
    return RetuneProposer().order(space, [])[0]


def _candidate(target: RewriteTarget, plan: _Plan, chunk_rows: int) -> str:
    """run(*args): for each chunk of rows, every launch of the group over that chunk's x range."""
    parts = [f"# l2-chunks: {chunk_rows} of {plan.rows} rows per chunk"]
    parts += [found.source for found in plan.kernels.values()]
    lines = ["", "def run(*args):", f"    for row in range(0, {plan.rows}, {chunk_rows}):",
             f"        stop = min(row + {chunk_rows}, {plan.rows})"]
    for i, (spec, config) in enumerate(zip(target.launches, plan.configs)):
        per_row = plan.kernels[spec.kernel].x_numel // plan.rows
        block = dict(config.blocks).get("XBLOCK", 1)
        blocks = "".join(f"{k}={v}, " for k, v in config.blocks)
        call_args = ", ".join(f"args[{s}]" for s in target.group_positions[i])
        lines.append(f"        {spec.kernel}[(triton.cdiv((stop - row) * {per_row}, {block}), 1, 1)]({call_args}, "
                     f"row * {per_row}, stop * {per_row}, {blocks}num_warps={config.num_warps}, "
                     f"num_stages={config.num_stages})")
    return "\n\n".join(parts) + "\n".join(lines) + "\n"


def _is_constexpr(annotation) -> bool:
    return annotation is not None and "constexpr" in ast.unparse(annotation)

