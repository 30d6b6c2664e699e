"""Errors a user can act on, for the whole tool.

The hierarchy lives here, in the bottom layer, so that `ir`, `passes` and the driver raise and catch
one set of classes without any layer importing upwards (`kernelopt.errors` re-exports these names).
Every command catches `KernelOptError` at the top level and prints the message alone (no traceback):
`InputError` exits 1 (something is wrong in the input: a file, a module, IR text, a candidate),
`UsageError` exits 2 (the command line itself is wrong: an option, a pipeline string).
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


class IRError(InputError):
    """The IR is wrong (unparsable `.kir` text, a module the verifier rejects); exit code 1."""
