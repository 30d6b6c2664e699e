"""`kernelopt lift OUTPUT_MODULE.py [-o FILE.kir]`: lift an Inductor output module into the IR."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kernelopt.errors import InputError, UsageError
from kernelopt.ir.diagnostics import Diagnostics


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "lift", help="lift an Inductor output module into the KernelOPT IR (.kir)",
        description="Read an Inductor output module (never executed) and print its IR: kernel "
                    "definitions, launches, vendor calls, buffers, views and reuses. Statements "
                    "without a lifting rule are kept as ko.generic ops, with a warning naming their line.")
    parser.add_argument("module", metavar="OUTPUT_MODULE.py", help="the output module torch.compile wrote")
    parser.add_argument("-o", "--output", metavar="FILE.kir", help="write the IR here instead of stdout (first line: "
                        "`# kernelopt-output`; an existing file without it is never replaced unless --force)")
    parser.add_argument("--force", action="store_true", help="let -o replace the input or a file KernelOPT did not write")
    parser.add_argument("--no-verify", action="store_true", help="do not run the verifier on the lifted IR")
    parser.add_argument("-q", "--quiet", action="store_true", help="do not print warnings to stderr")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    # lazy: start-up: `kernelopt --help` imports every command; the verifier pulls networkx
    from kernelopt.ir.printer import print_module
    from kernelopt.ir.verifier import verify
    from kernelopt.lift import lift_file
    from kernelopt.user_files import check_writable, write_output

    if not Path(args.module).is_file():
        raise UsageError(f"{args.module}: no such file")
    if args.output:   # refuse before any work is done
        check_writable(args.output, [args.module], args.force)
    diagnostics = Diagnostics()
    module = lift_file(args.module, diagnostics)
    if not args.no_verify:
        verify(module, diagnostics)
    if not args.quiet:
        for diag in diagnostics:
            if diag.severity != "remark":
                print(diag, file=sys.stderr)
    errors = diagnostics.errors
    if errors:
        raise InputError(f"{args.module}: the lifted IR has {len(errors)} verifier error(s) (shown above)")
    text = print_module(module)
    if args.output:
        write_output(args.output, text, [args.module], args.force)
    else:
        sys.stdout.write(text)
    return 0
