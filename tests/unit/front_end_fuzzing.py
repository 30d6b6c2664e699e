"""Mutations of real inputs and an in-process driver for the front-end fuzz tests (helpers, not tests).

The seeds are files users really feed KernelOPT: the `.kir` files under tests/lit, the same corpus
modules lifted to `.kir`, and the Inductor output modules of both corpora (CPU torch 2.13 and H200
torch 2.11) and of tests/fixtures. The entry points run in this process (their `main(argv)`), so a
fuzz example costs a parse, not an interpreter start; a timer interrupts one that hangs.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import traceback
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

# ------------------------------------------------------------------------------------------ profiles
# KERNELOPT_FUZZ=ci (default): a fixed, derandomized sample that keeps the whole file under a minute on
# two cores. KERNELOPT_FUZZ=nightly: fresh random inputs, >= 10,000 per run over the fuzz tests
# (see README, "Testing"); failures print a reproduction blob and land in .hypothesis/.
PROFILE = os.environ.get("KERNELOPT_FUZZ", "ci")
_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                     HealthCheck.filter_too_much])
settings.register_profile("kernelopt-fuzz-ci", max_examples=1, derandomize=True, database=None, **_COMMON)
settings.register_profile("kernelopt-fuzz-nightly", max_examples=1, print_blob=True, **_COMMON)
if PROFILE not in ("ci", "nightly"):
    raise RuntimeError(f"KERNELOPT_FUZZ={PROFILE!r}: use ci (default) or nightly")


def fuzz_settings(ci_examples: int, nightly_examples: int):
    """The decorator for one fuzz test: the selected profile with this test's share of the examples."""
    base = settings.get_profile(f"kernelopt-fuzz-{PROFILE}")
    return settings(base, max_examples=ci_examples if PROFILE == "ci" else nightly_examples)


# How long one input may take before it counts as a hang. Real inputs take 0.01-0.5 s here; the
# first emit also imports torch and triton (seconds on a busy machine), so the margin is wide.
HANG_SECONDS = 30.0

# ------------------------------------------------------------------------------------------- seeds
_CORPUS_MODULES = sorted((TESTS / "corpus").glob("*/*/*/*.py")) + sorted((TESTS / "fixtures").glob("*/*.py"))
# Only Inductor output modules: the fixture folders also hold the models and scripts that captured them.
OUTPUT_MODULES = tuple(p for p in _CORPUS_MODULES if p.name != "__init__.py"
                       and "def call(" in (text := p.read_text(errors="replace")) and "async_compile" in text)
LIT_KIR = tuple(sorted(p for p in (TESTS / "lit").rglob("*.kir") if "Output" not in p.parts))  # not lit's scratch
# A .kir seed is a lit file or a corpus module lifted to .kir (lifted on first use, then cached).
KIR_SEEDS = tuple(("lit", p) for p in LIT_KIR) + tuple(("lifted", p) for p in OUTPUT_MODULES)


@lru_cache(maxsize=None)
def seed_bytes(kind: str, path: Path) -> bytes:
    if kind != "lifted":
        return path.read_bytes()
    from kernelopt.ir.printer import print_module
    from kernelopt.lift import lift_file

    return print_module(lift_file(path)).encode()


# ---------------------------------------------------------------------------------------- mutations
_NON_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x80", b"\xf0\x28\x8c\x28", b"\x00",
             b"\xef\xbb\xbf"]
_HUGE = [b"9" * 30, b"18446744073709551616", b"-9223372036854775809", b"9" * 5000, b"1e999", b"-1e999",
         b"1" + b"0" * 400 + b".5", b"0.0e-99999", b"nan", b"-0"]
_OPENERS = [(b"[", b"]"), (b"(", b")"), (b"{", b"}"), (b"{a = ", b"}"), (b"[1, ", b"]"), (b"-", b""),
            (b"not ", b""), (b"x[", b"]")]


@st.composite
def _truncate(draw, data: bytes) -> bytes:
    return data[:draw(st.integers(0, len(data)))]


@st.composite
def _flip_bytes(draw, data: bytes) -> bytes:
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        if buf:
            buf[draw(st.integers(0, len(buf) - 1))] ^= draw(st.integers(1, 255))
    return bytes(buf)


@st.composite
def _delete_lines(draw, data: bytes) -> bytes:
    lines = data.split(b"\n")
    start = draw(st.integers(0, len(lines) - 1))
    count = draw(st.integers(1, 3))
    return b"\n".join(lines[:start] + lines[start + count:])


@st.composite
def _duplicate_lines(draw, data: bytes) -> bytes:
    lines = data.split(b"\n")
    start = draw(st.integers(0, len(lines) - 1))
    block = lines[start:start + draw(st.integers(1, 3))]
    return b"\n".join(lines[:start] + block * draw(st.integers(2, 4)) + lines[start + len(block):])


@st.composite
def _swap_lines(draw, data: bytes) -> bytes:
    lines = data.split(b"\n")
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


@st.composite
def _non_utf8(draw, data: bytes) -> bytes:
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(st.sampled_from(_NON_UTF8)) + data[at:]


@st.composite
def _huge_number(draw, data: bytes) -> bytes:
    numbers = list(re.finditer(rb"-?\d+(?:\.\d+)?", data))
    if not numbers:
        return data
    match = numbers[draw(st.integers(0, len(numbers) - 1))]
    return data[:match.start()] + draw(st.sampled_from(_HUGE)) + data[match.end():]


@st.composite
def _deep_nesting(draw, data: bytes) -> bytes:
    at = draw(st.integers(0, len(data)))
    opener, closer = draw(st.sampled_from(_OPENERS))
    depth = draw(st.sampled_from([3, 50, 99, 150, 201, 1000, 20_000]))
    return data[:at] + opener * depth + b"1" + closer * depth + data[at:]


@st.composite
def _insert_text(draw, data: bytes) -> bytes:
    """Tokens both grammars know, in the wrong place: the parsers' error paths rather than the lexers'."""
    at = draw(st.integers(0, len(data)))
    token = draw(st.sampled_from([b"%", b"@", b'"', b"\\", b"{", b"}", b"=", b":", b",", b"\n", b"\t",
                                  b"ko.launch @x(%a)", b"%a = ko.view %a", b"ko.return %nope", b"// -----",
                                  b"tensor<", b"def call(args):", b"    ", b"'''", b"#", b"\r"]))
    return data[:at] + token + data[at:]


_MUTATIONS = [_truncate, _flip_bytes, _delete_lines, _duplicate_lines, _swap_lines, _non_utf8, _huge_number,
              _deep_nesting, _insert_text]


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """`data` after one to three mutations (most inputs need only one to break; several interact)."""
    for _ in range(draw(st.integers(1, 3))):
        data = draw(draw(st.sampled_from(_MUTATIONS))(data))
    return data


# ------------------------------------------------------------------------------------------- driver
class _Hang(BaseException):
    """Raised by the timer inside a hung entry point (a BaseException so no `except Exception` eats it)."""


@dataclass
class Outcome:
    exit_code: int | str
    stdout: str
    stderr: str
    crash: str | None = None     # the traceback of an exception that escaped main(), or "hang"


def run_in_process(main, argv: list[str]) -> Outcome:
    """`main(argv)` as the console script runs it: SystemExit caught, stdout/stderr captured, a timer."""
    out, err = io.StringIO(), io.StringIO()

    def on_timer(signum, frame):
        raise _Hang()

    previous = signal.signal(signal.SIGALRM, on_timer)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except _Hang:
        return Outcome("hang", out.getvalue(), err.getvalue(), f"hang: no answer within {HANG_SECONDS:.0f} s")
    except BaseException as crash:  # noqa: BLE001 - the point is to see any of them
        return Outcome("crash", out.getvalue(), err.getvalue(), "".join(traceback.format_exception(crash)))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return Outcome(code, out.getvalue(), err.getvalue())


# Errors about a whole file, with no line to point at: the file names itself, and that is all there is.
WHOLE_FILE_ERRORS = ("not an Inductor output module",)


def contract_violations(outcome: Outcome, path: Path) -> list[str]:
    """What the front end's contract forbids in this outcome (empty: the run kept it).

    Exit 0 or 1 (a fuzzed file is never a usage error); no traceback escapes or is printed; on exit 1
    every `error:` line names the file, and at least one gives `file:line:col` (whole-file errors
    aside)."""
    problems = []
    if outcome.crash is not None:
        problems.append(outcome.crash)
    if "Traceback (most recent call last)" in outcome.stderr:
        problems.append("a traceback was printed")
    if outcome.exit_code not in (0, 1, "crash", "hang"):
        problems.append(f"exit code {outcome.exit_code} (expected 0, or 1 for bad input)")
    if outcome.exit_code == 1:
        # diagnostics, not echoed source lines (which may hold "error:" too): `error: ...` bare, or after
        # the tool's name or a location in the file
        diagnostic = re.compile(rf"^(kernelopt[- ]\S*: |{re.escape(str(path))}[:\d]*: )?error: ")
        errors = [line for line in outcome.stderr.splitlines() if diagnostic.match(line)]
        located = re.compile(re.escape(str(path)) + r":\d+:\d+")
        if not errors:
            problems.append("exit 1 without an `error:` line")
        elif any(str(path) not in line for line in errors):
            problems.append("an error line does not name the input file")
        elif not any(located.search(line) for line in errors) and \
                not any(kind in line for line in errors for kind in WHOLE_FILE_ERRORS):
            problems.append("no error names file:line:col")
    return problems
