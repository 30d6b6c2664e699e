"""fold-pass on a pass that sums exp(row - shift), `shift` an earlier pass's per-row result (a log-sum-exp, the
sum of a softmax or log-softmax that Inductor writes as max, then sum of exponentials, then the output): the sum
moves into the earlier pass in online form (a running maximum per lane and the sum relative to it), one read of
the row fewer. Rows whose shift or maximum is not finite (-inf rows, an inf or a NaN) take the pass as the
original wrote it, masked to those rows, so they get the original's bits. Checked under the interpreter against
the original kernel and a float64 reference, on torch 2.13's looped CPU kernels cut to odd row counts and row
lengths that leave a masked tail, and on rows holding every kind of special value."""
from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

from row_loop_helpers import assert_as_accurate, clone, edited_target, label_config, run_candidate, run_original

from kernelopt.proposers.fold_passes import FoldPassesProposer, plan_fold

LOOPED = Path(__file__).resolve().parents[1] / "fixtures" / "looped-cpu-2.13"
LOG_SOFTMAX = (LOOPED / "log_softmax.py", "triton_red_fused__log_softmax_0")            # max, sum exp, output
LOGSUMEXP = (LOOPED / "scaled_logsumexp.py", "triton_red_fused_add_logsumexp_mul_0")    # max, sum exp (guarded)

interpreter = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


def _target(fixture, rows: int, length: int):
    return edited_target(fixture[0], fixture[1], {7: rows, 300: length})


def _args(target, x: torch.Tensor, bias: torch.Tensor | None = None) -> list:
    args = []
    for spec in target.launches[0].args:
        if not spec.is_tensor:
            args.append(spec.value)
        elif spec.name == "in_ptr0":
            args.append(x.clone())
        elif spec.name == "in_ptr1":
            args.append(bias.clone())
        else:
            args.append(torch.full(spec.sizes, 7.0))        # an output: the kernel must overwrite it
    return args


def _references(which: str, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    x64 = x.double()
    if which == "log_softmax":
        return torch.log_softmax(x64, -1)
    return torch.logsumexp(x64 * 0.5 + bias.double(), -1)


def _output(which: str, written: dict) -> torch.Tensor:
    return written["out_ptr1"] if which == "log_softmax" else written["in_out_ptr0"]


CASES = {"log_softmax": LOG_SOFTMAX, "logsumexp": LOGSUMEXP}


def test_the_sum_of_exponentials_moves_into_the_max_pass_in_online_form():
    for which, fixture in CASES.items():
        plan = plan_fold(_target(fixture, 7, 300))
        assert "1 online: a running maximum and the sum relative to it" in plan.description, which
        source = next(iter(FoldPassesProposer().propose(_target(fixture, 7, 300), []))).source
        # the pass is kept for the special rows only: its loads are masked to them, and a program without one
        # runs none of its iterations (masked ones would still cost every lane's exponentials)
        assert "& _ko_special_rows, eviction_policy" in source, which
        assert "_ko_stop = r0_numel * tl.max(_ko_special_rows.to(tl.int32))" in source, which
        assert "in tl.range(0, _ko_stop, R0_BLOCK)" in source or "in range(0, _ko_stop, R0_BLOCK)" in source, which
    assert FoldPassesProposer.declined(_target(LOG_SOFTMAX, 7, 300)) == ""


@interpreter
@settings(max_examples=6, deadline=None)
@given(rows=st.sampled_from([1, 3, 5]), length=st.sampled_from([1, 33, 300, 517]), seed=st.integers(0, 2**16),
       which=st.sampled_from(sorted(CASES)), scale=st.sampled_from([1.0, 30.0]))
def test_the_folded_kernel_is_as_accurate_as_the_original_on_random_rows(rows, length, seed, which, scale):
    target = _target(CASES[which], rows, length)
    generator = torch.Generator().manual_seed(seed)
    x = scale * torch.randn(rows, length, generator=generator)
    bias = torch.randn(rows, length, generator=generator)
    reference = _references(which, x, bias)
    for candidate in list(FoldPassesProposer().propose(target, []))[:2]:
        config = label_config(candidate)
        expected = _output(which, run_original(target, _args(target, x, bias), r0_block=config["R0_BLOCK"],
                                               xblock=config["XBLOCK"]))
        got = _output(which, run_candidate(candidate, target, _args(target, x, bias)))
        assert_as_accurate(got.view(-1), expected.view(-1), reference.reshape(-1), f"{which} {candidate.strategy}")


SPECIAL_ROWS = {
    "all -inf": [-math.inf] * 4,
    "one +inf": [0.5, math.inf, -2.0, 1.0],
    "+inf and -inf": [math.inf, -math.inf, 3.0, 0.0],
    "a NaN": [1.0, math.nan, 2.0, -1.0],
    "some -inf, finite max": [-math.inf, 2.0, -math.inf, 1.5],
    "huge": [3e38, -3e38, 1e38, 0.0],
}


@interpreter
@pytest.mark.parametrize("which", sorted(CASES))
def test_rows_with_infinities_and_nans_get_the_originals_bits(which):
    """Each special row is spread over a row of 37 (a masked tail at R0_BLOCK 16), among ordinary rows."""
    length = 37
    rows = [torch.linspace(-3, 3, length)]
    for values in SPECIAL_ROWS.values():
        row = torch.full((length,), -math.inf if values[0] == -math.inf and len(set(values)) == 1 else -1.0)
        row[[0, 9, 20, 36]] = torch.tensor(values)
        rows.append(row)
    x = torch.stack(rows)
    bias = torch.zeros_like(x)
    target = _target(CASES[which], len(rows), length)
    for candidate in list(FoldPassesProposer().propose(target, []))[:2]:
        config = label_config(candidate)
        expected = _output(which, run_original(target, _args(target, x, bias), r0_block=config["R0_BLOCK"],
                                               xblock=config["XBLOCK"]))
        got = _output(which, run_candidate(candidate, target, _args(target, x, bias)))
        for index, name in enumerate(["ordinary", *SPECIAL_ROWS], start=0):
            a, b = got.view(len(rows), -1)[index], expected.view(len(rows), -1)[index]
            if name in ("ordinary", "some -inf, finite max"):      # the online sum: as accurate, not the same bits
                torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6, equal_nan=True, msg=f"{which}: {name}")
            else:
                assert torch.equal(a.isnan(), b.isnan()) and torch.equal(a[~a.isnan()], b[~b.isnan()]), (
                    which, name, a, b)
