"""The loop nest of a looped Inductor reduction kernel: its r-loops, loads, accumulators and stores.

Inductor writes a reduction whose row does not fit its persistent form as one or more r-loops,
`for r0_offset in tl.range(0, r0_numel, R0_BLOCK):`, each walking the same row in R0_BLOCK chunks: a
layer norm reduces in one loop (Welford, or a sum then a sum of squares) and normalises and stores in
the next, a softmax takes the max, then the sum of exponentials, then writes. Each loop reloads the
row from memory. `analyse_loop_nest` reads this structure from the kernel's own code, whatever the
kernel is named:

- every top-level statement is a straight-line assignment, a `tl.store`/`tl.device_assert`/
  `tl.debug_barrier` call, or an r-loop over the whole row with a straight-line body;
- every value gets a *value number* (hash-consing of the expression tree with locals inlined), so two
  loads are the same read when their pointer, mask and `other` have the same value number and no store
  to that pointer parameter came between them (a per-parameter store epoch): the address expressions
  of different loops are compared by what they compute, not by how they are spelled;
- loop-carried names are the reduction accumulators; each must be committed the way Inductor commits
  one (`acc = tl.where(mask, acc_next, acc)`), and its combine is named (sum, max, Welford, online
  softmax, ...) for the remarks;
- stores are recorded with the loop they sit in.

What is outside this shape raises `LoopNestUnsupported` with the construct and its line, so a proposer
can say why it declines. This module only reads the kernel; rewrites live with their proposers.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from kernelopt.inductor_source import access_mask, dotted_name, load_other, strip_heuristics

R_LOOP_TARGETS = ("r0_offset", "roffset")
R_NUMEL_NAMES = ("r0_numel", "rnumel")
R_BLOCK_NAMES = ("R0_BLOCK", "RBLOCK")
_STATEMENT_CALLS = ("tl.store", "tl.device_assert", "tl.debug_barrier", "tl.static_assert", "tl.static_print")
_IMPURE_CALLS = ("atomic_", "tl.inline_asm_elementwise", "tl.extra")
# How an accumulator's next value is computed: the call (or operator) -> the combine's name.
_COMBINES = {"triton_helpers.maximum": "max", "triton_helpers.minimum": "min", "tl.maximum": "max",
             "tl.minimum": "min", "triton_helpers.welford_reduce": "welford",
             "triton_helpers.welford_combine": "welford", "triton_helpers.online_softmax_combine": "online-softmax",
             "triton_helpers.maximum_with_index": "argmax", "triton_helpers.minimum_with_index": "argmin"}
_MASK_ORDER = ("compare", "all", "none")
_BINARY_COMBINES = {ast.Add: "sum", ast.Mult: "prod", ast.BitOr: "any", ast.BitAnd: "all", ast.BitXor: "xor-sum"}


class LoopNestUnsupported(Exception):
    """The kernel's structure is outside what the loop-nest analysis models; the message says what."""


@dataclass(frozen=True)
class LoadSite:
    """One `tl.load` call: where it is and what it reads."""

    node: ast.Call
    loop: int | None         # index of the r-loop holding it; None outside every loop
    param: str               # the pointer parameter it reads
    key: tuple               # (pointer value, mask value, other value, store epoch of param): equal keys, same data
    row: bool                # the address moves with the r index (a row element, not a per-row scalar)
    line: int
    order: int               # position among the kernel's loads and stores, in program order


@dataclass(frozen=True)
class StoreSite:
    loop: int | None
    param: str
    row: bool
    line: int
    order: int
    node: ast.Call | None = None     # the `tl.store` call
    reads_as: tuple = ()             # (pointer value, mask value, param, store epoch after it): a later load with
                                     # the same pointer, mask and epoch reads what this store wrote


@dataclass(frozen=True)
class Accumulator:
    name: str
    loop: int
    combine: str             # sum | prod | max | min | welford | online-softmax | argmax | argmin | any | all | ...


@dataclass
class RowLoopNest:
    """What `analyse_loop_nest` found in one kernel."""

    function: ast.FunctionDef            # the plain @triton.jit function (heuristics decorator removed)
    module: ast.Module                   # the kernel source it came from, parsed
    params: list[str]                    # runtime parameters, in launch order
    constexprs: list[str]
    r_numel: int | None                  # hard-coded row length (None: only known at run time)
    x_numel: int | None                  # hard-coded number of rows
    r_mask: str | None                   # "compare" (r0_index < r0_numel), "all" (dropped: all true), "none"
                                         # (another form), the least masked loop's; None: no r0_mask
    x_mask: str                          # "compare" (xindex < xnumel) or "all" (all true)
    loops: list[ast.For] = field(default_factory=list)
    loads: list[LoadSite] = field(default_factory=list)
    stores: list[StoreSite] = field(default_factory=list)
    accumulators: list[Accumulator] = field(default_factory=list)

    def reloads(self) -> list[tuple[LoadSite, LoadSite]]:
        """(first read, later read) pairs of the same data in different r-loops: the row read again."""
        first: dict[tuple, LoadSite] = {}
        pairs = []
        for site in self.loads:
            earlier = first.get(site.key)
            if earlier is None:
                first[site.key] = site
            elif site.loop is not None and earlier.loop is not None and site.loop != earlier.loop:
                pairs.append((earlier, site))
        return pairs

    def forwards(self) -> list[tuple[StoreSite, LoadSite]]:
        """(store, later read) pairs where a later r-loop reads back what an earlier one stored: the same pointer
        and mask, no other store to that pointer in between (a row written in one pass and re-read in the next)."""
        pairs = []
        for store in self.stores:
            for site in self.loads:
                if (store.reads_as and store.loop is not None and site.loop is not None and site.loop > store.loop
                        and (site.key[0], site.key[1], site.key[3], site.key[4]) == store.reads_as):
                    pairs.append((store, site))
        return pairs

    def stores_between(self, first: LoadSite, later: LoadSite) -> list[StoreSite]:
        """Stores that run after `first` and before `later` (to other parameters: a store to the same one
        starts a new epoch, so the two would not share a key)."""
        return [s for s in self.stores if first.order < s.order < later.order]

    def row_passes(self) -> int:
        """How many r-loops read (some of) the row: the times a row is streamed from memory."""
        return len({site.loop for site in self.loads if site.row and site.loop is not None})


def analyse_loop_nest(source: str, kernel_name: str) -> RowLoopNest:
    """Read the r-loops, loads, accumulators and stores of `kernel_name` in an Inductor kernel source."""
    try:
        plain = strip_heuristics(source, kernel_name, missing=LoopNestUnsupported)
        module = ast.parse(plain)
    except SyntaxError as err:
        raise LoopNestUnsupported(f"the kernel source does not parse: {err.msg} (line {err.lineno})") from None
    function = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == kernel_name)
    # stripping dropped the decorator's lines: number lines as in the kernel source a user reads
    ast.increment_lineno(function, _def_line(source, kernel_name) - _def_line(plain, kernel_name))
    constexprs = [a.arg for a in function.args.args if is_constexpr(a.annotation)]
    params = [a.arg for a in function.args.args if a.arg not in constexprs]
    nest = RowLoopNest(function, module, params, constexprs, None, None, None, "all")
    _decline_scans(function)
    try:
        _Reader(nest).read()
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as err:
        # a construct the reader has no rule for (Inductor writes new forms across versions)
        raise LoopNestUnsupported(f"kernel code the analysis does not read ({type(err).__name__}: {err})") from None
    return nest


def _decline_scans(function: ast.FunctionDef) -> None:
    """A scan in an r-loop carries the running prefix from block to block (`tl.where(roffset > 0, ...)`), not a
    reduction's accumulator: said as such, not as an accumulator of an unexpected form."""
    for loop in ast.walk(function):
        if not isinstance(loop, ast.For):
            continue
        for node in ast.walk(loop):
            if isinstance(node, ast.Call) and dotted_name(node.func) in SCAN_CALLS:
                raise LoopNestUnsupported(f"line {node.lineno}: a scan (`{dotted_name(node.func)}`) in the r-loop: "
                                          "it stores every prefix of the row and carries the running one from "
                                          "block to block, which the row-loop transforms do not model")


SCAN_CALLS = ("tl.associative_scan", "tl.cumsum", "tl.cumprod")


def _def_line(source: str, kernel_name: str) -> int:
    lines = source.splitlines()
    return next((i for i, line in enumerate(lines, 1) if line.lstrip().startswith(f"def {kernel_name}(")), 1)


def is_constexpr(annotation: ast.expr | None) -> bool:
    """Whether a kernel parameter's annotation makes it a compile-time constant (`XBLOCK: tl.constexpr`)."""
    return annotation is not None and dotted_name(annotation).endswith("constexpr")


class _Reader:
    """One walk over the function body in program order: value numbers, loads, stores, loops."""

    def __init__(self, nest: RowLoopNest):
        self.nest = nest
        self.table: dict[tuple, int] = {}
        self.moves_with_r: set[int] = set()     # value numbers that depend on the r index
        self.env: dict[str, int] = {}
        self.epoch: dict[str, int] = {}         # pointer parameter -> stores to it so far
        self.loop: int | None = None
        self.order = 0                          # memory operations seen so far

    def read(self) -> None:
        for stmt in self.nest.function.body:
            if isinstance(stmt, ast.For):
                self._loop(stmt)
            else:
                self._statement(stmt)
        if not self.nest.loops:
            raise LoopNestUnsupported("the kernel has no r-loop: its rows are already reduced in one pass")

    # -- statements -------------------------------------------------------------------------------

    def _loop(self, loop: ast.For) -> None:
        where = f"line {loop.lineno}"
        if not _is_row_loop(loop):
            raise LoopNestUnsupported(f"a loop that is not an r-loop over the whole row ({where}: "
                                      f"`for {ast.unparse(loop.target)} in {ast.unparse(loop.iter)}`)")
        if loop.orelse:
            raise LoopNestUnsupported(f"an r-loop with an else branch ({where})")
        self.loop = len(self.nest.loops)
        self.nest.loops.append(loop)
        carried = _read_before_written(loop.body) & set(self.env)
        self.env[loop.target.id] = self._number(("r-offset",), moves=True)
        for stmt in loop.body:
            if isinstance(stmt, ast.For):
                raise LoopNestUnsupported(f"a loop nested in an r-loop (line {stmt.lineno})")
            self._statement(stmt)
        for name in sorted(carried):
            self.nest.accumulators.append(Accumulator(name, self.loop, _combine(name, loop.body)))
        self.loop = None

    def _statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            return                                            # a docstring
        if isinstance(stmt, ast.Pass):
            return
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            self._assign(stmt)
            return
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            name = dotted_name(stmt.value.func)
            if name not in _STATEMENT_CALLS:
                raise LoopNestUnsupported(f"a call statement `{name or ast.unparse(stmt.value.func)}` "
                                          f"(line {stmt.lineno})")
            if name == "tl.store":
                self._store(stmt.value)
            else:
                self.value(stmt.value)
            return
        raise LoopNestUnsupported(f"a `{type(stmt).__name__}` statement (line {stmt.lineno}): only straight-line "
                                  "code and r-loops are modelled")

    def _assign(self, stmt: ast.Assign | ast.AnnAssign) -> None:
        targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else stmt.targets
        if len(targets) != 1 or stmt.value is None:
            raise LoopNestUnsupported(f"a chained or empty assignment (line {stmt.lineno})")
        target, number = targets[0], self.value(stmt.value)
        if isinstance(target, ast.Name):
            self._bind(target.id, number, stmt)
        elif isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
            for index, element in enumerate(target.elts):
                self.env[element.id] = self._number(("element", number, index), moves=number in self.moves_with_r)
        else:
            raise LoopNestUnsupported(f"an assignment to `{ast.unparse(target)}` (line {stmt.lineno})")

    def _bind(self, name: str, number: int, stmt: ast.stmt) -> None:
        self.env[name] = number
        literal = stmt.value if isinstance(stmt.value, ast.Constant) else None
        if self.loop is None and literal is not None and isinstance(literal.value, int):
            if name in R_NUMEL_NAMES:
                self.nest.r_numel = literal.value
            elif name == "xnumel":
                self.nest.x_numel = literal.value
        if name == "r0_mask":
            # each loop writes its own r mask: the nest is as masked as its least masked loop
            form = _mask_form(stmt.value, "r0_index", R_NUMEL_NAMES)
            if self.nest.r_mask is None or _MASK_ORDER.index(form) > _MASK_ORDER.index(self.nest.r_mask):
                self.nest.r_mask = form
        elif name == "xmask":
            self.nest.x_mask = _mask_form(stmt.value, "xindex", ("xnumel",))
            if self.nest.x_mask == "none":
                raise LoopNestUnsupported(f"an x mask `{ast.unparse(stmt.value)}` (line {stmt.lineno}) that is "
                                          "neither `xindex < xnumel` nor all true")

    def _store(self, call: ast.Call) -> None:
        param = self._pointer_param(call.args[0] if call.args else None, call)
        number = self.value(call)
        mask = access_mask(call)
        self.epoch[param] = self.epoch.get(param, 0) + 1
        reads_as = ()
        if not any(isinstance(n, ast.Call) and dotted_name(n.func) == "tl.load"
                   for part in (call.args[0], mask) if part is not None for n in ast.walk(part)):
            # numbering these again adds nothing (the call's own numbering made them); a nested load would
            # be recorded twice, so such a store is never read back as registers
            reads_as = (self.value(call.args[0]), self.value(mask) if mask is not None else None, param,
                        self.epoch[param])
        self.order += 1
        self.nest.stores.append(StoreSite(self.loop, param, number in self.moves_with_r, call.lineno, self.order,
                                          call, reads_as))

    # -- values -----------------------------------------------------------------------------------

    def value(self, node: ast.AST) -> int:
        """The value number of an expression (locals inlined, loads keyed by what they read)."""
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            return self._number(("free", node.id), moves=node.id in R_BLOCK_NAMES or node.id in R_LOOP_TARGETS)
        if isinstance(node, ast.Call):
            name = dotted_name(node.func)
            if any(part in name for part in _IMPURE_CALLS):
                raise LoopNestUnsupported(f"`{name}` (line {node.lineno}) has effects the analysis does not order")
            if name == "tl.load":
                return self._load(node)
        parts, moves = [type(node).__name__], False
        for field_name, child in ast.iter_fields(node):
            if field_name == "ctx":
                continue
            item, child_moves = self._field(child)
            parts.append((field_name, item))
            moves = moves or child_moves
        return self._number(tuple(parts), moves)

    def _field(self, child) -> tuple[object, bool]:
        if isinstance(child, ast.AST):
            number = self.value(child)
            return number, number in self.moves_with_r
        if isinstance(child, list):
            items = [self._field(c) for c in child]
            return tuple(i for i, _ in items), any(m for _, m in items)
        return repr(child), False

    def _load(self, call: ast.Call) -> int:
        pointer = call.args[0] if call.args else None
        param = self._pointer_param(pointer, call)
        keywords = {k.arg: k.value for k in call.keywords}
        mask, other = access_mask(call), load_other(call)
        if len(call.args) > 3 or "volatile" in keywords or "boundary_check" in keywords:
            raise LoopNestUnsupported(f"a tl.load with arguments the analysis does not model (line {call.lineno})")
        if any(isinstance(n, ast.Call) and dotted_name(n.func) == "tl.load"
               for part in (pointer, mask, other) if part is not None for n in ast.walk(part)):
            raise LoopNestUnsupported(f"a tl.load nested in another's arguments (line {call.lineno})")
        pointer_number = self.value(pointer)
        mask_number = self.value(mask) if mask is not None else None
        other_number = self.value(other) if other is not None else None
        key = (pointer_number, mask_number, other_number, param, self.epoch.get(param, 0))
        row = pointer_number in self.moves_with_r
        self.order += 1
        self.nest.loads.append(LoadSite(call, self.loop, param, key, row, call.lineno, self.order))
        return self._number(("load",) + key, moves=row or mask_number in self.moves_with_r)

    def _pointer_param(self, pointer: ast.expr | None, call: ast.Call) -> str:
        base = pointer
        while isinstance(base, ast.BinOp) and isinstance(base.op, ast.Add):
            base = base.left
        if not isinstance(base, ast.Name) or base.id not in self.nest.params or base.id in self.env:
            raise LoopNestUnsupported(f"a pointer `{ast.unparse(pointer) if pointer else '?'}` (line {call.lineno}) "
                                      "that is not a kernel parameter plus an offset")
        return base.id

    def _number(self, key: tuple, moves: bool) -> int:
        number = self.table.setdefault(key, len(self.table))
        if moves:
            self.moves_with_r.add(number)
        return number


def _is_row_loop(loop: ast.For) -> bool:
    """`for r0_offset in tl.range(0, r0_numel, R0_BLOCK[, ...])` (or `range(...)`): the whole row in chunks."""
    if not isinstance(loop.target, ast.Name) or loop.target.id not in R_LOOP_TARGETS:
        return False
    call = loop.iter
    if not isinstance(call, ast.Call) or dotted_name(call.func) not in ("tl.range", "range", "tl.static_range"):
        return False
    args = call.args
    return (len(args) == 3 and isinstance(args[0], ast.Constant) and args[0].value == 0
            and isinstance(args[1], ast.Name) and args[1].id in R_NUMEL_NAMES
            and isinstance(args[2], ast.Name) and args[2].id in R_BLOCK_NAMES)


def _mask_form(value: ast.expr, index: str, numels: tuple[str, ...]) -> str:
    """"compare" for `index < numel`, "all" for an all-true `tl.full(..., True, ...)`, else "none"."""
    if isinstance(value, ast.Compare) and len(value.ops) == 1 and isinstance(value.ops[0], ast.Lt) \
            and isinstance(value.left, ast.Name) and value.left.id == index \
            and isinstance(value.comparators[0], ast.Name) and value.comparators[0].id in numels:
        return "compare"
    full = value.value if isinstance(value, ast.Subscript) else value
    if isinstance(full, ast.Call) and dotted_name(full.func) == "tl.full" and len(full.args) >= 2 \
            and isinstance(full.args[1], ast.Constant) and full.args[1].value is True:
        return "all"
    return "none"


def _read_before_written(body: list[ast.stmt]) -> set[str]:
    """Names a loop body reads before it assigns them: the state one iteration hands the next."""
    written: set[str] = set()
    carried: set[str] = set()
    for stmt in body:
        value = getattr(stmt, "value", None) if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else stmt
        for node in ast.walk(value) if value is not None else ():
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in written:
                carried.add(node.id)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else stmt.targets
            for target in targets:
                written |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return carried & written


def _combine(name: str, body: list[ast.stmt]) -> str:
    """How the loop commits `name`: Inductor's `name = tl.where(mask, name_next, name)` after computing
    name_next with a combine; anything else is outside the model."""
    defs: dict[str, ast.expr] = {}
    commits = []
    for stmt in body:
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            continue
        target = stmt.targets[0]
        names = [target.id] if isinstance(target, ast.Name) else [e.id for e in getattr(target, "elts", [])
                                                                  if isinstance(e, ast.Name)]
        for each in names:
            defs[each] = stmt.value
        if name in names:
            commits.append(stmt)
    if len(commits) != 1 or not isinstance(commits[0].targets[0], ast.Name):
        raise LoopNestUnsupported(f"the loop-carried value `{name}` is assigned {len(commits)} times in its r-loop "
                                  f"(line {commits[0].lineno if commits else '?'}); one Inductor-style commit expected")
    commit = commits[0].value
    if not (isinstance(commit, ast.Call) and dotted_name(commit.func) == "tl.where" and len(commit.args) == 3
            and isinstance(commit.args[2], ast.Name) and commit.args[2].id == name
            and isinstance(commit.args[1], ast.Name)):
        raise LoopNestUnsupported(f"the accumulator `{name}` is updated by `{ast.unparse(commit)}` (line "
                                  f"{commits[0].lineno}), not committed as `tl.where(mask, next, {name})`")
    update = defs.get(commit.args[1].id)
    if isinstance(update, ast.BinOp) and type(update.op) in _BINARY_COMBINES:
        return _BINARY_COMBINES[type(update.op)]
    if isinstance(update, ast.Call):
        function = dotted_name(update.func)
        return _COMBINES.get(function, function.split(".")[-1] or "combine")
    return "combine"
