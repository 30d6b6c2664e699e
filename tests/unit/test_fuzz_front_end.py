"""The front ends (`kernelopt-opt`, `kernelopt lift`, `kernelopt emit`) on damaged real input: truncated,
byte-flipped, lines deleted, duplicated or swapped, non-UTF-8 bytes, huge numbers, deep nesting.
Whatever the damage: no traceback, no hang, exit 1 with a located error (`file:line:col`) or exit 0;
a damaged command line exits 2. `KERNELOPT_FUZZ=nightly` runs the large profile (README, "Testing").

Each input found to break the contract once is pinned below with @example (the fix named beside it).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from front_end_fuzzing import (KIR_SEEDS, OUTPUT_MODULES, TESTS, contract_violations, fuzz_settings, mutated,
                               run_in_process, seed_bytes)
from kernelopt import cli, opt
from kernelopt.ir.parser import parse_module
from kernelopt.ir.printer import print_module

# Static passes only: a fuzz example must not profile kernels or call a proposer.
PIPELINES = ("", "classify-dispatch,detect-fusion{max-group=2}", "emit-python")
TRANSFORMER_BLOCK = (TESTS / "corpus/cpu-2.13/transformer_block/small.default/"
                     "transformer_block.default.0.py").read_bytes()
_ARGS_LINE = next(line for line in TRANSFORMER_BLOCK.split(b"\n") if line.endswith(b" = args"))
TWO_LAUNCHES = (TESTS / "lit/Inputs/two-launches.kir").read_bytes()
# Lifted corpus modules: .kir files whose kernels carry Inductor's decorator (in an escaped source string).
ADALN_KIR = seed_bytes("lifted", TESTS / "corpus/cpu-2.13/adaln_modulate/small.default/adaln_modulate.default.0.py")
SOFTMAX_CUDA = (TESTS / "corpus/cuda-2.11-h200/softmax/small.max-autotune-no-cudagraphs/"
                        "softmax.max-autotune-no-cudagraphs.0.py").read_bytes()
SOFTMAX_CUDA_KIR = seed_bytes("lifted", TESTS / "corpus/cuda-2.11-h200/softmax/small.max-autotune-no-cudagraphs/"
                                               "softmax.max-autotune-no-cudagraphs.0.py")


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="kernelopt-fuzz-") as folder:
        yield Path(folder)


@pytest.fixture(scope="module", autouse=True)
def warm_imports():
    """The first emit imports torch, triton and Inductor's heuristics (seconds); do it before any example
    is timed, so the hang guard times the front end alone."""
    outcome = run_in_process(cli.main, ["emit", str(OUTPUT_MODULES[0])])
    assert outcome.exit_code == 0, outcome.stderr


def _run(tool: str, pipeline: str, path: Path):
    if tool == "opt":
        return run_in_process(opt.main, [str(path), "-p", pipeline])
    return run_in_process(cli.main, [tool, str(path)])


def _check(tool: str, pipeline: str, source: bytes, path: Path) -> None:
    path.write_bytes(source)
    outcome = _run(tool, pipeline, path)
    problems = contract_violations(outcome, path)
    assert not problems, f"{tool} {pipeline!r} on a damaged {path.suffix}:\n" + "\n".join(problems) + \
        f"\n--- stderr (last 2000 characters):\n{outcome.stderr[-2000:]}"
    if tool == "opt" and not pipeline and outcome.exit_code == 0 and path.suffix == ".kir":
        # accepted text prints as IR that reads back to itself (the round trip users rely on)
        assert print_module(parse_module(outcome.stdout)) == outcome.stdout


@st.composite
def damaged_kir(draw) -> bytes:
    kind, path = draw(st.sampled_from(KIR_SEEDS))
    return draw(mutated(seed_bytes(kind, path)))


@st.composite
def damaged_output_module(draw) -> bytes:
    return draw(mutated(draw(st.sampled_from(OUTPUT_MODULES)).read_bytes()))


# Each tool has its own share of the examples; every @example runs through every tool.
@pytest.mark.parametrize("tool", ["opt", "emit"])
@fuzz_settings(ci_examples=60, nightly_examples=2000)
@given(source=damaged_kir(), pipeline=st.sampled_from(PIPELINES))
# non-UTF-8 (ir/text_input.py): was a UnicodeDecodeError traceback in kernelopt-opt and emit
@example(source=TWO_LAUNCHES.replace(b"row_sum", b"row\xffsum", 1), pipeline="")
@example(source=TWO_LAUNCHES.replace(b"row_sum", b"row\xc3\x28sum", 1), pipeline="emit-python")
# a 5,000-digit version: a ValueError traceback; 5,000-digit ints and bad escapes: errors at line 1
@example(source=TWO_LAUNCHES.replace(b"version 1", b"version " + b"9" * 5000), pipeline="")
@example(source=TWO_LAUNCHES.replace(b"1024)", b"9" * 5000 + b")"), pipeline="")
@example(source=TWO_LAUNCHES.replace(b'"pointwise"', b'"\\x41"'), pipeline="")
@example(source=TWO_LAUNCHES.replace(b"  ko.free %buf0", b'  ko.call "\\q"(%buf0)'), pipeline="")
# a 30-digit num_args: the emitter unpacked that many placeholders (a hang); the verifier checks it now
@example(source=TWO_LAUNCHES.replace(b'device = "cuda:0"', b'device = "cuda:0", num_args = ' + b"9" * 30),
         pipeline="emit-python")
@example(source=TWO_LAUNCHES.replace(b"ko.arg 0", b"ko.arg -1"), pipeline="emit-python")
# a refused decorator (an operator, a 30-digit integer) was located `file:line` only (inductor_decorator.py:
# DecoratorOrigin.where): now the kernel's `file:line:col` and the line and column within its source
@example(source=SOFTMAX_CUDA_KIR.replace(b"regs_per_multiprocessor=65536", b"regs_per_multiprocessor=6%5536", 1),
         pipeline="emit-python")
@example(source=ADALN_KIR.replace(b"size_hints={'x': 256}", b"size_hints={'x': " + b"9" * 30 + b"}", 1),
         pipeline="emit-python")
# an echoed source line holding "error:" is not itself an error line (the oracle's own false alarm)
@example(source=(TESTS / "lit/verifier/invalid-syntax.kir").read_bytes().replace(b"// LOC: inv", b"\0// LOC: inv", 1),
         pipeline="")
def test_damaged_kir_gets_a_located_error_or_is_accepted(tool, source, pipeline, workdir):
    _check(tool, pipeline, source, workdir / "damaged.kir")


@pytest.mark.parametrize("tool", ["opt", "lift", "emit"])
@fuzz_settings(ci_examples=35, nightly_examples=1400)
@given(source=damaged_output_module(), pipeline=st.sampled_from(PIPELINES))
# deep nesting: MemoryError / RecursionError from ast.parse (inductor_source.parse_python)
@example(source=TRANSFORMER_BLOCK.replace(b"def call(", b"x = " + b"[" * 150 + b"]" * 150 + b"\ndef call(", 1),
         pipeline="")
@example(source=TRANSFORMER_BLOCK.replace(b"def call(", b"x = " + b"-" * 100_000 + b"1\ndef call(", 1),
         pipeline="")
@example(source=TRANSFORMER_BLOCK.replace(b"def call(", b"x = " + b"1+" * 100_000 + b"1\ndef call(", 1),
         pipeline="")
@example(source=TRANSFORMER_BLOCK.replace(b"tmp0 = ", b"tmp0 = " + b"(" * 120 + b"1" + b")" * 120 + b" + ", 1),
         pipeline="emit-python")
# a null byte: a SyntaxError without a line
@example(source=TRANSFORMER_BLOCK.replace(b"def call(", b"x = 1\0\ndef call(", 1), pipeline="")
# `... = args` twice: the lifter made a second set of ko.arg ops (num_args doubled)
@example(source=TRANSFORMER_BLOCK.replace(b" = args\n", b" = args\n" + _ARGS_LINE + b"\n", 1), pipeline="emit-python")
# no get_args(): untyped views reached the emitter (AttributeError on None.sizes)
@example(source=TRANSFORMER_BLOCK.split(b"\ndef get_args")[0], pipeline="emit-python")
# a launch on a stream no get_raw_stream() bound: a ValueError inside emit-python; the lifter locates it now
@example(source=SOFTMAX_CUDA.replace(b"= get_raw_stream(0)", b"= g%et_raw_stream(0)", 1), pipeline="emit-python")
def test_damaged_output_module_gets_a_located_error_or_is_accepted(tool, source, pipeline, workdir):
    _check(tool, pipeline, source, workdir / "damaged_output_code.py")


_FLAGS = ["-p", "-o", "--print-ir-after", "--print-ir-before", "--disable-pass", "--split-input-file",
          "--verify-diagnostics", "--no-verify-each", "--pass-statistics", "--time-passes", "--device", "--style",
          "--config-policy", "--nosuch", "-", "--", "=", "{", "classify-dispatch", "detect-fusion{max-group=x}",
          "emit-python{style=nosuch}", "detect-fusion{", "classify-dispatch,,", "cpu", "cuda", "\udcff"]


@fuzz_settings(ci_examples=60, nightly_examples=1800)
@given(tool=st.sampled_from(["kernelopt-opt", "lift", "emit"]),
       words=st.lists(st.one_of(st.sampled_from(_FLAGS), st.text(max_size=12)), max_size=5))
@example(tool="kernelopt-opt", words=["-p", "detect-fusion{max-group=x}"])
@example(tool="emit", words=["--style", "nosuch"])
def test_damaged_command_line_exits_2_or_runs(tool, words, workdir):
    """Usage errors exit 2 with a message and no traceback; a command line that happens to be valid runs.
    (Input files are the valid two-launch module, so a valid command line exits 0 or 1.)"""
    kir, out = workdir / "two-launches.kir", workdir / "out.kir"
    kir.write_bytes(TWO_LAUNCHES)
    words = [str(out) if w == "-o" else w for w in words]  # never write into the repository
    if tool == "kernelopt-opt":
        outcome = run_in_process(opt.main, [str(kir)] + words)
    else:
        outcome = run_in_process(cli.main, [tool, str(kir)] + words)
    assert outcome.crash is None, outcome.crash
    assert "Traceback (most recent call last)" not in outcome.stderr
    assert outcome.exit_code in (0, 1, 2), outcome.exit_code
    if outcome.exit_code == 2:
        assert "error" in outcome.stderr, outcome.stderr


# ------------------------------------------------------------------ the messages users read, spelled out

def test_a_non_utf8_byte_is_named_with_its_line_and_column(workdir):
    path = workdir / "bad.kir"
    path.write_bytes(b"ko.module @m {\n  %a = ko.alloc : tensor<4xf32, [1]> // caf\xc3\xa9 \xff\n}\n")
    outcome = run_in_process(opt.main, [str(path)])
    assert outcome.exit_code == 1
    assert f"{path}:2:46: not UTF-8 text (byte 0xff: invalid start byte)" in outcome.stderr
    py = workdir / "bad.py"
    py.write_bytes(b"import torch\n\xfe = 1\n")
    for main, argv in ((cli.main, ["lift", str(py)]), (cli.main, ["emit", str(py)]), (opt.main, [str(py)])):
        outcome = run_in_process(main, argv)
        assert outcome.exit_code == 1 and f"{py}:2:1: not UTF-8 text (byte 0xfe" in outcome.stderr, outcome.stderr


def test_deep_nesting_points_at_the_deepest_bracket(workdir):
    path = workdir / "nested.py"
    path.write_bytes(TRANSFORMER_BLOCK.replace(b"def call(", b"x = (\n    " + b"[" * 5000 + b"]" * 5000 + b")\ndef call(", 1))
    outcome = run_in_process(cli.main, ["lift", str(path)])
    line = TRANSFORMER_BLOCK[:TRANSFORMER_BLOCK.index(b"def call(")].count(b"\n") + 2
    assert outcome.exit_code == 1
    assert f"{path}:{line}:" in outcome.stderr and "invalid Python syntax" in outcome.stderr, outcome.stderr


def test_a_huge_integer_is_located_and_says_how_large(workdir):
    path = workdir / "huge.kir"
    path.write_bytes(TWO_LAUNCHES.replace(b"1024)", b"9" * 5000 + b")"))
    outcome = run_in_process(opt.main, [str(path)])
    assert outcome.exit_code == 1
    assert f"{path}:6:38: error: integer literal of 5000 digits is too large" in outcome.stderr, outcome.stderr


def test_emit_errors_name_the_kernel_definition(workdir):
    """A kernel whose source does not parse: the error points at its `ko.kernel` line, not just its name."""
    path = workdir / "kernel.kir"
    path.write_bytes(TWO_LAUNCHES.replace(b"def add_one(", b"def add_one((", 1))
    outcome = run_in_process(cli.main, ["emit", str(path)])
    assert outcome.exit_code == 1
    assert f"{path}:2:3: kernel add_one: its source does not parse" in outcome.stderr, outcome.stderr


def test_a_refused_decorator_names_the_kernel_column_and_its_place_in_the_source(workdir):
    """In a .kir the decorator sits in the kernel's escaped source string: the error points at the
    `ko.kernel` (line:col, as other kernel errors do) and says where in the source the refused part is."""
    path = workdir / "decorator.kir"
    path.write_bytes(ADALN_KIR.replace(b"size_hints={'x': 256}", b"size_hints={'x': " + b"9" * 30 + b"}", 1))
    for main, argv in ((cli.main, ["emit", str(path)]), (opt.main, [str(path), "-p", "emit-python"])):
        outcome = run_in_process(main, argv)
        assert outcome.exit_code == 1
        assert (f"{path}:2:3: decorator of kernel triton_poi_fused_silu_0 (line 11, column 22 of its source) uses "
                "an integer of 30 digits") in outcome.stderr, outcome.stderr


def test_emit_without_get_args_writes_views_from_their_layout(workdir):
    """An output module without get_args(): views of arguments have no dtype, only a layout. emit writes
    them from the layout (it used to crash); the module is otherwise the same as with get_args()."""
    path = workdir / "no_get_args.py"
    path.write_bytes(TRANSFORMER_BLOCK.split(b"\ndef get_args")[0])
    outcome = run_in_process(cli.main, ["emit", str(path)])
    assert outcome.exit_code == 0, outcome.stderr
    assert "reinterpret_tensor(arg3_1, (64, 192), (1, 64), 0)" in outcome.stdout
