"""Whether a reduction kernel reads one tensor only through sums along its r axis, affinely.

A kernel that reduces `y` as sum over r of (a * y[x, r] + c[r]) (a mean, `x / 2` summed, `y - shift` summed over
the batch) gives the same results for any `y'` whose rows have the same sums: the reduction's Y-dependent part
is a * sum(y[x, :]). That makes the tensor replaceable by something that holds only those sums (in one lane of
each row, zeros elsewhere), computed without ever forming `y` (sum-through-gemm: `y` is a GEMM's output).

`linear_reads` proves it from the kernel's code, by a class for every value, in program order (an r-loop's body
twice, so that its accumulators reach their class):

- *free*: does not depend on the tensor; also tracked: whether it varies along r (reads an r index);
- *linear*: a * y + c, where the slope a does not vary along r (it may vary with x) and c is free. A load of
  the tensor is linear; so are linear +/- linear or free, -linear, linear * or / a free value that does not vary
  along r, an upcast (`.to(tl.float32)`), a broadcast or reshape, and `tl.where(m, linear, free or linear)` where
  m is implied by the loads' own mask (a lane it drops reads nothing);
- *reduced*: `tl.sum` of a linear value over axis 1 (the r axis), and anything computed from reduced and free
  values (a logsumexp of the sum, its scaling: any function).

Anything else of a linear value declines (a product of two, a comparison, a nonlinear function, a sum over
another axis, a store, a downcast), as does mixing linear and reduced values, or a store into the tensor. Which
elements each row's lanes read is not this module's business: the caller evaluates the loads' addresses.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from kernelopt.inductor_source import (access_mask, dotted_name, expression_excerpt, filled_with, load_other,
                                       mask_conjuncts, names_in, pointer_base)

from .index_values import R_ROOTS
from .row_loops import R_LOOP_TARGETS

FREE, LINEAR, REDUCED = "free", "linear", "reduced"
R_NAMES = (*R_ROOTS, *R_LOOP_TARGETS, "r0_base", "rbase")      # names whose values move along r
UPCASTS = ("tl.float32", "tl.float64")
_SHAPE_CALLS = ("tl.broadcast_to", "tl.reshape", "tl.view")
_PASSES = 3                      # an r-loop's body is read until its classes settle (two suffice for Inductor's)


class NotLinear(Exception):
    """The kernel reads the tensor in a way the proof does not cover (the message says where)."""


@dataclass(frozen=True)
class LinearRead:
    """One load of the tensor: the `tl.load` call, its address offset (None: the pointer itself) and its mask."""

    call: ast.Call
    offset: ast.expr | None
    mask: ast.expr | None


@dataclass(frozen=True)
class _Value:
    kind: str                    # FREE | LINEAR | REDUCED
    moves: bool = False          # varies along r (free values only matter)


def read_of(node: ast.Call, param: str) -> LinearRead:
    """The `tl.load` call `node` of pointer parameter `param` as a read (its offset and mask); NotLinear where its
    address is not `param` plus an offset or a masked lane reads anything but 0."""
    pointer = node.args[0]
    base = pointer_base(pointer)
    if base is None or base[0] != param or param in names_in(base[1]):
        raise NotLinear(f"line {node.lineno}: the load `{expression_excerpt(pointer, 40)}` is not `{param}` plus an "
                        f"offset")
    other = load_other(node)
    if other is not None and filled_with(other) not in ("0", "0.0"):
        raise NotLinear(f"line {node.lineno}: a masked lane of `{param}` reads `{expression_excerpt(other, 20)}`, "
                        f"not 0")
    mask = access_mask(node)
    if isinstance(mask, ast.Constant) and mask.value is None:
        mask = None
    return LinearRead(node, None if isinstance(pointer, ast.Name) else base[1], mask)


def linear_reads(function: ast.FunctionDef, param: str) -> list[LinearRead]:
    """The loads of pointer parameter `param` in `function`, once its outputs are proven to depend on that tensor
    only through sums over r of an affine function of it with an r-invariant slope; NotLinear otherwise."""
    reader = _Reader(param)
    reader.block(function.body)
    if not reader.reads:
        raise NotLinear(f"the kernel never loads `{param}`")
    return reader.reads


class _Reader:
    def __init__(self, param: str):
        self.param = param
        self.env: dict[str, _Value] = {}
        self.reads: list[LinearRead] = []
        self.masks: list[frozenset[str]] = []    # each load's mask as conjuncts

    # -- statements ------------------------------------------------------------------------------
    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.statement(stmt)

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, self.value(stmt.value)
            # the r roots move along r whatever they are computed from (`r0_index = tl.arange(0, R0_BLOCK)`)
            self.env[name] = _Value(FREE, moves=True) if name in R_NAMES and value.kind == FREE else value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            self.env[stmt.target.id] = self.value(stmt.value) if stmt.value is not None else _Value(FREE)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            self.call_statement(stmt.value)
        elif isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and stmt.target.id in R_LOOP_TARGETS:
            self.r_loop(stmt)
        elif isinstance(stmt, ast.Pass):
            return
        else:
            raise NotLinear(f"line {stmt.lineno}: `{expression_excerpt(stmt, 60)}` is a statement the proof does "
                            f"not read")

    def r_loop(self, loop: ast.For) -> None:
        self.env[loop.target.id] = _Value(FREE, moves=True)
        before = len(self.reads)
        for _ in range(_PASSES):
            start = dict(self.env)
            del self.reads[before:], self.masks[before:]
            self.block(loop.body)
            if self.env == start:
                return
        raise NotLinear(f"line {loop.lineno}: the r-loop's values do not settle")

    def call_statement(self, call: ast.Call) -> None:
        name = dotted_name(call.func)
        if name == "tl.store":
            if self.param in names_in(call.args[0] if call.args else call):
                raise NotLinear(f"line {call.lineno}: the kernel stores into `{self.param}`")
            value = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "value"),
                                                                  None)
            if value is not None and self.value(value).kind == LINEAR:
                raise NotLinear(f"line {call.lineno}: it stores `{expression_excerpt(value, 40)}`, an element of "
                                f"`{self.param}` not summed")
            return
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if self.value(arg).kind == LINEAR:
                raise NotLinear(f"line {call.lineno}: `{name or 'a call'}` takes a value read from `{self.param}`")

    # -- expressions -----------------------------------------------------------------------------
    def value(self, node: ast.expr) -> _Value:
        if isinstance(node, ast.Name):
            return self.env.get(node.id, _Value(FREE, moves=node.id in R_NAMES))
        if isinstance(node, (ast.Constant, ast.Attribute)):
            return _Value(FREE)
        if isinstance(node, ast.Subscript):             # `tl.sum(...)[:, None]`: a reshape
            return self.value(node.value)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BinOp):
            return self.binary(node)
        if isinstance(node, ast.UnaryOp):
            operand = self.value(node.operand)
            if operand.kind == LINEAR and not isinstance(node.op, (ast.USub, ast.UAdd)):
                self._nonlinear(node)
            return operand
        parts = [self.value(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
        return self._combine(node, parts)

    def call(self, node: ast.Call) -> _Value:
        name = dotted_name(node.func)
        if name == "tl.load":
            return self.load(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "to" and not name.startswith("tl."):
            operand = self.value(node.func.value)
            if operand.kind == LINEAR and not (node.args and dotted_name(node.args[0]) in UPCASTS):
                raise NotLinear(f"line {node.lineno}: `{expression_excerpt(node, 50)}` casts a value read from "
                                f"`{self.param}` to a narrower type")
            return operand
        args = [self.value(a) for a in node.args]
        if name in _SHAPE_CALLS and args:
            return args[0]
        if name == "tl.where" and len(args) == 3:
            return self.where(node, *args)
        if name == "tl.sum" and args:
            axis = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "axis"),
                                                                 None)
            if args[0].kind == LINEAR:
                if not (isinstance(axis, ast.Constant) and axis.value == 1):
                    raise NotLinear(f"line {node.lineno}: `{expression_excerpt(node, 50)}` sums a value read from "
                                    f"`{self.param}` over another axis than r")
                return _Value(REDUCED)
            return _Value(args[0].kind)
        return self._combine(node, args + [self.value(k.value) for k in node.keywords])

    def load(self, node: ast.Call) -> _Value:
        pointer = node.args[0] if node.args else None
        if pointer is None or self.param not in names_in(pointer):
            moves = any(self.value(a).moves for a in [*node.args, *(k.value for k in node.keywords)])
            return _Value(FREE, moves=moves)
        read = read_of(node, self.param)
        self.reads.append(read)
        self.masks.append(mask_conjuncts(read.mask))
        return _Value(LINEAR)

    def where(self, node: ast.Call, condition: _Value, then: _Value, otherwise: _Value) -> _Value:
        if LINEAR not in (then.kind, otherwise.kind):
            return self._combine(node, [condition, then, otherwise])
        if then.kind != LINEAR or otherwise.kind == REDUCED or condition.kind != FREE:
            self._nonlinear(node)
        # where(m, a*y + c, other): the lanes m drops must be lanes no load of the tensor reads
        implied = mask_conjuncts(node.args[0])
        if not self.masks or any(not implied <= mask for mask in self.masks):
            raise NotLinear(f"line {node.lineno}: `{expression_excerpt(node.args[0], 40)}` selects lanes by "
                            f"something other than the loads' mask")
        return _Value(LINEAR)

    def binary(self, node: ast.BinOp) -> _Value:
        left, right = self.value(node.left), self.value(node.right)
        kinds = {left.kind, right.kind}
        if LINEAR not in kinds:
            return self._combine(node, [left, right])
        if REDUCED in kinds:
            self._nonlinear(node)
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return _Value(LINEAR)
        scale = right if left.kind == LINEAR else left
        scaled = isinstance(node.op, ast.Mult) or (isinstance(node.op, ast.Div) and left.kind == LINEAR)
        if not scaled or scale.kind == LINEAR:
            self._nonlinear(node)
        if scale.moves:
            raise NotLinear(f"line {node.lineno}: `{expression_excerpt(node, 50)}` scales a value read from "
                            f"`{self.param}` by something that varies along r")
        return _Value(LINEAR)

    def _combine(self, node: ast.AST, parts: list[_Value]) -> _Value:
        """Any other operation: free of free values, reduced of reduced and free ones, never of linear ones."""
        if any(p.kind == LINEAR for p in parts):
            self._nonlinear(node)
        if any(p.kind == REDUCED for p in parts):
            return _Value(REDUCED)
        return _Value(FREE, moves=any(p.moves for p in parts))

    def _nonlinear(self, node: ast.AST) -> None:
        raise NotLinear(f"line {getattr(node, 'lineno', '?')}: `{expression_excerpt(node, 50)}` is not linear in "
                        f"the values read from `{self.param}`")


__all__ = ["FREE", "LINEAR", "LinearRead", "NotLinear", "REDUCED", "linear_reads", "read_of"]
