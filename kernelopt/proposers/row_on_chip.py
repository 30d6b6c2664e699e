"""row-on-chip: run a looped reduction kernel that reads each row k >= 2 times as one pass over the row.

Inductor's looped reductions (see `row_loops`) stream the row from memory once per r-loop: a layer norm
twice or three times, a softmax three times. When the row fits in registers, one program can hold it:

1. launch the kernel's own code with R0_BLOCK = next_power_of_2(r0_numel), so every r-loop runs exactly
   once over the whole (masked) row. Inductor writes its kernels for any power-of-two R0_BLOCK (it
   autotunes over it), so this is the original computation: the same combine functions, accumulation
   dtypes and tie-breaking, only summed in the order of one R0_BLOCK-wide tile, as a persistent kernel
   would;
2. unroll each loop (it runs once: `r0_offset = 0`, then its body), which puts every pass in one
   straight-line body;
3. replace each later load of data an earlier pass already read (same pointer, mask and `other` by
   value number, no store to that pointer in between) with the registers of the first read, and mark
   that read `evict_first`: the row now comes from memory once. A later load of what an earlier pass stored
   (same pointer and mask, no other store to that pointer in between: a softmax that stores its exponentials
   and divides them in a third pass, an in-place update copied back) becomes the stored value, cast to the
   pointer's floating-point element type, where the load's mask is on, and its `other` where it is off.

An online softmax (Inductor's per-lane running max and sum) is written in block form (`block_online`):
with the row in one block, that is the row's max, then one exponential per element, instead of three and
two row-wide tiles of running values. Max and min run on the GPU's NaN-propagating instruction
(`hardware_minmax`).

Where a reused read crosses a store to another pointer (e.g. a statistic stored between passes), the
two tensors could share memory at run time; the candidate then checks for overlap on each call and
launches the unrolled kernel without reuse (still one tile, still correct) when they do.

Applies to `reduction` kernels with at least two r-loops that read (or store and read back) the same data,
a hard-coded row length, an r mask (`r0_index < r0_numel`) unless the row length is a power of two, Grid1D
launches and no constexprs other than XBLOCK and R0_BLOCK. The row must fit the register budget: XBLOCK x R0_BLOCK x
(rows of data kept across passes) at most MAX_TILE_VALUES, at most VALUES_PER_THREAD per thread.
Variants: num_warps 4, 8, 16, 32 and rows per program (XBLOCK) 1, 2, 4, ... (a divisor of xnumel where
Inductor dropped the x mask). Where every store writes a 16-bit float and the kernel takes precise
exponentials, each configuration comes first with fast ones (`+fast-exp`, see `exp_forms`): with the
row in registers, the compiler then computes the output's exponential and the sum's once. Everything
else is declined with a reason (`declined`), which the agentic-rewrite pass reports as a remark.
"""
from __future__ import annotations

import ast
import copy
import math
import re
from dataclasses import dataclass
from typing import Iterable

from .access_strides import coalesced_rows
from kernelopt.inductor_source import access_mask, load_other

from .base import Attempt, Candidate, RewriteTarget
from .block_online import BlockOnlineDeclined, blockwise_states
from .candidate_source import TL_DTYPES, NotRetunable, grid_rule
from .exp_forms import precise_exps, wide_store, with_fast_exp
from .hardware_minmax import with_hardware_minmax
from .row_loops import LoopNestUnsupported, RowLoopNest, analyse_loop_nest
from .row_registers import node_position, overlap_guarded_run, with_registers

MAX_TILE_VALUES = 32768        # 32-bit values of row data one program keeps live (half an SM's registers)
VALUES_PER_THREAD = 64         # ... and per thread, leaving room for the rest of the kernel
# 32 warps (1,024 threads) only pays on the longest rows: a 32,768-wide bf16 cross-entropy row at 16 warps keeps
# 64 values per thread and ran at 61 % of its floor on the H100; elsewhere the measured winners stand
WARPS = (4, 8, 16, 32)
ROWS_PER_PROGRAM = (1, 2, 4, 8, 16, 32, 64)
MAX_VARIANTS = 6
SM_COUNT = 132                 # H200; programs below 2 per SM leave the card under-filled
# Rows side by side (a reduction over a non-last dimension) that one program should take: 64 contiguous
# bytes, two DRAM sectors. The whole row stays in registers here, so a wider tile costs registers: on the
# H200's bf16 softmax over channels (rows of 512), 32 rows on 16 warps ran 1.187x Inductor's, 64 rows (the
# 128 bytes outer-tile aims for) 1.007x.
WIDE_BYTES = 64
_ALLOWED_CONSTEXPRS = {"XBLOCK", "R0_BLOCK"}


class RowOnChipDeclined(Exception):
    """The kernel is outside what this transform supports; the message says why."""


@dataclass(frozen=True)
class RowOnChipPlan:
    nest: RowLoopNest
    kernel: str
    row_block: int                       # R0_BLOCK: the whole row, padded to a power of two
    kept_rows: int                       # distinct row reads kept in registers across passes
    reused_params: tuple[str, ...]       # pointers whose reloads are served from registers
    overlap_checks: tuple[tuple[int, int], ...]   # (loaded, stored) launch positions to test at run time
    grid_position: int                   # launch position of xnumel
    variants: tuple[tuple[int, int], ...]        # (XBLOCK, num_warps), best first
    fast_exp: bool = False               # 16-bit stores only, precise exponentials: a +fast-exp form too
    forwards: tuple[tuple[tuple, tuple, str], ...] = ()   # (store position, load position, element type): a row
                                                          # stored in one pass and read back in a later one

    @property
    def description(self) -> str:
        combines = sorted({a.combine for a in self.nest.accumulators})
        return (f"{len(self.nest.loops)} r-loops -> 1 pass; rows of {self.nest.r_numel} in one "
                f"R0_BLOCK={self.row_block} tile; reloads of {', '.join(self.reused_params)} served from registers"
                + (f" ({len(self.forwards)} of them what an earlier pass stored)" if self.forwards else "")
                + f"; reductions: {', '.join(combines) or 'none'}")


def plan_row_on_chip(target: RewriteTarget) -> RowOnChipPlan:
    """Check the target against what the transform supports and choose its variants."""
    if len(target.kernels) != 1 or target.group_args or not target.launches:
        raise RowOnChipDeclined("not a single kernel")
    kernel = target.kernels[0]
    if kernel.kind != "reduction":
        raise RowOnChipDeclined(f"a {kernel.kind or 'unknown'} kernel, not a looped reduction")
    try:
        nest = analyse_loop_nest(kernel.source, kernel.name)
    except LoopNestUnsupported as why:
        raise RowOnChipDeclined(str(why)) from None
    extra = set(nest.constexprs) - _ALLOWED_CONSTEXPRS
    if extra:
        raise RowOnChipDeclined(f"constexpr parameters {sorted(extra)} besides XBLOCK and R0_BLOCK")
    if len(nest.loops) < 2:
        raise RowOnChipDeclined("one r-loop: the row is already read once")
    reloads = nest.reloads()
    element_types = {a.name: a.dtype for a in target.launches[0].args if a.is_tensor}
    forwards = _forwards(nest, reloads, element_types)
    if not reloads and not forwards:
        raise RowOnChipDeclined(f"{len(nest.loops)} r-loops, but no later loop reads data an earlier one read "
                                "or stored (with the same pointer, mask and no store in between)")
    if nest.r_numel is None or nest.r_numel < 1:
        raise RowOnChipDeclined("the row length (r0_numel) is not a constant in the kernel (dynamic shapes)")
    row_block = 1 << (nest.r_numel - 1).bit_length()
    if nest.r_mask != "compare" and row_block != nest.r_numel:
        raise RowOnChipDeclined(f"the r-loops have no `r0_index < r0_numel` mask (r0_mask is {nest.r_mask}); a "
                                f"tile of {row_block} would run past rows of {nest.r_numel}")
    kept = {first.key for first, _ in reloads if first.row}
    kept_rows = max(1, len(kept) + len({position for position, _, _ in forwards}))
    if row_block * kept_rows > MAX_TILE_VALUES:
        raise RowOnChipDeclined(f"rows of {nest.r_numel} (a tile of {row_block}) x {kept_rows} row reads kept across "
                                f"passes exceed the register budget of {MAX_TILE_VALUES} values per program "
                                "(staging the row in shared memory is not implemented)")
    positions = _launch_positions(target, nest)
    grid_position = _grid_position(kernel, nest, positions)
    wide = coalesced_rows(kernel.source, kernel.name, kernel.signature, nest.x_numel, nest.r_numel, WIDE_BYTES)
    variants = _variants(nest, row_block, kept_rows, wide)
    if not variants:
        raise RowOnChipDeclined(f"no XBLOCK divides xnumel={nest.x_numel} within the register budget")
    fast_exp = precise_exps(nest.function) > 0 and not wide_store(nest.function, element_types)
    forwarded = [(store, later) for store, later in nest.forwards()
                 if node_position(later.node) in {load for _, load, _ in forwards}]
    return RowOnChipPlan(nest, kernel.name, row_block, kept_rows,
                         tuple(sorted({first.param for first, _ in reloads + forwarded})),
                         _overlap_checks(nest, reloads + forwarded, positions), grid_position, variants, fast_exp,
                         forwards)


def _forwards(nest: RowLoopNest, reloads, element_types: dict[str, str]) -> tuple[tuple[tuple, tuple, str], ...]:
    """The reads of a row an earlier pass stored that the single pass takes from the stored registers: a
    floating-point pointer (its value then reads back as the stored value cast to that type, exactly), and a
    read that no reuse of loads already rewrites (one rewrite per load)."""
    reused = {node_position(site.node) for pair in reloads for site in pair}
    out = []
    for store, later in nest.forwards():
        dtype = element_types.get(store.param, "")
        if not dtype.startswith(("float", "bfloat")) or node_position(later.node) in reused:
            continue
        out.append((node_position(store.node), node_position(later.node), TL_DTYPES[dtype]))
    return tuple(out)


def _launch_positions(target: RewriteTarget, nest: RowLoopNest) -> dict[str, int]:
    for launch in target.launches:
        names = [a.name for a in launch.args]
        if names != nest.params:
            raise RowOnChipDeclined(f"a launch passes ({', '.join(names)}), the kernel takes ({', '.join(nest.params)})")
    return {name: index for index, name in enumerate(nest.params)}


def _grid_position(kernel, nest: RowLoopNest, positions: dict[str, int]) -> int:
    match = re.search(r"'grid_type':\s*'(\w+)'", kernel.source)
    try:
        dims = grid_rule(kernel.signature or {p: "" for p in nest.params + nest.constexprs},
                         match.group(1) if match else "Grid1D")
    except NotRetunable as why:
        raise RowOnChipDeclined(str(why)) from None
    if [d for d, _ in dims] != ["xnumel"] or "xnumel" not in positions:
        raise RowOnChipDeclined(f"grid dimensions {[d for d, _ in dims]}: only a 1-D grid over xnumel is handled")
    return positions["xnumel"]


def _overlap_checks(nest: RowLoopNest, reloads, positions) -> tuple[tuple[int, int], ...]:
    """Pairs (read pointer, written pointer) whose buffers must not overlap for a reuse to be exact."""
    pairs = set()
    for first, later in reloads:
        for store in nest.stores_between(first, later):
            pairs.add((positions[first.param], positions[store.param]))
    return tuple(sorted(pairs))


def _variants(nest: RowLoopNest, row_block: int, kept_rows: int, wide: int = 1) -> tuple[tuple[int, int], ...]:
    """(XBLOCK, num_warps) within the budget, the likeliest fastest first: about 16 row values per
    thread, enough programs to fill the card, and, when the rows lie side by side in memory (a
    reduction over a non-last dimension: `wide` > 1 rows make one coalesced read), at least `wide` rows."""
    rows = nest.x_numel
    scored = []
    for xblock in ROWS_PER_PROGRAM:
        if rows is not None and xblock > 1 and xblock >= 2 * rows:
            break
        if nest.x_mask == "all" and (rows is None or rows % xblock):
            continue                              # no x mask: a program must not run past the last row
        live = xblock * row_block * kept_rows
        if live > MAX_TILE_VALUES:
            break
        for warps in WARPS:
            per_thread = live / (32 * warps)
            if per_thread > VALUES_PER_THREAD or (warps == 32 and live / (32 * 16) <= 32):
                continue          # 32 warps only where 16 would keep more than 32 values per thread
            programs = math.ceil(rows / xblock) if rows else 2 * SM_COUNT
            cost = (abs(math.log2(max(per_thread, 1 / 32) / 16)) + max(0.0, math.log2(2 * SM_COUNT / programs))
                    + 2 * max(0.0, math.log2(wide / xblock)))
            scored.append((cost, xblock, warps))
    return tuple((x, w) for _, x, w in sorted(scored))


# ---------------------------------------------------------------------------------------------------
# The rewrite

def single_pass_function(nest: RowLoopNest, name: str, reuse: bool = True,
                         forwards: tuple[tuple[tuple, tuple, str], ...] = ()) -> ast.FunctionDef:
    """The kernel with its r-loops unrolled (each runs once at R0_BLOCK >= r0_numel) and, with `reuse`,
    every reload of data an earlier pass read replaced by that read's registers, and every read of what an
    earlier pass stored (`forwards`) by the stored value."""
    function = copy.deepcopy(nest.function)
    try:
        # the row is one block: an online softmax takes the row's max, then one exponential per element,
        # instead of the per-lane form's three, and a Welford state the row's sum and sum of squared
        # deviations instead of a division per element and a lane-by-lane merge (no per-lane running tiles)
        function, _ = blockwise_states(function)
    except BlockOnlineDeclined:
        pass
    function.name = name
    kept: dict[tuple, str] = {}
    replace: dict[tuple, str] = {}              # load position -> register name it becomes
    hoist: dict[tuple, str] = {}                # first reads that get a name of their own
    for first, later in nest.reloads() if reuse else ():
        register = kept.setdefault(first.key, f"_ko_row{len(kept)}")
        hoist[node_position(first.node)] = register
        replace[node_position(later.node)] = register
    stored = {store: (f"_ko_stored{index}", dtype)
              for index, (store, _, dtype) in enumerate(forwards if reuse else ())}
    read_back = {load: stored[store][0] for store, load, _ in forwards if reuse}
    function.body = _rewrite_body(function.body, hoist, replace, stored, read_back)
    return function


def _rewrite_body(body: list[ast.stmt], hoist: dict, replace: dict, stored: dict | None = None,
                  read_back: dict | None = None) -> list[ast.stmt]:
    stored, read_back = stored or {}, read_back or {}
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.For):
            # the loop runs once (R0_BLOCK >= r0_numel): its offset is the range's start, 0
            start = ast.Assign(targets=[ast.Name(stmt.target.id, ast.Store())], value=ast.Constant(0))
            out.append(ast.copy_location(start, stmt))
            out += _rewrite_body(stmt.body, hoist, replace, stored, read_back)
            continue
        if read_back:
            stmt = _ReadBack(read_back).visit(stmt)
        # the row is read from memory once now: a hoisted read is not kept in L2 for a later pass
        out += with_registers(stmt, hoist, replace, evict_first=True)
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and hasattr(call, "end_col_offset") and node_position(call) in stored:
            # what the store wrote, as a later load of it reads it: the value in the pointer's element type
            register, dtype = stored[node_position(call)]
            value = ast.parse(f"({ast.unparse(call.args[1])}).to({dtype})", mode="eval").body
            out.append(ast.copy_location(ast.Assign(targets=[ast.Name(register, ast.Store())], value=value), stmt))
    return [ast.fix_missing_locations(s) for s in out]


class _ReadBack(ast.NodeTransformer):
    """A load of what an earlier pass stored becomes the stored registers where its mask is on, and its `other`
    where it is off: what the load returns, lane by lane."""

    def __init__(self, read_back: dict[tuple, str]):
        self.read_back = read_back

    def visit_Call(self, node: ast.Call) -> ast.AST:
        position = node_position(node) if hasattr(node, "end_col_offset") else None
        if position not in self.read_back:
            return self.generic_visit(node)
        register, mask, other = self.read_back[position], access_mask(node), load_other(node)
        if mask is None or other is None:
            return ast.copy_location(ast.Name(register, ast.Load()), node)
        where = ast.Attribute(ast.Name("tl", ast.Load()), "where", ast.Load())
        # the load's own position: no reuse of loads names it (`_forwards` leaves such loads alone)
        return ast.copy_location(
            ast.Call(where, [copy.deepcopy(mask), ast.Name(register, ast.Load()), copy.deepcopy(other)], []), node)


def candidate_source(plan: RowOnChipPlan, xblock: int, warps: int, fast_exp: bool = False) -> str:
    """A candidate-format module: the single-pass kernel (and, when reuse needs it, the unrolled kernel
    without reuse for overlapping buffers) and `run(*args)` launching it; with `fast_exp`, its precise
    exponentials made fast ones (the plan says where that is allowed)."""
    nest = plan.nest
    fast = single_pass_function(nest, f"{plan.kernel}_row_on_chip", forwards=plan.forwards)
    functions = [fast]
    if plan.overlap_checks:
        functions.append(single_pass_function(nest, f"{plan.kernel}_row_on_chip_reload", reuse=False))
    for function in functions if fast_exp else ():
        with_fast_exp(function)
    module = copy.deepcopy(nest.module)
    index = next(i for i, n in enumerate(module.body) if isinstance(n, ast.FunctionDef) and n.name == plan.kernel)
    module.body[index:index + 1] = functions
    # the row's max over one tile: one NaN-propagating instruction per element, not two compares and a select
    with_hardware_minmax(module, {f.name for f in functions})
    launch = (f"[(triton.cdiv(args[{plan.grid_position}], {xblock}), 1, 1)](*args, XBLOCK={xblock}, "
              f"R0_BLOCK={plan.row_block}, num_warps={warps}, num_stages=1)")
    lines = [
        f"# row-on-chip: {plan.kernel} in one pass over each row, XBLOCK={xblock} num_warps={warps}",
        f"# {plan.description}" + ("; flushed exponentials for libdevice.exp (16-bit stores)" if fast_exp else ""),
        ast.unparse(module),
        "",
    ]
    lines += overlap_guarded_run(fast.name, functions[-1].name, plan.overlap_checks, launch,
                                 "byte ranges of two tensors' elements; a store between two passes must not "
                                 "change the reused row")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------
# The proposer

@dataclass
class RowOnChipProposer:
    name: str = "row-on-chip"
    summary: str = ("Run a looped reduction that reads each row several times (norms, softmax, losses) as one "
                    "pass with the row in registers")
    max_variants: int = MAX_VARIANTS

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_row_on_chip(target)
        except RowOnChipDeclined:
            return
        mine = [a for a in history if a.candidate.proposer == self.name]
        tried = {a.candidate.strategy for a in mine}
        forms = (("+fast-exp", True), ("", False)) if plan.fast_exp else (("", False),)
        for xblock, warps in plan.variants[: self.max_variants]:
            for suffix, fast_exp in forms:
                label = f"row-on-chip{suffix} R0_BLOCK={plan.row_block} XBLOCK={xblock} num_warps={warps}"
                if label in tried:
                    continue
                yield Candidate(candidate_source(plan, xblock, warps, fast_exp), self.name, label,
                                notes=plan.description + (" (fast exponentials: 16-bit stores)" if fast_exp else ""))

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a looped reduction gets no candidate ('' when it gets some, or is not a looped reduction)."""
        if len(target.kernels) != 1 or target.kernels[0].kind != "reduction":
            return ""
        try:
            plan_row_on_chip(target)
        except RowOnChipDeclined as why:
            return str(why)
        return ""
