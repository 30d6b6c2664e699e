"""`kernelopt-opt`: run a pass pipeline over a `.kir` file (or an Inductor output module), MLIR-style.

    kernelopt-opt model.kir -p "classify-dispatch,detect-fusion{max-group=2}" -o out.kir
    kernelopt-opt output_code.py -p classify-dispatch          # a .py input is lifted first
    kernelopt-opt - -p classify-dispatch < model.kir

Exit codes: 0 success, 1 errors in the input (parse, verify, a failing pass, unmet expected
diagnostics), 2 usage errors (unknown pass, bad option, unreadable file).
"""
from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

from kernelopt.errors import KernelOptError, UsageError, stdout_reader_gone
from kernelopt.expected_diagnostics import check as check_expected, collect_expectations
from kernelopt.ir import rewrite_record
from kernelopt.ir.core import Location, Module
from kernelopt.ir.diagnostics import Diagnostic, Diagnostics
from kernelopt.ir.parser import KirParseError, parse_module
from kernelopt.ir.printer import print_module
from kernelopt.ir.verifier import verify
from kernelopt.passes.base import PassContext
from kernelopt.passes.pass_manager import (Instrumentation, PassManager, PipelineFailed, format_statistics,
                                           format_timings)
from kernelopt.passes.pipeline import describe_type, option_table, parse_pipeline
from kernelopt.user_files import check_writable, decode_text, write_output
from kernelopt.passes.registry import registry

SPLIT_MARKER = re.compile(r"^// -----\s*$", re.MULTILINE)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with a one-line hint
        self.print_usage(sys.stderr)
        raise SystemExit(self.exit(2, f"{self.prog}: error: {message}\n"))


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="kernelopt-opt", description=__doc__.split("\n\n")[0],
                formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="Pipelines: passes separated by commas, options in braces separated by spaces, "
                       "list values comma-separated, values with spaces quoted:\n"
                       '  -p "classify-dispatch,detect-fusion{max-group=2}"\n'
                       "See --list-passes for every pass and its options.")
    p.add_argument("input", nargs="?", help="input .kir file, an Inductor output module (.py), or - for stdin")
    p.add_argument("-p", "--pipeline", default="", help="the pass pipeline to run (default: none, just verify and print)")
    p.add_argument("-o", "--output", help="write the result here instead of stdout (its first line is the marker "
                   "`# kernelopt-output`; an existing file without it is never replaced unless --force)")
    p.add_argument("--force", action="store_true", help="let -o replace the input or a file KernelOPT did not write")
    p.add_argument("--list-passes", action="store_true", help="list every registered pass with its summary and options, then exit")
    p.add_argument("--print-ir-before", action="append", default=[], metavar="NAME", help="print the IR to stderr before pass NAME (repeatable)")
    p.add_argument("--print-ir-after", action="append", default=[], metavar="NAME", help="print the IR to stderr after pass NAME (repeatable)")
    p.add_argument("--print-ir-after-all", action="store_true", help="print the IR to stderr after every pass")
    p.add_argument("--print-ir-after-change", action="store_true", help="print the IR to stderr after each pass that changed it")
    p.add_argument("--print-ir-after-failure", action="store_true", help="print the IR to stderr after a pass fails")
    p.add_argument("--pass-statistics", action="store_true", help="print each pass's statistics to stderr at the end")
    p.add_argument("--time-passes", action="store_true", help="print the wall time of each pass to stderr at the end")
    p.add_argument("--disable-pass", action="append", default=[], metavar="NAME", help="skip pass NAME in the pipeline (repeatable)")
    p.add_argument("--verify-each", dest="verify_each", action="store_true", default=True, help="verify the IR after each pass (default)")
    p.add_argument("--no-verify-each", dest="verify_each", action="store_false", help="do not verify the IR after each pass")
    p.add_argument("--split-input-file", action="store_true", help="treat chunks separated by '// -----' as independent inputs")
    p.add_argument("--verify-diagnostics", action="store_true", help="check emitted diagnostics against '// expected-error {{...}}' comments (exit 1 on a mismatch)")
    p.add_argument("--device", choices=["cpu", "cuda"], default=None, help="device for passes that run code (default: cuda when available, else cpu)")
    return p


def list_passes() -> str:
    lines = ["Available passes:"]
    for name, cls in sorted(registry().items()):
        lines.append(f"  {name:<22} {cls.summary}")
        for opt, ty, default, help_text in option_table(cls):
            extra = f" {help_text}" if help_text else ""
            lines.append(f"      {opt}=<{describe_type(ty)}> (default: {_format_default(default)}){extra}")
        if cls.statistics:
            lines.append(f"      statistics: {', '.join(cls.statistics)}")
    return "\n".join(lines) + "\n"


def _format_default(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value)) or "empty"
    return str(value)


EXPECTED_INPUT = "a .kir file or an Inductor output module (.py)"


def read_input(path: str) -> tuple[str, str]:
    if path == "-":
        return decode_text(sys.stdin.buffer.read(), "<stdin>", EXPECTED_INPUT), "<stdin>"
    try:
        data = Path(path).read_bytes()
    except OSError as err:  # a wrong argument, not wrong content: a usage error
        raise UsageError(f"cannot read {path}: {err.strerror}") from None
    return decode_text(data, path, EXPECTED_INPUT), path     # content that is no text: bad input, exit 1


def check_pass_names(args) -> None:
    """--print-ir-before/after and --disable-pass name passes: an unknown name is a typo, never ignored."""
    known = registry()
    for flag, names in (("--print-ir-before", args.print_ir_before), ("--print-ir-after", args.print_ir_after),
                        ("--disable-pass", args.disable_pass)):
        for name in names:
            if name not in known:
                close = difflib.get_close_matches(name, known, n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                raise UsageError(f"{flag}={name}: no pass has that name.{hint} Known passes: "
                                 f"{', '.join(sorted(known))}")


def load_module(text: str, filename: str, line_offset: int, diags: Diagnostics) -> Module:
    if filename.endswith(".py"):
        # lazy: start-up: the lifter loads only for a .py input
        from kernelopt.lift import lift_source

        return lift_source(text, filename, diagnostics=diags)
    return parse_module(text, filename, line_offset)


def process_chunk(text: str, filename: str, line_offset: int, args, passes, ctx: PassContext) -> str:
    module = load_module(text, filename, line_offset, ctx.diagnostics)
    before = len(ctx.diagnostics.errors)
    verify(module, ctx.diagnostics)
    if len(ctx.diagnostics.errors) > before:
        raise PipelineFailed(f"{filename}: the input IR is invalid (errors above)")
    instr = Instrumentation(
        print_before=set(args.print_ir_before), print_after=set(args.print_ir_after),
        print_after_all=args.print_ir_after_all, print_after_change=args.print_ir_after_change,
        print_after_failure=args.print_ir_after_failure, verify_each=args.verify_each,
        disabled=set(args.disable_pass), dump=sys.stderr)
    manager = PassManager(passes, instr)
    manager.run(module, ctx)
    ctx.artifacts.setdefault("timings", []).extend(instr.timings)
    if "python" in ctx.artifacts and passes and passes[-1].name == "emit-python":
        return ctx.artifacts.pop("python")
    return print_module(module)


def chunks(text: str, split: bool) -> list[tuple[str, int]]:
    if not split:
        return [(text, 0)]
    result, offset, start = [], 0, 0
    for match in SPLIT_MARKER.finditer(text):
        result.append((text[start:match.start()], offset))
        offset += text[start:match.end()].count("\n")
        start = match.end()
    result.append((text[start:], offset))
    return result


def _start_sandbox_if_checking(passes: list, text: str, device: str | None) -> None:
    """Before any pass runs: where the pipeline will check candidates (agentic-rewrite, or check-legality on an
    input holding a proposed rewrite), fork the gate's CPU zygote from this process, which has run nothing yet
    (`fork_cpu_sandbox_now`); a pipeline that checks nothing does not pay its imports."""
    names = {p.name for p in passes}
    if "agentic-rewrite" in names or ("check-legality" in names and f'"{rewrite_record.PROPOSED}"' in text):
        # lazy: start-up: only a pipeline that checks candidates pulls torch and the gate
        from kernelopt.legality.sandbox import fork_cpu_sandbox_now

        fork_cpu_sandbox_now(PassContext(options={"device": device}).device())


def run(args) -> int:
    if args.list_passes:
        sys.stdout.write(list_passes())
        return 0
    if args.input is None:
        raise UsageError("no input file (give a .kir file, a .py output module, or - for stdin)")
    passes = parse_pipeline(args.pipeline)
    check_pass_names(args)
    if args.output:   # refuse before any work is done
        check_writable(args.output, [args.input], args.force)
    text, filename = read_input(args.input)
    _start_sandbox_if_checking(passes, text, args.device)
    outputs, failures = [], []
    all_timings = []
    for chunk, offset in chunks(text, args.split_input_file):
        ctx = PassContext(options={"device": args.device})
        try:
            outputs.append(process_chunk(chunk, filename, offset, args, passes, ctx))
        except KirParseError as err:
            if not args.verify_diagnostics:
                raise
            ctx.diagnostics.items.append(_parse_diagnostic(err))
        except PipelineFailed:
            if not args.verify_diagnostics:
                _print_diagnostics(ctx.diagnostics)
                raise
        all_timings += ctx.artifacts.get("timings", [])
        if args.verify_diagnostics:
            failures += check_expected(collect_expectations(chunk, offset), list(ctx.diagnostics), filename)
        else:
            _print_diagnostics(ctx.diagnostics)
        if args.pass_statistics:
            sys.stderr.write(format_statistics(ctx, passes))
    if args.time_passes:
        sys.stderr.write(format_timings(all_timings))
    if failures:
        for line in failures:
            print(line, file=sys.stderr)
        return 1
    if not args.verify_diagnostics:
        _write_output("// -----\n".join(outputs), args.output, args.input, args.force)
    return 0


def _parse_diagnostic(err: KirParseError) -> Diagnostic:
    message = str(err).split(": error: ", 1)[-1].split("\n")[0]
    return Diagnostic("error", message, Location(err.file, err.line, err.column))


def _print_diagnostics(diags: Diagnostics) -> None:
    for diag in diags:
        print(diag, file=sys.stderr)


def _write_output(text: str, path: str | None, source: str, force: bool) -> None:
    if path is None:
        sys.stdout.write(text)
        return
    write_output(path, text, [source], force)   # atomic, with the marker line


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = run(args)
        sys.stdout.flush()          # here, where a closed pipe is caught, not at exit, where it is not
        return code
    except KernelOptError as err:
        located = isinstance(err, KirParseError)  # already reads "file:line:col: error: ..."
        print(str(err) if located else f"kernelopt-opt: error: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("kernelopt-opt: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return stdout_reader_gone()


if __name__ == "__main__":
    sys.exit(main())
