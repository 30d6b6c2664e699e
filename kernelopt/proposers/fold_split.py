"""fold-split: a split maximum and the split sum of exponentials after it, read from memory once.

Where Inductor splits a reduction over few, long rows into chunks, a log-sum-exp (or any sum of
exp(v - shift) after a maximum of v) becomes four launches of one fusion group: the chunks' maxima of v
(A), their merge into a per-row value (B), the chunks' sums of exp(v - shift), `shift` read from what B
wrote (C), and the merge of those sums with the epilogue (D). A and C each stream the whole input. With
m_c a chunk's maximum,

    sum_{i in chunk} exp(v_i - shift) = exp(m_c - shift) * sum_{i in chunk} exp(v_i - m_c),

so A can sum exp(v_i - m_c) while it takes the maximum, in online form (each lane keeps a running maximum
and the sum relative to it, one exponential per element), and write (m_c, that sum) to a small scratch
buffer; C then only rescales: the input is read once instead of twice. B and D are unchanged.

Where a chunk's maximum or its shift is not finite (an all -inf chunk, an inf, a NaN), inf - inf and
0 * inf make the two forms differ: those chunks run C's own loop, its loads masked to them (no memory
traffic for the others), and keep the original's bits.

What is proven from the two kernels' code, whatever they are named (else `FoldSplitDeclined` says why):
- both are looped reductions with one r-loop over the same `xnumel` programs' rows of the same length;
- A's loop takes a maximum (`triton_helpers.maximum`) of a float32 value v, folded after the loop by
  `triton_helpers.max2`; C's loop sums (`acc + value`) `exp(v' - shift)`, possibly as
  `tl.where(guard, exp(...), 0)`, and nothing else after its loop reads the accumulator but its `tl.sum`;
- v and v' compute the same thing from the same tensors at the same addresses (compared after inlining
  every local and naming each pointer by its group slot), over the same elements: the elements where A
  maxes a real load equal those where C adds a term (masks compared as sets of conjuncts; A's padding,
  if any, reads -inf, which neither the maximum nor the sum sees);
- `shift` does not move along the row, and no launch between A and C writes a tensor v reads.

The sums are reassociated (and rescaled through m_c): the legality gate compares the group's results
against its float64 reference and rejects the candidate where that moves them too far.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass
from typing import Iterable

from kernelopt.inductor_source import (ZERO_FILLS, access_mask, dotted_name, filled_with, load_other,
                                       mask_conjuncts, strip_heuristics)

from .base import Attempt, Candidate, RewriteTarget
from .candidate_source import NotRetunable
from .exp_forms import flushed_exp
from .fold_passes import (EXP_CALLS, SPECIAL, inline_locals, replace_final_sum, special_rows,
                          special_rows_pass)
from .group_launches import group_candidate, launch_configs
from .loop_state import assigned_name
from .row_loops import LoopNestUnsupported, analyse_loop_nest

PARTS = "ko_chunk_parts"            # the new parameter: [maxima of the chunks | their sums], float32
LOOP_NAMES = ("r0_offset", "roffset")
ROW_BLOCK_NAMES = ("R0_BLOCK", "RBLOCK")


class FoldSplitDeclined(Exception):
    """Why the group's split maximum and sum of exponentials are not folded (the message goes to the remarks)."""


class NoSplitPair(FoldSplitDeclined):
    """The group holds no looped max followed by a looped sum: nothing to say in the remarks."""


@dataclass
class _Kernel:
    """One looped reduction of the group, read for the fold."""
    launch: int                        # its position among the group's launches
    name: str
    module: ast.Module                 # its source, parsed (decorators kept)
    function: ast.FunctionDef          # the kernel, inside `module`
    loop: ast.For
    params: list[str]                  # runtime parameters, launch order
    slots: dict[str, int]              # pointer parameter -> group slot
    whole: dict[str, ast.expr]         # every local's value (straight code and loop body)
    body: dict[str, ast.expr]          # the loop body's locals only
    accumulator: str
    mask: ast.expr                     # the accumulator's commit mask, as written
    update: ast.expr                   # what the combine folds in (the max's operand, the sum's addend)
    xnumel: int
    rnumel: int


@dataclass(frozen=True)
class FoldSplitPlan:
    maxima: int                        # launch position of A
    sums: int                          # launch position of C
    rewritten: dict[str, str]          # kernel name -> the new source
    chunks: int                        # A's xnumel: chunks of all rows
    tensor_slot: int                   # a tensor slot whose device the scratch uses
    description: str


def plan_fold_split(target: RewriteTarget) -> FoldSplitPlan:
    if not target.group_args:
        raise NoSplitPair("fold-split rewrites a fusion group's launches")
    kinds = {k.name: k for k in target.kernels}
    looped = [i for i, spec in enumerate(target.launches) if kinds[spec.kernel].kind == "reduction"]
    reasons = []
    for c in looped:
        for a in looped:
            if a >= c:
                break
            try:
                return _plan_pair(target, a, c)
            except NoSplitPair:
                continue
            except FoldSplitDeclined as why:
                reasons.append(str(why))
    if reasons:
        raise FoldSplitDeclined("; ".join(dict.fromkeys(reasons)))
    raise NoSplitPair("no looped maximum followed by a looped sum of exponentials")


def _plan_pair(target: RewriteTarget, a: int, c: int) -> FoldSplitPlan:
    names = [spec.kernel for spec in target.launches]
    maxima, sums = _read(target, a, "max"), _read(target, c, "sum")
    if names.count(maxima.name) != 1 or names.count(sums.name) != 1:
        raise FoldSplitDeclined(f"{maxima.name} or {sums.name} is launched more than once in the group")
    where = f"{maxima.name} and {sums.name}"
    if (maxima.xnumel, maxima.rnumel) != (sums.xnumel, sums.rnumel):
        raise FoldSplitDeclined(f"{where} reduce {maxima.xnumel} x {maxima.rnumel} and {sums.xnumel} x "
                                f"{sums.rnumel} elements: not the same chunks")
    exponential, guard = _exponential(sums)
    exp = dotted_name(exponential.func)
    difference = exponential.args[0]
    row, shift = difference.left, difference.right
    row_text, row_loads = _canonical(row, sums)
    value, padding = _padded(maxima)
    max_text, max_loads = _canonical(value, maxima)
    if row_text != max_text:
        raise FoldSplitDeclined(f"{where}: the maximum is of `{_excerpt(value)}`, the exponentials of "
                                f"`{_excerpt(_inline(row, sums.whole))}`: not the same value")
    _same_elements(maxima, value, padding, max_loads, sums, row_loads, guard, where)
    _per_row(shift, sums, counted=_counted(sums, guard))
    read = {slot for _, slot in row_loads}
    for between in range(a + 1, c):
        spec = target.launches[between]
        written = {slot for arg, slot in zip(spec.args, target.group_positions[between]) if arg.written}
        if written & read:
            raise FoldSplitDeclined(f"{spec.kernel} writes what {sums.name} reads between the two passes")
    if not _float32_accumulator(maxima) or not _float32_accumulator(sums):
        raise FoldSplitDeclined(f"{where} do not accumulate in float32")
    rewritten = {maxima.name: _maxima_source(maxima, exp), sums.name: _sums_source(sums, shift, exp)}
    slot = next(s for s, arg in enumerate(target.group_args) if arg.is_tensor)
    description = (f"{maxima.name} takes each chunk's maximum and, online, its sum of exponentials; {sums.name} "
                   f"rescales those sums by exp(max - shift) instead of reading the {maxima.xnumel} chunks of "
                   f"{maxima.rnumel} again (its own loop only for chunks with a non-finite max or shift)")
    return FoldSplitPlan(a, c, rewritten, maxima.xnumel, slot, description)


# ---------------------------------------------------------------------------------------------------
# Reading one kernel

def _read(target: RewriteTarget, launch: int, combine: str) -> _Kernel:
    spec = target.launches[launch]
    kernel = next(k for k in target.kernels if k.name == spec.kernel)
    try:
        nest = analyse_loop_nest(kernel.source, kernel.name)
    except LoopNestUnsupported as why:
        raise NoSplitPair(str(why)) from None
    if len(nest.loops) != 1 or nest.x_numel is None or nest.r_numel is None:
        raise NoSplitPair(f"{kernel.name}: not one r-loop over literal sizes")
    wanted = [acc for acc in nest.accumulators if acc.combine == combine]
    if combine == "sum" and len(nest.accumulators) != 1 or len(wanted) != 1:
        raise NoSplitPair(f"{kernel.name}: not one {combine} accumulator")
    if len(spec.args) != len(nest.params):
        raise FoldSplitDeclined(f"{kernel.name} is launched with {len(spec.args)} arguments for "
                                f"{len(nest.params)} parameters")
    module = ast.parse(kernel.source)
    function = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == kernel.name)
    loop = next(s for s in function.body if isinstance(s, ast.For))
    accumulator = wanted[0].name
    straight = [s for s in function.body if not isinstance(s, ast.For)]
    if not {"xindex", "xmask"} <= {assigned_name(s) for s in straight}:
        raise NoSplitPair(f"{kernel.name}: no `xindex` and `xmask` before its loop")
    body = _locals(loop.body, {accumulator})
    whole = {**_locals(straight, {accumulator}), **body}
    commit = next(s.value for s in loop.body if assigned_name(s) == accumulator)
    step = body.get(ast.unparse(commit.args[1]))
    if combine == "max":
        if not (isinstance(step, ast.Call) and dotted_name(step.func) == "triton_helpers.maximum"
                and len(step.args) == 2 and ast.unparse(step.args[0]) == accumulator):
            raise NoSplitPair(f"{kernel.name}: {accumulator} is not updated as maximum({accumulator}, value)")
        update = step.args[1]
    else:
        if not (isinstance(step, ast.BinOp) and isinstance(step.op, ast.Add)
                and ast.unparse(step.left) == accumulator):
            raise NoSplitPair(f"{kernel.name}: {accumulator} is not updated as {accumulator} + value")
        update = step.right
    slots = {param: slot for param, slot in zip(nest.params, target.group_positions[launch])}
    return _Kernel(launch, kernel.name, module, function, loop, nest.params, slots, whole, body, accumulator,
                   commit.args[0], update, nest.x_numel, nest.r_numel)


def _locals(statements: list[ast.stmt], skip: set[str]) -> dict[str, ast.expr]:
    found = {}
    for stmt in statements:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id not in skip:
            found[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            found[stmt.target.id] = stmt.value
    return found


def _exponential(sums: _Kernel) -> tuple[ast.Call, ast.expr | None]:
    """C's addend as (`exp(row - shift)`, the guard of `tl.where(guard, exp(...), 0)` or None)."""
    value = _strip_broadcast(_inline(sums.update, sums.body))
    guard = None
    if isinstance(value, ast.Call) and dotted_name(value.func) == "tl.where" and len(value.args) == 3 \
            and _is_zero(value.args[2]):
        guard, value = value.args[0], _strip_broadcast(value.args[1])
    if not (isinstance(value, ast.Call) and dotted_name(value.func) in EXP_CALLS and len(value.args) == 1
            and isinstance(value.args[0], ast.BinOp) and isinstance(value.args[0].op, ast.Sub)):
        raise NoSplitPair(f"{sums.name}: it does not sum exp(value - shift)")
    return value, guard


def _padded(maxima: _Kernel) -> tuple[ast.expr, ast.expr | None]:
    """A's maxed value as (v, the guard of `tl.where(guard, v, -inf)` or None): Inductor pads the lanes past a
    split row's end with -inf, which the maximum does not see."""
    value = _strip_broadcast(_inline(maxima.update, maxima.whole))
    if isinstance(value, ast.Call) and dotted_name(value.func) == "tl.where" and len(value.args) == 3 \
            and _is_minus_inf(value.args[2]):
        return _strip_broadcast(value.args[1]), value.args[0]
    return value, None


def _is_zero(node: ast.expr) -> bool:
    return filled_with(node) in ZERO_FILLS


def _is_minus_inf(node: ast.expr) -> bool:
    return filled_with(node) in _MINUS_INF


def _float32_accumulator(kernel: _Kernel) -> bool:
    init = next((s for s in kernel.function.body if assigned_name(s) == kernel.accumulator),
                None)
    return init is not None and isinstance(init.value, ast.Call) and ast.unparse(init.value.args[-1]) == "tl.float32"


# ---------------------------------------------------------------------------------------------------
# Comparing the two kernels' code

def _inline(expr: ast.expr, definitions: dict[str, ast.expr]) -> ast.expr:
    return inline_locals(expr, definitions, FoldSplitDeclined, limit=100)


def _strip_broadcast(expr: ast.expr) -> ast.expr:
    """`tl.broadcast_to(e, shape)` -> e, anywhere (a tile's shape, not its values)."""
    class Strip(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            if dotted_name(node.func) == "tl.broadcast_to" and node.args:
                return node.args[0]
            return node

    return Strip().visit(copy.deepcopy(expr))


@dataclass(frozen=True)
class _Load:
    conjuncts: frozenset[str]          # its mask's conjuncts, canonical
    other: str                         # what a masked-off lane reads ("" for nothing)


def _canonical(expr: ast.expr, kernel: _Kernel) -> tuple[str, list[tuple[_Load, int]]]:
    """The value's code with every local inlined, each pointer named by its group slot and each load reduced
    to its address (its masks are returned beside it, with the slot each reads)."""
    loads: list[tuple[_Load, int]] = []
    inlined = _strip_broadcast(_inline(expr, kernel.whole))

    class Canon(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            if dotted_name(node.func) != "tl.load":
                self.generic_visit(node)
                return node
            pointer = self.visit(copy.deepcopy(node.args[0]))
            base = pointer
            while isinstance(base, ast.BinOp) and isinstance(base.op, ast.Add):
                base = base.left
            if not (isinstance(base, ast.Name) and base.id.startswith("slot")):
                raise FoldSplitDeclined(f"{kernel.name}: a load from `{_excerpt(node.args[0])}`, not a parameter")
            mask, other = access_mask(node), load_other(node)
            loads.append((_Load(_conjuncts(mask, kernel), ast.unparse(other) if other is not None else ""),
                          int(base.id[4:])))
            return ast.Call(ast.Name("LOAD", ast.Load()), [pointer], [])

        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in kernel.slots:
                return ast.Name(f"slot{kernel.slots[node.id]}", ast.Load())
            return node

    return ast.unparse(Canon().visit(inlined)), loads


def _conjuncts(mask: ast.expr | None, kernel: _Kernel) -> frozenset[str]:
    return frozenset() if mask is None else mask_conjuncts(_strip_broadcast(_inline(mask, kernel.whole)))


def _counted(sums: _Kernel, guard: ast.expr | None) -> set[str]:
    """The conjuncts of the elements C adds a term for: its commit mask and its guard."""
    return set(_conjuncts(sums.mask, sums)) | set(_conjuncts(guard, sums))


def _per_row(shift: ast.expr, sums: _Kernel, counted: set[str]) -> None:
    """The shift must be one value per row: its addresses and arithmetic do not move along the row, and its
    loads read real data wherever C adds a term (C' reads it once per row, masked by the row alone)."""
    inlined = _strip_broadcast(_inline(shift, sums.whole))
    for node in ast.walk(inlined):
        if isinstance(node, ast.Call) and dotted_name(node.func) == "tl.load":
            if not _conjuncts(access_mask(node), sums) <= counted:
                raise FoldSplitDeclined(f"{sums.name}: the shift `{_excerpt(shift)}` is read under a mask that "
                                        "lets fewer elements in than the sum")
    text = ast.unparse(_per_row_loads(inlined))
    if any(name in text for name in LOOP_NAMES + ROW_BLOCK_NAMES):
        raise FoldSplitDeclined(f"{sums.name}: the shift `{_excerpt(shift)}` moves along the row")


def _same_elements(maxima: _Kernel, value: ast.expr, padding: ast.expr | None, max_loads, sums: _Kernel, row_loads,
                   guard: ast.expr | None, where: str) -> None:
    """The elements A maxes real values of are the elements C adds terms for (see the module docstring)."""
    real = set(_conjuncts(maxima.mask, maxima)) | set(_conjuncts(padding, maxima))
    padded = [load for load, _ in max_loads if not load.conjuncts <= real]
    if padded:
        # lanes A accumulates but does not load: neutral only where v is the load itself, reading -inf
        loaded = isinstance(value, ast.Call) and dotted_name(value.func) == "tl.load"
        if len(max_loads) != 1 or not loaded or padded[0].other not in _MINUS_INF:
            raise FoldSplitDeclined(f"{where}: {maxima.name} maxes lanes its loads mask off")
        real |= padded[0].conjuncts
    counted = _counted(sums, guard)
    if any(not load.conjuncts <= counted for load, _ in row_loads):
        raise FoldSplitDeclined(f"{where}: {sums.name} adds terms for elements its loads mask off")
    if real != counted:
        raise FoldSplitDeclined(f"{where}: the maximum and the sum run over different elements (masks "
                                f"{' & '.join(sorted(real))} and {' & '.join(sorted(counted))})")


_MINUS_INF = ("float('-inf')", 'float("-inf")', "-float('inf')", "-float(\"inf\")")


def _excerpt(node: ast.expr, limit: int = 80) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ---------------------------------------------------------------------------------------------------
# Writing the two kernels

def _with_parts_param(kernel: _Kernel) -> None:
    """Add the scratch pointer after the runtime parameters (before the constexprs)."""
    arguments = kernel.function.args.args
    at = max(i for i, a in enumerate(arguments) if a.arg in kernel.params) + 1
    arguments.insert(at, ast.arg(PARTS))


def _maxima_source(kernel: _Kernel, exp: str) -> str:
    """A with each lane's online (max, sum of exp(v - max)) beside its maximum; after the loop, the chunk's
    maximum and its sum relative to it go to the scratch buffer."""
    kernel = copy.deepcopy(kernel)
    function, loop, acc = kernel.function, kernel.loop, kernel.accumulator
    _with_parts_param(kernel)
    value, mask = ast.unparse(kernel.update), ast.unparse(kernel.mask)
    m, s, d = "_ko_lane_max", "_ko_lane_sum", "_ko_lane_delta"
    init = next(s_ for s_ in function.body if assigned_name(s_) == acc)
    shape = ast.unparse(init.value.args[0])
    at = function.body.index(init) + 1
    function.body[at:at] = ast.parse(f"{m} = tl.full({shape}, float('-inf'), tl.float32)\n"
                                     f"{s} = tl.full({shape}, 0, tl.float32)\n").body
    # one exponential per element: below the running max it is the new term, above it the old sum's scale
    # (exp(-|d|) serves both); a -inf element adds nothing, NaN and +inf make the chunk special (below)
    loop.body += ast.parse(
        f"{d} = ({value}) - {m}\n"
        f"_ko_lane_scale = {flushed_exp(f'-tl.abs({d})')}\n"
        f"{s} = tl.where(({mask}) & (({value}) != float('-inf')), tl.where({d} > 0, {s} * _ko_lane_scale + 1.0, "
        f"{s} + _ko_lane_scale), {s})\n"
        f"{m} = tl.where({mask}, triton_helpers.maximum({m}, {value}), {m})\n").body
    final = _final_statement(function, acc, "triton_helpers.max2", kernel.name)
    chunk_max = final.targets[0].id
    at = function.body.index(final) + 1
    function.body[at:at] = ast.parse(
        f"_ko_chunk_sum = tl.sum(tl.where({m} == float('-inf'), 0.0, {s} * {exp}({m} - {chunk_max})), 1)[:, None]\n"
        f"tl.store({PARTS} + (xindex), {chunk_max}, xmask)\n"
        f"tl.store({PARTS} + ({kernel.xnumel} + xindex), _ko_chunk_sum, xmask)\n").body
    return _source(kernel)


def _sums_source(kernel: _Kernel, shift: ast.expr, exp: str) -> str:
    """C rescaling A's chunk sums by exp(max - shift); its own loop, masked, for the special chunks."""
    kernel = copy.deepcopy(kernel)
    function, acc = kernel.function, kernel.accumulator
    _with_parts_param(kernel)
    per_row = _strip_broadcast(_inline(shift, kernel.body))
    shift_text = ast.unparse(_per_row_loads(per_row))
    loop_at = function.body.index(kernel.loop)
    function.body[loop_at:loop_at] = ast.parse(
        f"_ko_shift = {shift_text}\n"
        f"_ko_chunk_max = tl.load({PARTS} + (xindex), xmask, other=0.0)\n"
        f"_ko_chunk_sum = tl.load({PARTS} + ({kernel.xnumel} + xindex), xmask, other=0.0)\n").body
    function.body.insert(loop_at + 3, special_rows([ast.parse("_ko_chunk_max", mode="eval").body,
                                                     ast.parse("_ko_shift", mode="eval").body]))
    loop_at += 4
    # the loop runs only in programs holding a special chunk (see special_rows_pass)
    function.body[loop_at:loop_at + 1] = special_rows_pass(function.body[loop_at], FoldSplitDeclined)
    loop_at += 1
    rescaled = ast.parse(f"tl.where({SPECIAL}, tl.sum({acc}, 1)[:, None], "
                         f"_ko_chunk_sum * {exp}(_ko_chunk_max - _ko_shift))", mode="eval").body
    _final_statement(function, acc, "tl.sum", kernel.name)
    function.body[loop_at + 1:] = [replace_final_sum(stmt, {acc: rescaled}) for stmt in function.body[loop_at + 1:]]
    return _source(kernel)


def _per_row_loads(expr: ast.expr) -> ast.expr:
    """The shift's loads as per-row reads: masked by the row's own mask (the original's mask only added the
    r-lanes, which read the same address)."""
    class Loads(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            if dotted_name(node.func) == "tl.load":
                return ast.Call(node.func, [node.args[0], ast.Name("xmask", ast.Load())],
                                [ast.keyword("other", ast.Constant(0.0))])
            return node

    return Loads().visit(copy.deepcopy(expr))


def _final_statement(function: ast.FunctionDef, acc: str, call: str, name: str) -> ast.Assign:
    """`x = call(acc, 1)[:, None]` after the loop, the one statement that reads the accumulator."""
    loop_at = next(i for i, s in enumerate(function.body) if isinstance(s, ast.For))
    after = function.body[loop_at + 1:]
    readers = [s for s in after if any(isinstance(n, ast.Name) and n.id == acc for n in ast.walk(s))]
    if len(readers) != 1 or not isinstance(readers[0], ast.Assign) or len(readers[0].targets) != 1 \
            or not isinstance(readers[0].targets[0], ast.Name) \
            or ast.unparse(readers[0].value) != f"{call}({acc}, 1)[:, None]":
        raise FoldSplitDeclined(f"{name}: {acc} is read after its loop other than by `{call}({acc}, 1)[:, None]`")
    return readers[0]


def _source(kernel: _Kernel) -> str:
    ast.fix_missing_locations(kernel.module)
    return strip_heuristics(ast.unparse(kernel.module), kernel.name, missing=NotRetunable)


# ---------------------------------------------------------------------------------------------------
# The proposer

@dataclass
class FoldSplitProposer:
    name: str = "fold-split"
    summary: str = ("Fold a split reduction's sum of exp(v - shift) into the split maximum of v before it: each "
                    "chunk's max and its sum relative to it in one read, the sum pass only rescaling")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_fold_split(target)
        except FoldSplitDeclined:
            return
        tried = {a.candidate.strategy for a in history}
        configs = {}
        for i, spec in enumerate(target.launches):
            kernel = next(k for k in target.kernels if k.name == spec.kernel)
            configs[i] = launch_configs(kernel, spec.config or {}, more=i == plan.maxima)
            if not configs[i]:
                return
        maxima = target.launches[plan.maxima].kernel
        for n in range(len(configs[plan.maxima])):
            chosen = {i: options[n] if i == plan.maxima else options[0] for i, options in configs.items()}
            label = f"{self.name} {maxima} {chosen[plan.maxima].label()}"
            if label in tried:
                continue
            tried.add(label)
            prelude = (f"{PARTS} = torch.empty({2 * plan.chunks}, dtype=torch.float32, "
                       f"device=args[{plan.tensor_slot}].device)",)
            try:
                source = group_candidate(target, plan.rewritten, chosen, f"fold-split: {plan.description}",
                                         prelude=prelude, extra_args={plan.maxima: PARTS, plan.sums: PARTS})
            except NotRetunable:
                return
            yield Candidate(source, self.name, label, notes=plan.description)

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a group's looped maximum and sum of exponentials are not folded ('' where they are, or where the
        group has no such pair)."""
        if not target.group_args:
            return ""
        try:
            plan_fold_split(target)
        except NoSplitPair:
            return ""
        except FoldSplitDeclined as why:
            return str(why)
        return ""


__all__ = ["FoldSplitDeclined", "FoldSplitPlan", "FoldSplitProposer", "plan_fold_split"]
