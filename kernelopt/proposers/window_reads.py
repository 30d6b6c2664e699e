"""Whether a pointwise kernel reads one tensor only through one equal-weight sum of its loads: a window's sum.

Inductor writes an average pool whose stride is its size (`avg_pool1d(linear(x), 16)`) as a pointwise kernel with
one `tl.load` per element of the window, added up and divided (`(y0 + y1 + ... + y15) / 16`), then the pool's
epilogue (a GELU, a scaling). Such a kernel gives the same results for any `y'` whose windows have the same sums:
its y-dependent part is a * (y0 + ... + y{k-1}) + c. That makes `y` replaceable by something that holds only the
window sums (in the window's first element, zeros elsewhere), computed without forming `y` (window-through-gemm).

`window_reads` proves it from the kernel's code, a class for every value in program order (straight-line code
only, as Inductor writes pointwise kernels and persistent reductions, and a looped reduction's r-loop; a
reduction of window sums, `tl.max` of the pooled row, is a function of them):

- *free*: does not depend on the tensor;
- *linear*: sum over a set of the tensor's loads of a_i * load_i, plus a free value, with each slope a_i kept as a
  signature: its sign and the free factors it was multiplied and divided by (`tmp0 * 0.5` and `tmp3 * tmp1`, with
  `tmp1 = tl.full([1], 0.5, tl.float32)`, have one signature). A load is linear; so are linear + linear over
  disjoint loads, linear +/- free, -linear, linear * or / free, an upcast, a broadcast or reshape;
- *summed*: a function of a linear value over every load of the kernel with one signature, the window's sum
  (the division of the average pool, its epilogue, its store), or of summed and free values.

Anything else declines: a nonlinear function of a linear value over some loads only (of one element), a product
of two linear values, a load used twice in one sum, slopes that differ (`y0 - y1`, `y0 + 2 * y1`), a downcast, a
store into the tensor, other control flow. Which elements each lane's loads read is not this module's business: the
caller evaluates their addresses (summed_reads.window_layout).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from kernelopt.inductor_source import dotted_name, expression_excerpt, names_in

from .linear_reads import UPCASTS, LinearRead, NotLinear, read_of
from .row_loops import R_LOOP_TARGETS

_SHAPE_CALLS = ("tl.broadcast_to", "tl.reshape", "tl.view")


@dataclass(frozen=True)
class _Slope:
    negative: bool = False
    factors: tuple[str, ...] = ()          # sorted "*name" and "/name" entries

    def scaled(self, factor: str) -> _Slope:
        return _Slope(self.negative, tuple(sorted((*self.factors, factor))))

    def negated(self) -> _Slope:
        return _Slope(not self.negative, self.factors)


@dataclass(frozen=True)
class _Value:
    slopes: tuple[tuple[int, _Slope], ...] | None = None   # linear: (load number, slope) pairs; None otherwise
    summed: bool = False                                   # a function of the window's sum

    @property
    def linear(self) -> bool:
        return self.slopes is not None


FREE, SUMMED = _Value(), _Value(summed=True)


def window_reads(function: ast.FunctionDef, param: str) -> list[LinearRead]:
    """The loads of pointer parameter `param` in `function`, once its outputs are proven to depend on that tensor
    only through one equal-weight sum of all of them (see the module's docstring); NotLinear otherwise."""
    loads = window_loads(function, param)
    if loads < 2:
        raise NotLinear(f"the kernel loads `{param}` {loads} time(s): a window has two elements or more")
    reader = _WindowReader(param, loads, _constants(function))
    reader.block(function.body)
    if not reader.completed:
        raise NotLinear(f"no value of the kernel sums every load of `{param}` with one weight")
    return reader.reads


def window_loads(function: ast.FunctionDef, param: str) -> int:
    """How many `tl.load` calls of `function` read pointer parameter `param`."""
    return sum(1 for node in ast.walk(function) if isinstance(node, ast.Call) and dotted_name(node.func) == "tl.load"
               and node.args and param in names_in(node.args[0]))


def _constants(function: ast.FunctionDef) -> dict[str, str]:
    """name -> the value of `name = tl.full(shape, value, dtype)`: two such names for one value scale alike."""
    found = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and dotted_name(node.value.func) == "tl.full" \
                and len(node.value.args) >= 2:
            found[node.targets[0].id] = ast.unparse(node.value.args[1])
    return found


class _WindowReader:
    def __init__(self, param: str, loads: int, constants: dict[str, str]):
        self.param, self.loads, self.constants = param, loads, constants
        self.env: dict[str, _Value] = {}
        self.reads: list[LinearRead] = []
        self.completed = False

    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.statement(stmt)

    def r_loop(self, loop: ast.For) -> None:
        """A looped reduction's r-loop: its body twice from the loop's entry (an accumulator reads its own value of
        the last iteration); each iteration's windows are its own loads, so the reads are the last pass's."""
        for _ in range(2):
            del self.reads[:]
            self.block(loop.body)

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and stmt.target.id in R_LOOP_TARGETS \
                and not stmt.orelse:
            self.env[stmt.target.id] = FREE
            self.r_loop(stmt)
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            self.env[stmt.targets[0].id] = self.value(stmt.value)
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple) \
                and all(isinstance(e, ast.Name) for e in stmt.targets[0].elts):   # `v, i = max_with_index(...)`
            value = self._combine(stmt.value, [self.value(stmt.value)])
            for element in stmt.targets[0].elts:
                self.env[element.id] = value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):     # `R0_BLOCK: tl.constexpr = 16`
            self.env[stmt.target.id] = self.value(stmt.value) if stmt.value is not None else FREE
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            if dotted_name(call.func) == "tl.store" and self.param in names_in(call.args[0] if call.args else call):
                raise NotLinear(f"line {call.lineno}: the kernel stores into `{self.param}`")
            self._combine(call, [self.value(a) for a in [*call.args, *(k.value for k in call.keywords)]])
        elif not isinstance(stmt, ast.Pass):
            raise NotLinear(f"line {stmt.lineno}: `{expression_excerpt(stmt, 60)}` is a statement the proof does "
                            f"not read")

    def value(self, node: ast.expr) -> _Value:
        if isinstance(node, ast.Name):
            return self.env.get(node.id, FREE)
        if isinstance(node, (ast.Constant, ast.Attribute)):
            return FREE
        if isinstance(node, ast.Subscript):             # `x[:, None]`: a reshape
            return self.value(node.value)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BinOp):
            return self.binary(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.value(node.operand)
            if operand.linear and isinstance(node.op, ast.USub):
                return _Value(tuple((n, s.negated()) for n, s in operand.slopes))
            return operand
        return self._combine(node, [self.value(c) for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)])

    def call(self, node: ast.Call) -> _Value:
        name = dotted_name(node.func)
        if name == "tl.load" and node.args and self.param in names_in(node.args[0]):
            return self.load(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "to" and not name.startswith("tl."):
            operand = self.value(node.func.value)
            if operand.linear and not (node.args and dotted_name(node.args[0]) in UPCASTS):
                return self._combine(node, [operand])      # a downcast: of the whole sum only
            return operand
        args = [self.value(a) for a in node.args]
        if name in _SHAPE_CALLS and args:
            return args[0]
        return self._combine(node, args + [self.value(k.value) for k in node.keywords])

    def load(self, node: ast.Call) -> _Value:
        self.reads.append(read_of(node, self.param))
        return _Value(((len(self.reads) - 1, _Slope()),))

    def binary(self, node: ast.BinOp) -> _Value:
        left, right = self.value(node.left), self.value(node.right)
        if not left.linear and not right.linear:
            return self._combine(node, [left, right])
        if isinstance(node.op, (ast.Add, ast.Sub)) and not left.summed and not right.summed:
            if isinstance(node.op, ast.Sub) and right.linear:
                right = _Value(tuple((n, s.negated()) for n, s in right.slopes))
            if left.linear and right.linear:
                loads = [n for n, _ in left.slopes + right.slopes]
                if len(set(loads)) != len(loads):
                    raise NotLinear(f"line {node.lineno}: `{expression_excerpt(node, 50)}` adds a load of "
                                    f"`{self.param}` to itself")
                return _Value(left.slopes + right.slopes)
            return left if left.linear else right
        scale_node = node.right if left.linear else node.left
        scale = right if left.linear else left
        if scale.linear or scale.summed or not (isinstance(node.op, ast.Mult) or
                                                (isinstance(node.op, ast.Div) and left.linear)):
            return self._combine(node, [left, right])
        factor = ("*" if isinstance(node.op, ast.Mult) else "/") + self._key(scale_node)
        linear = left if left.linear else right
        return _Value(tuple((n, s.scaled(factor)) for n, s in linear.slopes))

    def _key(self, node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return self.constants.get(node.id, node.id)
        return ast.unparse(node)

    def _combine(self, node: ast.AST, parts: list[_Value]) -> _Value:
        """Any other operation: of a linear value only where it is the whole window's sum with one weight."""
        for part in parts:
            if part.linear:
                slopes = {s for _, s in part.slopes}
                if len(part.slopes) != self.loads or len(slopes) != 1:
                    raise NotLinear(f"line {getattr(node, 'lineno', '?')}: `{expression_excerpt(node, 50)}` is not a "
                                    f"function of one equal-weight sum of every load of `{self.param}`")
                self.completed = True
        return SUMMED if any(p.linear or p.summed for p in parts) else FREE


__all__ = ["window_loads", "window_reads"]
