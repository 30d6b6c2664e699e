"""Recognise what an Inductor Triton kernel computes, so an expert template can replace it.

The kernel source is parsed with `ast` and every stored value is rewritten into a canonical expression
tree of tuples: loads become ("load", ptr, index_tree), Inductor's reduction idioms (looped
accumulators, `tl.sum`, `welford_reduce`/`welford`, `online_softmax_combine`/`online_softmax_reduce`,
`max2`) become ("sum" | "max" | "min" | "mean" | "m2" | "sumexp", operand), and casts to fp32 and
broadcasts disappear (all Inductor math is fp32 already). Casts that round (to bf16/fp16) stay as
("round", dtype, x) so that no pattern accepts them by accident.

Idioms are then matched structurally against small patterns (`unify`), and every store of the kernel
must be explained by the idiom, or nothing is proposed: a wrong candidate costs GPU time. The matcher of
each idiom lives with its template (`templates/kernels/<name>/`); this module keeps what several share.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from kernelopt.proposers.base import ArgSpec, KernelSpec, LaunchSpec

Expr = Any  # nested tuples, see the module docstring

_REDUCE_CALLS = {"sum": "sum", "max2": "max", "min2": "min", "any": "any"}
_ACC_OPS = {"maximum": "max", "minimum": "min"}
_IDENTITY = {"sum": (0, 0.0), "max": (float("-inf"),), "min": (float("inf"),), "any": (False, 0)}
_WITH_INDEX = {"max_with_index": "argmax", "min_with_index": "argmin"}
_UNARY_CALLS = {"rsqrt", "sqrt", "log", "exp", "erf", "tanh", "abs", "log1p", "exp2", "sigmoid"}
_ROUNDING = {"bfloat16", "float16", "float8e4nv", "float8e5"}
FLOAT_DTYPES = ("float32", "bfloat16", "float16")   # what the templates read and write


class Unsupported(Exception):
    """The kernel uses a construct the canonicaliser does not model: match nothing."""


@dataclass
class KernelFacts:
    """What the canonicaliser learned about one kernel."""

    params: list[str]
    sizes: dict[str, int]                     # hard-coded xnumel / ynumel / r0_numel
    stores: list[tuple[str, Expr, Expr]]      # (ptr, index, value)
    persistent: bool
    has_assert: bool = False


def kernel_def(source: str, name: str = "") -> ast.FunctionDef:
    """The kernel's @triton.jit function: the one called `name`, else the last one (a scan kernel
    defines its combine function, e.g. `_triton_helper_fn_add0`, before the kernel)."""
    jitted = [node for node in ast.parse(source).body
              if isinstance(node, ast.FunctionDef) and any(_is_jit(d) for d in node.decorator_list)]
    named = [node for node in jitted if node.name == name]
    if named or jitted:
        return (named or jitted)[-1]
    raise Unsupported("no @triton.jit function")


def _combine_helpers(source: str) -> dict[str, str]:
    """Scan combine functions of the source by name -> "add" when the body is `return a + b`."""
    helpers = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and len(node.args.args) == 2 and node.body \
                and isinstance(node.body[-1], ast.Return):
            a, b = (arg.arg for arg in node.args.args)
            body = node.body
            value = body[-1].value
            if len(body) == 2 and isinstance(body[0], ast.Assign) and isinstance(value, ast.Name) \
                    and body[0].targets[0].id == value.id:
                value = body[0].value
            if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and \
                    {getattr(value.left, "id", ""), getattr(value.right, "id", "")} == {a, b}:
                helpers[node.name] = "add"
    return helpers


def _is_jit(dec: ast.expr) -> bool:
    return isinstance(dec, ast.Attribute) and dec.attr == "jit"


def _const(node: ast.expr) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _const(node.operand)
        return -value if isinstance(value, (int, float)) else None
    if isinstance(node, ast.Call) and _call_name(node) == "float" and node.args:
        return float(_const(node.args[0]))
    return None


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _dtype_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else ""


class _Canon:
    """Walks a kernel body, binding each local name to a canonical expression."""

    def __init__(self, fn: ast.FunctionDef, helpers: dict[str, str] | None = None):
        self.fn = fn
        self.helpers = helpers or {}               # scan combine function -> "add"
        self.acc_alias: dict[str, str] = {}        # tmpN = _tmpM.to(...) of a looped accumulator
        self.env: dict[str, Expr] = {}
        self.acc_init: dict[str, Expr] = {}        # looped accumulator -> init
        self.acc_update: dict[str, tuple[str, Expr]] = {}
        self.pending: dict[str, tuple[str, Expr]] = {}  # tmpM -> (op, operand) candidate acc update
        self.welford: dict[str, Expr] = {}          # accumulator name -> operand
        self.softmax: dict[str, Expr] = {}
        self.sizes: dict[str, int] = {}
        self.stores: list[tuple[str, Expr, Expr]] = []
        self.persistent = True
        self.has_assert = False
        self.params = [a.arg for a in fn.args.args]

    def run(self) -> KernelFacts:
        self._block(self.fn.body, in_loop=False)
        return KernelFacts(self.params, self.sizes, self.stores, self.persistent, self.has_assert)

    def _block(self, body: list[ast.stmt], in_loop: bool) -> None:
        for stmt in body:
            if isinstance(stmt, ast.For):
                if not in_loop and _is_r_loop(stmt):
                    self.persistent = False
                    self.env[stmt.target.id] = ("var", "roffset")
                    self._block(stmt.body, in_loop=True)
                    continue
                raise Unsupported("unexpected loop")
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                self._assign(stmt)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self._call_stmt(stmt.value)
            elif isinstance(stmt, ast.Pass):
                continue
            else:
                raise Unsupported(f"statement {type(stmt).__name__}")

    def _call_stmt(self, call: ast.Call) -> None:
        name = _call_name(call)
        if name == "store":
            ptr, index = self._pointer(call.args[0])
            self.stores.append((ptr, index, self.expr(call.args[1])))
        elif name == "device_assert":
            self.has_assert = True
        elif name == "debug_barrier":
            return
        else:
            raise Unsupported(f"call statement {name}")

    def _assign(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.AnnAssign):
            targets, value = [stmt.target], stmt.value
        else:
            targets, value = stmt.targets, stmt.value
        if len(targets) != 1:
            raise Unsupported("chained assignment")
        target = targets[0]
        if isinstance(target, ast.Tuple):
            self._tuple_assign([t.id for t in target.elts], value)
            return
        name = target.id
        if name in ("xnumel", "ynumel", "r0_numel") and isinstance(_const(value), int):
            self.sizes[name] = _const(value)
            self.env[name] = ("const", _const(value))
            return
        # a 2D-tiled pointwise kernel (Grid2D: `yindex` rows of the tile, `xindex` its columns) reads as
        # two index variables, y and x
        special = {"xindex": ("var", "x"), "r0_index": ("var", "r"), "xoffset": ("var", "xoffset"),
                   "r0_base": ("var", "r"), "r0_offset": ("var", "roffset"), "yindex": ("var", "y"),
                   "yoffset": ("var", "yoffset")}
        if name in special:
            self.env[name] = special[name]
            return
        if isinstance(value, ast.Call) and _call_name(value) == "where" and _is_acc_select(value, name):
            self._acc_select(name, value)
            return
        if name.startswith("_tmp") and isinstance(value, ast.Call) and _call_name(value) in ("full", "zeros"):
            self.acc_init[name] = self.expr(value)
            return
        self.env[name] = self._maybe_acc(name, value)

    def _maybe_acc(self, name: str, value: ast.expr) -> Expr:
        """`tmpM = _acc + x` / `triton_helpers.maximum(_acc, x)` inside a reduction loop."""
        if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.BitOr)):
            op = "sum" if isinstance(value.op, ast.Add) else "any"
            for acc, other in ((value.left, value.right), (value.right, value.left)):
                if isinstance(acc, ast.Name) and acc.id in self.acc_init:
                    self.pending[name] = (op, self.expr(other))
                    return ("acc", name)
        if isinstance(value, ast.Call) and _call_name(value) == "to" and isinstance(value.func, ast.Attribute) \
                and isinstance(value.func.value, ast.Name) and value.func.value.id in self.acc_update:
            self.acc_alias[name] = value.func.value.id    # `tmp13 = _tmp11.to(tl.int8)` before `any(tmp13)`
            return ("acc", name)
        if isinstance(value, ast.Call) and _call_name(value) in _ACC_OPS and len(value.args) == 2:
            first, second = value.args
            if isinstance(first, ast.Name) and first.id in self.acc_init:
                self.pending[name] = (_ACC_OPS[_call_name(value)], self.expr(second))
                return ("acc", name)
        return self.expr(value)

    def _acc_select(self, name: str, value: ast.Call) -> None:
        """`acc = tl.where(r0_mask, acc_next, acc)`: commit a looped reduction's update."""
        new = value.args[1]
        if not isinstance(new, ast.Name):
            raise Unsupported("accumulator update")
        if new.id in self.pending and name in self.acc_init:
            self.acc_update[name] = self.pending[new.id]
        elif new.id not in self.welford and new.id not in self.softmax:
            raise Unsupported("accumulator update")

    def _tuple_assign(self, names: list[str], value: ast.expr) -> None:
        if not isinstance(value, ast.Call):
            raise Unsupported("tuple assignment")
        fname = _call_name(value)
        args = value.args
        if fname == "welford_reduce":
            operand = self.expr(args[0])
            for acc in args[1:4]:
                self.welford[acc.id] = operand
            for new in names:
                self.welford[new] = operand
        elif fname == "welford":
            operand = self.welford.get(args[0].id) if isinstance(args[0], ast.Name) else None
            if operand is None:
                # persistent welford over registers: triton_helpers.welford(mean, m2, weight, dim)
                raise Unsupported("persistent welford")
            for out, kind in zip(names, ("mean", "m2", "count")):
                self.env[out] = (kind, operand)
        elif fname == "online_softmax_combine":
            operand = self.expr(args[2])
            for acc in args[:2]:
                self.softmax[acc.id] = operand
            for new in names:
                self.softmax[new] = operand
        elif fname == "online_softmax_reduce":
            operand = self.softmax.get(args[0].id) if isinstance(args[0], ast.Name) else None
            if operand is None:
                raise Unsupported("online softmax reduce")
            self.env[names[0]] = ("max", operand)
            self.env[names[1]] = ("sumexp", operand)
        elif fname == "associative_scan":
            # `tmp3, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)`: an inclusive prefix sum
            combine = args[2].id if len(args) == 3 and isinstance(args[2], ast.Name) else ""
            if len(names) != 1 or self.helpers.get(combine) != "add" or not isinstance(args[0], ast.Tuple):
                raise Unsupported("scan other than one prefix sum")
            self.env[names[0]] = ("cumsum", self.expr(args[0].elts[0]))
        elif fname in _WITH_INDEX:
            # persistent `val, idx = triton_helpers.max_with_index(v, rindex, 1)`: the row's extreme and
            # the first index holding it
            operand, index = (_unmasked(self.expr(a), self.sizes, _WITH_INDEX[fname][3:]) for a in args[:2])
            if len(names) != 2 or index != ("var", "r"):
                raise Unsupported("arg-reduction over other than the row index")
            self.env[names[0]] = (_WITH_INDEX[fname][3:], operand)
            self.env[names[1]] = (_WITH_INDEX[fname], operand)
        else:
            raise Unsupported(f"tuple call {fname}")

    def _pointer(self, node: ast.expr) -> tuple[str, Expr]:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Name):
            return node.left.id, self.expr(node.right)
        if isinstance(node, ast.Name):
            return node.id, ("const", 0)
        raise Unsupported("pointer expression")

    def expr(self, node: ast.expr) -> Expr:
        value = _const(node)
        if value is not None or isinstance(node, ast.Constant):
            return ("const", value)
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            if node.id in self.acc_init:
                return self.acc_init[node.id]
            if node.id in self.params:
                return ("param", node.id)
            raise Unsupported(f"unknown name {node.id}")
        if isinstance(node, ast.Subscript):
            return self.expr(node.value)            # [:, None] / [None, :]
        if isinstance(node, ast.BinOp):
            ops = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.FloorDiv: "floordiv",
                   ast.Mod: "mod", ast.BitAnd: "and", ast.BitOr: "or"}
            op = ops.get(type(node.op))
            if op is None:
                raise Unsupported("binary operator")
            return (op, self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                return ("neg", self.expr(node.operand))
            if isinstance(node.op, ast.Invert):
                return ("not", self.expr(node.operand))
            raise Unsupported("unary operator")
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            ops = {ast.NotEq: "ne", ast.Eq: "eq", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
            op = ops.get(type(node.ops[0]))
            if op is None:
                raise Unsupported("comparison")
            return (op, self.expr(node.left), self.expr(node.comparators[0]))
        if isinstance(node, ast.Call):
            return self._call(node)
        raise Unsupported(f"expression {type(node).__name__}")

    def _call(self, node: ast.Call) -> Expr:
        name = _call_name(node)
        func = node.func
        if name == "to" and isinstance(func, ast.Attribute):
            inner = self.expr(func.value)
            dtype = _dtype_name(node.args[0]) if node.args else ""
            return ("round", dtype, inner) if dtype in _ROUNDING else inner
        if name == "broadcast_to":
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "tl":
                return self.expr(node.args[0])       # tl.broadcast_to(x, shape)
            return self.expr(func.value)             # x.broadcast_to(shape)
        if name == "full":
            return ("const", _const(node.args[1]))
        if name == "zeros":
            return ("const", 0.0)
        if name == "arange":
            return ("var", "arange")
        if name == "load":
            ptr, index = self._pointer(node.args[0])
            return ("load", ptr, index)
        if name == "where":
            return ("where",) + tuple(self.expr(a) for a in node.args)
        if name in _REDUCE_CALLS:
            operand = node.args[0]
            if isinstance(operand, ast.Name):
                accumulator = self.acc_alias.get(operand.id, operand.id)
                if accumulator in self.acc_update:
                    op, inner = self.acc_update[accumulator]
                    if op != _REDUCE_CALLS[name]:
                        raise Unsupported("reduction of a different accumulator")
                    return _fold(op, inner)
            op = _REDUCE_CALLS[name]
            return _fold(op, _unmasked(self.expr(operand), self.sizes, op))
        if name in ("maximum", "minimum"):
            return (name, self.expr(node.args[0]), self.expr(node.args[1]))
        if name in _UNARY_CALLS:
            return (name, self.expr(node.args[0]))
        raise Unsupported(f"call {name}")


def _unmasked(operand: Expr, sizes: dict[str, int], op: str) -> Expr:
    """A persistent reduction's operand without `tl.where(r0_mask & xmask, v, identity)`: lanes past
    the row (r >= r0_numel) or past the last row (x >= xnumel) add the reduction's identity, so the
    reduction of the row is that of v. Any other condition or fill value is kept (and then matches
    no pattern)."""
    if operand[0] == "where" and len(operand) == 4 and _is_bounds_mask(operand[1], sizes) \
            and operand[3][0] == "const" and operand[3][1] in _IDENTITY.get(op, ()):
        return operand[2]
    return operand


def _is_bounds_mask(cond: Expr, sizes: dict[str, int]) -> bool:
    if cond == ("const", True):
        return True
    if cond[0] == "and":
        return _is_bounds_mask(cond[1], sizes) and _is_bounds_mask(cond[2], sizes)
    bounds = {("var", "r"): sizes.get("r0_numel"), ("var", "x"): sizes.get("xnumel")}
    return cond[0] == "lt" and cond[1] in bounds and bounds[cond[1]] is not None and cond[2] == ("const", bounds[cond[1]])


def _is_r_loop(loop: ast.For) -> bool:
    return isinstance(loop.target, ast.Name) and loop.target.id == "r0_offset"


def _is_acc_select(call: ast.Call, name: str) -> bool:
    return len(call.args) == 3 and isinstance(call.args[2], ast.Name) and call.args[2].id == name


def _fold(op: str, operand: Expr) -> Expr:
    """Name the two-moment forms the way Welford's outputs are named, so both forms match one pattern."""
    if op == "sum" and operand[0] == "mul" and operand[1] == operand[2] and operand[1][0] == "sub" \
            and operand[1][2] == ("mean", operand[1][1]):
        return ("m2", operand[1][1])
    return (op, operand)


def _fold_means(expr: Expr, n: int) -> Expr:
    """("div", ("sum", x), n) -> ("mean", x), bottom-up, then re-fold two-moment sums."""
    if not isinstance(expr, tuple):
        return expr
    expr = tuple(_fold_means(e, n) for e in expr)
    if expr[0] == "div" and expr[1][0] == "sum" and expr[2] == ("const", n):
        return ("mean", expr[1][1])
    if expr[0] == "div" and expr[1][0] == "sum" and expr[2] == ("const", float(n)):
        return ("mean", expr[1][1])
    if expr[0] == "sum":
        return _fold("sum", expr[1])
    return expr


def analyse(kernel: KernelSpec) -> KernelFacts | None:
    """Canonical facts about `kernel`, or None when it uses anything the canonicaliser does not model."""
    try:
        facts = _Canon(kernel_def(kernel.source, kernel.name), _combine_helpers(kernel.source)).run()
    except (Unsupported, SyntaxError, AttributeError, IndexError, TypeError, KeyError):
        return None
    n = facts.sizes.get("r0_numel")
    if n is not None:
        facts.stores = [(p, i, _fold_means(v, n)) for p, i, v in facts.stores]
    return facts


# ---------------------------------------------------------------------------------------------------
# Unification of canonical expressions with patterns.  Pattern leaves "?name" bind; add/mul commute.

_COMMUTATIVE = {"add", "mul", "and", "or", "eq", "ne"}


def unify(pattern: Expr, expr: Expr, binds: dict[str, Expr]) -> dict[str, Expr] | None:
    if isinstance(pattern, str) and pattern.startswith("?"):
        if pattern in binds:
            return binds if binds[pattern] == expr else None
        return {**binds, pattern: expr}
    if not isinstance(pattern, tuple):
        return binds if pattern == expr else None
    if not isinstance(expr, tuple) or len(pattern) != len(expr):
        return None
    orders = [expr]
    if pattern[0] in _COMMUTATIVE and len(expr) == 3:
        orders.append((expr[0], expr[2], expr[1]))
    for candidate in orders:
        result: dict[str, Expr] | None = binds
        for p, e in zip(pattern, candidate):
            result = unify(p, e, result)
            if result is None:
                break
        if result is not None:
            return result
    return None


def outermost(expr: Expr, match) -> tuple[Expr, Any] | None:
    """(the outermost sub-expression of `expr`, itself first, for which `match` returns something, and what
    it returned), or None: e.g. a whole normalised value inside an epilogue a template copies around it."""
    found = match(expr)
    if found is not None:
        return expr, found
    for child in expr[1:] if isinstance(expr, tuple) else ():
        if isinstance(child, tuple):
            inner = outermost(child, match)
            if inner is not None:
                return inner
    return None


def replaced(expr: Expr, old: Expr, new: Expr) -> Expr:
    """`expr` with every occurrence of the sub-expression `old` replaced by `new`."""
    if expr == old:
        return new
    return tuple(replaced(e, old, new) for e in expr) if isinstance(expr, tuple) else expr


def row_index(n: int) -> Expr:
    return ("add", ("var", "r"), ("mul", ("const", n), ("var", "x")))


def index_is(index: Expr, expected: Expr) -> bool:
    return unify(expected, index, {}) is not None


# ---------------------------------------------------------------------------------------------------
# Launch argument helpers

def launch_position(launch: LaunchSpec, param: str) -> int | None:
    for position, arg in enumerate(launch.args):
        if arg.name == param:
            return position
    return None


def signature_dtype(kernel: KernelSpec, param: str) -> str:
    return kernel.signature.get(param, "")


def numel(arg: ArgSpec) -> int:
    total = 1
    for size in arg.sizes:
        total *= size
    return total


def row_stride(arg: ArgSpec, n_rows: int) -> int | None:
    """Element stride between consecutive rows of a statistics buffer holding one value per row
    ([M], [M, 1], [B, G, 1, 1], ...), or None when its elements are not evenly spaced in row order."""
    if not arg.is_tensor or numel(arg) != n_rows:
        return None
    dims = [(size, stride) for size, stride in zip(arg.sizes, arg.strides) if size > 1]
    for (_, outer), (size, inner) in zip(dims, dims[1:]):
        if outer != inner * size:
            return None
    return dims[-1][1] if dims else 1


def loaded_pointers(facts: KernelFacts) -> set[str]:
    """Every pointer parameter the kernel's stored values and indices load from."""
    found: set[str] = set()

    def walk(expr: Expr) -> None:
        if isinstance(expr, tuple):
            if expr and expr[0] == "load":
                found.add(expr[1])
            for child in expr[1:]:
                walk(child)
    for _, index, value in facts.stores:
        walk(index)
        walk(value)
    return found


def is_row_major(arg: ArgSpec, n_cols: int) -> bool:
    """The tensor's elements form contiguous rows of `n_cols` (what `r + n*x` indexing assumes)."""
    if not arg.is_tensor or arg.storage_offset != 0:
        return False
    expected, stride = [], 1
    for size in reversed(arg.sizes):
        expected.append(stride)
        stride *= size
    dense = all(s == e or size == 1 for s, e, size in zip(arg.strides, reversed(expected), arg.sizes))
    return dense and n_cols > 0 and numel(arg) % n_cols == 0


# ---------------------------------------------------------------------------------------------------
# Pattern helpers shared by the row matchers (softmax, KL divergence)

def scaled_centred(load: Expr, with_k: bool = True) -> Expr:
    """(c*v - max(c*v)) * k, as Inductor writes a softmax input scaled by c*k (c = 1.0 when the scale is
    applied after the max); binds ?c and, with_k, ?k."""
    scaled = ("mul", load, ("const", "?c"))
    centred = ("sub", scaled, ("max", scaled))
    return ("mul", centred, ("const", "?k")) if with_k else centred


def guarded_scaled_centred(load: Expr, divide: bool) -> Expr:
    """torch >= 2.13's form of the same: the stable (v - max(v)) op s only where the whole row of the
    scaled input v op s is finite, else (v op s) - max(v op s), so non-finite rows keep eager's
    semantics (op is * or /, the row's all() written as `any(not finite) == 0`); binds ?c (the sign
    factor Inductor writes inside the max, 1.0 for a positive s) and ?s. See `guarded_factors`."""
    op = "div" if divide else "mul"
    scaled = (op, load, ("const", "?s"))
    signed = ("mul", load, ("const", "?c"))
    stable = (op, ("sub", signed, ("max", signed)), ("const", "?s"))
    finite = ("and", ("eq", scaled, scaled), ("ne", ("abs", scaled), ("const", float("inf"))))
    all_finite = ("eq", ("any", ("eq", finite, ("const", 0))), ("const", 0))
    return ("where", all_finite, stable, ("sub", scaled, ("max", scaled)))


def guarded_factors(binds: dict[str, Expr], divide: bool) -> tuple[float, float] | None:
    """(C, K) for a template computing (C*v - max(C*v)) * K from a `guarded_scaled_centred` match,
    or None for a negative or non-numeric factor. A factor f <= 1 goes after the max (C = 1, K = f):
    the guard's stable branch verbatim, and C*v is finite wherever v is, so the guard's other branch
    is taken only on rows holding inf/NaN, where both branches give the same NaN/0 pattern. A factor
    f > 1 can overflow f*v on finite rows, where the original falls back to (f*v) - max(f*v): the
    template then computes exactly that (C = f, K = 1), which differs from the stable branch by
    rounding only."""
    sign, s = binds["?c"], binds["?s"]
    if sign != 1.0 or not positive_factors(s):
        return None
    factor = 1.0 / s if divide else float(s)
    return (1.0, factor) if factor <= 1.0 else (factor, 1.0)


def positive_factors(*values) -> bool:
    """Bound scale factors that are plain positive numbers (a negative one flips which element bounds
    the exponent, and the templates assume the max does)."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in values)


def single_row_store(kernel: KernelSpec):
    """(n_cols, n_rows, ptr, index, value) of a kernel with hard-coded sizes and one store (its value in
    the unit-scale form of _with_unit_scale), or None."""
    facts = analyse(kernel)
    if facts is None or facts.has_assert or len(facts.stores) != 1:
        return None
    n, m = facts.sizes.get("r0_numel"), facts.sizes.get("xnumel")
    if not n or not m:
        return None
    ptr, index, value = facts.stores[0]
    return n, m, ptr, index, _with_unit_scale(value)



def _with_unit_scale(expr: Expr) -> Expr:
    """Write a bare row load `load(p, r + n*x)` as `load * 1.0`, so that kernels which drop the factor
    Inductor writes when the temperature is 1 match the same pattern (a load already scaled by a
    constant, * or /, stays as it is)."""
    if not isinstance(expr, tuple):
        return expr
    if expr[0] == "load":
        return ("mul", expr, ("const", 1.0))
    if expr[0] in ("mul", "div") and len(expr) == 3 and expr[1][0] == "load" and expr[2][0] == "const":
        return expr
    return tuple(_with_unit_scale(e) for e in expr)


# ---------------------------------------------------------------------------------------------------
# Coarse classification, for reports and for the proposer's summary of what it saw.

_HINTS = (
    ("cross_entropy", re.compile(r"nll_loss")),
    ("online_softmax", re.compile(r"online_softmax_combine|prepare_softmax_online")),
    ("softmax", re.compile(r"_softmax")),
    ("welford", re.compile(r"welford")),
    ("rms_norm", re.compile(r"rsqrt")),
    ("layer_norm", re.compile(r"native_layer_norm")),
    ("argmax", re.compile(r"argmax|argmin|max_with_index|min_with_index")),
    ("scan", re.compile(r"cumsum|associative_scan|tl\.cumsum")),
)


def idiom_hints(kernel: KernelSpec) -> list[str]:
    """Idioms the kernel's name, provenance or source mention (a cheap pre-filter, not a match)."""
    text = " ".join((kernel.name, kernel.provenance, kernel.source))
    return [name for name, pattern in _HINTS if pattern.search(text)]
