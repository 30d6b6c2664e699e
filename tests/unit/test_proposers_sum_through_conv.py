"""sum-through-conv: a convolution whose output a reduction only sums over its positions becomes box sums and a
contraction.

On torch 2.13 CPU captures (tests/fixtures/conv-sum-cpu-2.13, each beside its problem): a 2-D convolution with
padding 1 whose output Inductor lays out channels-last, then batch norm in eval mode summed over the positions
(the reduction-epilogue group detect-fusion forms); a grouped 1-D convolution, no padding, its mean times 2; and a
stride-2 convolution (declined). The candidates under Triton's interpreter against the original and a float64
reference, infinities and NaNs where the original puts them, the declines on edited kernels, and `kernelopt
optimize` through the gate."""
from __future__ import annotations

import os

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from reduction_epilogue_helpers import (copied, library_roles, random_args, reduction_epilogue_target, results,
                                        run_reduction, same_specials)
from row_loop_helpers import REPO, assert_as_accurate
from search_helpers import optimize_with_proposer, problem_model

from kernelopt.proposers.registry import make_proposer
from kernelopt.proposers.sum_through_conv import (_HELPERS, ConvSumDeclined, SumThroughConvProposer,
                                                  plan_sum_through_conv)
from kernelopt.rewrite.evaluate import load_candidate

FIXTURE = REPO / "tests" / "fixtures" / "conv-sum-cpu-2.13"
INTERPRETED = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
SUMMED = ("conv2d_bn_sum", "conv1d_groups_mean")


def _target(name="conv2d_bn_sum", edit=None, **changes):
    return reduction_epilogue_target(FIXTURE / f"{name}.py", edit, **changes)


def _conv(target, args, dtype=None):
    roles = library_roles(target)
    kwargs = target.launches[0].config["kwargs"]
    x, w = args[roles["input"]], args[roles["weight"]]
    b = args[roles["bias"]] if "bias" in roles else None
    if dtype is not None:
        x, w, b = x.to(dtype), w.to(dtype), (None if b is None else b.to(dtype))
    conv = {3: F.conv1d, 4: F.conv2d, 5: F.conv3d}[x.dim()]
    return conv(x, w, b, padding=kwargs["padding"], groups=kwargs["groups"])


def _run_original(target, args):
    args[library_roles(target)["out"]].copy_(_conv(target, args))
    run_reduction(target, args)


def _reference(name, target, args):
    """The problem's result in float64 (the convolution exact)."""
    y = _conv(target, args, torch.float64)
    if name == "conv1d_groups_mean":
        return y.mean(2) * 2.0
    mean, var, scale, shift = (args[s].double() for s in target.group_positions[1][1:5])   # in_ptr1 .. in_ptr4
    normed = (y - mean[None, :, None, None]) / torch.sqrt(var + 1e-5)[None, :, None, None]
    return (normed * scale[None, :, None, None] + shift[None, :, None, None]).sum((2, 3))


def _positive_variance(target, args):
    """Batch norm's running variance positive (random values would take square roots of negatives)."""
    if target.kernels[1].name.startswith("triton_per_fused__native_batch_norm"):
        variance = args[target.group_positions[1][2]]
        variance.copy_(variance.abs() + 0.5)
    return args


def test_the_convolution_and_the_reduction_are_one_group_with_the_output_as_scratch():
    target = _target()
    assert [launch.kernel for launch in target.launches] == [
        "extern_kernels.convolution", "triton_per_fused__native_batch_norm_legit_no_training_sum_2"]
    roles = library_roles(target)
    assert target.scratch_args == (roles["out"],)
    assert target.group_args[roles["out"]].strides == (315, 1, 35, 5)          # channels-last, as Inductor chose
    plan = plan_sum_through_conv(target)
    assert (plan.padding, plan.groups, plan.out_spatial) == ((1, 1), 1, (9, 7))
    grouped = plan_sum_through_conv(_target("conv1d_groups_mean"))
    assert (grouped.padding, grouped.groups, grouped.out_spatial) == ((0,), 2, (9,))
    assert make_proposer("sum-through-conv").name == "sum-through-conv"


def test_the_candidate_calls_no_convolution():
    candidates = list(SumThroughConvProposer().propose(_target(), []))
    assert len(candidates) == 1
    source = candidates[0].source
    assert "extern_kernels" not in source and "conv2d(" not in source
    assert "tl.sum(tmp17, 1)" in source and "tmp10 = tmp2 * tmp9" in source      # the batch norm's own code


@INTERPRETED
@pytest.mark.parametrize("name", SUMMED)
def test_the_candidate_is_as_accurate_as_the_original(name):
    target = _target(name)
    candidate = next(iter(SumThroughConvProposer().propose(target, [])))
    for seed in range(2):
        args = _positive_variance(target, random_args(target, seed))
        original, got = copied(args), copied(args)
        _run_original(target, original)
        load_candidate(candidate.source, "sum_through_conv")(*got)
        reference = _reference(name, target, args)
        for mine, theirs in zip(results(target, got), results(target, original)):
            assert_as_accurate(mine, theirs, reference.reshape(mine.shape), f"{name} seed {seed}")


@INTERPRETED
@pytest.mark.parametrize("name", SUMMED)
@pytest.mark.parametrize("case", ["inf-in-x", "nan-in-x", "inf-in-w", "overflow"])
def test_infinities_nans_and_overflow_land_where_the_original_puts_them(name, case):
    # A plane whose sum is not finite, or whose elements may overflow, is computed directly and read as written:
    # with the flags forced off (`good = ... | True` in ko_conv_sums), the inf-in-w cases and one overflow fail.
    target = _target(name)
    roles = library_roles(target)
    args = _positive_variance(target, random_args(target, 5))
    x, w = args[roles["input"]], args[roles["weight"]]
    if case == "inf-in-x":
        x[1, 0, 3] = float("inf")
    elif case == "nan-in-x":
        x[0, 1, 2] = float("nan")
    elif case == "inf-in-w":
        w[1, 0, 1] = float("-inf")
    else:
        x[1] *= 3e37                               # the plane sums of sample 1 overflow
    original, got = copied(args), copied(args)
    _run_original(target, original)
    load_candidate(next(iter(SumThroughConvProposer().propose(target, []))).source, "sum_through_conv")(*got)
    for mine, theirs in zip(results(target, got), results(target, original)):
        assert not theirs.isfinite().all(), "the case should reach the original's special values"
        if case == "overflow":      # which of inf and NaN an overflowing plane gives follows the library's order
            assert torch.equal(mine.isfinite(), theirs.isfinite()), (mine, theirs)
        else:
            assert same_specials(mine, theirs), (mine, theirs)


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("tmp10 = tmp2 * tmp9", "tmp10 = tmp2 * tmp2"), "not linear"),
    (lambda s: s.replace("tmp18 = tl.sum(tmp17, 1)", "tmp18 = tl.max(tmp17, 1)"), "not linear"),
    (lambda s: s.replace("x0 + 5*r0_2 + 315*x1", "x0 + 5*(r0_2 % 7) + 315*x1"), "does not read whole blocks"),
], ids=["square", "max", "one-row-of-each-plane"])
def test_a_reduction_it_cannot_prove_reads_only_plane_sums_is_declined_with_the_reason(edit, why):
    target = _target(edit=edit)
    with pytest.raises(ConvSumDeclined, match=why):
        plan_sum_through_conv(target)
    assert list(SumThroughConvProposer().propose(target, [])) == []
    assert why in SumThroughConvProposer.declined(target)


def test_stride_two_a_kept_output_and_gemm_groups_are_declined():
    assert "stride [2, 2]" in SumThroughConvProposer.declined(_target("conv2d_stride2_sum"))
    with pytest.raises(ConvSumDeclined, match="read after the reduction"):
        plan_sum_through_conv(_target(scratch_args=()))
    gemm = reduction_epilogue_target(REPO / "tests" / "fixtures" / "gemm-sum-cpu-2.13" / "gemm_div_sum.py")
    assert list(SumThroughConvProposer().propose(gemm, [])) == [] and SumThroughConvProposer.declined(gemm) == ""


@INTERPRETED
def test_optimize_replaces_the_convolution_through_the_gate_and_the_module_matches_eager(tmp_path):
    import kernelopt  # lazy: loads the API only where a test needs it

    problem = FIXTURE / "problem_conv1d_groups_mean.py"
    report = optimize_with_proposer(problem, "sum-through-conv", tmp_path)
    assert "sum-through-conv 1-D planes" in report and "ACCEPT" in report, report
    written = (tmp_path / "out.py").read_text()
    assert "extern_kernels.convolution(" not in written.split("def call(", 1)[1]
    model = problem_model(problem)
    fast = kernelopt.load(str(tmp_path / "out.py"), model)
    x = torch.randn(3, 4, 11)
    with torch.no_grad():
        torch.testing.assert_close(fast(x), model(x), rtol=1e-5, atol=1e-5)


@settings(max_examples=200 if os.environ.get("KERNELOPT_FUZZ") == "nightly" else 40, deadline=None)
@given(size=st.integers(1, 12), taps=st.integers(1, 6), pad=st.integers(0, 5))
def test_the_box_sums_are_the_sums_each_tap_meets(size, taps, pad):
    # the candidate's own helper (the whole sum less a prefix and a suffix) against the padded windows summed
    extent = size + 2 * pad - taps + 1
    if extent < 1:
        return
    namespace = {"torch": torch}
    exec(_HELPERS[_HELPERS.index("def ko_box_sums"):_HELPERS.index("def ko_conv_sums")], namespace)
    x = torch.randn(2, 3, size, dtype=torch.float64)
    got = namespace["ko_box_sums"](x, 2, taps, pad, extent)
    padded = F.pad(x, (pad, pad))
    want = torch.stack([padded[..., k:k + extent].sum(-1) for k in range(taps)], -1)
    torch.testing.assert_close(got, want, rtol=0, atol=1e-12)
