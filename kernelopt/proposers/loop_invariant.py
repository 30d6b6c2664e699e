"""hoist-invariant: compute what an r-loop recomputes for every element of a row once per row, before the loop.

When Inductor splits a long row's reduction across kernels, the consumer kernel loads the row's statistic
(a norm, a sum) inside its r-loop through a broadcast address (`tl.load(p + tl.broadcast_to(x1, [XBLOCK,
R0_BLOCK]), mask)`) and applies the per-row part of the math to it for every element: a cosine-similarity
loss takes two square roots, two maxima and two divisions per element pair of a row whose norms are two
numbers. Found from the kernel's own code (which loads do not move with the r index, which statements use
only them and constants), whatever the kernel is named:

- an *invariant load* is a load in an r-loop whose address, its broadcast to the block shape aside, reads
  only names bound before the loop, from a buffer the kernel never stores to; an *invariant value* is one
  computed by pure elementwise operations from one invariant load and constants;
- each invariant value `v = f(load(a, M, other))` becomes, before the loop, `v_h = f(load(a, xmask))`
  (once per row) and `v_o = f(other)` (once), and in the loop `v = tl.where(M, v_h, v_o)`: the original
  value at every lane, masked lanes included, since an elementwise `f` commutes with the select. Values
  used only to compute other invariant values leave the loop altogether;
- the `+reciprocal` variant also turns `x / v` in the loop into `x * (1 / v)` with `1 / v` computed once
  per row (floating point only). That rounds twice where the division rounded once: the legality gate,
  which compares against a float64 reference, decides.

The hoisted load runs for every row of the program (mask `xmask`), where the original ran only for lanes
of its mask: it is proposed only when its address is proven in bounds for every row, by evaluating the
address over all rows of every launch against the buffer's extent. Anything else is declined with a reason.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from kernelopt.inductor_source import access_mask, dotted_name, load_other, pointer_base, without_broadcast

from .base import Attempt, Candidate, RewriteTarget
from .candidate_source import TL_DTYPES
from .retune import own_schedule_candidates
from .row_loops import LoadSite, LoopNestUnsupported, RowLoopNest, analyse_loop_nest

# Elementwise calls with no side effect and no dependence on a lane's position: they commute with a select.
PURE_CALLS = {"tl.sqrt", "tl.sqrt_rn", "tl.rsqrt", "libdevice.sqrt", "libdevice.rsqrt", "tl.exp", "tl.log",
              "tl_math.exp", "tl_math.log", "tl_math.abs", "tl.abs", "libdevice.exp", "libdevice.log",
              "libdevice.log1p", "libdevice.expm1", "libdevice.tanh", "libdevice.pow", "triton_helpers.maximum",
              "triton_helpers.minimum", "tl.maximum", "tl.minimum", "tl.sigmoid", "libdevice.sigmoid"}
# Operations worth taking out of the loop (a load alone is cheap: it hits the cache).
COSTLY_CALLS = PURE_CALLS - {"triton_helpers.maximum", "triton_helpers.minimum", "tl.maximum", "tl.minimum",
                             "tl_math.abs", "tl.abs"}
FLOAT_WIDE = ("tl.float32", "tl.float64")
MAX_ROWS_PROVEN = 1 << 24           # rows whose addresses are evaluated one by one (a 16M-row kernel: 128 MB)
UNRECORDED_CONFIGS = 3              # without a recorded launch configuration: this many from retune's space


class HoistDeclined(Exception):
    """Why nothing can be hoisted (the message goes to the remarks)."""


class NothingInvariant(HoistDeclined):
    """No r-loop loads a per-row value: nothing to say (most kernels)."""


@dataclass
class _Invariant:
    """One invariant statement of a loop: its value's name, expression and the load it comes from."""

    name: str
    stmt: ast.Assign
    site: LoadSite | None       # None: a constant
    dtype: str | None = None    # the value's Triton dtype as far as it is known (for the reciprocal)
    costly: bool = False


@dataclass
class HoistPlan:
    kernel: str
    module: ast.Module
    hoisted: list[str]
    reciprocals: int
    description: str


def plan_hoist(target: RewriteTarget, reciprocal: bool = False) -> HoistPlan:
    if len(target.kernels) != 1 or target.kernels[0].kind != "reduction":
        raise NothingInvariant("not a looped reduction kernel")
    kernel = target.kernels[0]
    try:
        nest = analyse_loop_nest(kernel.source, kernel.name)
    except LoopNestUnsupported as why:
        raise NothingInvariant(str(why)) from None      # the loop-nest analysis says why for row-on-chip
    stored = {s.param for s in nest.stores}
    # each pointer's element type as Triton spells it (the launch's tensors: every launch has the same dtypes)
    element_types = {a.name: TL_DTYPES.get(a.dtype) for a in target.launches[0].args if a.is_tensor}
    hoisted, reciprocals, lines = [], 0, []
    for index, loop in enumerate(nest.loops):
        sites = {id(s.node): s for s in nest.loads
                 if s.loop == index and s.param not in stored and _per_row(s, nest, loop)}
        if not sites:
            continue
        carried = {a.name for a in nest.accumulators if a.loop == index}
        invariants = _invariants(loop, sites, element_types, carried)
        if not any(i.costly for i in invariants.values() if i.site is not None) and not (
                reciprocal and _divisions(loop, invariants)):
            continue
        _prove_in_bounds(nest, {id(i.site): i.site for i in invariants.values() if i.site is not None}.values(),
                         target)
        names, divided = _rewrite_loop(nest, loop, invariants, reciprocal)
        hoisted += names
        reciprocals += divided
        lines.append(str(loop.lineno))
    if not hoisted:
        raise NothingInvariant("no r-loop computes on a per-row value for every element")
    if reciprocal and not reciprocals:
        raise NothingInvariant("no division by a per-row value")
    description = (f"{kernel.name}: {len(hoisted)} per-row value(s) ({', '.join(hoisted)}) computed once per row "
                   f"before the r-loop(s) at line(s) {', '.join(lines)} instead of once per element"
                   + (f"; {reciprocals} division(s) by them made multiplications by a reciprocal" if reciprocals
                      else ""))
    return HoistPlan(kernel.name, nest.module, hoisted, reciprocals, description)


# -- analysis ------------------------------------------------------------------------------------------

def _per_row(site: LoadSite, nest: RowLoopNest, loop: ast.For) -> bool:
    """The load's address, broadcasts aside, reads only names bound before the loop and not rebound in it:
    one address per row. (`LoadSite.row` counts a broadcast to the block shape as moving with r.)"""
    row = _row_offset(site.node)
    if row is None:
        return False
    position = nest.function.body.index(loop)
    bound_before = {t.id for stmt in nest.function.body[:position] if isinstance(stmt, ast.Assign)
                    for t in stmt.targets if isinstance(t, ast.Name)}
    bound_in_loop = {t.id for stmt in loop.body if isinstance(stmt, ast.Assign)
                     for t in stmt.targets if isinstance(t, ast.Name)}
    names = {n.id for n in ast.walk(row[1]) if isinstance(n, ast.Name)}
    return names <= (bound_before | set(nest.params)) - bound_in_loop


def _invariants(loop: ast.For, sites: dict[int, LoadSite], element_types: dict[str, str | None],
                carried: set[str]) -> dict[str, _Invariant]:
    """The loop's invariant statements, by name, in program order (`element_types`: each pointer's `tl.`
    element type; `carried`: the loop's accumulators)."""
    found: dict[str, _Invariant] = {}
    assigned: dict[str, int] = {}
    for stmt in loop.body:
        for target in (stmt.targets if isinstance(stmt, ast.Assign) else []):
            if isinstance(target, ast.Name):
                assigned[target.id] = assigned.get(target.id, 0) + 1
    for stmt in loop.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        name = stmt.targets[0].id
        if assigned[name] != 1 or name in carried:
            continue
        value = stmt.value
        if isinstance(value, ast.Call) and id(value) in sites:
            site, mask = sites[id(value)], access_mask(value)
            dtype = element_types.get(site.param)
            # no `other`: the original's masked lanes are undefined, nothing to match; no mask: nothing to
            # select with; an unknown element type: the masked lanes' value could not be written alike
            if load_other(value) is not None and mask is not None and not _is_none(mask) and dtype is not None:
                found[name] = _Invariant(name, stmt, site, dtype)
            continue
        origin = _pure_origin(value, found)
        if origin is False:
            continue
        if origin is None:
            found[name] = _Invariant(name, stmt, None)
        else:
            operands = [found[n.id] for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in found]
            found[name] = _Invariant(name, stmt, origin.site, _dtype_after(value, found),
                                     costly=_is_costly(value) or any(o.costly for o in operands))
    return found


def _pure_origin(expr: ast.expr, found: dict[str, _Invariant]):
    """The invariant this expression derives from (None: only constants; False: not invariant, or from two
    loads). An expression is pure when it is names of invariants, literals, `tl.full` of literals, casts,
    broadcasts and the calls and operators in PURE_CALLS."""
    origins: list[_Invariant] = []

    def visit(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float, bool))
        if isinstance(node, ast.Name):
            if node.id in found:
                origins.append(found[node.id])
                return True
            return False
        if isinstance(node, ast.BinOp):
            return isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)) and visit(node.left) and visit(node.right)
        if isinstance(node, ast.UnaryOp):
            return isinstance(node.op, ast.USub) and visit(node.operand)
        if isinstance(node, ast.Call):
            name = dotted_name(node.func)
            if name == "tl.full":
                return not node.keywords and all(_literal(a) for a in node.args)
            if name == "tl.broadcast_to":
                return visit(node.args[0])
            if isinstance(node.func, ast.Attribute) and node.func.attr == "to" and not node.keywords:
                return visit(node.func.value)
            if name in PURE_CALLS and not node.keywords:
                return all(visit(a) for a in node.args)
        return False

    if not visit(expr):
        return False
    loads = {id(o.site) for o in origins if o.site is not None}
    if len(loads) > 1:
        return False              # two per-row values: their masks would have to be combined
    return next((o for o in origins if o.site is not None), None)


def _literal(node: ast.expr) -> bool:
    """A number, a `tl.<dtype>`, a block-size name or a list of these: the same in every iteration."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, bool))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _literal(node.operand)
    if isinstance(node, ast.Attribute):
        return isinstance(node.value, ast.Name) and node.value.id == "tl"
    if isinstance(node, ast.Name):
        return node.id.isupper()            # XBLOCK, R0_BLOCK: constexpr block sizes
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_literal(e) for e in node.elts)
    return False


def _is_costly(expr: ast.expr) -> bool:
    return any(isinstance(n, ast.Call) and dotted_name(n.func) in COSTLY_CALLS
               or isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) for n in ast.walk(expr))


def _dtype_after(expr: ast.expr, found: dict[str, _Invariant]) -> str | None:
    """The value's dtype when it is plain to see: the last cast applied, else its invariant operand's."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to" \
                and node.args:
            return ast.unparse(node.args[0])
    dtypes = {found[n.id].dtype for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id in found
              and found[n.id].site is not None}
    return dtypes.pop() if len(dtypes) == 1 else None


def _divisions(loop: ast.For, invariants: dict[str, _Invariant]) -> list[ast.BinOp]:
    """`x / v` in the loop's variant statements with `v` an invariant floating-point value of 32 bits or more."""
    out = []
    for stmt in loop.body:
        if _is_invariant_stmt(stmt, invariants):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.right, ast.Name):
                found = invariants.get(node.right.id)
                if found is not None and found.site is not None and found.dtype in FLOAT_WIDE:
                    out.append(node)
    return out


def _is_invariant_stmt(stmt: ast.stmt, invariants: dict[str, "_Invariant"]) -> bool:
    return isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in invariants


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _row_offset(call: ast.Call) -> tuple[str, ast.expr, ast.expr | None] | None:
    """(pointer parameter, offset, shape) of a load written `param + offset`, the offset without the broadcast
    to the block shape Inductor puts on an address that does not move with r (a per-row offset, [XBLOCK, 1]),
    and that shape (None: none); None for an address of another form."""
    base = pointer_base(call.args[0] if call.args else None)
    if base is None:
        return None
    offset, shape = without_broadcast(base[1])
    return base[0], offset, shape


# -- the bounds proof -------------------------------------------------------------------------------------

def _prove_in_bounds(nest: RowLoopNest, sites, target: RewriteTarget) -> None:
    """Every row's hoisted address lies in its buffer, at every launch: a hoisted load reads it under `xmask`
    alone, where the original read it only for the lanes of its mask. (Every site passed _per_row: its
    address is `param + offset`, the offset on names bound before the loop.)"""
    sites = list(sites)
    loop_line = min(l.lineno for l in nest.loops)
    before = [s for s in nest.function.body if s.lineno < loop_line and isinstance(s, ast.Assign)
              and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)]
    if "xmask" not in {s.targets[0].id for s in before}:
        raise HoistDeclined(f"line {sites[0].line}: no `xmask` before the loop to guard a per-row load with")
    for launch in target.launches:
        env = _row_index_values(nest, before, launch, sites[0].line)
        for site in sites:
            _, offset, _ = _row_offset(site.node)
            try:
                index = np.asarray(_evaluate(offset, env)).reshape(-1)
            except _NotIndex as why:
                raise HoistDeclined(f"line {site.line}: the per-row address `{ast.unparse(offset)}` is not "
                                    f"integer arithmetic on the row index ({why})") from None
            buffer = next((a for a in launch.args if a.name == site.param and a.is_tensor), None)
            if buffer is None or any(n <= 0 for n in buffer.sizes):
                raise HoistDeclined(f"line {site.line}: {site.param} has no elements at launch")
            extent = 1 + sum((n - 1) * s for n, s in zip(buffer.sizes, buffer.strides))
            if index.size and (int(index.min()) < 0 or int(index.max()) >= extent):
                raise HoistDeclined(f"line {site.line}: the per-row address `{ast.unparse(offset)}` reaches "
                                    f"{int(index.min())}..{int(index.max())} over {len(env['xindex'])} rows, "
                                    f"outside {site.param}'s {extent} elements: only some lanes of a row may read it")


def _row_index_values(nest: RowLoopNest, before: list[ast.Assign], launch, line: int) -> dict[str, object]:
    """The values, at every row of `launch`, of the names bound before the loop that are integer arithmetic
    on the row index (`x0 = xindex % 5`, ...), with the launch's integer arguments."""
    values = {a.name: a.value for a in launch.args if not a.is_tensor and isinstance(a.value, int)}
    rows = nest.x_numel if nest.x_numel is not None else values.get("xnumel")
    if rows is None or rows > MAX_ROWS_PROVEN:
        raise HoistDeclined(f"line {line}: the number of rows is {'unknown' if rows is None else rows}: "
                            "the per-row address cannot be checked for every row")
    env: dict[str, object] = dict(values)
    env["xindex"] = np.arange(rows, dtype=np.int64)
    for stmt in before:
        name = stmt.targets[0].id
        if name == "xindex" or name in ("xnumel", "r0_numel", "rnumel"):
            continue
        try:
            env[name] = _evaluate(stmt.value, env)
        except _NotIndex:
            env.pop(name, None)
    return env


class _NotIndex(Exception):
    pass


def _evaluate(expr: ast.expr, env: dict):
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return expr.value
    if isinstance(expr, ast.Name):
        if expr.id not in env:
            raise _NotIndex(f"`{expr.id}` is not known before the loop")
        return env[expr.id]
    if isinstance(expr, ast.BinOp):
        left, right = _evaluate(expr.left, env), _evaluate(expr.right, env)
        ops = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.FloorDiv: np.floor_divide,
               ast.Mod: np.mod}
        if type(expr.op) in ops:
            # C division and remainder (Triton's) equal Python's floor forms for the non-negative operands of
            # an index; a negative operand is not proven
            if isinstance(expr.op, (ast.FloorDiv, ast.Mod)) and (np.min(left) < 0 or np.min(right) <= 0):
                raise _NotIndex("a division or remainder of a negative number")
            return ops[type(expr.op)](left, right)
    if isinstance(expr, ast.Subscript):        # `tl.arange(...)[:, None]`-style views keep the values
        return _evaluate(expr.value, env)
    raise _NotIndex(f"`{ast.unparse(expr)}`")


# -- the rewrite -------------------------------------------------------------------------------------------

def _rewrite_loop(nest: RowLoopNest, loop: ast.For, invariants: dict[str, _Invariant],
                  reciprocal: bool) -> tuple[list[str], int]:
    """Move the loop's invariant values before it (see the module docstring); (hoisted names, divisions made
    multiplications)."""
    body = loop.body
    after = nest.function.body[nest.function.body.index(loop) + 1:]
    used_by_variant = _read_by_variant(body, after, invariants) & set(invariants)
    divisions = _divisions(loop, invariants) if reciprocal else []
    divided = {d.right.id for d in divisions}
    for division in divisions:                     # x / v -> x * v__recip
        division.op = ast.Mult()
        division.right = ast.Name(f"{division.right.id}__recip", ast.Load())
    still_read = _read_by_variant(body, after, invariants)

    before: list[ast.stmt] = []
    replacement: dict[int, list[ast.stmt]] = {}
    hoisted = []
    for name, inv in invariants.items():
        if inv.site is None:                       # a constant: defined before the loop too, for the hoisted code
            before.append(copy.deepcopy(inv.stmt))
            continue
        hoisted.append(name)
        before.append(_assign(f"{name}__h", _hoisted(inv, invariants, "h")))
        before.append(_assign(f"{name}__o", _hoisted(inv, invariants, "o")))
        kept: list[ast.stmt] = []
        mask = access_mask(inv.site.node)
        _, _, shape = _row_offset(inv.site.node)
        if name in still_read:
            kept.append(_assign(name, _select(mask, f"{name}__h", f"{name}__o", shape)))
        if name in divided:
            before.append(_assign(f"{name}__rh", _parse(f"1.0 / {name}__h")))
            before.append(_assign(f"{name}__ro", _parse(f"1.0 / {name}__o")))
            kept.append(_assign(f"{name}__recip", _select(mask, f"{name}__rh", f"{name}__ro", shape)))
        replacement[id(inv.stmt)] = kept
    loop.body = [s for stmt in body for s in replacement.get(id(stmt), [stmt])]
    position = nest.function.body.index(loop)
    nest.function.body[position:position] = before
    ast.fix_missing_locations(nest.module)
    return [n for n in hoisted if n in used_by_variant or n in divided], len(divisions)


def _read_by_variant(body: list[ast.stmt], after: list[ast.stmt], invariants: dict[str, _Invariant]) -> set[str]:
    """Names read by the loop's statements that stay in it (all but the invariant assignments) and by the
    code after the loop."""
    staying = [s for s in body if not _is_invariant_stmt(s, invariants)]
    return {n.id for s in staying + after for n in ast.walk(s) if isinstance(n, ast.Name)}


def _hoisted(inv: _Invariant, invariants: dict[str, _Invariant], which: str) -> ast.expr:
    """The invariant's expression once per row (`h`: its load made per row) or for the masked lanes (`o`:
    its load replaced by the load's `other`)."""
    call = inv.site.node

    class Rebuild(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            if node is call:
                if which == "o":
                    return _parse(f"tl.full([1, 1], {ast.unparse(load_other(call))}, {inv.dtype})")
                param, offset, _ = _row_offset(call)
                address = ast.BinOp(ast.Name(param, ast.Load()), ast.Add(), copy.deepcopy(offset))
                keywords = [ast.keyword("other", copy.deepcopy(load_other(call)))]
                keywords += [k for k in call.keywords if k.arg == "eviction_policy"]
                return ast.Call(call.func, [address, ast.Name("xmask", ast.Load())], keywords)
            if dotted_name(node.func) == "tl.broadcast_to":
                return self.visit(node.args[0])
            return self.generic_visit(node)

        def visit_Name(self, node: ast.Name) -> ast.AST:
            found = invariants.get(node.id)
            if found is not None and found.site is not None:
                return ast.Name(f"{node.id}__{which}", ast.Load())
            return node

    # a deep copy that keeps the load node itself, so that the rebuild still finds it by identity
    return Rebuild().visit(copy.deepcopy(inv.stmt.value, memo={id(call): call}))


def _select(mask: ast.expr, when: str, otherwise: str, shape: ast.expr | None) -> ast.expr:
    chosen = ast.Call(_parse("tl.where"), [copy.deepcopy(mask), ast.Name(when, ast.Load()),
                                           ast.Name(otherwise, ast.Load())], [])
    if shape is None:
        return chosen
    return ast.Call(_parse("tl.broadcast_to"), [chosen, copy.deepcopy(shape)], [])


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(name, ast.Store())], value, lineno=0)


def _parse(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


# -- the proposer ----------------------------------------------------------------------------------------

class HoistInvariantProposer:
    name = "hoist-invariant"
    summary = ("computes per-row values an r-loop recomputes for every element (a loaded norm's square root, "
               "a division by it) once per row before the loop")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        tried = {a.candidate.strategy for a in history}
        for reciprocal in (False, True):
            try:
                plan = plan_hoist(target, reciprocal)
            except HoistDeclined:
                continue
            variant = f"{self.name}+reciprocal" if reciprocal else self.name
            yield from own_schedule_candidates(self.name, variant, ast.unparse(plan.module), target, tried,
                                               plan.description, UNRECORDED_CONFIGS)

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a kernel that computes on per-row values in an r-loop gets no candidate ('' otherwise)."""
        try:
            plan_hoist(target)
        except NothingInvariant:
            return ""
        except HoistDeclined as why:
            return str(why)
        return ""


__all__ = ["HoistInvariantProposer", "HoistDeclined", "plan_hoist"]
