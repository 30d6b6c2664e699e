"""Read the order in which a reduction visits a permuted tensor, and make it visit the tensor in memory order.

A reduction over every dimension of a channels-last tensor (a mean over C, H and W, a group norm's
statistics after a convolution) is written by Inductor in *logical* order: its positions are the NCHW
linear index `t = r0_3 + 511*x0 + 112896*x1` (a split reduction spreads them over x as well as r), and
every load turns `t` into an address with divisions and remainders (`64*(t % 15876) + (t // 15876) % 64`:
channel stride 1). Neighbouring lanes then read elements 64 floats apart, a sector each: the kernel
moves 8x the bytes it needs (measured 16.8 % of its bandwidth floor on an H100).

The transform: each position `t` reads the element that lies at memory position `t` instead, i.e. the
logical position `P(t)` with `address(P(t)) = t`. Over the positions of one outer key (the batch index,
which the permutation never crosses) the set of elements read is the same, so the values reduced are
the same multiset: a sum, max or Welford state over them differs only by the order of its operations.

Everything is read from the kernel's code and checked by evaluating its integer arithmetic over every
position of the first and the last outer key (numpy), never assumed:
- the positions: the longest affine sum of index names in a load's address that moves with r;
- every position in the loads' mask has a distinct `t`, and they cover 0..D-1;
- every load's address depends on the index names only through `t` (and the outer key);
- one load's address is a permuted box of mixed-radix digits (box_digits.py), whose enumeration in memory
  order `P` is written as divisions and remainders by constants;
- names computed from the position feed only masks, and those are true at every masked-in position
  (so the value a lane reduces depends on its position only through what it loads).
Masks keep reading the original names: lanes that were masked out stay masked out. Each load's address, as
the memory position moves, is then fitted to the box's digits (`base + t`, a per-channel weight `t % 64`) and
checked at every position, so the kernel does no division by the logical shape; a load that does not fit
reads the logical position `P(t)` split back into the kernel's own index names.
"""
from __future__ import annotations

import ast
import copy
import functools
from dataclasses import dataclass

import numpy as np

from kernelopt.inductor_source import (access_mask, dotted_name, expression_excerpt, hardcoded_numel, names_in,
                                      without_broadcast)

from .box_digits import Digit, NotABox, box_digits, fit_address, fit_text, inverse_text
from .index_values import R_ROOTS, ROOTS, X_ROOT, IndexEvaluator, index_env, parse_kernel, single_assignments
from .row_loops import SCAN_CALLS

REDUCTIONS = ("tl.sum", "triton_helpers.max2", "triton_helpers.min2", "triton_helpers.prod",
              "triton_helpers.welford_reduce", "triton_helpers.welford", "triton_helpers.welford_combine",
              "tl.max", "tl.min")            # not tl.reduce: its combine function may depend on the order
ORDERED = (*SCAN_CALLS, "triton_helpers.max_with_index", "triton_helpers.min_with_index")
MAX_CHECKED = 1 << 22          # positions evaluated per outer key: each index name is an int64 array this long
PREFIX = "_mo_"
# the two reasons that mean "not this kind of kernel at all" (the proposer stays silent about them)
NOT_A_REDUCTION = "it reduces nothing"
NO_DIGITS = "no load splits an affine position that moves with r into digits"
_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)      # what an index name is computed with


class NotPermuted(Exception):
    """Why the kernel's traversal is left as it is (the message goes to the remarks)."""


@dataclass(frozen=True)
class Retraversal:
    source: str                       # the kernel's source, its loads re-addressed
    positions: tuple[str, ...]        # the index names the position is an affine sum of (r0_3, x0, x1)
    count: int                        # D: positions per outer key
    split: bool                       # the positions span x names: the kernel's partial results change
    digits: tuple[Digit, ...]         # the permuted box of one unit, in position order
    outer_keys: int                   # how many outer keys (blocks of positions) the kernel's x range holds
    unit: int                         # positions permuted among themselves (count, or a part that is merged alone)
    row_units: tuple = ()             # split: for each x index of the first outer key, the unit its positions
                                      # lie in (-1: a row with none); every key's rows are walked alike


def retraverse(source: str, kernel_name: str, unit: int | None = None) -> Retraversal:
    """The kernel re-addressed to read its permuted input in memory order, or NotPermuted(why).

    unit  permute only within each run of `unit` consecutive positions (what the kernels after it merge
          alone, when they stop short of a whole outer key); None: the whole outer key."""
    found = _retraversed(source, kernel_name, unit)
    if isinstance(found, str):
        raise NotPermuted(found)
    return found


@functools.lru_cache(maxsize=64)
def _retraversed(source: str, kernel_name: str, unit: int | None) -> Retraversal | str:
    """retraverse's answer or its reason, kept: the search asks per target and per round, and checking a
    kernel evaluates its index arithmetic over up to MAX_CHECKED positions."""
    try:
        return _retraverse(source, kernel_name, unit)
    except NotPermuted as why:
        return str(why)
    except RecursionError:          # a name computed from itself (an accumulator) reached from an index
        return "its index arithmetic reads a name that is computed from itself"
    except (ArithmeticError, LookupError, TypeError, ValueError, MemoryError) as error:  # noqa: BLE001
        # arbitrary kernel code met by an analysis: a form it did not foresee is a decline, never a failed search
        return f"its index arithmetic could not be read ({type(error).__name__}: {error})"


def _retraverse(source: str, kernel_name: str, unit: int | None) -> Retraversal:
    tree, function = parse_kernel(source, kernel_name, NotPermuted)
    x_numel, r_numel = hardcoded_numel(source, "xnumel"), hardcoded_numel(source, "r0_numel")
    kernel = _Kernel(function, x_numel or 0, r_numel or 0)
    if not kernel.splits_a_position():
        raise NotPermuted(NO_DIGITS)
    calls = {dotted_name(n.func) for n in ast.walk(function) if isinstance(n, ast.Call)}
    if calls & set(ORDERED):
        raise NotPermuted("it scans or picks an index: its result depends on the order")
    if not calls & set(REDUCTIONS):
        raise NotPermuted(NOT_A_REDUCTION)
    if not x_numel or not r_numel:
        raise NotPermuted("its extents are not constants")
    plan = kernel.plan(unit)
    _readdressed(function, kernel, plan)
    return Retraversal(ast.unparse(tree) + "\n", plan.names, plan.count, plan.split, plan.digits, plan.outer_keys,
                       plan.unit, plan.row_units)


@dataclass(frozen=True)
class _Plan:
    names: tuple[str, ...]
    coefficients: tuple[int, ...]
    count: int
    split: bool
    digits: tuple[Digit, ...]
    fitted: dict                 # load index (in _Kernel.loads) -> its address's atoms in the memory position
    outer_keys: int
    unit: int
    row_units: tuple


class _Kernel:
    """The kernel's index arithmetic, its loads, and the names that derive from the position."""

    def __init__(self, function: ast.FunctionDef, x_numel: int, r_numel: int):
        self.function, self.x_numel, self.r_numel = function, x_numel, r_numel
        self.assigned = single_assignments(function)
        self.index = {name: axes for name in self.assigned if (axes := self._index_axes(name, set()))}
        self.values = IndexEvaluator(self.assigned, NotPermuted, ROOTS, "memory-order")
        self.loads = [n for n in ast.walk(function) if isinstance(n, ast.Call) and dotted_name(n.func) == "tl.load"]

    # ------------------------------------------------------------------ which names are index arithmetic
    def _index_axes(self, name: str, active: set[str]) -> frozenset | None:
        """{'x'}, {'r'} or both: the roots an integer-arithmetic name is computed from (None: not one)."""
        if name == X_ROOT:
            return frozenset("x")
        if name in R_ROOTS:
            return frozenset("r")
        if name in active or name not in self.assigned:
            return None
        return self._expr_axes(self.assigned[name], active | {name})

    def _expr_axes(self, expr: ast.expr, active: set[str]) -> frozenset | None:
        if isinstance(expr, ast.Constant) and type(expr.value) is int:
            return frozenset()
        if isinstance(expr, ast.Name):
            return self._index_axes(expr.id, active)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, _INT_OPS):
            left, right = self._expr_axes(expr.left, active), self._expr_axes(expr.right, active)
            return None if left is None or right is None else left | right
        return None

    def splits_a_position(self) -> bool:
        """Some load's address divides (or takes the remainder of) a sum that moves with r: the form this
        transform reads. Checked first, so that kernels of another kind get no remark."""
        for load in self.loads:
            pointer = load.args[0] if load.args else None
            for node in ast.walk(pointer) if pointer is not None else ():
                if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mod)):
                    terms = _affine_terms(node.left)
                    if any(n in self.index and "r" in self.index[n] for n, _ in terms):
                        return True
        return False

    # ------------------------------------------------------------------ the plan
    def plan(self, unit: int | None) -> _Plan:
        offsets = [self._offset(load) for load in self.loads]
        names, coefficients = self._positions(offsets)
        moving = [load for load, offset in zip(self.loads, offsets) if names_in(offset) & set(names)]
        self._check_flow(set(names))
        masks = {ast.dump(_mask_of(load) or ast.Constant(True)) for load in moving}
        if len(masks) != 1:
            raise NotPermuted("the loads that move with the position are masked differently")
        split = any("x" in self.index[n] for n in names)
        outer = {n for offset in offsets for n in names_in(offset) if n not in names}
        if any("r" in self.index[n] for n in outer) or outer & self.derived:
            raise NotPermuted("the position enters an address other than through its own names")
        checked = None
        blocks = self._outer_blocks(outer, split)
        outer_keys = self.x_numel // len(blocks[0]) if split else self.x_numel
        for xs in blocks:
            found = self._check_block(xs, moving, names, coefficients, unit)
            if checked is not None and found != checked:
                raise NotPermuted("the first and the last outer key are walked differently")
            checked = found
        count, digits, fitted, row_units = checked
        return _Plan(names, coefficients, count, split, digits, {self.loads.index(moving[i]): f for i, f in fitted},
                     outer_keys, unit or count, row_units)

    def _offset(self, load: ast.Call) -> ast.expr:
        pointer = load.args[0] if load.args else None
        if not (isinstance(pointer, ast.BinOp) and isinstance(pointer.op, ast.Add) and isinstance(pointer.left, ast.Name)):
            raise NotPermuted(f"line {load.lineno}: a load's address is not `pointer + offset`")
        offset = _address(load)
        if not names_in(offset) <= set(self.index) or self._expr_axes(offset, set()) is None:
            raise NotPermuted(f"line {load.lineno}: a load's address is not integer arithmetic on the indices "
                              "(an indirect load)")
        return offset

    def _positions(self, offsets: list[ast.expr]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The longest affine sum of index names, one of them moving with r, in any load's address."""
        best: list[tuple[str, int]] = []
        for offset in offsets:
            # a position that is split into digits (`(t // 126) % 126`): an address affine in its index names
            # already walks memory in a fixed stride per name, which a launch configuration tunes, not this
            divided = [n.left for n in ast.walk(offset) if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.FloorDiv, ast.Mod))]
            for node in divided:
                terms = _affine_terms(node)
                if (terms and len(terms) > len(best) and all(n in self.index for n, _ in terms)
                        and any("r" in self.index[n] for n, _ in terms)):
                    best = terms
        if not best or not any(k == 1 for _, k in best):
            raise NotPermuted(NO_DIGITS)
        best.sort(key=lambda term: -term[1])
        return tuple(n for n, _ in best), tuple(k for _, k in best)

    def _check_flow(self, positions: set[str]) -> None:
        """Names computed from the position (other than through a load) may only be masks."""
        derived = set(positions)
        changed = True
        while changed:
            changed = False
            for name, expr in self.assigned.items():
                if name not in derived and _reads_value(expr, derived):
                    derived.add(name)
                    changed = True
        self.derived = derived - positions
        self.conditions = []       # masks and where-conditions that read the position: true where it is in
        allowed = set()            # Name nodes in a load's address or mask, or a where's condition
        for node in ast.walk(self.function):
            condition = None
            if isinstance(node, ast.Call) and dotted_name(node.func) == "tl.load":
                allowed.update(id(n) for n in ast.walk(node.args[0]))
                condition = _mask_of(node)
            if isinstance(node, ast.Call) and dotted_name(node.func) == "tl.where" and node.args:
                condition = node.args[0]
            if condition is not None:
                allowed.update(id(n) for n in ast.walk(condition))
                if _reads(condition, derived):
                    self.conditions.append(condition)
            if isinstance(node, ast.Call) and dotted_name(node.func) == "tl.store":
                # a split kernel stores each program's partial where its x names say: that place stays
                moving = self.derived | {n for n in positions if "r" in self.index[n]}
                if _reads(node.args[0], moving):
                    raise NotPermuted(f"line {node.lineno}: a store's address moves with the position")
                allowed.update(id(n) for n in ast.walk(node.args[0]))
        for node in ast.walk(self.function):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                if node.targets[0].id in derived:
                    allowed.update(id(n) for n in ast.walk(node.value))
        for node in ast.walk(self.function):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in derived:
                if id(node) not in allowed:
                    raise NotPermuted(f"line {node.lineno}: {node.id} carries the position into a value")

    def _outer_blocks(self, outer: set[str], split: bool) -> list[np.ndarray]:
        """The x indices of the first and the last outer key (one row each when the positions are in r)."""
        if not split:
            return [np.array([0]), np.array([self.x_numel - 1])]
        reach = min(self.x_numel, MAX_CHECKED // max(1, self.r_numel) + 1)   # x indices one key may span
        zero = np.zeros((1, 1), dtype=np.int64)
        blocks = []
        for xs in (np.arange(reach), np.arange(self.x_numel - 1, self.x_numel - 1 - reach, -1)):
            keys = np.stack([np.broadcast_to(self._evaluate(ast.Name(n), xs.reshape(-1, 1), zero), (reach, 1))[:, 0]
                             for n in sorted(outer)] or [np.zeros(reach, dtype=np.int64)])
            changed = np.nonzero((keys != keys[:, :1]).any(axis=0))[0]
            if not changed.size and reach < self.x_numel:
                raise NotPermuted(f"an outer key spans more than {MAX_CHECKED} positions to check")
            span = int(changed[0]) if changed.size else reach
            blocks.append(np.sort(xs[:span]))
        return blocks

    def _check_block(self, xs: np.ndarray, moving: list[ast.Call], names: tuple[str, ...],
                     coefficients: tuple[int, ...], unit: int | None) -> tuple[int, tuple[Digit, ...], tuple]:
        xs, rs = xs.reshape(-1, 1).astype(np.int64), np.arange(self.r_numel, dtype=np.int64).reshape(1, -1)
        shape = (xs.shape[0], rs.shape[1])
        mask = np.broadcast_to(self._truth(_mask_of(moving[0]), xs, rs), shape)
        position = self._evaluate(_affine(names, coefficients), xs, rs)
        t = np.broadcast_to(position, shape)[mask]
        count = int(t.size)
        if count < 2 or not np.array_equal(np.sort(t), np.arange(count)):
            raise NotPermuted("the masked-in positions are not 0..D-1, each once")
        unit = unit or count
        if count % unit or unit < 2:
            raise NotPermuted(f"{unit} positions do not divide the {count} of an outer key")
        for condition in self.conditions:
            if not np.broadcast_to(self._truth(condition, xs, rs), shape)[mask].all():
                raise NotPermuted(f"line {condition.lineno}: `{expression_excerpt(condition, 40)}` reads the position and "
                                  "is false at a masked-in one")
        split_back = _split_back(np.arange(count), coefficients)
        if not np.array_equal(sum(k * v for k, v in zip(coefficients, split_back)), np.arange(count)):
            raise NotPermuted("the position's terms do not split it back into its index names")
        order = np.argsort(t)
        x_of = np.broadcast_to(xs, shape)[mask][order].reshape(-1, 1)
        split_back = {n: v.reshape(-1, 1) for n, v in zip(names, split_back)}
        main, walks, why = None, [], "no load walks a permuted box (the positions are already in memory order)"
        for load in moving:
            offset = _address(load)
            here = np.broadcast_to(self._evaluate(offset, xs, rs), shape)[mask][order]
            there = self._evaluate(offset, x_of, np.zeros((1, 1), dtype=np.int64), split_back)
            if not np.array_equal(here, np.broadcast_to(there, (count, 1)).ravel()):
                raise NotPermuted(f"line {load.lineno}: the address depends on more than the position")
            walked = here - here[0]
            walks.append(walked)
            units = walked.reshape(-1, unit)
            within = units - units[:, :1]               # each unit's walk from its first position
            if main is not None or (np.diff(within[0]) > 0).all():
                continue                                # already in memory order
            if not (within == within[0]).all():
                why = f"the runs of {unit} positions are not walked alike"
                continue
            try:
                main = (walked, box_digits(within[0]))
            except NotABox as error:
                why = str(error)
        if main is None:
            raise NotPermuted(why)
        walked, digits = main
        row_units = self._row_units(np.broadcast_to(position, shape), mask, unit) if xs.shape[0] > 1 else ()
        if unit != count:                # each unit's loads keep their own arithmetic, on the primed names
            return count, digits, (), row_units
        # whole outer key: every load's address, as the memory position t moves, is fitted to the digits of t
        # (`base + t` for the box itself, `t % 64` for a per-channel weight): no division by the logical shape
        t = np.arange(count)
        logical = sum(d.weight * ((t // d.rank) % d.radix) for d in digits)
        fitted = tuple((i, fit) for i, (load, w) in enumerate(zip(moving, walks))
                       if (fit := fit_address(w[logical], digits, _constants(_address(load)))) is not None)
        return count, digits, fitted, row_units

    @staticmethod
    def _row_units(positions: np.ndarray, mask: np.ndarray, unit: int) -> tuple:
        """The unit each row's masked-in positions lie in (-1: none); a row across two units declines."""
        lo = np.where(mask, positions, np.iinfo(np.int64).max).min(axis=1)
        hi = np.where(mask, positions, -1).max(axis=1)
        some = hi >= 0
        if (lo[some] // unit != hi[some] // unit).any():
            raise NotPermuted(f"a program's positions straddle two runs of {unit}")
        return tuple(np.where(some, lo // unit, -1).tolist())

    # ------------------------------------------------------------------ evaluation (numpy, int64)
    def _evaluate(self, expr: ast.expr, xs: np.ndarray, rs: np.ndarray, bound: dict | None = None) -> np.ndarray:
        """`expr` at x indices `xs` and r indices `rs` (broadcast), `bound` names taking the given values."""
        return np.asarray(self.values.value(expr, index_env(xs, rs, self.x_numel, self.r_numel, bound)))

    def _truth(self, expr: ast.expr | None, xs: np.ndarray, rs: np.ndarray) -> np.ndarray:
        return np.ones((1, 1), dtype=bool) if expr is None else self._evaluate(expr, xs, rs).astype(bool)


# ---------------------------------------------------------------------------------- rewriting the loads

def _readdressed(function: ast.FunctionDef, kernel: _Kernel, plan: _Plan) -> None:
    """Insert the memory position `_mo_t` (the kernel's own position) after the last assignment of a position
    name; each load whose address was fitted to its digits reads `base + fit(_mo_t)`, any other one reads
    the logical position `P(_mo_t)` split back into primed names."""
    primed = {name: PREFIX + name for name in plan.names}
    lines = [f"{PREFIX}t = {ast.unparse(_affine(plan.names, plan.coefficients))}"]
    unfitted = [i for i, load in enumerate(kernel.loads)
                if i not in plan.fitted and names_in(load.args[0]) & set(plan.names)]
    if unfitted:
        if plan.unit == plan.count:
            lines.append(f"{PREFIX}p = {inverse_text(plan.digits, f'{PREFIX}t')}")
        else:                            # permuted within each unit, the units kept in place
            lines += [f"{PREFIX}u = {PREFIX}t % {plan.unit}",
                      f"{PREFIX}p = {PREFIX}t - {PREFIX}u + {inverse_text(plan.digits, f'{PREFIX}u')}"]
        rest = f"{PREFIX}p"
        for index, (name, k) in enumerate(zip(plan.names, plan.coefficients)):
            lines.append(f"{primed[name]} = {rest}" if k == 1 else f"{primed[name]} = {rest} // {k}")
            if index < len(plan.names) - 1:
                lines.append(f"{PREFIX}rest{index} = {rest} % {k}")
                rest = f"{PREFIX}rest{index}"
    statements = ast.parse("\n".join(lines)).body
    body, at = _last_assignment(function, set(plan.names))
    body[at + 1:at + 1] = statements
    for index, load in enumerate(kernel.loads):
        pointer = load.args[0]
        if index in plan.fitted:         # the offset at position 0 of this outer key, plus the fit
            fit = ast.parse(fit_text(plan.fitted[index], f"{PREFIX}t"), mode="eval").body
            pointer.right = ast.BinOp(_zeroed(pointer.right, set(plan.names)), ast.Add(), fit)
        elif index in unfitted:
            load.args[0] = _renamed(pointer, primed)
    ast.fix_missing_locations(function)


def _address(load: ast.Call) -> ast.expr:
    """A load's offset (`pointer + offset`) without the broadcast Inductor puts on an address that does not move
    with r (a per-channel bias in an r-loop): inductor_source.without_broadcast."""
    return without_broadcast(load.args[0].right)[0]


def _constants(node: ast.AST) -> set[int]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and type(n.value) is int and n.value > 1}


def _split_back(t: np.ndarray, coefficients: tuple[int, ...]) -> list[np.ndarray]:
    """Each position name's value at positions `t`, largest coefficient first (what the primed names compute)."""
    values, rest = [], t
    for k in coefficients:
        values.append(rest // k)
        rest = rest % k
    return values


def _last_assignment(function: ast.FunctionDef, names: set[str]) -> tuple[list, int]:
    """(the statement list, index) of the last assignment to any of `names`, in program order."""
    found = None

    def visit(body: list):
        nonlocal found
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id in names for t in stmt.targets):
                found = (body, i)
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and not isinstance(stmt, ast.FunctionDef):
                    visit(inner)

    visit(function.body)
    if found is None:
        raise NotPermuted("the position's names are not assigned in the kernel")
    return found


def _renamed(node: ast.expr, names: dict[str, str]) -> ast.expr:
    node = copy.deepcopy(node)
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and child.id in names:
            child.id = names[child.id]
    return node


def _zeroed(node: ast.expr, names: set[str]) -> ast.expr:
    """`node` with `names` set to 0 (the offset of position 0)."""
    class Zero(ast.NodeTransformer):
        def visit_Name(self, child):
            return ast.Constant(0) if child.id in names else child

    return Zero().visit(copy.deepcopy(node))


# ---------------------------------------------------------------------------------- small readers

def _affine_terms(node: ast.AST) -> list[tuple[str, int]]:
    """`a + 511*b + c*112896` -> [(a, 1), (b, 511), (c, 112896)] (a sum of two or more terms), else []."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return []
    terms, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.BinOp) and isinstance(item.op, ast.Add):
            stack += [item.left, item.right]
        elif isinstance(item, ast.Name):
            terms.append((item.id, 1))
        elif isinstance(item, ast.BinOp) and isinstance(item.op, ast.Mult):
            pair = (item.left, item.right) if isinstance(item.right, ast.Name) else (item.right, item.left)
            if not (isinstance(pair[0], ast.Constant) and type(pair[0].value) is int and isinstance(pair[1], ast.Name)):
                return []
            terms.append((pair[1].id, pair[0].value))
        else:
            return []
    names = [n for n, _ in terms]
    return terms if len(set(names)) == len(names) else []


def _affine(names: tuple[str, ...], coefficients: tuple[int, ...]) -> ast.expr:
    return ast.parse(" + ".join(n if k == 1 else f"{k}*{n}" for n, k in zip(names, coefficients)), mode="eval").body


def _reads(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _reads_value(expr: ast.expr, names: set[str]) -> bool:
    """`expr` reads `names` other than in a load (address or mask) or a where's condition: what it computes
    can depend on them."""
    if isinstance(expr, ast.Call) and dotted_name(expr.func) == "tl.load":
        return False
    if isinstance(expr, ast.Call) and dotted_name(expr.func) == "tl.where" and expr.args:
        return any(_reads_value(a, names) for a in expr.args[1:]) or \
            any(_reads_value(k.value, names) for k in expr.keywords)
    if isinstance(expr, ast.Name):
        return expr.id in names
    return any(_reads_value(child, names) for child in ast.iter_child_nodes(expr))


def _mask_of(load: ast.Call) -> ast.expr | None:
    mask = access_mask(load)
    return None if isinstance(mask, ast.Constant) and mask.value is None else mask
