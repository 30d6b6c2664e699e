"""Every schedule transform's and template's first candidate on the general problems' H200 modules
compiles with Triton's real compiler for sm_90, at the argument types and constexprs of its own launches
(benchmarks/candidates_compile.py: the launches are recorded on the CPU, not run). The interpreter that
runs every other CPU test accepts kernels the compiler rejects; a transform whose kernels do not compile
is rejected on the GPU every time and never wins. A wrong kernel is reported as a failure, with the
compiler's message."""
from __future__ import annotations

import pytest

from suite_helpers import load_suite

BROKEN = '''import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    while n > 0:
        last = tl.load(x_ptr + offsets)
        n = n - BLOCK
    tl.store(out_ptr + offsets, last)


def run(x, out):
    copy_kernel[(1,)](x, out, x.numel(), BLOCK=16)
'''


@pytest.fixture(scope="module")
def census():
    return load_suite("candidates_compile")


HANDMADE_SPEC = {"is_tensor": True, "sizes": [16], "strides": [1], "dtype": "float32", "value": None}
HANDMADE = ("handmade", "k", "test", "loop-carried name", BROKEN, [HANDMADE_SPEC, HANDMADE_SPEC])


@pytest.fixture(scope="module")
def compiled(census):
    """(rows of every first candidate, the handmade kernel's row), from one compile_all call: each call starts a
    compiling process (torch and triton imported again), and a kernel compiles alike whatever else it compiles."""
    rows = census.compile_all(list(census.candidates(None, 1)) + [HANDMADE])
    return rows[:-1], rows[-1]


def test_every_first_candidate_compiles_for_sm90(compiled):
    rows, _ = compiled
    assert {r["proposer"] for r in rows} >= {"split-row", "outer-tile", "row-on-chip", "store-remap", "templates",
                                          "align-split"}
    assert all(r["launches"] for r in rows), [r for r in rows if not r["launches"]]
    failed = [(r["problem"], r["proposer"], r["strategy"], r["error"]) for r in rows if r["error"]]
    assert not failed, failed


def test_a_kernel_the_compiler_rejects_is_reported(compiled):
    _, row = compiled
    assert row["problem"] == "handmade"
    assert row["launches"] == 1 and "last is not defined" in row["error"], row
