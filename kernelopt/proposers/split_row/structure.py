"""Read an Inductor looped-reduction kernel as row loops and the straight code between them, and prove
that its rows may be split across programs.

An Inductor `reduction` kernel is, at its top level, straight code and `for r0_offset in
(tl.)range(0, r0_numel, R0_BLOCK)` loops over the row (`segments[0], loops[0], segments[1], ...,
segments[K]`). A loop carries lane-wise accumulators (`_tmp2`, `tmp5_mean/_m2/_weight`,
`_tmp2_index`) initialised in the segment before it with the reduction's identity (`tl.full([XBLOCK,
R0_BLOCK], 0, tl.float32)`); right after the loop, one *reduction statement* per group of
accumulators folds the lanes (`tl.sum(_tmp2, 1)`, `triton_helpers.welford(mean, m2, weight, 1)`,
`max_with_index(value, index, 1)`, ...). Those calls map a lane-wise state to the same state reduced,
so applying the same call to per-chunk results gives the whole row's result: that is what makes the
split exact in structure (only the rounding order of floating-point sums changes).

What is proven here, or `NotSplittable` says why not:
- the kernel is that shape: literal `xnumel`/`r0_numel`, `XBLOCK`/`R0_BLOCK` constexprs, rows taken
  from `tl.program_id(0)` only, no other control flow, no atomics, pointers used only as
  `tl.load`/`tl.store(param + index, ...)`;
- every value a loop carries is an accumulator folded by exactly one whitelisted reduction call, and
  no other value leaves a loop;
- no two programs of one split kernel touch the same element where one of them writes it: a pointer
  the kernel writes is never read in straight code (later kernels re-run that code and would read the
  new value), a straight-code store never shares a kernel with a loop touching the same pointer, and a
  store inside a loop writes at an index with a non-zero constant stride in the row index (each chunk
  owns its elements), with any read of that pointer in the loop at the same index.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

from kernelopt.inductor_source import dotted_name, expression_excerpt, names_in, pointer_base, strip_heuristics

from ..row_loops import is_constexpr

# Lane reductions that map a lane-wise state to the same state reduced (the number of state values
# they take and return): re-applying one to per-chunk results combines the chunks.
REDUCTION_CALLS = {
    "tl.sum": 1, "triton_helpers.max2": 1, "triton_helpers.min2": 1, "triton_helpers.prod": 1,
    "triton_helpers.any": 1, "triton_helpers.welford": 3, "triton_helpers.max_with_index": 2,
    "triton_helpers.min_with_index": 2, "triton_helpers.online_softmax_reduce": 2,
}
REDUCTION_LABELS = {
    "tl.sum": "sum", "triton_helpers.max2": "max", "triton_helpers.min2": "min", "triton_helpers.prod": "prod",
    "triton_helpers.any": "any", "triton_helpers.welford": "welford", "triton_helpers.max_with_index": "argmax",
    "triton_helpers.min_with_index": "argmin", "triton_helpers.online_softmax_reduce": "online-softmax",
}
# Accumulator dtypes a scratch buffer can hold (Triton name -> torch name).
ACCUMULATOR_DTYPES = {"float32": "float32", "float64": "float64", "int32": "int32", "int64": "int64",
                      "int1": "bool"}
LOOP_OFFSETS = ("r0_offset", "roffset")      # the loop variable and Inductor's alias of it
ROW_INDEX = "r0_index"                       # r0_offset + r0_base: the element's position in the row
BLOCK_NAMES = ("R0_BLOCK", "RBLOCK")


class NotSplittable(Exception):
    """The kernel is not one this transform can split; the message says what and where."""


@dataclass
class Accumulator:
    name: str
    init: ast.Assign          # its last assignment before the loop: the reduction's identity
    dtype: str                # torch dtype name of the scratch buffer holding its per-chunk values


@dataclass
class Reduction:
    stmt: ast.Assign          # e.g. `tmp2 = tl.sum(_tmp2, 1)[:, None]`, kept verbatim
    call: str                 # its dotted callee
    state: list[str]          # the accumulators it folds, in argument order
    outputs: list[str]        # what it assigns, in the same order
    two_d: bool               # the single output is already [XBLOCK, 1] (`[:, None]` applied)
    casts: list[ast.Assign] = field(default_factory=list)   # `tmp14 = _tmp12.to(tl.int8)` folded after it


@dataclass
class RowLoop:
    node: ast.For
    accumulators: list[Accumulator] = field(default_factory=list)
    reductions: list[Reduction] = field(default_factory=list)
    stores: int = 0           # tl.store calls inside the loop


@dataclass
class RowKernel:
    name: str
    params: list[str]                 # runtime parameters in `.run(...)` order (constexpr block sizes excluded)
    header: list[str]                 # the source's top-level lines other than the kernel (imports, driver)
    rows: int                         # xnumel
    row_length: int                   # r0_numel
    segments: list[list[ast.stmt]]    # straight code: before loops[0], between loops, after the last
    loops: list[RowLoop]

    @property
    def reductions(self) -> list[str]:
        return [REDUCTION_LABELS[r.call] for loop in self.loops for r in loop.reductions]

    def segment_stores(self, index: int) -> list[ast.Expr]:
        return [s for s in self.segments[index] if store_call(s) is not None]


def parse_row_kernel(source: str, name: str) -> RowKernel:
    """The kernel `name` of an Inductor source, split into row loops and straight code, with every
    condition of the module docstring checked (NotSplittable otherwise)."""
    try:
        plain = strip_heuristics(source, name, missing=NotSplittable)
        tree = ast.parse(plain)
    except SyntaxError as err:
        raise NotSplittable(f"{name}: the kernel source does not parse (line {err.lineno}: {err.msg})") from None
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    lines = plain.splitlines()
    first = min([fn.lineno] + [d.lineno for d in fn.decorator_list]) - 1
    header = [line for line in lines[:first] if line.strip()]
    header += [ast.unparse(n) for n in tree.body if n.lineno > fn.end_lineno]
    constexprs = [a.arg for a in fn.args.args if is_constexpr(a.annotation)]
    if sorted(constexprs) != ["R0_BLOCK", "XBLOCK"]:
        raise NotSplittable(f"{name}: constexpr parameters {constexprs}, expected XBLOCK and R0_BLOCK "
                            "(a looped reduction over one row dimension)")
    params = [a.arg for a in fn.args.args if a.arg not in constexprs]
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    segments: list[list[ast.stmt]] = [[]]
    loops: list[RowLoop] = []
    for stmt in body:
        if isinstance(stmt, ast.For):
            _check_row_loop(name, stmt)
            loops.append(RowLoop(stmt))
            segments.append([])
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Pass)):
            segments[-1].append(stmt)
        else:
            raise NotSplittable(f"{name}: line {stmt.lineno}: `{ast.unparse(stmt).splitlines()[0][:60]}` is control "
                                "flow other than the row loops")
    if not loops:
        raise NotSplittable(f"{name}: no `for r0_offset in range(0, r0_numel, R0_BLOCK)` loop (a persistent "
                            "reduction holds its row in one block)")
    sizes = _literal_sizes(segments[0])
    if "xnumel" not in sizes or "r0_numel" not in sizes:
        raise NotSplittable(f"{name}: xnumel and r0_numel are not literals in the kernel (dynamic shapes)")
    kernel = RowKernel(name, params, header, sizes["xnumel"], sizes["r0_numel"], segments, loops)
    _check_calls(kernel, fn)
    _find_accumulators(kernel)
    _check_scopes(kernel)
    _check_memory(kernel, set(params))
    return kernel


# ---------------------------------------------------------------------------------------------------
# shape of the kernel

def _check_row_loop(kernel: str, loop: ast.For) -> None:
    call = loop.iter
    ok = (isinstance(loop.target, ast.Name) and loop.target.id == "r0_offset" and isinstance(call, ast.Call)
          and dotted_name(call.func) in ("range", "tl.range") and len(call.args) == 3
          and isinstance(call.args[0], ast.Constant) and call.args[0].value == 0
          and isinstance(call.args[1], ast.Name) and call.args[1].id == "r0_numel"
          and isinstance(call.args[2], ast.Name) and call.args[2].id in BLOCK_NAMES)
    if not ok or loop.orelse:
        raise NotSplittable(f"{kernel}: line {loop.lineno}: a loop other than `for r0_offset in "
                            "range(0, r0_numel, R0_BLOCK)`")
    for stmt in loop.body:
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Pass)):
            raise NotSplittable(f"{kernel}: line {stmt.lineno}: control flow inside a row loop")
    for node in ast.walk(loop):
        # A looped scan (cummax, a long cumsum) stores every prefix of the row, carrying the earlier blocks'
        # state under `roffset > 0`: a chunk's prefixes need every earlier chunk's elements, which no
        # per-chunk partial state combined after the loop can give. Said first, so the reason names the scan
        # rather than the offset test that carries it.
        if isinstance(node, ast.Call) and dotted_name(node.func) == "tl.associative_scan":
            raise NotSplittable(f"{kernel}: line {node.lineno}: a scan (`tl.associative_scan`) in the row loop "
                                "stores every prefix of the row; a chunk's prefixes need all the earlier chunks, "
                                "and split-row combines only per-chunk partial states after the loop")
    for node in ast.walk(loop):
        if isinstance(node, ast.Compare) and any(_is_offset(n) for n in [node.left, *node.comparators]):
            # `roffset == 0` marks the first iteration (welford_reduce): it becomes the chunk's first one
            if not (len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)
                    and any(isinstance(n, ast.Constant) and n.value == 0 for n in [node.left, *node.comparators])):
                raise NotSplittable(f"{kernel}: line {node.lineno}: `{ast.unparse(node)}` tests the loop offset "
                                    "other than as `roffset == 0` (the first-iteration test, which becomes a "
                                    "chunk's first iteration); its meaning inside a chunk is not known")


def _is_offset(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in LOOP_OFFSETS


def _literal_sizes(segment: list[ast.stmt]) -> dict[str, int]:
    sizes = {}
    for stmt in segment:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id in ("xnumel", "r0_numel") and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, int)):
            sizes[stmt.targets[0].id] = stmt.value.value
    return sizes


def _check_calls(kernel: RowKernel, fn: ast.FunctionDef) -> None:
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        callee = dotted_name(node.func)
        if callee.startswith("tl.atomic") or callee in ("tl.num_programs", "tl.inline_asm_elementwise"):
            raise NotSplittable(f"{kernel.name}: line {node.lineno}: {callee} (programs would not be independent)")
        if callee == "tl.program_id":
            if not (len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0):
                raise NotSplittable(f"{kernel.name}: line {node.lineno}: `{ast.unparse(node)}`: rows come from "
                                    "another grid axis than 0")
    names = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
    taken = sorted(n for n in names if n.startswith(("ko_", "KO_")))
    if taken:
        raise NotSplittable(f"{kernel.name}: names {taken} clash with the split kernels' own")


# ---------------------------------------------------------------------------------------------------
# accumulators and reductions

def _assigned(stmt: ast.stmt) -> list[str]:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
    out = []
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                out.append(node.id)
    return out


def _read(node: ast.AST) -> set[str]:
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else node
    if value is None:
        return set()
    return {n.id for n in ast.walk(value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def carried_names(loop: ast.For) -> list[str]:
    """Names a loop iteration reads before assigning them: the values carried from one iteration to
    the next (and in from before the loop)."""
    assigned_anywhere = {name for stmt in loop.body for name in _assigned(stmt)}
    seen: set[str] = set()
    carried: list[str] = []
    for stmt in loop.body:
        for name in sorted(_read(stmt)):
            if name in assigned_anywhere and name not in seen and name not in carried:
                carried.append(name)
        seen.update(_assigned(stmt))
    return carried


def _find_accumulators(kernel: RowKernel) -> None:
    for number, loop in enumerate(kernel.loops):
        carried = carried_names(loop.node)
        before = kernel.segments[number]
        for name in carried:
            init = next((s for s in reversed(before) if name in _assigned(s)), None)
            if init is None:
                raise NotSplittable(f"{kernel.name}: `{name}` is carried by the row loop at line "
                                    f"{loop.node.lineno} but not initialised right before it")
            loop.accumulators.append(Accumulator(name, init, _init_dtype(kernel.name, init)))
        after = kernel.segments[number + 1]
        folded: set[str] = set()
        casts: dict[str, ast.Assign] = {}     # a cast of an accumulator -> its statement
        for stmt in after:
            state = [n for n in [*carried, *casts] if n in _read(stmt)]
            if not state:
                continue
            cast = _accumulator_cast(stmt, carried)
            if cast:
                casts[cast] = stmt
                continue
            reduction = _reduction(kernel.name, stmt, carried, casts)
            loop.reductions.append(reduction)
            folded.update(reduction.state)
        missing = [n for n in carried if n not in folded]
        if missing:
            raise NotSplittable(f"{kernel.name}: the row loop at line {loop.node.lineno} carries {missing}, "
                                "which no reduction right after it folds")
        # the lane-wise accumulators exist only up to their reductions (the split kernels hold partials there)
        later = [s for seg in kernel.segments[number + 2:] for s in seg]
        later += [other.node for other in kernel.loops[number + 1:]]
        used = next((s for s in later if set(carried) & names_in(s)), None)
        if used is not None:
            raise NotSplittable(f"{kernel.name}: line {used.lineno}: uses the lane-wise accumulator(s) "
                                f"{sorted(set(carried) & names_in(used))} after their reduction")
        loop.stores = sum(1 for s in loop.node.body if store_call(s) is not None)


def _init_dtype(kernel: str, init: ast.stmt) -> str:
    value = init.value if isinstance(init, (ast.Assign, ast.AnnAssign)) else None
    callee = dotted_name(value.func) if isinstance(value, ast.Call) else ""
    shape = value.args[0] if isinstance(value, ast.Call) and value.args else None
    lane_wise = isinstance(shape, ast.List) and any(isinstance(e, ast.Name) and e.id in BLOCK_NAMES for e in shape.elts)
    dtype = None
    if callee == "tl.full" and len(value.args) == 3:
        dtype = value.args[2]
    elif callee == "tl.zeros" and len(value.args) == 2:
        dtype = value.args[1]
    name = dotted_name(dtype) if dtype is not None else ""
    if not lane_wise or not name.startswith("tl.") or name[3:] not in ACCUMULATOR_DTYPES:
        raise NotSplittable(f"{kernel}: line {init.lineno}: `{expression_excerpt(init, 70)}` is not a lane-wise "
                            "accumulator of a known dtype (tl.full/tl.zeros([XBLOCK, R0_BLOCK], ...))")
    return ACCUMULATOR_DTYPES[name[3:]]


def _accumulator_cast(stmt: ast.stmt, carried: list[str]) -> str:
    """The name a statement `name = acc.to(tl.<dtype>)` gives an accumulator cast lane by lane ('' for any
    other statement). torch 2.13 writes a looped `any` so: `tmp14 = _tmp12.to(tl.int8)`, then
    `triton_helpers.any(tmp14, 1)`; the cast commutes with the split (each chunk's partial is cast alike)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return ""
    value = stmt.value
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "to"
            and isinstance(value.func.value, ast.Name) and value.func.value.id in carried
            and len(value.args) == 1 and not value.keywords and dotted_name(value.args[0]).startswith("tl.")):
        return stmt.targets[0].id
    return ""


def _reduction(kernel: str, stmt: ast.stmt, carried: list[str], casts: dict[str, ast.Assign]) -> Reduction:
    where = f"{kernel}: line {stmt.lineno}: `{expression_excerpt(stmt, 70)}`"
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
        raise NotSplittable(f"{where} uses a loop's accumulator outside a reduction")
    value, two_d = stmt.value, False
    if isinstance(value, ast.Subscript):
        if not _is_new_column(value.slice):
            raise NotSplittable(f"{where}: an unexpected subscript of a reduction")
        value, two_d = value.value, True
    callee = dotted_name(value.func) if isinstance(value, ast.Call) else ""
    if callee not in REDUCTION_CALLS:
        raise NotSplittable(f"{where}: {callee or 'an expression'} is not a lane reduction split-row knows "
                            f"to combine ({', '.join(sorted(REDUCTION_LABELS.values()))})")
    arity = REDUCTION_CALLS[callee]
    state_args = value.args[:arity]
    if not all(isinstance(a, ast.Name) and (a.id in carried or a.id in casts) for a in state_args) or value.keywords:
        raise NotSplittable(f"{where}: its first {arity} argument(s) are not the loop's accumulators")
    rest = value.args[arity:]
    if not rest or not (isinstance(rest[0], ast.Constant) and rest[0].value == 1) or \
            any(not isinstance(a, ast.Constant) for a in rest[1:]) or any(n in carried for a in rest for n in _read(a)):
        raise NotSplittable(f"{where}: it does not reduce over the row axis (1) with constant options")
    target = stmt.targets[0]
    outputs = [e.id for e in target.elts] if isinstance(target, ast.Tuple) else [target.id] \
        if isinstance(target, ast.Name) else []
    if len(outputs) != arity or (two_d and arity != 1):
        raise NotSplittable(f"{where}: assigns {len(outputs)} value(s) for a state of {arity}")
    state = [a.id if a.id in carried else casts[a.id].value.func.value.id for a in state_args]
    return Reduction(stmt, callee, state, outputs, two_d, [casts[a.id] for a in state_args if a.id in casts])


def _is_new_column(index: ast.expr) -> bool:
    """`[:, None]`: a row value made a column."""
    return (isinstance(index, ast.Tuple) and len(index.elts) == 2 and isinstance(index.elts[0], ast.Slice)
            and index.elts[0].lower is None and index.elts[0].upper is None and index.elts[0].step is None
            and isinstance(index.elts[1], ast.Constant) and index.elts[1].value is None)


# ---------------------------------------------------------------------------------------------------
# scopes: no value but an accumulator crosses a loop boundary

def _check_scopes(kernel: RowKernel) -> None:
    defined: set[str] = set(kernel.params)
    for number, segment in enumerate(kernel.segments):
        loop_locals: set[str] = set()
        if number:
            loop = kernel.loops[number - 1]
            loop_locals = {n for s in loop.node.body for n in _assigned(s)} - {a.name for a in loop.accumulators}
        for stmt in segment:
            leaked = (_read(stmt) & loop_locals) - defined
            if leaked:
                raise NotSplittable(f"{kernel.name}: line {stmt.lineno}: uses {sorted(leaked)} from inside the "
                                    "row loop before it")
            defined.update(_assigned(stmt))
        if number < len(kernel.loops):
            loop = kernel.loops[number]
            inner: set[str] = set()
            carried = {a.name for a in loop.accumulators}
            for stmt in loop.node.body:
                missing = {n for n in _read(stmt) if n not in inner and n not in carried
                           and n not in defined and n not in LOOP_OFFSETS} & _all_assigned(kernel)
                if missing:
                    raise NotSplittable(f"{kernel.name}: line {stmt.lineno}: reads {sorted(missing)} from an "
                                        "earlier row loop")
                inner.update(_assigned(stmt))


def _all_assigned(kernel: RowKernel) -> set[str]:
    names = {n for seg in kernel.segments for s in seg for n in _assigned(s)}
    for loop in kernel.loops:
        names |= {n for s in loop.node.body for n in _assigned(s)}
    return names


# ---------------------------------------------------------------------------------------------------
# memory: which program touches which element

@dataclass
class _Access:
    store: bool
    param: str
    index: str            # the offset with loop-local names inlined
    stride: int | None    # constant stride of the row index in it (None: not affine in it)
    where: tuple          # ("segment", s) or ("loop", i)
    line: int


def store_call(stmt: ast.stmt) -> ast.Call | None:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and dotted_name(stmt.value.func) == "tl.store":
        return stmt.value
    return None


def _check_memory(kernel: RowKernel, params: set[str]) -> None:
    accesses: list[_Access] = []
    pointer_uses = 0
    blocks = [(("segment", s), seg, {}) for s, seg in enumerate(kernel.segments)]
    for number, loop in enumerate(kernel.loops):
        defs = {}
        for stmt in loop.node.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                if stmt.targets[0].id != ROW_INDEX:
                    defs[stmt.targets[0].id] = stmt.value
        blocks.append((("loop", number), loop.node.body, defs))
    segment_defs = {stmt.targets[0].id: stmt.value for seg in kernel.segments for stmt in seg
                    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)}
    for where, body, defs in blocks:
        for stmt in body:
            for node in ast.walk(stmt):
                if not isinstance(node, ast.Call) or dotted_name(node.func) not in ("tl.load", "tl.store"):
                    continue
                pointer = node.args[0] if node.args else None
                based = pointer_base(pointer)
                if based is None:
                    raise NotSplittable(f"{kernel.name}: line {node.lineno}: pointer `{expression_excerpt(pointer, 50)}` "
                                        "is not parameter + offset")
                param, offset = based
                if param not in params:
                    raise NotSplittable(f"{kernel.name}: line {node.lineno}: `{param}` is not a pointer parameter")
                inlined = _inline(offset, {**segment_defs, **defs})
                accesses.append(_Access(dotted_name(node.func) == "tl.store", param, ast.unparse(inlined),
                                        _row_stride(inlined), where, node.lineno))
                pointer_uses += 1
    pointers = {a.param for a in accesses}
    uses = sum(1 for seg in kernel.segments for s in seg for n in ast.walk(s) if isinstance(n, ast.Name) and n.id in pointers)
    uses += sum(1 for loop in kernel.loops for n in ast.walk(loop.node) if isinstance(n, ast.Name) and n.id in pointers)
    if uses != pointer_uses:
        raise NotSplittable(f"{kernel.name}: a pointer parameter is used outside tl.load/tl.store")
    for param in sorted({a.param for a in accesses if a.store}):
        mine = [a for a in accesses if a.param == param]
        _check_pointer(kernel.name, param, mine)


def _check_pointer(kernel: str, param: str, accesses: list[_Access]) -> None:
    for access in accesses:
        kind, number = access.where
        if kind == "segment" and not access.store:
            raise NotSplittable(f"{kernel}: line {access.line}: {param} is read outside the row loops and also "
                                "written by the kernel (the split kernels re-run that read after the write)")
        if kind == "segment":
            # straight code before loop `number` shares that loop's kernel (see phases.py)
            clash = next((a for a in accesses if a.where == ("loop", number)), None)
            if clash is not None:
                raise NotSplittable(f"{kernel}: lines {access.line} and {clash.line}: {param} is written in straight "
                                    "code and touched by the row loop after it (one split kernel would do both)")
        elif access.store:
            if not access.stride:
                raise NotSplittable(f"{kernel}: line {access.line}: {param} is stored at `{access.index}`, not at a "
                                    "constant non-zero stride of the row index (chunks would share elements)")
            other = next((a for a in accesses if a.where == access.where and a.index != access.index), None)
            if other is not None:
                raise NotSplittable(f"{kernel}: lines {access.line} and {other.line}: {param} is written at "
                                    f"`{access.index}` and accessed at `{other.index}` in the same row loop")


class _Inliner(ast.NodeTransformer):
    def __init__(self, defs: dict[str, ast.expr]):
        self.defs, self.active = defs, set()

    def visit_Name(self, node: ast.Name):
        if node.id in self.defs and node.id not in self.active:
            self.active.add(node.id)
            out = self.visit(copy.deepcopy(self.defs[node.id]))
            self.active.discard(node.id)
            return out
        return node


def _inline(expr: ast.expr, defs: dict[str, ast.expr]) -> ast.expr:
    return _Inliner(defs).visit(copy.deepcopy(expr))


def _row_stride(expr: ast.expr) -> int | None:
    """The constant coefficient of `r0_index` in an affine offset expression; None when the offset uses
    the row index in any other way (//, %, a call, a product with a variable)."""
    if isinstance(expr, ast.Name):
        return 1 if expr.id == ROW_INDEX else 0
    if isinstance(expr, ast.Constant):
        return 0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        left, right = _row_stride(expr.left), _row_stride(expr.right)
        if left is None or right is None:
            return None
        return left + right if isinstance(expr.op, ast.Add) else left - right
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        for const, other in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(const, ast.Constant) and isinstance(const.value, int):
                inner = _row_stride(other)
                return None if inner is None else const.value * inner
    if isinstance(expr, ast.Subscript):
        return _row_stride(expr.value)
    uses_row = any(isinstance(n, ast.Name) and n.id == ROW_INDEX for n in ast.walk(expr))
    return None if uses_row else 0
