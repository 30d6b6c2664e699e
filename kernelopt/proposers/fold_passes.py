"""fold-pass: fold a looped reduction's summing pass into an earlier one (linear in the row, or exponentials).

Inductor writes a reduction that needs statistics of the whole row as one r-loop per pass (`row_loops`):
a label-smoothed cross-entropy takes the row's max and sum of exponentials in one loop, then sums
`x - max - log(sum)` over the row in a second, streaming the row from memory again. When the last pass
only sums (no store inside it), and the summed value is linear in the row with coefficients that are the
earlier passes' per-row results,

    sum_r (a_1(s) * R_1(x_r) + ... + a_k(s) * R_k(x_r) + b(s))
        = a_1(s) * sum_r R_1(x_r) + ... + a_k(s) * sum_r R_k(x_r) + b(s) * count,

the sums of the row terms R_i (which read only the row) are accumulated in the earlier pass that reads the
same data, and the last pass becomes that combination, after the statistics it needs. This is the online
form of the pass: the row is read one time fewer. Found from the kernel's own code (its loads, its
accumulators, the expression it sums), whatever the kernel is named.

A pass that sums `exp(row - shift)`, `shift` an earlier pass's per-row result (a log-sum-exp's `x - max`; the
sum of exponentials between a softmax's max and its output pass, so the pass folded need not be the last), is
folded in online form: each lane of the earlier loop keeps a running maximum m of the row value and the sum s
of exp(row - m), rescaled when m grows, and the pass's sum is sum over lanes of s * exp(m - shift). Where the
shift or the row's maximum is not finite (an all -inf row, an inf, a NaN), inf - inf and 0 * inf make the
two forms differ: those rows run the original pass, its loads masked to them (no memory traffic for the
others), and get the original's bits.

The sum is reassociated (sum(x) - n*c in place of sum(x - c)): where the two terms cancel, the folded form
is less accurate, and the legality gate, which compares against a float64 reference, rejects it.

Applies to `reduction` kernels whose last r-loop holds no store, sums into its accumulators only
(`acc = tl.where(mask, acc + v, acc)`), reads only data an earlier loop reads (same pointer, mask and
`other` by value number), and leaves nothing but its accumulators to the code after it; `v` must be a
sum of terms, each a row expression (no earlier-pass result inside) times a product of earlier-pass
results, or an earlier-pass result alone. Anything else is declined with a reason.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass
from typing import Iterable

from kernelopt.inductor_source import expression_excerpt

from .base import Attempt, Candidate, RewriteTarget
from .candidate_source import LaunchConfig, NotRetunable, grid_text, grid_type_of
from .retune import recorded_or_spread
from .row_loops import LoadSite, LoopNestUnsupported, RowLoopNest, analyse_loop_nest
from .row_registers import LoadRegisters, node_position, overlap_guarded_run, with_registers

UNRECORDED_CONFIGS = 3         # without a recorded launch configuration: this many from retune's space


class FoldDeclined(Exception):
    """Why the last pass cannot be folded (the message goes to the remarks)."""


class OnePass(FoldDeclined):
    """A kernel with one r-loop: nothing to fold, and not worth a remark (row-on-chip already says so)."""


@dataclass(frozen=True)
class _Term:
    row: ast.expr               # the row expression summed over r
    coefficient: ast.expr | None  # the per-row factor it is scaled by (None: 1)
    # An exponential term: what is summed is `exp(row - shift)` (`exp` the callee the kernel wrote), `shift` an
    # earlier pass's per-row result; summed online in the earlier pass (below). None: `row` itself is summed.
    shift: ast.expr | None = None
    exp: str = ""


@dataclass(frozen=True)
class _Linear:
    """A value as `sum(coefficient_i * row_i) + constant`; `constant` and coefficients read no row data."""
    terms: tuple[_Term, ...]
    constant: ast.expr | None


@dataclass(frozen=True)
class FoldPlan:
    kernel: str
    module: ast.Module          # the kernel source with the folded kernel in place of the original
    original: ast.FunctionDef   # the plain original, launched when buffers overlap
    overlap_checks: tuple[tuple[int, int], ...]   # launch positions (read, stored) that must not overlap
    folded: int                 # row sums now accumulated in the earlier pass
    description: str


# ---------------------------------------------------------------------------------------------------
# Reading the last pass

def plan_fold(target: RewriteTarget) -> FoldPlan:
    if len(target.kernels) != 1 or target.group_args:
        raise FoldDeclined("fold-pass rewrites one kernel")
    kernel = target.kernels[0]
    if kernel.kind != "reduction":
        raise FoldDeclined(f"{kernel.name} is a {kernel.kind} kernel; fold-pass folds the r-loops of a looped reduction")
    try:
        nest = analyse_loop_nest(kernel.source, kernel.name)
    except LoopNestUnsupported as why:
        raise FoldDeclined(str(why)) from None
    if len(nest.loops) < 2:
        raise OnePass("one r-loop: there is no later pass to fold")
    last = _pass_to_fold(nest)
    accumulators = [a for a in nest.accumulators if a.loop == last]
    earlier, overlaps, reads = _earlier_pass(nest, last)
    registers: dict[tuple, str] = {}           # the earlier pass's reads, named for the folded sums
    reuse: dict[tuple, str] = {}               # the last pass's reads -> those names
    for first, later in reads:
        reuse[node_position(later.node)] = registers.setdefault(node_position(first.node), f"_ko_row{len(registers)}")
    names = [a.name for a in target.launches[0].args] if target.launches else []
    if names != nest.params:
        raise FoldDeclined(f"a launch passes ({', '.join(names)}), the kernel takes ({', '.join(nest.params)})")
    function = copy.deepcopy(nest.function)
    loop_index = function.body.index(next(s for s in function.body if _is_same_loop(s, nest.loops[last])))
    early_index = function.body.index(next(s for s in function.body if _is_same_loop(s, nest.loops[earlier])))
    loop = function.body[loop_index]
    definitions = _definitions(loop.body)
    defined_before = _names_defined(function.body[:loop_index])
    after = function.body[loop_index + 1:]
    leaked = _names_read_first(after) & (set(definitions) - {a.name for a in accumulators})
    if leaked:
        raise FoldDeclined(f"code after its r-loop at line {nest.loops[last].lineno} reads "
                           f"{', '.join(sorted(leaked))}, computed in the loop")
    early_defined = _names_defined(function.body[:early_index])
    statistics = defined_before - early_defined - _names_defined([function.body[early_index]])
    inserted_init, inserted_body, replacements = [], [], {}
    folded = online = 0
    specials: list[ast.expr] = []      # per-row values that must be finite for the online sums to be the original's
    for accumulator in accumulators:
        value, mask, init = _summed_value(loop.body, accumulator.name, function.body[:loop_index])
        linear = _linear(inline_locals(value, definitions), statistics)
        row_mask = inline_locals(mask, definitions)
        if _reads(row_mask, statistics):
            raise FoldDeclined(f"the mask of {accumulator.name} depends on an earlier pass's result")
        parts = []
        for term in linear.terms:
            name = f"_ko_fold{folded}"
            folded += 1
            row = LoadRegisters({}, reuse, []).visit(term.row)
            if term.shift is None:
                inserted_init.append(_init_like(init, name))
                inserted_body.append(_accumulate(name, row, row_mask))
                total = _sum_tile(name)
            else:
                inserted_init += _online_init(init, name)
                inserted_body += _online_accumulate(name, row, row_mask, term.exp)
                total = _online_total(name, term.shift, term.exp)
                online += 1
                specials += [term.shift, ast.parse(f"triton_helpers.max2({name}_max, 1)[:, None]", mode="eval").body]
            parts.append(total if term.coefficient is None else ast.BinOp(term.coefficient, ast.Mult(), total))
        if linear.constant is not None and _whole_row(row_mask):
            # every element of the row is summed: the count is the row length, no accumulator needed
            dtype = ast.unparse(init.value.args[-1])
            parts.append(ast.BinOp(linear.constant, ast.Mult(), ast.parse(
                f"tl.full([XBLOCK, 1], r0_numel, {dtype})", mode="eval").body))
        elif linear.constant is not None:
            name = f"_ko_fold{folded}"
            folded += 1
            inserted_init.append(_init_like(init, name))
            inserted_body.append(_accumulate(name, _one_like(init), row_mask))
            parts.append(ast.BinOp(linear.constant, ast.Mult(), _sum_tile(name)))
        replacements[accumulator.name] = _add_all(parts)
    new_after = [replace_final_sum(stmt, replacements) for stmt in after]
    if any(_names_read([stmt]) & set(replacements) for stmt in new_after):
        raise FoldDeclined("an accumulator of its last r-loop is read other than by its final tl.sum")
    fallback = []
    if specials:
        # Rows with a non-finite shift or maximum (an all -inf row's max, an inf or a NaN in it) take the pass as
        # the original wrote it, its loads masked to those rows: their sums are the original's bits in every case
        # of inf - inf and 0 * inf, and the other rows' loads are masked off (no memory traffic)
        fallback = [special_rows(specials), *special_rows_pass(loop, FoldDeclined)]
        new_after = [replace_final_sum(stmt, {name: ast.parse(
            f"tl.where({SPECIAL}, tl.sum({name}, 1)[:, None], {ast.unparse(value)})", mode="eval").body
            for name, value in replacements.items()}) for stmt in after]
    early_loop = function.body[early_index]
    early_loop.body = [out for stmt in early_loop.body for out in with_registers(stmt, registers, {})] + inserted_body
    body = (function.body[:early_index] + inserted_init + function.body[early_index:loop_index] + fallback
            + new_after)
    function.body = [ast.fix_missing_locations(s) for s in body]
    function.name = kernel.name
    module = copy.deepcopy(nest.module)
    index = next(i for i, n in enumerate(module.body) if isinstance(n, ast.FunctionDef) and n.name == kernel.name)
    module.body[index] = function
    original = copy.deepcopy(nest.function)
    original.name = f"{kernel.name}_unfolded"
    checks = tuple(sorted((nest.params.index(a), nest.params.index(b)) for a, b in overlaps))
    what = "a value linear in the row" if not online else "exponentials of the row less an earlier result"
    description = (f"{kernel.name}: its r-loop at line {nest.loops[last].lineno} summed {what}: {folded} row sum(s) "
                   f"accumulated in the r-loop at line {nest.loops[earlier].lineno} instead"
                   + (f" ({online} online: a running maximum and the sum relative to it)" if online else "")
                   + ", one pass over the row fewer")
    return FoldPlan(kernel.name, module, original, checks, folded, description)


def candidate_module(plan: FoldPlan, grid: str, config: LaunchConfig, proposer: str = "fold-pass") -> str:
    """A candidate-format module: the rewritten kernel, the original where buffers that overlap need it
    (only then: the run() of a plan without overlap checks never launches it), `run(*args)`."""
    module = copy.deepcopy(plan.module)
    index = next(i for i, n in enumerate(module.body) if isinstance(n, ast.FunctionDef) and n.name == plan.kernel)
    if plan.overlap_checks:
        module.body.insert(index + 1, plan.original)
    meta = "".join(f"{k}={v}, " for k, v in config.blocks)
    launch = f"[{grid}](*args, {meta}num_warps={config.num_warps}, num_stages={config.num_stages})"
    lines = [f"# {proposer}: {plan.kernel} with {config.label()}", f"# {plan.description}", ast.unparse(module), ""]
    lines += overlap_guarded_run(plan.kernel, plan.original.name, plan.overlap_checks, launch,
                                 "a store between the passes must not change what the folded pass reads: "
                                 "overlapping buffers (the caller's, at run time) take the original kernel")
    return "\n".join(lines) + "\n"


def _pass_to_fold(nest: RowLoopNest) -> int:
    """The last r-loop after the first that only sums and stores nothing (a softmax's sum of exponentials,
    between its max and its normalising pass); declined with the last r-loop's reason when there is none."""
    reasons = []
    for index in range(len(nest.loops) - 1, 0, -1):
        where = "its last r-loop" if index == len(nest.loops) - 1 else f"its r-loop at line {nest.loops[index].lineno}"
        accumulators = [a for a in nest.accumulators if a.loop == index]
        if any(store.loop == index for store in nest.stores):
            reasons.append(f"{where} stores row elements: the pass needs the row itself")
        elif not accumulators or any(a.combine != "sum" for a in accumulators):
            reasons.append(f"{where} does not only sum ("
                           + ", ".join(f"{a.name}: {a.combine}" for a in accumulators) + ")")
        else:
            return index
    raise FoldDeclined(reasons[0] if len(reasons) == 1 else "; ".join(reasons))


def _names_read_first(body: list[ast.stmt]) -> set[str]:
    """The names `body` reads before it assigns them (an r-loop's own index and mask, assigned at its top,
    are not read from before it)."""
    defined, read = set(), set()

    def statement(stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.For):
            read.update(_names_read([ast.Expr(stmt.iter)]) - defined)
            defined.update(_names_defined([ast.Assign(targets=[stmt.target], value=ast.Constant(0))]))
            for inner in stmt.body:
                statement(inner)
            return
        read.update(_names_read([stmt]) - defined)
        defined.update(_names_defined([stmt]))

    for stmt in body:
        statement(stmt)
    return read


def _earlier_pass(nest: RowLoopNest, last: int) -> tuple[int, set[tuple[str, str]], list[tuple[LoadSite, LoadSite]]]:
    """The earlier r-loop that reads every row datum the last one reads (the sums move there); the
    (read pointer, stored pointer) pairs whose buffers must not overlap (a store between the two reads would
    otherwise change what the last pass read); and (first read, last pass's read) of each datum."""
    firsts = {}
    for site in nest.loads:
        firsts.setdefault(site.key, site)
    loops, pairs, reads = set(), set(), []
    for site in nest.loads:
        if site.loop != last:
            continue
        first = firsts[site.key]
        if first.loop is None or first.loop == last:
            raise FoldDeclined(f"line {site.line}: its last r-loop reads {site.param} where no earlier r-loop does")
        pairs.update((site.param, store.param) for store in nest.stores_between(first, site))
        loops.add(first.loop)
        reads.append((first, site))
    if len(loops) != 1:
        raise FoldDeclined("the data its last r-loop reads is first read in different r-loops"
                           if loops else "its last r-loop reads no row data")
    return loops.pop(), pairs, reads


def _is_same_loop(stmt: ast.stmt, loop: ast.For) -> bool:
    return isinstance(stmt, ast.For) and stmt.lineno == loop.lineno and stmt.col_offset == loop.col_offset


def _definitions(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """name -> its value, for the single-target assignments of a straight-line body (the last one wins)."""
    found = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            found[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            raise FoldDeclined(f"line {stmt.lineno}: an assignment the fold does not read")
    return found


def _names_defined(body: list[ast.stmt]) -> set[str]:
    return {n.id for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _names_read(body: list[ast.stmt]) -> set[str]:
    return {n.id for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _summed_value(body: list[ast.stmt], accumulator: str, before: list[ast.stmt]):
    """(v, mask, init) of `acc = tl.where(mask, acc + v, acc)` (through a temporary, as Inductor writes it),
    and the statement that initialises acc before the loop."""
    definitions = {s.targets[0].id: s.value for s in body if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)}
    commit = definitions.get(accumulator)
    if not (isinstance(commit, ast.Call) and ast.unparse(commit.func) == "tl.where" and len(commit.args) == 3
            and ast.unparse(commit.args[2]) == accumulator):
        raise FoldDeclined(f"{accumulator} is not committed as tl.where(mask, {accumulator} + value, {accumulator})")
    mask, updated = commit.args[0], commit.args[1]
    if isinstance(updated, ast.Name) and updated.id in definitions:
        updated = definitions[updated.id]
    if not (isinstance(updated, ast.BinOp) and isinstance(updated.op, ast.Add)):
        raise FoldDeclined(f"{accumulator} is not updated by an addition")
    if ast.unparse(updated.left) == accumulator:
        value = updated.right
    elif ast.unparse(updated.right) == accumulator:
        value = updated.left
    else:
        raise FoldDeclined(f"{accumulator} is not updated as {accumulator} + value")
    init = next((s for s in before if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]) == accumulator), None)
    if init is None or not (isinstance(init.value, ast.Call) and ast.unparse(init.value.func) in ("tl.full", "tl.zeros")):
        raise FoldDeclined(f"{accumulator} is not initialised with tl.full/tl.zeros before its loop")
    dtype = ast.unparse(init.value.args[-1]) if init.value.args else ""
    if dtype not in ("tl.float32", "tl.float64"):
        # the folded form scales by per-row results (and by -1.0): an integer sum would come out as a float
        raise FoldDeclined(f"{accumulator} sums in {dtype or 'an unknown dtype'}, not in floating point")
    return value, mask, init


def inline_locals(expr: ast.expr, definitions: dict[str, ast.expr], declined: type[Exception] = FoldDeclined,
                  limit: int = 200, expanding: frozenset[str] = frozenset()) -> ast.expr:
    """`expr` with every name in `definitions` replaced by its value, recursively (straight-line code, each name
    assigned once); `declined(why)` for a name defined through itself (code no compiler wrote, a cycle the
    recursion would never leave) or an expression nested deeper than `limit` names."""
    if len(expanding) > limit:
        raise declined("an expression is nested too deeply to read")

    class Inline(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if isinstance(node.ctx, ast.Load) and node.id in definitions:
                if node.id in expanding:
                    raise declined(f"`{node.id}` is defined through itself")
                return inline_locals(copy.deepcopy(definitions[node.id]), definitions, declined, limit,
                                     expanding | {node.id})
            return node

    return Inline().visit(copy.deepcopy(expr))


def _reads(expr: ast.expr, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))


def _linear(expr: ast.expr, statistics: set[str]) -> _Linear:
    """`expr` as a linear form in row expressions with earlier-pass results as coefficients."""
    if not _reads(expr, statistics):
        return _Linear((_Term(expr, None),), None) if _moves_with_row(expr) else _Linear((), expr)
    if not _moves_with_row(expr):
        return _Linear((), expr)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        left, right = _linear(expr.left, statistics), _linear(expr.right, statistics)
        if isinstance(expr.op, ast.Sub):
            right = _scaled(right, ast.Constant(-1.0))
        return _Linear(left.terms + right.terms, _add_optional(left.constant, right.constant))
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return _scaled(_linear(expr.operand, statistics), ast.Constant(-1.0))
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        for factor, other in ((expr.left, expr.right), (expr.right, expr.left)):
            if not _moves_with_row(factor):
                return _scaled(_linear(other, statistics), factor)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div) and not _moves_with_row(expr.right):
        return _scaled(_linear(expr.left, statistics), ast.BinOp(ast.Constant(1.0), ast.Div(), expr.right))
    if isinstance(expr, ast.Call) and ast.unparse(expr.func).endswith(".to") and len(expr.args) == 1 \
            and ast.unparse(expr.args[0]) == "tl.float32" and not expr.keywords:
        return _linear(expr.func.value, statistics)          # fp32 -> fp32: the value itself
    if isinstance(expr, ast.Call) and ast.unparse(expr.func) == "tl.broadcast_to":
        return _linear(expr.args[0], statistics)             # summed over the tile: the broadcast is the mask's
    exponential = _exponential_term(expr, statistics)
    if exponential is not None:
        return _Linear((exponential,), None)
    raise FoldDeclined(f"the summed value is not linear in the row: `{expression_excerpt(expr, 120)}` mixes the row "
                       "with an earlier pass's result")


EXP_CALLS = ("libdevice.exp", "tl_math.exp", "tl.exp", "math.exp")


def _exponential_term(expr: ast.expr, statistics: set[str]) -> _Term | None:
    """`exp(row - shift)`, with `row` reading the row and no earlier-pass result and `shift` an earlier-pass
    result that does not move with the row (a log-sum-exp's `x - max`), as an exponential term; else None."""
    if not (isinstance(expr, ast.Call) and ast.unparse(expr.func) in EXP_CALLS and len(expr.args) == 1
            and not expr.keywords):
        return None
    argument = expr.args[0]
    if not (isinstance(argument, ast.BinOp) and isinstance(argument.op, ast.Sub)):
        return None
    row, shift = argument.left, argument.right
    if _reads(row, statistics) or not _moves_with_row(row) or _moves_with_row(shift):
        return None
    return _Term(row, None, shift, ast.unparse(expr.func))


def _whole_row(mask: ast.expr) -> bool:
    """Whether the summing mask lets every element of a row in: the r bound alone, or with the x bound (a
    row past xnumel is never stored)."""
    row = "r0_offset + r0_base < r0_numel"
    return ast.unparse(mask) in (row, f"({row}) & xmask", f"xmask & ({row})")


def _moves_with_row(expr: ast.expr) -> bool:
    """Whether the expression reads row data: a load, or the r index."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "tl.load":
            return True
        if isinstance(node, ast.Name) and node.id in ("r0_offset", "roffset", "r0_base", "rbase"):
            return True
    return False


def _scaled(linear: _Linear, factor: ast.expr) -> _Linear:
    terms = tuple(_Term(t.row, factor if t.coefficient is None else ast.BinOp(t.coefficient, ast.Mult(), factor),
                        t.shift, t.exp) for t in linear.terms)
    constant = None if linear.constant is None else ast.BinOp(linear.constant, ast.Mult(), factor)
    return _Linear(terms, constant)


def _add_optional(a: ast.expr | None, b: ast.expr | None) -> ast.expr | None:
    if a is None or b is None:
        return a if b is None else b
    return ast.BinOp(a, ast.Add(), b)


def _add_all(parts: list[ast.expr]) -> ast.expr:
    total = parts[0]
    for part in parts[1:]:
        total = ast.BinOp(total, ast.Add(), part)
    return total


def _init_like(init: ast.Assign, name: str) -> ast.Assign:
    return ast.Assign(targets=[ast.Name(name, ast.Store())], value=copy.deepcopy(init.value), lineno=init.lineno)


def _one_like(init: ast.Assign) -> ast.expr:
    """1 in the accumulator's dtype and tile shape (counts the elements the mask lets in)."""
    call = copy.deepcopy(init.value)
    if ast.unparse(call.func) == "tl.zeros":
        return ast.Call(ast.parse("tl.full", mode="eval").body, [call.args[0], ast.Constant(1), call.args[1]], [])
    call.args[1] = ast.Constant(1)
    return call


def _accumulate(name: str, row: ast.expr, mask: ast.expr) -> ast.Assign:
    update = ast.BinOp(ast.Name(name, ast.Load()), ast.Add(), row)
    value = ast.Call(ast.parse("tl.where", mode="eval").body, [copy.deepcopy(mask), update, ast.Name(name, ast.Load())], [])
    return ast.Assign(targets=[ast.Name(name, ast.Store())], value=value, lineno=1)


def _online_init(init: ast.Assign, name: str) -> list[ast.Assign]:
    """A lane's running maximum of the row value (-inf) and its sum of exponentials relative to it (0)."""
    shape, dtype = ast.unparse(init.value.args[0]), ast.unparse(init.value.args[-1])
    return [ast.parse(f"{name}_max = tl.full({shape}, float('-inf'), {dtype})").body[0],
            ast.parse(f"{name} = tl.full({shape}, 0, {dtype})").body[0]]


def _online_accumulate(name: str, row: ast.expr, mask: ast.expr, exp: str) -> list[ast.stmt]:
    """The online update of a lane's (max m, sum s) by the row value e: m' = max(m, e) and
    s' = s * exp(m - m') + exp(e - m'), relative to 0 while m' is -inf (an all -inf lane keeps s = 0, not
    exp(-inf - -inf) = nan). A NaN takes the lane (as the original's sum), +inf too (_online_total)."""
    value, masked = ast.unparse(row), ast.unparse(mask)
    return [ast.parse(text).body[0] for text in (
        f"{name}_row = {value}",
        f"{name}_next = triton_helpers.maximum({name}_max, {name}_row)",
        f"{name}_ref = tl.where({name}_next == float('-inf'), 0.0, {name}_next)",
        f"{name} = tl.where({masked}, {name} * {exp}({name}_max - {name}_ref) + {exp}({name}_row - {name}_ref), "
        f"{name})",
        f"{name}_max = tl.where({masked}, {name}_next, {name}_max)")]


def _online_total(name: str, shift: ast.expr, exp: str) -> ast.expr:
    """sum_r exp(e_r - shift) from the lanes' (m, s): the sum over lanes of s * exp(m - shift), a lane with no
    element or only -inf ones adding 0, which is the original's sum wherever the shift and the row's maximum
    are finite (the other rows take the fallback pass: special_rows)."""
    return ast.parse(f"tl.sum(tl.where({name}_max == float('-inf'), 0.0, {name} * {exp}({name}_max - "
                     f"({ast.unparse(shift)}))), 1)[:, None]", mode="eval").body


SPECIAL = "_ko_special_rows"


def special_rows(values: list[ast.expr]) -> ast.Assign:
    """`_ko_special_rows = ...`: the rows where any of `values` (per-row) is NaN or infinite."""
    tests = [f"(({v}) != ({v})) | (({v}) == float('inf')) | (({v}) == float('-inf'))"
             for v in dict.fromkeys(ast.unparse(value) for value in values)]
    return ast.parse(f"{SPECIAL} = " + " | ".join(tests)).body[0]


def masked_to_special_rows(loop: ast.For) -> ast.For:
    """A copy of the pass whose loads and accumulator commits only act on the special rows."""
    loop = copy.deepcopy(loop)

    class Mask(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            name = ast.unparse(node.func)
            special = ast.Name(SPECIAL, ast.Load())
            if name == "tl.where" and len(node.args) == 3 and isinstance(node.args[2], ast.Name) \
                    and node.args[2].id.startswith("_"):        # an accumulator's commit
                node.args[0] = ast.BinOp(node.args[0], ast.BitAnd(), special)
            elif name == "tl.load":
                keyword = next((k for k in node.keywords if k.arg == "mask"), None)
                if len(node.args) > 1:
                    node.args[1] = ast.BinOp(node.args[1], ast.BitAnd(), special)
                elif keyword is not None:
                    keyword.value = ast.BinOp(keyword.value, ast.BitAnd(), special)
                else:
                    node.keywords.append(ast.keyword("mask", special))
                    if not any(k.arg == "other" for k in node.keywords):
                        node.keywords.append(ast.keyword("other", ast.Constant(0.0)))
            return node

    return Mask().visit(loop)


def special_rows_pass(loop: ast.For, error: type[Exception]) -> list[ast.stmt]:
    """The pass as the original wrote it for the special rows only: its loads and commits masked to them
    (masked_to_special_rows), and its r-loop bound `_ko_stop`, zero in a program without a special row. Masked
    iterations move no memory but still cost every lane's arithmetic (exponentials of the fill value): a fold
    whose fallback walked the whole row in every program was slower than the two passes it replaced (fold-split's
    candidates, 0.58x-0.91x on the H200)."""
    call = loop.iter
    if not (isinstance(call, ast.Call) and ast.unparse(call.func) in ("range", "tl.range") and len(call.args) >= 2):
        raise error(f"its r-loop is `for ... in {ast.unparse(call)}`, not a range")
    stop = ast.parse(f"_ko_stop = ({ast.unparse(call.args[1])}) * tl.max({SPECIAL}.to(tl.int32))").body[0]
    masked = masked_to_special_rows(loop)
    masked.iter.args[1] = ast.Name("_ko_stop", ast.Load())
    return [stop, masked]


def _sum_tile(name: str) -> ast.expr:
    return ast.parse(f"tl.sum({name}, 1)[:, None]", mode="eval").body


def replace_final_sum(stmt: ast.stmt, replacements: dict[str, ast.expr]) -> ast.stmt:
    """`x = tl.sum(acc, 1)[:, None]` -> `x = <the folded combination>` for a folded accumulator."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        text = ast.unparse(stmt.value)
        for name, combination in replacements.items():
            if text in (f"tl.sum({name}, 1)[:, None]", f"tl.sum({name}, 1)"):
                value = combination if text.endswith("[:, None]") else ast.parse(
                    f"({ast.unparse(combination)})[:, 0]", mode="eval").body
                return ast.Assign(targets=stmt.targets, value=value, lineno=stmt.lineno)
    return stmt


# ---------------------------------------------------------------------------------------------------
# The proposer

@dataclass
class FoldPassesProposer:
    name: str = "fold-pass"
    summary: str = ("Fold a looped reduction's summing pass into an earlier one when it sums a value linear in the "
                    "row or exp(row - an earlier result), online (the row is read once fewer)")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_fold(target)
        except FoldDeclined:
            return
        kernel, launch = target.kernels[0], target.launches[0]
        tried = {a.candidate.strategy for a in history}
        for config in self._configs(kernel, launch.config or {}):
            label = f"{self.name} {config.label()}"
            if label in tried:
                continue
            candidate = self._candidate(plan, kernel, launch, config, label)
            if candidate is not None:
                yield candidate

    @staticmethod
    def _configs(kernel, recorded: dict) -> list[LaunchConfig]:
        """The configuration the original runs at, or without one a few of retune's."""
        return recorded_or_spread(kernel, recorded, UNRECORDED_CONFIGS)

    def _candidate(self, plan: FoldPlan, kernel, launch, config: LaunchConfig, label: str) -> Candidate | None:
        try:
            grid = grid_text([a.name for a in launch.args], kernel.signature, grid_type_of(kernel), config)
        except NotRetunable:
            return None
        # no launch_config: that marks a retune (the original code at another configuration), which codegen
        # would emit as the original kernel at this configuration, without the fold
        return Candidate(candidate_module(plan, grid, config), self.name, label, notes=plan.description)

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a looped reduction of several passes gets no candidate ('' when it gets one, or has one pass)."""
        if len(target.kernels) != 1 or target.kernels[0].kind != "reduction":
            return ""
        try:
            plan_fold(target)
        except OnePass:
            return ""
        except FoldDeclined as why:
            return str(why)
        return ""
