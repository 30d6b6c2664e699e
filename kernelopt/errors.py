"""Errors a user can act on: the driver's names for the hierarchy defined in `kernelopt.ir.user_errors`.

Every command catches these at the top level and prints the message alone (no traceback):
`InputError` exits 1 (something is wrong in the input: a file, a module, a candidate),
`UsageError` exits 2 (the command line itself is wrong). The classes are defined in the IR layer so
that `ir` and `passes` raise the same classes without importing the driver.
"""
from __future__ import annotations

import os
import sys

from kernelopt.ir.user_errors import InputError, KernelOptError, UsageError

__all__ = ["InputError", "KernelOptError", "UsageError", "located", "SIGPIPE_EXIT", "stdout_reader_gone"]

SIGPIPE_EXIT = 141      # what a shell reports for a command killed by SIGPIPE, as `ls | head` leaves `ls`


def located(path: str, line: int, column: int | None, message: str) -> str:
    """Format `path:line[:column]: message`, the form every located diagnostic uses."""
    where = f"{path}:{line}" if column is None else f"{path}:{line}:{column}"
    return f"{where}: {message}"


def stdout_reader_gone() -> int:
    """For a `BrokenPipeError` on stdout (`kernelopt cache list | head` read what it wanted and closed the
    pipe): end quietly, as the coreutils do, instead of a traceback. stdout is pointed at /dev/null so the
    interpreter's own flush at exit cannot raise again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return SIGPIPE_EXIT
