"""Lift a PyTorch Inductor output module into the `ko` IR (docs/IR.md, "Lifting conventions").

    from kernelopt.lift import lift_file
    module = lift_file("output_code.py")        # a kernelopt.ir.Module

Never executes the module. Statements it has no rule for become `ko.generic` ops keeping their
Python source, with a warning naming the line; a file that is no output module, or no Python at
all, raises `kernelopt.errors.InputError`.
"""
from __future__ import annotations

from pathlib import Path

from kernelopt.errors import InputError
from kernelopt.ir.core import Module
from kernelopt.ir.diagnostics import Diagnostics
from kernelopt.ir.text_input import read_utf8

from .lifter import Lifter

__all__ = ["lift_source", "lift_file"]


def lift_source(text: str, filename: str, diagnostics: Diagnostics | None = None) -> Module:
    """Lift the text of an output module; warnings go to `diagnostics` when one is given."""
    return Lifter(text, filename, diagnostics if diagnostics is not None else Diagnostics()).lift()


def lift_file(path: str | Path, diagnostics: Diagnostics | None = None) -> Module:
    path = Path(path)
    try:
        text = read_utf8(path, "an Inductor output module")
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror}") from None
    return lift_source(text, str(path), diagnostics)
