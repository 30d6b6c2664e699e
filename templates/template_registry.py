"""The template registry: built-in kernel templates plus third-party ones from the `kernelopt.templates`
entry points.

Built-ins are found by importing every folder of `templates/kernels/` (one template per folder, the
folder named after the template). A folder whose module defines no `KernelTemplate` subclass holds a
kernel with no matcher: it renders but is not registered (none ships that way; the registry test
holds each registered template to a real capture). A plugin package declares

    [project.entry-points."kernelopt.templates"]
    my_template = "my_package.my_template:MyTemplate"

Two templates with one name are an error, never a silent override.
"""
from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
from functools import lru_cache
from importlib.metadata import entry_points

from kernelopt.errors import UsageError

from . import kernels as kernels_package
from .kernel_template import KERNELS_FOLDER, KernelTemplate

ENTRY_POINT_GROUP = "kernelopt.templates"


class TemplateRegistryError(UsageError):
    """The set of installed templates is inconsistent (e.g. two templates share a name)."""


def _template_folders() -> tuple[str, ...]:
    """Every built-in template, registered or not: the folders holding a `<name>.py.j2`."""
    return tuple(info.name for info in sorted(pkgutil.iter_modules(kernels_package.__path__), key=lambda m: m.name)
                 if info.ispkg and os.path.isfile(os.path.join(KERNELS_FOLDER, info.name, f"{info.name}.py.j2")))


TEMPLATE_NAMES = _template_folders()


def _builtin_templates() -> list[type[KernelTemplate]]:
    found = []
    for folder in TEMPLATE_NAMES:
        module = importlib.import_module(f"{kernels_package.__name__}.{folder}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, KernelTemplate) and obj is not KernelTemplate and obj.__module__ == module.__name__ \
                    and obj.name:
                found.append(obj)
    return found


def _plugin_templates() -> list[tuple[str, type[KernelTemplate]]]:
    plugins = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as err:  # a broken plugin must not take the tool down
            raise TemplateRegistryError(f"cannot load template plugin '{ep.name}' ({ep.value}): {err}") from None
        if not (inspect.isclass(obj) and issubclass(obj, KernelTemplate) and obj.name):
            raise TemplateRegistryError(f"template plugin '{ep.name}' ({ep.value}) is not a named KernelTemplate "
                                        "subclass")
        plugins.append((ep.value, obj))
    return plugins


@lru_cache(maxsize=1)
def registry() -> dict[str, KernelTemplate]:
    """Every registered template by name, one instance each, in the order the proposer offers them."""
    table: dict[str, type[KernelTemplate]] = {}
    origin: dict[str, str] = {}
    found = [(f"{t.__module__}.{t.__qualname__}", t) for t in _builtin_templates()] + _plugin_templates()
    for where, cls in found:
        if cls.name in table and table[cls.name] is not cls:
            raise TemplateRegistryError(f"two templates are named '{cls.name}': {origin[cls.name]} and {where}")
        table[cls.name] = cls
        origin[cls.name] = where
    ordered = sorted(table.values(), key=lambda cls: (cls.order, cls.name))
    return {cls.name: cls() for cls in ordered}
