"""Attribute values.

Attributes are plain Python values so that passes read and write them without ceremony:
int, float (inf/nan included), str, bool, None, list, tuple, dict (str keys), plus the three
wrappers below. The printer and parser round-trip all of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from .types import Type


@dataclass(frozen=True)
class SymbolRef:
    """A reference to a module-level symbol, printed `@name`."""

    name: str

    def __str__(self) -> str:
        return f"@{self.name}"


@dataclass(frozen=True)
class DType:
    """A torch dtype as a value (e.g. an argument `torch.float32`), printed `dtype<float32>`."""

    name: str

    def __str__(self) -> str:
        return f"dtype<{self.name}>"


@dataclass(frozen=True)
class TypeAttr:
    """A type used as a value, printed as the type itself (e.g. `tensor<4xf32, [1]>`)."""

    type: Type

    def __str__(self) -> str:
        return str(self.type)


Attribute = Union[int, float, str, bool, None, list, tuple, dict, SymbolRef, DType, TypeAttr]


def is_attribute(value: Any) -> bool:
    """True when `value` can be stored as an attribute (checked recursively)."""
    if value is None or isinstance(value, (bool, int, float, str, SymbolRef, DType, TypeAttr)):
        return True
    if isinstance(value, (list, tuple)):
        return all(is_attribute(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, (str, int)) and is_attribute(v) for k, v in value.items())
    return False
