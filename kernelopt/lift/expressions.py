"""How the lifter reads Python expressions: an argument becomes an SSA value (views and `.item()` calls
emitted on the way), a size/stride/offset a static int or symbolic text, and anything without a rule a
`ko.generic` op that keeps the source and warns. A mixin of `Lifter` (lifter.py), which provides
`fresh`, `emit`, `warn`, `view_value`, `getitem`, `library_call`, `src`, `symbols` and `symbolic`.
"""
from __future__ import annotations

import ast
from typing import Any

from kernelopt.inductor_source import dotted_name
from kernelopt.ir.callees import library_callee
from kernelopt.ir.core import Arg, Op, Value
from kernelopt.ir.types import OpaqueType, ScalarType, TensorType

from .pyexpr import assigned_names, is_literal, literal, torch_dtype
from .scope import ArgList, Scope, Stream, Symbol

_SYMPY_FUNCTIONS = {"min", "max", "abs", "Min", "Max", "floor", "ceil", "FloorDiv", "ModularIndexing",
                    "CeilDiv", "math", "sympy", "int", "triton_helpers", "div_floor_integer"}


class ExpressionLifting:
    """Expression rules shared by every statement rule of the lifter."""

    # -- expressions ---------------------------------------------------------------------------
    def value_of(self, node: ast.AST, scope: Scope) -> Any:
        """An argument: a Value (tensors; views emitted on the way) or a literal attribute."""
        if isinstance(node, ast.Name):
            bound = scope.lookup(node.id)
            if isinstance(bound, Value):
                return bound
            if isinstance(bound, Symbol):
                return bound.text
            if isinstance(bound, Stream):
                return bound.index
            if isinstance(bound, (int, float, bool)):
                return bound
            if node.id in ("None", "True", "False", "inf", "nan"):  # `from math import inf, nan`
                return literal(node)
            return self.generic_value(node, scope, f"unknown name `{node.id}`")
        if is_literal(node):
            return literal(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Name) \
                and node.operand.id in ("inf", "nan") and scope.lookup(node.operand.id) is None:
            return -literal(node.operand)
        dtype = torch_dtype(node)
        if dtype is not None:
            return dtype
        if isinstance(node, ast.Call):
            func = dotted_name(node.func)
            if func.rsplit(".", 1)[-1] == "reinterpret_tensor" and node.args:
                return self.view_value(node, self.value_of(node.args[0], scope), scope, node)
            if isinstance(node.func, ast.Attribute) and node.func.attr == "item" and not node.args:
                base = self.value_of(node.func.value, scope)
                result = self.fresh(f"{base.name}_item" if isinstance(base, Value) else "item")
                if isinstance(base, Value) and isinstance(base.type, TensorType):
                    result.type = ScalarType(base.type.dtype)
                self.emit("ko.call", node, scope, results=[result], args=[Arg(base)], callee="torch.Tensor.item")
                return result
            if library_callee(func):
                result = self.library_call(node, node, library_callee(func), "tmp", scope)
                return result
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            index = literal(node.slice)
            source = scope.lookup(node.value.id)
            if isinstance(index, int) and isinstance(source, Value):
                return self.getitem(node, source, index, scope, f"{source.name}_{index}")
        static = self.static_value(node, scope)
        if static is not None:
            return static
        if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
            items = [self.value_of(e, scope) for e in node.elts]
            if not any(isinstance(v, Value) for v in items):
                return tuple(items) if isinstance(node, ast.Tuple) else items
        if isinstance(node, ast.Attribute):
            name = dotted_name(node)
            if name and (name.startswith("torch.") or name.startswith("math.")):
                return literal(node)
        return self.generic_value(node, scope, "no lifting rule for this expression")

    def static_value(self, node: ast.AST, scope: Scope) -> Any:
        """Sizes, strides and offsets: ints, or text for symbolic expressions; None if not static."""
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.static_value(node.operand, scope)
            return -inner if isinstance(inner, (int, float)) else (f"-{inner}" if inner is not None else None)
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [self.static_value(e, scope) for e in node.elts]
            return None if any(i is None for i in items) else tuple(items)
        if isinstance(node, ast.Name):
            bound = scope.lookup(node.id)
            if isinstance(bound, Symbol):
                return bound.text
            if isinstance(bound, (int, float)) and not isinstance(bound, bool):
                return bound
            if isinstance(bound, Value) and (isinstance(bound.type, ScalarType) or node.id in self.symbols):
                return node.id
            return None
        if isinstance(node, (ast.BinOp, ast.Call)) and not any(
                isinstance(n, ast.Name) and not isinstance(self.static_value(n, scope), (str, int, float))
                and n.id not in _SYMPY_FUNCTIONS for n in ast.walk(node)):
            if isinstance(node, ast.Call) and dotted_name(node.func).split(".")[-1] not in _SYMPY_FUNCTIONS:
                return None
            self.symbolic = True
            return self.src.segment(node)
        return None

    def _attr_value(self, value: Any) -> Any:
        """A launch-attribute form of a bound name (attributes hold no SSA values)."""
        if isinstance(value, Value):
            return value.name
        if isinstance(value, Stream):
            return value.index
        if isinstance(value, Symbol):
            return value.text
        if isinstance(value, ArgList):
            return [self._attr_value(v) for v in value.values]
        return value

    # -- the unknown ---------------------------------------------------------------------------
    def generic(self, stmt: ast.stmt, scope: Scope, reason: str) -> Op:
        source = self.src.segment(stmt)
        operands = self._operands(stmt, scope)
        targets = assigned_names(stmt)
        results = [self.fresh(t) for t in targets]
        for name, value in zip(targets, results):
            value.type = OpaqueType("object")
            scope.env[name] = value
        first = source.splitlines()[0] if source else ""
        self.warn(stmt, f"unmodelled statement kept as ko.generic ({reason}): {first.strip()}")
        return self.emit("ko.generic", stmt, scope, results=results, args=[Arg(v) for v in operands],
                         attrs={"source": source})

    def generic_value(self, node: ast.AST, scope: Scope, reason: str) -> Value:
        source = self.src.segment(node)
        result = self.fresh("expr")
        result.type = OpaqueType("object")
        self.warn(node, f"unmodelled expression kept as ko.generic ({reason}): {source.strip()}")
        self.emit("ko.generic", node, scope, results=[result],
                  args=[Arg(v) for v in self._operands(node, scope)], attrs={"source": source})
        return result

    def _operands(self, node: ast.AST, scope: Scope) -> list[Value]:
        seen: list[Value] = []
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                bound = scope.lookup(sub.id)
                candidates = bound.values if isinstance(bound, ArgList) else [bound]
                for value in candidates:
                    if isinstance(value, Value) and all(value is not s for s in seen):
                        seen.append(value)
        return seen
