"""The gate on an original that is not reproducible from run to run (a kernel combining in an order set at run
time: atomics, a split scan's decoupled look-back). Two runs of such an original differ by rounding; a
correct candidate differs from either by as much, and must be accepted, while a wrong one is still rejected.
Here the original is a cumulative sum whose carries are added in a random order at each call, as the
look-back adds chunk totals in whatever order they were published; the candidate is torch's cumsum."""
from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402
import torch  # noqa: E402

from kernelopt.legality import LaunchInputs, check_candidate, compare  # noqa: E402
from kernelopt.legality.gate import RUN_TO_RUN_TRIES  # noqa: E402

ROWS, CHUNKS, CHUNK = 8, 64, 256


def racing_cumsum(x: torch.Tensor, out: torch.Tensor) -> None:
    """Rows cut into chunks; each chunk's carry is the sum of the earlier chunks' totals, added in an order
    that changes from call to call (fp32 rounding then differs), as a decoupled look-back does."""
    chunks = x.view(ROWS, CHUNKS, CHUNK)
    inside = torch.cumsum(chunks, 2)
    totals = inside[:, :, -1]
    carries = torch.zeros(ROWS, CHUNKS)
    for c in range(1, CHUNKS):
        order = torch.randperm(c)
        carry = torch.zeros(ROWS)
        for j in order.tolist():
            carry = carry + totals[:, j]
        carries[:, c] = carry
    out.copy_((inside + carries[:, :, None]).view(ROWS, CHUNKS * CHUNK))


EXACT = "import torch\ndef run(x, out):\n    out.copy_(torch.cumsum(x, 1))\n"
OFF_BY_ONE_PERMILLE = ("import torch\ndef run(x, out):\n    out.copy_(torch.cumsum(x, 1))\n"
                       "    out[3, 5000] *= 1.001\n")


def _check(source: str):
    torch.manual_seed(0)          # the inputs and the carries' orders, the same in every run of the test
    x = torch.randn(ROWS, CHUNKS * CHUNK)
    return check_candidate(racing_cumsum, source, [LaunchInputs((x, torch.empty_like(x)))], output_args={1},
                           seeds=(0, 1), adversarial=(), timeout_floor_s=10.0)


def test_a_correct_candidate_of_a_racing_original_is_accepted():
    verdict = _check(EXACT)
    assert verdict.accepted, verdict.reason
    assert any("not reproducible from run to run" in note for note in verdict.notes), verdict.notes


def test_a_wrong_element_is_still_rejected_beside_the_spread():
    verdict = _check(OFF_BY_ONE_PERMILLE)
    assert not verdict.accepted and verdict.check == "mismatch", verdict.reason
    assert "the original's own runs differ" in verdict.reason


def test_run_to_run_reach_is_zero_for_identical_runs_and_scales_with_the_values():
    a = torch.randn(1000, dtype=torch.float64, generator=torch.Generator().manual_seed(0))   # no fp32 rounding of x100
    assert compare.run_to_run_reach(a, a.clone()) == 0.0
    b = a.clone()
    b[7] += 1e-3
    reach = compare.run_to_run_reach(a, b)
    assert 0 < reach <= 1e-3
    assert compare.run_to_run_reach(a * 100, b * 100) == pytest.approx(reach, rel=1e-9)   # a relative measure


def test_the_graph_path_check_allows_a_racing_modules_own_spread_and_no_more():
    """compare_graph_path on a module whose plain path races: the same racing module through 'graphs' is
    accepted (it differs from the plain path only as the plain path differs from itself), one wrong element
    is not."""
    from kernelopt.legality.graph_path import compare_graph_path

    def racing_module(args):
        x, = args
        out = torch.empty_like(x)
        racing_cumsum(x, out)
        return (out,)

    def wrong_module(args):
        out, = racing_module(args)
        out[3, 5000] *= 1.001
        return (out,)

    torch.manual_seed(0)
    x = torch.randn(ROWS, CHUNKS * CHUNK)
    verdict = compare_graph_path(racing_module, racing_module, [x])
    assert verdict.accepted, verdict.reason
    assert any("own run-to-run spread" in note for note in verdict.notes)
    verdict = compare_graph_path(racing_module, wrong_module, [x])
    assert not verdict.accepted and "the plain path's own spread" in verdict.reason


def test_a_shared_store_measures_the_spread_once_per_original():
    """The search checks many candidates of one original: with the evaluator's store passed to each check,
    the original is repeated for its spread in the first check only, and later verdicts still say why."""
    calls = []

    def counted(x, out):
        calls.append(1)
        racing_cumsum(x, out)

    torch.manual_seed(0)
    x = torch.randn(ROWS, CHUNKS * CHUNK)
    store: dict = {}
    counts = []
    for _ in range(2):
        calls.clear()
        verdict = check_candidate(counted, EXACT, [LaunchInputs((x, torch.empty_like(x)))], output_args={1},
                                  seeds=(0,), adversarial=(), timeout_floor_s=10.0, run_to_run=store)
        assert verdict.accepted, verdict.reason
        assert any("not reproducible from run to run" in note for note in verdict.notes)
        counts.append(len(calls))
    assert counts[0] - counts[1] == RUN_TO_RUN_TRIES
