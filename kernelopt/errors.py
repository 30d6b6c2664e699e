"""Errors a user can act on.

Every command catches these at the top level and prints the message alone (no traceback):
`InputError` exits 1 (something is wrong in the input: a file, a module, a candidate),
`UsageError` exits 2 (the command line itself is wrong).
"""
from __future__ import annotations


class KernelOptError(Exception):
    """Base class: the message is written for the user (what, where, how to fix)."""

    exit_code = 1


class InputError(KernelOptError):
    """Something in the user's input is wrong; exit code 1."""

    exit_code = 1


class UsageError(KernelOptError):
    """The command line is wrong (unknown option, bad value, missing file argument); exit code 2."""

    exit_code = 2


def located(path: str, line: int, column: int | None, message: str) -> str:
    """Format `path:line[:column]: message`, the form every located diagnostic uses."""
    where = f"{path}:{line}" if column is None else f"{path}:{line}:{column}"
    return f"{where}: {message}"
