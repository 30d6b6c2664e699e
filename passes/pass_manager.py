"""Runs a pipeline of passes over a module, with MLIR-style instrumentation.

Instrumentation (all optional): print the IR before/after named passes, after every pass, after
passes that changed it, or after a failure; verify after each pass (on by default); count
statistics; time passes; skip disabled passes. IR printouts go to the `dump` stream (stderr in
`kernelopt-opt`), so that stdout carries only the result.
"""
from __future__ import annotations

import sys
from collections import Counter
import time
from dataclasses import dataclass, field
from typing import TextIO

from kernelopt.ir.core import Module
from kernelopt.ir.user_errors import InputError, KernelOptError
from kernelopt.ir.printer import print_module
from kernelopt.ir.verifier import verify

from .base import Pass, PassContext, PassFailure


class PipelineFailed(InputError):
    """A pass failed or left the IR invalid; the message names the pass."""


@dataclass
class Instrumentation:
    print_before: set[str] = field(default_factory=set)
    print_after: set[str] = field(default_factory=set)
    print_after_all: bool = False
    print_after_change: bool = False
    print_after_failure: bool = False
    verify_each: bool = True
    disabled: set[str] = field(default_factory=set)
    dump: TextIO = sys.stderr
    timings: list[tuple[str, float]] = field(default_factory=list)

    def print_ir(self, when: str, pass_name: str, module: Module, text: str | None = None) -> None:
        self.dump.write(f"// -----// IR Dump {when} {pass_name} //----- //\n")
        self.dump.write(text if text is not None else print_module(module))


class PassManager:
    def __init__(self, passes: list[Pass], instrumentation: Instrumentation | None = None):
        self.passes = passes
        self.instr = instrumentation or Instrumentation()

    def run(self, module: Module, ctx: PassContext) -> None:
        for p in self.passes:
            if p.name in self.instr.disabled:
                continue
            self._run_one(p, module, ctx)

    def _run_one(self, p: Pass, module: Module, ctx: PassContext) -> None:
        instr = self.instr
        if p.name in instr.print_before:
            instr.print_ir("Before", p.name, module)
        before = print_module(module) if instr.print_after_change else None
        ctx.current_pass = p.name
        for stat in p.statistics:  # declared statistics show up even when zero
            ctx.statistics.setdefault(p.name, Counter())[stat] += 0
        errors_before = len(ctx.diagnostics.errors)
        start = time.perf_counter()
        try:
            p.apply(ctx, module)
        except PassFailure as err:
            self._fail(p, module, f"pass '{p.name}' failed: {err}")
        except KernelOptError:
            raise                 # already written for the user: bad input exits 1, bad usage 2
        except (KeyboardInterrupt, SystemExit, MemoryError):
            raise
        except Exception as err:  # noqa: BLE001 - a bug or an unforeseen input: named, never a traceback
            self._fail(p, module, f"pass '{p.name}' failed on this input: {type(err).__name__}: "
                                  f"{_first_line(err)} (an internal error of the pass: please report it with "
                                  "the input)")
        finally:
            instr.timings.append((p.name, time.perf_counter() - start))
            ctx.current_pass = ""
        if len(ctx.diagnostics.errors) > errors_before:
            self._fail(p, module, f"pass '{p.name}' reported errors")
        if instr.verify_each:
            errors = [d for d in verify(module).errors]
            if errors:
                # the first error on the first line: the optimize job and the backend report only that line
                more = f" ({len(errors) - 1} more below)" if len(errors) > 1 else ""
                detail = "\n".join(str(d) for d in errors[1:])
                self._fail(p, module, f"the IR is invalid after pass '{p.name}': {errors[0]}{more}"
                                      + (f"\n{detail}" if detail else ""))
        after = None
        if instr.print_after_all or p.name in instr.print_after:
            after = print_module(module)
            instr.print_ir("After", p.name, module, after)
        elif before is not None:
            after = print_module(module)
            if after != before:
                instr.print_ir("After", p.name, module, after)

    def _fail(self, p: Pass, module: Module, message: str) -> None:
        if self.instr.print_after_failure:
            self.instr.print_ir("After Failure", p.name, module)
        raise PipelineFailed(message)


def _first_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return (lines[0] if lines else "")[:300]


def format_statistics(ctx: PassContext, passes: list[Pass]) -> str:
    lines = ["===" + "-" * 60 + "===", "  ... Pass statistics report ...", "===" + "-" * 60 + "==="]
    for p in passes:
        counters = ctx.statistics.get(p.name)
        if counters is None:
            continue
        lines.append(f"{p.name}")
        for stat in list(p.statistics) + sorted(set(counters) - set(p.statistics)):
            lines.append(f"  ({stat}) {counters.get(stat, 0)}")
    return "\n".join(lines) + "\n"


def format_timings(timings: list[tuple[str, float]]) -> str:
    total = sum(t for _, t in timings) or 1e-12
    lines = ["===" + "-" * 60 + "===", "  ... Execution time report ...", "===" + "-" * 60 + "===",
             f"  Total Execution Time: {total:.4f} seconds", "",
             "  ----Wall Time----  ----Name----"]
    for name, seconds in timings:
        lines.append(f"  {seconds:9.4f} ({100 * seconds / total:5.1f}%)  {name}")
    lines.append(f"  {total:9.4f} (100.0%)  Total")
    return "\n".join(lines) + "\n"
