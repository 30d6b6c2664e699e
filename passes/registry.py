"""The pass registry: built-in passes plus third-party ones from the `kernelopt.passes` entry points.

Built-ins are found by importing every module of this package (one pass per file, the file named
after the pass: `detect_fusion.py` holds `detect-fusion`). A plugin package declares

    [project.entry-points."kernelopt.passes"]
    my-pass = "my_package.my_pass:MyPass"

Two passes with one name are an error, never a silent override.
"""
from __future__ import annotations

import difflib
import importlib
import inspect
import pkgutil
from functools import lru_cache
from importlib.metadata import entry_points

import kernelopt.passes as package
from kernelopt.ir.user_errors import UsageError

from .base import Pass

ENTRY_POINT_GROUP = "kernelopt.passes"
# The pass machinery shares this package with the passes; these modules hold no pass.
_NOT_PASS_MODULES = {"base", "pass_manager", "pipeline", "registry"}


class RegistryError(UsageError):
    """The set of installed passes is inconsistent (e.g. two passes share a name)."""


def _builtin_passes() -> list[type[Pass]]:
    found = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name in _NOT_PASS_MODULES or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Pass) and obj is not Pass and obj.__module__ == module.__name__ and obj.name:
                found.append(obj)
    return found


def _plugin_passes() -> list[tuple[str, type[Pass]]]:
    plugins = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as err:  # a broken plugin must not take the tool down
            raise RegistryError(f"cannot load pass plugin '{ep.name}' ({ep.value}): {err}") from None
        if not (inspect.isclass(obj) and issubclass(obj, Pass)):
            raise RegistryError(f"pass plugin '{ep.name}' ({ep.value}) is not a Pass subclass")
        plugins.append((f"{ep.value}", obj))
    return plugins


@lru_cache(maxsize=1)
def registry() -> dict[str, type[Pass]]:
    """All known passes by name (built-ins first, then plugins)."""
    table: dict[str, type[Pass]] = {}
    origin: dict[str, str] = {}
    candidates = [(f"{p.__module__}.{p.__qualname__}", p) for p in _builtin_passes()] + _plugin_passes()
    for where, cls in candidates:
        if cls.name in table and table[cls.name] is not cls:
            raise RegistryError(f"two passes are named '{cls.name}': {origin[cls.name]} and {where}")
        table[cls.name] = cls
        origin[cls.name] = where
    return table


def lookup(name: str) -> type[Pass]:
    table = registry()
    if name in table:
        return table[name]
    close = difflib.get_close_matches(name, table, n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    known = ", ".join(sorted(table))
    raise UsageError(f"unknown pass '{name}'.{hint} Known passes: {known}")
