"""Render the emitted-module templates (`templates/module/*.j2`, package `kernelopt.templates`)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

import kernelopt.templates as package


@lru_cache(maxsize=1)
def environment():
    try:
        loader = jinja2.PackageLoader("kernelopt.templates", "module")
    except (ValueError, ModuleNotFoundError):  # a layout PackageLoader cannot see: use the folder itself
        loader = jinja2.FileSystemLoader(str(Path(package.__file__).parent / "module"))
    return jinja2.Environment(loader=loader, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                              undefined=jinja2.StrictUndefined, autoescape=False)


def render(template: str, context: dict) -> str:
    return environment().get_template(template).render(**context)
