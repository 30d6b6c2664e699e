"""`kernelopt`: the user-facing command with subcommands (lift, emit, run, check, bench, capture, optimize, ...).

Each subcommand lives in its own module under `kernelopt/commands/` and exposes
`register(subparsers)`, which adds its parser and sets `func` to a handler returning the exit code.
Adding a subcommand therefore never touches this file.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from kernelopt import commands
from kernelopt.errors import KernelOptError, stdout_reader_gone


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kernelopt",
        description="Make PyTorch Inductor output modules faster: lift, analyse, rewrite, prove, emit.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()          # here, where a closed pipe is caught, not at exit, where it is not
        return code
    except KernelOptError as err:
        print(f"kernelopt {args.command}: error: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt as interrupt:  # Ctrl-C, or SIGTERM inside a job (JobTerminated, exit 143)
        print(f"kernelopt {args.command}: interrupted", file=sys.stderr)
        return getattr(interrupt, "exit_code", 130)
    except BrokenPipeError:
        return stdout_reader_gone()


if __name__ == "__main__":
    sys.exit(main())
