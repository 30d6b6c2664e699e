"""Pipeline strings, in MLIR's syntax: `pass-a,pass-b{opt=3 names=x,y url="a b"}`.

Passes are separated by commas; options sit in braces, separated by spaces; a list value is
comma-separated inside its option; a value with spaces is quoted. An option's name is the pass's
dataclass field with `_` written `-`.
"""
from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any

from kernelopt.ir.user_errors import UsageError

from .base import Pass
from .registry import lookup


@dataclass(frozen=True)
class PassSpec:
    name: str
    options: dict[str, str]
    position: int


def _error(text: str, pos: int, message: str) -> UsageError:
    return UsageError(f"bad pipeline: {message}\n  {text}\n  {' ' * pos}^")


def split_pipeline(text: str) -> list[PassSpec]:
    """Split a pipeline string into pass names and raw option strings (no type checking yet)."""
    specs: list[PassSpec] = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " ,":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] not in ",{ ":
            i += 1
        name = text[start:i]
        if not name:
            raise _error(text, i, "expected a pass name")
        options: dict[str, str] = {}
        while i < n and text[i] == " ":
            i += 1
        if i < n and text[i] == "{":
            i = _read_options(text, i + 1, options)
        specs.append(PassSpec(name, options, start))
        while i < n and text[i] == " ":
            i += 1
        if i < n and text[i] != ",":
            raise _error(text, i, f"expected ',' or the end after pass '{name}'")
    return specs


def _read_options(text: str, i: int, options: dict[str, str]) -> int:
    n = len(text)
    while True:
        while i < n and text[i] == " ":
            i += 1
        if i >= n:
            raise _error(text, i, "missing '}' at the end of the options")
        if text[i] == "}":
            return i + 1
        start = i
        while i < n and text[i] not in "= }":
            i += 1
        key = text[start:i]
        if i >= n or text[i] != "=":
            raise _error(text, i, f"option '{key}' needs a value: write {key}=VALUE")
        i += 1
        value, i = _read_value(text, i)
        options[key] = value


def _read_value(text: str, i: int) -> tuple[str, int]:
    n = len(text)
    if i < n and text[i] in "\"'":
        quote, start = text[i], i
        end = text.find(quote, i + 1)
        if end < 0:
            raise _error(text, start, "unterminated quoted value")
        return text[i + 1:end], end + 1
    start = i
    while i < n and text[i] not in " }":
        i += 1
    return text[start:i], i


def _convert(pass_name: str, option: str, raw: str, annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union and type(None) in args:  # Optional[X]
        if raw.lower() in ("none", ""):
            return None
        annotation = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    try:
        if origin in (list, tuple):
            item = args[0] if args else str
            items = [_convert(pass_name, option, part, item) for part in raw.split(",") if part != ""]
            return tuple(items) if origin is tuple else items
        if annotation is bool:
            if raw.lower() in ("true", "1", "yes", "on"):
                return True
            if raw.lower() in ("false", "0", "no", "off"):
                return False
            raise ValueError(raw)
        if annotation in (int, float, str):
            return annotation(raw)
    except ValueError:
        expected = getattr(annotation, "__name__", str(annotation))
        raise UsageError(f"pass '{pass_name}': option '{option}' expects {_describe_type(annotation)}, "
                         f"got '{raw}'") from None
    return raw


def _describe_type(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin in (list, tuple):
        inner = typing.get_args(annotation)
        plural = {int: "integers", float: "numbers", str: "strings", bool: "booleans"}
        return f"a comma-separated list of {plural.get(inner[0], 'values') if inner else 'values'}"
    return {int: "an integer", float: "a number", bool: "true or false", str: "a string"}.get(
        annotation, getattr(annotation, "__name__", str(annotation)))


def option_table(cls: type[Pass]) -> list[tuple[str, Any, Any, str]]:
    """(option name, type, default, help) for each option of a pass class."""
    hints = typing.get_type_hints(cls)
    rows = []
    for f in cls.option_fields():
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else None)
        rows.append((Pass.option_name(f.name), hints.get(f.name, str), default, f.metadata.get("help", "")))
    return rows


def build_pass(spec: PassSpec) -> Pass:
    cls = lookup(spec.name)
    hints = typing.get_type_hints(cls)
    fields = {Pass.option_name(f.name): f for f in cls.option_fields()}
    kwargs = {}
    for key, raw in spec.options.items():
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise UsageError(f"pass '{spec.name}' has no option '{key}' (its options: {known})")
        f = fields[key]
        kwargs[f.name] = _convert(spec.name, key, raw, hints.get(f.name, str))
    return cls(**kwargs)


def parse_pipeline(text: str) -> list[Pass]:
    return [build_pass(spec) for spec in split_pipeline(text)]


def describe_type(annotation: Any) -> str:
    return _describe_type(annotation)
