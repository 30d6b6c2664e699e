"""Python AST helpers for the lifter: literal conversion to attributes, and source text of nodes."""
from __future__ import annotations

import ast
import math
from typing import Any

from kernelopt.inductor_source import dotted_name
from kernelopt.ir.attributes import DType

_TORCH_DTYPES = {
    "float64", "float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
    "float8_e5m2fnuz", "int64", "int32", "int16", "int8", "uint8", "uint16", "uint32", "uint64", "bool",
    "complex64", "complex128", "complex32", "double", "float", "half", "long", "int", "short",
}


class SourceText:
    """The text of a Python file, with fast access to the source of a node (ast.get_source_segment
    re-splits the whole file on every call, which is quadratic on an 85 KB module)."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines()

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def segment(self, node: ast.AST) -> str:
        first, last = node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno
        start, end = node.col_offset, getattr(node, "end_col_offset", None)
        if first == last:
            return self.line(first)[start:end]
        parts = [self.line(first)[start:]] + [self.line(n) for n in range(first + 1, last)]
        parts.append(self.line(last)[:end])
        return "\n".join(parts)


def torch_dtype(node: ast.AST) -> DType | None:
    """`torch.float32` -> DType('float32')."""
    name = dotted_name(node)
    if name and name.startswith("torch.") and name.count(".") == 1 and name[6:] in _TORCH_DTYPES:
        return DType(name[6:])
    return None


def format_key(node: ast.AST) -> Any:
    """Dict keys become str or int attribute keys; a tuple key is written as its Python text."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)) and not isinstance(node.value, bool):
        return node.value
    value = literal(node)
    if isinstance(value, tuple):
        return repr(value)
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else ast.unparse(node)


def literal(node: ast.AST) -> Any:
    """Convert a Python literal expression to an attribute value, never failing.

    Beyond `ast.literal_eval`: `set()` and set displays become lists, `DeviceProperties(k=v, ...)`
    (any call with keywords only) a dict of its keywords, `float('inf')` a float, dotted names such
    as `ReductionHint.INNER` their text, `torch.float32` a dtype; anything else its source text.
    """
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bytes):
            return value.decode("latin-1")
        if value is Ellipsis:
            return "..."
        if isinstance(value, complex):
            return repr(value)
        return value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = literal(node.operand)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
        return ast.unparse(node)
    if isinstance(node, ast.Dict):
        result = {}
        for key, value in zip(node.keys, node.values):
            if key is None:  # {**other}
                result["**"] = literal(value)
            else:
                result[format_key(key)] = literal(value)
        return result
    if isinstance(node, ast.List):
        return [literal(e) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(literal(e) for e in node.elts)
    if isinstance(node, ast.Set):
        return [literal(e) for e in node.elts]
    if isinstance(node, ast.Call):
        func = dotted_name(node.func)
        if func in ("set", "frozenset", "list", "tuple") and not node.args and not node.keywords:
            return [] if func in ("set", "frozenset", "list") else ()
        if func == "float" and len(node.args) == 1 and isinstance(node.args[0], ast.Constant):
            try:
                return float(node.args[0].value)
            except (TypeError, ValueError):
                return ast.unparse(node)
        if node.keywords and not node.args and all(k.arg for k in node.keywords):
            return {k.arg: literal(k.value) for k in node.keywords}
        return ast.unparse(node)
    dtype = torch_dtype(node)
    if dtype is not None:
        return dtype
    if isinstance(node, ast.Name):
        if node.id in ("inf", "nan"):
            return math.inf if node.id == "inf" else math.nan
        return node.id
    name = dotted_name(node)
    if name:  # '' when not a plain attribute chain
        if name in ("math.inf", "math.nan"):
            return math.inf if name == "math.inf" else math.nan
        return name
    return ast.unparse(node)


def is_literal(node: ast.AST) -> bool:
    """True for constants and (nested) tuples/lists of them: what can be an attribute as written."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(is_literal(e) for e in node.elts)
    return False


def assigned_names(stmt: ast.AST) -> list[str]:
    names: list[str] = []
    targets = stmt.targets if isinstance(stmt, ast.Assign) else \
        [stmt.target] if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) else []
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and sub.id not in names:
                names.append(sub.id)
    return names


def subscripted_names(function: ast.AST) -> set[str]:
    """Names taken apart with a constant index somewhere in the function (tuple results)."""
    return {n.value.id for n in ast.walk(function) if isinstance(n, ast.Subscript)
            and isinstance(n.value, ast.Name) and isinstance(n.slice, ast.Constant)
            and isinstance(n.slice.value, int)}


def all_ints(values: Any) -> bool:
    return isinstance(values, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
