"""Grid expressions: integer arithmetic over launch sizes, folded without `eval`.

A launch grid entry is an int or Python text such as `-((xnumel) // -(128))` or
`(0 if y_grid_div_ == 0 else -((y_grid_raw_) // -(y_grid_div_)))`. Parts of that text come from the
input (`fixed_grid`, `precomputed_grids` and combo sizes in a kernel's inductor_meta), and the emitter
pastes an entry it cannot fold into the emitted module. So every entry is checked against what
Inductor's `GridExpr` writes (ints, names, `+ - * // %`, `<<`/`>>`/`**` by a small constant, comparisons,
`a if c else b`, `max`/`min`) and anything else is refused (`GridExpressionRefused`); a checked entry
whose names are all bound to ints is folded to an int with every intermediate value bounded, so a
crafted `10**10**10` can neither run code nor hang the emitter.
"""
from __future__ import annotations

import ast
import operator
from typing import Any, Mapping

from kernelopt.errors import InputError
from kernelopt.inductor_source import code_construct, expression_excerpt, parse_python, text_excerpt

_MAX_DEPTH = 100           # Inductor's grid text nests a dozen levels
_MAX_BITS = 256            # a grid (or any size behind it) is far below 2**64; more is not a grid
_MAX_SHIFT = 64            # `**`, `<<`, `>>` only by a constant this small
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
           ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
_BY_CONSTANT = (ast.Pow, ast.LShift, ast.RShift)
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge}
_CALLS = {"max": max, "min": min}


class GridExpressionRefused(InputError):
    """A grid entry that is not integer arithmetic as Inductor writes it (message without location:
    the caller knows the kernel)."""


class _Symbolic(Exception):
    """A name without an int value: the entry stays text."""


def fold_grid_entry(entry: Any, names: Mapping[str, Any] | None = None) -> int | str:
    """`entry` as an int when it folds (its names bound to ints in `names`), else its text, checked.
    Raises `GridExpressionRefused` for anything outside the grammar in the module doc."""
    if isinstance(entry, int) and not isinstance(entry, bool):
        return entry
    if not isinstance(entry, str):
        raise GridExpressionRefused(f"grid entry {entry!r} is a {type(entry).__name__}, not an int or an "
                                    "expression")
    tree = _parse(entry)
    _check(tree, entry, 0)
    try:
        return _value(tree, names or {}, entry)
    except _Symbolic:
        return entry


def _parse(text: str) -> ast.expr:
    try:
        tree = parse_python(text.strip(), "<grid expression>")
    except SyntaxError as err:
        raise GridExpressionRefused(f"grid expression `{text_excerpt(text)}` is not a Python expression ({err.msg})") from None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        raise GridExpressionRefused(f"grid expression `{text_excerpt(text)}` is not one Python expression")
    return tree.body[0].value


def _refused(text: str, what: str) -> GridExpressionRefused:
    return GridExpressionRefused(f"grid expression `{text_excerpt(text)}` uses {what}, which Inductor never writes; "
                                 "refusing to evaluate it (regenerate the module with torch.compile)")


def _check(node: ast.AST, text: str, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise _refused(text, f"nesting deeper than {_MAX_DEPTH} levels")
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int):
            raise _refused(text, f"the constant `{text_excerpt(repr(node.value))}`")
        if node.value.bit_length() > _MAX_BITS:
            raise _refused(text, f"an integer of {len(str(node.value))} digits")
    elif isinstance(node, ast.Name):
        if node.id.startswith("__"):   # `__import__`, `__builtins__`: never a size
            raise _refused(text, f"`{node.id}`")
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _BINARY:
            raise _refused(text, f"the operator `{_symbol(node.op)}`")
        if isinstance(node.op, _BY_CONSTANT) and not (
                isinstance(node.right, ast.Constant) and type(node.right.value) is int
                and 0 <= node.right.value <= _MAX_SHIFT):
            raise _refused(text, f"`{_symbol(node.op)}` by `{expression_excerpt(node.right)}` (only by a constant "
                           f"from 0 to {_MAX_SHIFT})")
        _check(node.left, text, depth + 1)
        _check(node.right, text, depth + 1)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.UAdd)):
            raise _refused(text, f"the operator `{_symbol(node.op)}`")
        _check(node.operand, text, depth + 1)
    elif isinstance(node, ast.Compare):
        if not all(type(op) in _COMPARE for op in node.ops):
            raise _refused(text, "a comparison other than == != < <= > >=")
        for part in [node.left, *node.comparators]:
            _check(part, text, depth + 1)
    elif isinstance(node, ast.IfExp):
        for part in (node.test, node.body, node.orelse):
            _check(part, text, depth + 1)
    elif isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in _CALLS or node.keywords or not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            raise _refused(text, _describe(node))
        for arg in node.args:
            _check(arg, text, depth + 1)
    else:
        raise _refused(text, _describe(node))


def _value(node: ast.AST, names: Mapping[str, Any], text: str) -> int:
    """Evaluate a checked tree; `_Symbolic` when a name has no int value."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        value = names.get(node.id)
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Symbolic(node.id)
        return _bounded(value, text)
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, names, text), _value(node.right, names, text)
        try:
            return _bounded(_BINARY[type(node.op)](left, right), text)
        except ZeroDivisionError:
            raise GridExpressionRefused(f"grid expression `{text_excerpt(text)}` divides by zero") from None
    if isinstance(node, ast.UnaryOp):
        operand = _value(node.operand, names, text)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Compare):
        left = _value(node.left, names, text)
        for op, right_node in zip(node.ops, node.comparators):
            right = _value(right_node, names, text)
            if not _COMPARE[type(op)](left, right):
                return 0
            left = right
        return 1
    if isinstance(node, ast.IfExp):
        return _value(node.body if _value(node.test, names, text) else node.orelse, names, text)
    if isinstance(node, ast.Call):
        return _CALLS[node.func.id](_value(a, names, text) for a in node.args)
    raise AssertionError(f"unchecked node {type(node).__name__}")   # _check refuses every other node


def _bounded(value: int, text: str) -> int:
    # operands stay below 2**256 and exponents/shifts below 64, so no step can take long
    if value.bit_length() > _MAX_BITS:
        raise GridExpressionRefused(f"grid expression `{text_excerpt(text)}` exceeds 2**{_MAX_BITS}: not a launch grid")
    return value


def _describe(node: ast.AST) -> str:
    construct = code_construct(node)
    if construct:
        return construct
    dunders = [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id.startswith("__")]
    if dunders:
        return f"`{dunders[0]}`"
    if isinstance(node, ast.Attribute):
        return f"the attribute `.{node.attr}`"
    if isinstance(node, ast.Call):
        return f"a call of `{expression_excerpt(node.func)}`"
    return f"`{expression_excerpt(node)}`"


def _symbol(op: ast.AST) -> str:
    symbols = {ast.Div: "/", ast.MatMult: "@", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.Pow: "**",
               ast.LShift: "<<", ast.RShift: ">>", ast.Not: "not", ast.Invert: "~"}
    return symbols.get(type(op), type(op).__name__)
