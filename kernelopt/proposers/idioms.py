"""Recognise what an Inductor Triton kernel computes, so an expert template can replace it.

The kernel source is parsed with `ast` and every stored value is rewritten into a canonical expression
tree of tuples: loads become ("load", ptr, index_tree), Inductor's reduction idioms (looped
accumulators, `tl.sum`, `welford_reduce`/`welford`, `online_softmax_combine`/`online_softmax_reduce`,
`max2`) become ("sum" | "max" | "min" | "mean" | "m2" | "sumexp", operand), and casts to fp32 and
broadcasts disappear (all Inductor math is fp32 already). Casts that round (to bf16/fp16) stay as
("round", dtype, x) so that no pattern accepts them by accident.

Idioms are then matched structurally against small patterns (`unify`), and every store of the kernel
must be explained by the idiom, or nothing is proposed: a wrong candidate costs GPU time.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from kernelopt.proposers.base import ArgSpec, KernelSpec, LaunchSpec, RewriteTarget

Expr = Any  # nested tuples, see the module docstring

_REDUCE_CALLS = {"sum": "sum", "max2": "max", "min2": "min"}
_ACC_OPS = {"maximum": "max", "minimum": "min"}
_UNARY_CALLS = {"rsqrt", "sqrt", "log", "exp", "erf", "tanh", "abs", "log1p", "exp2", "sigmoid"}
_ROUNDING = {"bfloat16", "float16", "float8e4nv", "float8e5"}
FLOAT_DTYPES = ("float32", "bfloat16", "float16")   # what the templates read and write


class Unsupported(Exception):
    """The kernel uses a construct the canonicaliser does not model: match nothing."""


@dataclass
class KernelFacts:
    """What the canonicaliser learned about one kernel."""

    params: list[str]
    sizes: dict[str, int]                     # hard-coded xnumel / r0_numel
    stores: list[tuple[str, Expr, Expr]]      # (ptr, index, value)
    persistent: bool
    has_assert: bool = False


def kernel_def(source: str) -> ast.FunctionDef:
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any(_is_jit(d) for d in node.decorator_list):
            return node
    raise Unsupported("no @triton.jit function")


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

    def __init__(self, fn: ast.FunctionDef):
        self.fn = fn
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
        if name in ("xnumel", "r0_numel") and isinstance(_const(value), int):
            self.sizes[name] = _const(value)
            self.env[name] = ("const", _const(value))
            return
        special = {"xindex": ("var", "x"), "r0_index": ("var", "r"), "xoffset": ("var", "xoffset"),
                   "r0_base": ("var", "r"), "r0_offset": ("var", "roffset")}
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
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            for acc, other in ((value.left, value.right), (value.right, value.left)):
                if isinstance(acc, ast.Name) and acc.id in self.acc_init:
                    self.pending[name] = ("sum", self.expr(other))
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
            if isinstance(operand, ast.Name) and operand.id in self.acc_update:
                op, inner = self.acc_update[operand.id]
                if op != _REDUCE_CALLS[name]:
                    raise Unsupported("reduction of a different accumulator")
                return _fold(op, inner)
            return _fold(_REDUCE_CALLS[name], self.expr(operand))
        if name in ("maximum", "minimum"):
            return (name, self.expr(node.args[0]), self.expr(node.args[1]))
        if name in _UNARY_CALLS:
            return (name, self.expr(node.args[0]))
        raise Unsupported(f"call {name}")


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
        facts = _Canon(kernel_def(kernel.source)).run()
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


def row_index(n: int) -> Expr:
    return ("add", ("var", "r"), ("mul", ("const", n), ("var", "x")))


def _index_is(index: Expr, expected: Expr) -> bool:
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
# Idiom: row norm (LayerNorm / RMSNorm), optional residual add, weight, bias, mean/rstd outputs.

@dataclass(frozen=True)
class RowNormMatch:
    kind: str                     # "layer" | "rms"
    n_rows: int
    n_cols: int
    eps: float
    roles: dict[str, int | None]  # x, residual, weight, bias, out, mean, rstd, epilogue loads -> launch position
    out_dtype: str
    epilogue: "NormEpilogue | None" = None


@dataclass(frozen=True)
class NormEpilogue:
    """Elementwise math applied to the normalised value `y` before the store (e.g. GELU(y) * 0.5 + r),
    as a Triton expression; `loads` are (local name, "row" | "col") read by it, bound as roles."""

    expression: str
    loads: tuple[tuple[str, str], ...]


_EPILOGUE_BINARY = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
_EPILOGUE_UNARY = {"erf": "tl.math.erf", "exp": "tl.exp", "abs": "tl.abs", "sqrt": "tl.sqrt", "rsqrt": "tl.rsqrt",
                   "log": "tl.log", "sigmoid": "tl.sigmoid"}


def _row_value(expr: Expr, n: int) -> tuple[str, str | None] | None:
    """x = load(a, row) or load(a, row) + load(b, row): returns (a, b)."""
    row = row_index(n)
    if expr[0] == "load" and _index_is(expr[2], row):
        return expr[1], None
    if expr[0] == "add" and all(e[0] == "load" and _index_is(e[2], row) for e in expr[1:]):
        return expr[1][1], expr[2][1]
    return None


def match_row_norm(kernel: KernelSpec, launch: LaunchSpec) -> RowNormMatch | None:
    facts = analyse(kernel)
    if facts is None or facts.has_assert or "xnumel" not in facts.sizes or "r0_numel" not in facts.sizes:
        return None
    n, m = facts.sizes["r0_numel"], facts.sizes["xnumel"]
    for ptr, _, _ in facts.stores:
        if not ptr.startswith("out_ptr"):
            return None                       # in-place outputs (in_out_ptr) are not modelled
    outputs = _norm_outputs(facts, n)
    if outputs is None:
        return None
    kind, x_expr, eps, stored = outputs
    row = _row_value(x_expr, n)
    if row is None:
        return None
    roles: dict[str, int | None] = {"x": launch_position(launch, row[0]),
                                    "residual": launch_position(launch, row[1]) if row[1] else None}
    for role in ("weight", "bias", "out", "mean", "rstd"):
        param = stored.get(role)
        roles[role] = launch_position(launch, param) if param else None
    if roles["x"] is None or roles["out"] is None or (row[1] and roles["residual"] is None):
        return None
    if any(stored.get(r) and roles[r] is None for r in ("weight", "bias", "mean", "rstd")):
        return None
    epilogue = stored.get("epilogue")
    for name, load_kind in epilogue.loads if epilogue else ():
        roles[name] = launch_position(launch, stored[name])
        if roles[name] is None or not _epilogue_arg_fits(launch.args[roles[name]], load_kind, m, n):
            return None
    if not _norm_args_fit(launch, roles, m, n):
        return None
    out_dtype = signature_dtype(kernel, stored["out"]).lstrip("*")
    return RowNormMatch(kind, m, n, eps, roles, out_dtype, epilogue)


def _epilogue_arg_fits(arg: ArgSpec, load_kind: str, m: int, n: int) -> bool:
    if not arg.is_tensor or arg.dtype not in FLOAT_DTYPES:
        return False
    if load_kind == "row":
        return is_row_major(arg, n) and numel(arg) == m * n
    return numel(arg) == n and (len(arg.strides) == 0 or arg.strides[-1] == 1)


def _find_norm(expr: Expr, n: int):
    """The outermost sub-expression that is a whole normalised value, and what it matched."""
    found = _match_norm_value(expr, n)
    if found is not None:
        return expr, found
    for child in expr[1:] if isinstance(expr, tuple) else ():
        if isinstance(child, tuple):
            inner = _find_norm(child, n)
            if inner is not None:
                return inner
    return None


def _replace(expr: Expr, old: Expr, new: Expr) -> Expr:
    if expr == old:
        return new
    return tuple(_replace(e, old, new) for e in expr) if isinstance(expr, tuple) else expr


def _render_epilogue(expr: Expr, n: int, loads: dict[str, tuple[str, str]]) -> str | None:
    """Triton source for an elementwise expression of `y`, constants and row / column loads (None when
    it holds anything else: a reduction, a round-trip through a narrower dtype, an index)."""
    op = expr[0]
    if expr == ("var", "y"):
        return "y"
    if op == "const" and isinstance(expr[1], (int, float)) and not isinstance(expr[1], bool):
        return repr(float(expr[1]))
    if op in _EPILOGUE_BINARY:
        a, b = (_render_epilogue(e, n, loads) for e in expr[1:])
        return None if a is None or b is None else f"({a} {_EPILOGUE_BINARY[op]} {b})"
    if op == "neg" or op in _EPILOGUE_UNARY:
        a = _render_epilogue(expr[1], n, loads)
        return None if a is None else (f"(-{a})" if op == "neg" else f"{_EPILOGUE_UNARY[op]}({a})")
    if op == "load":
        kind = "row" if _index_is(expr[2], row_index(n)) else "col" if _index_is(expr[2], ("var", "r")) else None
        if kind is None or (expr[1] in loads and loads[expr[1]][1] != kind):
            return None
        loads.setdefault(expr[1], (f"e{len(loads)}", kind))
        return loads[expr[1]][0]
    return None


def _match_norm_epilogue(value: Expr, n: int):
    """value = f(normalised value) for an elementwise f: (what _match_norm_value found for the normalised
    value, the epilogue, {epilogue local name: kernel parameter it loads})."""
    split = _find_norm(value, n)
    if split is None:
        return None
    norm_expr, found = split
    loads: dict[str, tuple[str, str]] = {}
    rest = _replace(value, norm_expr, ("var", "y"))
    source = _render_epilogue(rest, n, loads)
    if source is None or source == "y":
        return None
    epilogue = NormEpilogue(source, tuple(loads.values()))
    return found, epilogue, {name: param for param, (name, _) in loads.items()}


def _norm_outputs(facts: KernelFacts, n: int):
    """Explain every store as the normalised output (possibly through an elementwise epilogue), the
    mean, or the rstd of one row value."""
    stored: dict[str, str] = {}
    kind = x_expr = eps = None
    for ptr, index, value in facts.stores:
        found = _match_norm_value(value, n)
        if found is None and _index_is(index, row_index(n)):
            with_epilogue = _match_norm_epilogue(value, n)
            if with_epilogue is not None:
                found, epilogue, params = with_epilogue
                stored.update({"epilogue": epilogue, **params})
        if found is None or not _index_is(index, row_index(n)):
            stats = _match_stat_store(value, n, index)
            if stats is None:
                return None
            stat_kind, stat_x, stat_eps, role = stats
            if role in stored:
                return None
            stored[role] = ptr
            found_kind, found_x, found_eps = stat_kind, stat_x, stat_eps
        else:
            found_kind, found_x, found_eps, weight, bias = found
            if "out" in stored:
                return None
            stored.update({"out": ptr, **({"weight": weight} if weight else {}), **({"bias": bias} if bias else {})})
        if kind is None:
            kind, x_expr, eps = found_kind, found_x, found_eps
        elif (found_kind, found_x) != (kind, x_expr) or (found_eps is not None and eps is not None and found_eps != eps):
            return None
        eps = eps if eps is not None else found_eps
    if "out" not in stored or eps is None:
        return None
    return kind, x_expr, eps, stored


def _rstd_pattern(kind: str, n: int) -> Expr:
    stat = ("mean", ("mul", "?x", "?x")) if kind == "rms" else ("div", ("m2", "?x"), ("const", float(n)))
    return ("rsqrt", ("add", stat, ("const", "?eps")))


def _match_norm_value(value: Expr, n: int):
    for kind in ("layer", "rms"):
        centred = ("sub", "?x", ("mean", "?x")) if kind == "layer" else "?x"
        normed = ("mul", centred, _rstd_pattern(kind, n))
        for with_w, with_b in ((True, True), (True, False), (False, False)):
            pattern = normed
            if with_w:
                pattern = ("mul", pattern, ("load", "?w", ("var", "r")))
            if with_b:
                pattern = ("add", pattern, ("load", "?b", ("var", "r")))
            binds = unify(pattern, value, {})
            if binds is not None and isinstance(binds["?eps"], float):
                weight = binds["?w"] if with_w else None
                bias = binds["?b"] if with_b else None
                return kind, binds["?x"], binds["?eps"], weight, bias
    return None


def _match_stat_store(value: Expr, n: int, index: Expr):
    if not _index_is(index, ("var", "x")):
        return None
    binds = unify(("mean", "?x"), value, {})
    if binds is not None:
        return "layer", binds["?x"], None, "mean"
    for kind in ("layer", "rms"):
        binds = unify(_rstd_pattern(kind, n), value, {})
        if binds is not None:
            return kind, binds["?x"], binds["?eps"], "rstd"
    return None


def _norm_args_fit(launch: LaunchSpec, roles: dict[str, int | None], m: int, n: int) -> bool:
    args = launch.args
    for role in ("x", "residual", "out"):
        pos = roles[role]
        if pos is not None and not (is_row_major(args[pos], n) and numel(args[pos]) == m * n):
            return False
    for role in ("weight", "bias"):
        pos = roles[role]
        if pos is not None and not (args[pos].is_tensor and numel(args[pos]) == n and
                                    (len(args[pos].strides) == 0 or args[pos].strides[-1] == 1)):
            return False
    for role in ("mean", "rstd"):
        pos = roles[role]
        if pos is not None and not (args[pos].is_tensor and numel(args[pos]) == m):
            return False
    return True


# ---------------------------------------------------------------------------------------------------
# Idiom: Inductor's cross-entropy pair (prepare_softmax_online, then nll_loss_forward mean).

@dataclass(frozen=True)
class CrossEntropyMatch:
    n_rows: int
    n_cols: int
    ignore_index: int
    logits_dtype: str
    roles: dict[str, int]   # logits, row_max, row_sum, loss, target -> group argument position
    writes: tuple[str, ...] = field(default=("loss", "row_max", "row_sum"))


def _match_softmax_stats(facts: KernelFacts) -> tuple[str, str, str] | None:
    """Kernel A: stores max and sum-of-exp of one row-major load. Returns (logits, max_ptr, sum_ptr)."""
    if len(facts.stores) != 2 or facts.has_assert:
        return None
    n = facts.sizes.get("r0_numel")
    stats: dict[str, tuple[str, Expr]] = {}
    for ptr, index, value in facts.stores:
        if value[0] not in ("max", "sumexp") or not _index_is(index, ("var", "x")):
            return None
        stats[value[0]] = (ptr, value[1])
    if set(stats) != {"max", "sumexp"} or stats["max"][1] != stats["sumexp"][1]:
        return None
    operand = stats["max"][1]
    if n is None or operand[0] != "load" or not _index_is(operand[2], row_index(n)):
        return None
    return operand[1], stats["max"][0], stats["sumexp"][0]


def _nll_mean_pattern(n_cols: int) -> Expr:
    valid = ("ne", ("load", "?target", ("var", "r")), ("const", "?ignore"))
    clamped = ("where", valid, ("load", "?target", ("var", "r")), ("const", 0))
    wrapped = ("where", ("lt", clamped, ("const", 0)), ("add", clamped, ("const", n_cols)), clamped)
    gathered = ("load", "?logits", ("add", wrapped, ("mul", ("const", n_cols), ("var", "r"))))
    logprob = ("sub", ("sub", gathered, ("load", "?max", ("var", "r"))), ("log", ("load", "?sum", ("var", "r"))))
    total = ("sum", ("where", valid, ("neg", logprob), ("const", 0.0)))
    count = ("sum", valid)
    return ("div", total, count)


def _match_nll_mean(facts: KernelFacts, n_cols: int) -> dict[str, Any] | None:
    """Kernel B: one scalar store of sum(-logprob[target]) / count(target != ignore)."""
    if len(facts.stores) != 1 or facts.sizes.get("xnumel") != 1:
        return None
    ptr, index, value = facts.stores[0]
    if index != ("const", 0) and not _index_is(index, ("const", 0)):
        return None
    binds = unify(_nll_mean_pattern(n_cols), value, {})
    if binds is None or not isinstance(binds["?ignore"], int):
        return None
    return {"loss": ptr, "target": binds["?target"], "logits": binds["?logits"], "max": binds["?max"],
            "sum": binds["?sum"], "ignore": binds["?ignore"]}


def match_cross_entropy(target: RewriteTarget) -> CrossEntropyMatch | None:
    """The two-launch cross-entropy group; roles are positions in `target.group_args`."""
    if len(target.launches) != 2 or not target.group_args:
        return None
    kernels = {k.name: k for k in target.kernels}
    first, second = target.launches
    if first.kernel not in kernels or second.kernel not in kernels:
        return None
    facts_a, facts_b = analyse(kernels[first.kernel]), analyse(kernels[second.kernel])
    if facts_a is None or facts_b is None:
        return None
    stats = _match_softmax_stats(facts_a)
    n_rows, n_cols = facts_a.sizes.get("xnumel"), facts_a.sizes.get("r0_numel")
    if stats is None or not n_rows or not n_cols:
        return None
    nll = _match_nll_mean(facts_b, n_cols)
    if nll is None or facts_b.sizes.get("r0_numel") != n_rows:
        return None
    launch_args = _ce_launch_args(first, second, stats, nll)
    if launch_args is None:
        return None
    roles = _ce_group_positions(target.group_args, launch_args)
    if roles is None or not _ce_args_fit(launch_args, n_rows, n_cols):
        return None
    return CrossEntropyMatch(n_rows, n_cols, nll["ignore"], launch_args["logits"].dtype, roles)


def _ce_launch_args(first: LaunchSpec, second: LaunchSpec, stats, nll) -> dict[str, ArgSpec] | None:
    logits_a, max_a, sum_a = stats
    wanted = {"logits": (first, logits_a), "row_max": (first, max_a), "row_sum": (first, sum_a),
              "loss": (second, nll["loss"]), "target": (second, nll["target"]),
              "logits_b": (second, nll["logits"]), "max_b": (second, nll["max"]), "sum_b": (second, nll["sum"])}
    found = {}
    for role, (launch, param) in wanted.items():
        pos = launch_position(launch, param)
        if pos is None or not launch.args[pos].is_tensor:
            return None
        found[role] = launch.args[pos]
    # the second kernel must read the tensors the first one read/wrote (same shapes and dtypes)
    for a, b in (("logits", "logits_b"), ("row_max", "max_b"), ("row_sum", "sum_b")):
        if (found[a].sizes, found[a].strides, found[a].dtype) != (found[b].sizes, found[b].strides, found[b].dtype):
            return None
    return found


def _ce_group_positions(group_args: tuple[ArgSpec, ...], launch_args: dict[str, ArgSpec]) -> dict[str, int] | None:
    """Group args are the union in first-use order: the tensors must be logits, max, sum, loss, target."""
    tensors = [i for i, a in enumerate(group_args) if a.is_tensor]
    order = ("logits", "row_max", "row_sum", "loss", "target")
    if len(tensors) != len(order):
        return None
    roles = {}
    for role, position in zip(order, tensors):
        arg, want = group_args[position], launch_args[role]
        if (arg.sizes, arg.strides, arg.dtype) != (want.sizes, want.strides, want.dtype):
            return None
        roles[role] = position
    return roles


def _ce_args_fit(args: dict[str, ArgSpec], n_rows: int, n_cols: int) -> bool:
    logits, target = args["logits"], args["target"]
    return (logits.dtype in FLOAT_DTYPES and is_row_major(logits, n_cols)
            and numel(logits) == n_rows * n_cols and target.dtype == "int64" and numel(target) == n_rows
            and args["loss"].dtype == "float32" and numel(args["loss"]) == 1
            and numel(args["row_max"]) == n_rows and numel(args["row_sum"]) == n_rows
            and args["row_max"].dtype == "float32" and args["row_sum"].dtype == "float32")


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


@dataclass(frozen=True)
class DepthwiseConvMatch:
    roles: dict                       # x, weight, out and (or None) bias -> slot of the vendor target
    in_sizes: tuple
    out_sizes: tuple
    dtype: str
    kernel_hw: tuple
    stride: tuple
    padding: tuple
    dilation: tuple


def match_depthwise_conv(target) -> DepthwiseConvMatch | None:
    """A vendor target (`targets.vendor_target`) that is a 2-D depthwise convolution: `groups` equal to
    the input channels, one filter per channel (weight [C, 1, KH, KW]), not transposed, a float dtype."""
    launch = target.launches[0] if len(target.launches) == 1 else None
    if launch is None or launch.kernel != "extern_kernels.convolution" or not launch.config.get("returns"):
        return None
    slots = {arg.name: index for index, arg in enumerate(target.group_args)}
    args = {arg.name: arg for arg in target.group_args}
    if not {"input", "weight", "out"} <= slots.keys():
        return None
    kwargs = launch.config.get("kwargs") or {}
    x, weight, out = args["input"], args["weight"], args["out"]
    if len(x.sizes) != 4 or len(weight.sizes) != 4 or len(out.sizes) != 4:
        return None
    channels = x.sizes[1]
    if kwargs.get("groups") != channels or weight.sizes[:2] != (channels, 1) or out.sizes[1] != channels:
        return None
    if kwargs.get("transposed") or any(kwargs.get("output_padding") or []):
        return None
    pairs = [tuple(kwargs.get(key) or ()) for key in ("stride", "padding", "dilation")]
    if any(len(pair) != 2 or not all(isinstance(v, int) for v in pair) for pair in pairs):
        return None
    if x.dtype not in FLOAT_DTYPES or out.dtype != x.dtype:
        return None
    roles = {"x": slots["input"], "weight": slots["weight"], "bias": slots.get("bias"), "out": slots["out"]}
    return DepthwiseConvMatch(roles, x.sizes, out.sizes, x.dtype, tuple(weight.sizes[2:]), *pairs)


# ---------------------------------------------------------------------------------------------------
# Idiom: per-row KL divergence of two log-softmaxes (distillation losses), Inductor's multi-pass form
#   out[row] = sum_j exp(lq_j) * (lq_j - lp_j),   lq = log_softmax(k * c * q), lp = log_softmax(k * c * p)
# written as ((c*v - max(c*v)) * k) - log(sum(exp(...))) for each of the two loads.

@dataclass(frozen=True)
class RowKLDivMatch:
    n_rows: int
    n_cols: int
    scale: float                  # c: the factor inside the max (Inductor writes 1.0)
    temperature_scale: float      # k: the factor applied after the max is subtracted (1 / T)
    roles: dict[str, int]         # p_logits (the input's), q_logits (the target's), out -> launch position
    dtype: str                    # logits dtype


def _scaled_centred(load: Expr, with_k: bool = True) -> Expr:
    """(c*v - max(c*v)) * k, as Inductor writes a softmax input scaled by c*k (c = 1.0 when the scale is
    applied after the max); binds ?c and, with_k, ?k."""
    scaled = ("mul", load, ("const", "?c"))
    centred = ("sub", scaled, ("max", scaled))
    return ("mul", centred, ("const", "?k")) if with_k else centred


def _positive_factors(*values) -> bool:
    """Bound scale factors that are plain positive numbers (a negative one flips which element bounds
    the exponent, and the templates assume the max does)."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in values)


def _single_row_store(kernel: KernelSpec):
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


def _log_softmax_pattern(load: Expr) -> Expr:
    shifted = _scaled_centred(load)
    return ("sub", shifted, ("log", ("sum", ("exp", shifted))))


def _row_kl_pattern(n: int) -> Expr:
    target = _log_softmax_pattern(("load", "?q", row_index(n)))
    source = _log_softmax_pattern(("load", "?p", row_index(n)))
    return ("sum", ("mul", ("exp", target), ("sub", target, source)))


def _with_unit_scale(expr: Expr) -> Expr:
    """Write a bare row load `load(p, r + n*x)` as `load * 1.0`, so that kernels which drop the factor
    Inductor writes when the temperature is 1 match the same pattern."""
    if not isinstance(expr, tuple):
        return expr
    if expr[0] == "load":
        return ("mul", expr, ("const", 1.0))
    if expr[0] == "mul" and len(expr) == 3 and expr[1][0] == "load" and expr[2][0] == "const":
        return expr
    return tuple(_with_unit_scale(e) for e in expr)


def match_row_kl_div(kernel: KernelSpec, launch: LaunchSpec) -> RowKLDivMatch | None:
    """One store per row of sum(exp(lq) * (lq - lp)); both logits row-major, same shape and dtype;
    positive scale factors only (a negative temperature flips which element bounds the exponent)."""
    store = _single_row_store(kernel)
    if store is None or not _index_is(store[3], ("var", "x")):
        return None
    n, m, ptr, _, value = store
    binds = unify(_row_kl_pattern(n), value, {})
    if binds is None or binds["?p"] == binds["?q"]:
        return None
    c, k = binds["?c"], binds["?k"]
    if not _positive_factors(c, k):
        return None
    roles = {"p_logits": launch_position(launch, binds["?p"]), "q_logits": launch_position(launch, binds["?q"]),
             "out": launch_position(launch, ptr)}
    if None in roles.values():
        return None
    args = launch.args
    p, q, out = args[roles["p_logits"]], args[roles["q_logits"]], args[roles["out"]]
    if p.dtype not in FLOAT_DTYPES or q.dtype != p.dtype or p.sizes != q.sizes:
        return None
    if not (is_row_major(p, n) and is_row_major(q, n) and numel(p) == m * n):
        return None
    if not (out.is_tensor and out.dtype == "float32" and numel(out) == m):
        return None
    return RowKLDivMatch(m, n, float(c), float(k), roles, p.dtype)


# ---------------------------------------------------------------------------------------------------
# Idiom: row softmax of a scaled row, Inductor's looped or persistent form
#   out[x, r] = exp(k * (c*v - max(c*v))) / sum(exp(k * (c*v - max(c*v))))

@dataclass(frozen=True)
class RowSoftmaxMatch:
    n_rows: int
    n_cols: int
    scale: float                  # c (inside the max)
    temperature_scale: float      # k (after the max is subtracted)
    roles: dict[str, int]         # x, out -> launch position
    out_dtype: str


def _softmax_patterns(n: int) -> list[Expr]:
    load = ("load", "?x", row_index(n))
    return [("div", ("exp", shifted), ("sum", ("exp", shifted)))
            for shifted in (_scaled_centred(load), _scaled_centred(load, with_k=False))]


def match_row_softmax(kernel: KernelSpec, launch: LaunchSpec) -> RowSoftmaxMatch | None:
    """One elementwise store of a row softmax; input and output row-major [M, N], float dtypes,
    positive scale factors."""
    store = _single_row_store(kernel)
    if store is None or not _index_is(store[3], row_index(store[0])):
        return None
    n, m, ptr, _, value = store
    binds = next((b for b in (unify(p, value, {}) for p in _softmax_patterns(n)) if b is not None), None)
    if binds is None:
        return None
    c, k = binds["?c"], binds.get("?k", 1.0)
    if not _positive_factors(c, k):
        return None
    roles = {"x": launch_position(launch, binds["?x"]), "out": launch_position(launch, ptr)}
    if None in roles.values() or roles["x"] == roles["out"]:
        return None
    x, out = launch.args[roles["x"]], launch.args[roles["out"]]
    if x.dtype not in FLOAT_DTYPES or out.dtype not in FLOAT_DTYPES:
        return None
    if not (is_row_major(x, n) and is_row_major(out, n) and numel(x) == m * n == numel(out)):
        return None
    return RowSoftmaxMatch(m, n, float(c), float(k), roles, out.dtype)
