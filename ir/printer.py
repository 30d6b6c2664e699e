"""Print an IR module in the `.kir` text form.

The output is canonical: `print(parse(text)) == text` for every printed module. Strings are escaped
JSON-style (ASCII only, `\\n` for newlines) so that a kernel's source stays on its op's line.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from .attributes import DType, SymbolRef, TypeAttr
from .core import Module, Op, Value

KIR_VERSION = 1
_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_KEYWORDS = {"true", "false", "none", "inf", "nan", "version", "attributes"}


def format_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=True)


def format_key(key: Any) -> str:
    if isinstance(key, int) and not isinstance(key, bool):
        return str(key)
    key = str(key)
    return key if _BARE_KEY.match(key) and key not in _KEYWORDS else format_string(key)


def format_float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(value)
    # repr gives "1.0", "1e-05", "1e+20": all parse back as floats; make sure a "." or "e" is there.
    return text if any(c in text for c in ".en") else text + ".0"


def format_attr(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_float(value)
    if isinstance(value, str):
        return format_string(value)
    if isinstance(value, (SymbolRef, DType, TypeAttr)):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(format_attr(v) for v in value) + "]"
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({format_attr(value[0])},)"
        return "(" + ", ".join(format_attr(v) for v in value) + ")"
    if isinstance(value, dict):
        return format_attr_dict(value)
    raise TypeError(f"cannot print attribute of type {type(value).__name__}: {value!r}")


def format_attr_dict(attrs: dict) -> str:
    return "{" + ", ".join(f"{format_key(k)} = {format_attr(v)}" for k, v in attrs.items()) + "}"


def format_arg_value(value: Any) -> str:
    return f"%{value.name}" if isinstance(value, Value) else format_attr(value)


def _uses_call_syntax(op: Op) -> bool:
    """Ops naming a kernel or a callee print `(args)`; others print their arguments bare."""
    return op.symbol is not None or op.callee is not None or any(a.keyword for a in op.args) or any(
        isinstance(a.value, (str, list, tuple, dict, SymbolRef, DType, TypeAttr)) for a in op.args
    )


def format_op(op: Op) -> str:
    parts: list[str] = []
    if op.results:
        parts.append(", ".join(f"%{r.name}" for r in op.results) + " =")
    parts.append(op.name)
    if op.symbol is not None:
        parts.append(f"@{op.symbol}")
    if op.callee is not None:
        parts.append(format_string(op.callee))
    args = ", ".join((f"{a.keyword}={format_arg_value(a.value)}" if a.keyword else format_arg_value(a.value))
                     for a in op.args)
    if args and _uses_call_syntax(op):
        # Glue the parenthesised list to the symbol/callee: `@k(%a, 1)`.
        parts[-1] += f"({args})"
    elif args:
        parts.append(args)
    # (an op without arguments prints no parentheses; the parser reads both forms alike)
    if op.attrs:
        parts.append(format_attr_dict(op.attrs))
    types = [r.type for r in op.results]
    if types and all(t is not None for t in types):
        parts.append(": " + ", ".join(str(t) for t in types))
    return " ".join(parts)


def print_module(module: Module) -> str:
    head = f"ko.module @{module.name} version {KIR_VERSION}"
    if module.attrs:
        head += f" attributes {format_attr_dict(module.attrs)}"
    lines = [head + " {"]
    lines += ["  " + format_op(op) for op in module.kernels]
    lines += ["  " + format_op(op) for op in module.body]
    lines.append("}")
    return "\n".join(lines) + "\n"
