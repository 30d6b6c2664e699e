"""sum-through-conv: a convolution whose output a reduction only sums over its positions becomes box sums and a
contraction.

On torch 2.13 CPU captures (tests/fixtures/conv-sum-cpu-2.13, each beside its problem): a 2-D convolution with
padding 1 whose output Inductor lays out channels-last, then batch norm in eval mode summed over the positions
(the reduction-epilogue group detect-fusion forms); a grouped 1-D convolution, no padding, its mean times 2; a
stride-2 convolution; a 1-D convolution with stride 3, dilation 2 and padding 2; a grouped 2-D transposed
convolution with stride 2, padding 1 and output padding 1, its mean plus a constant; a 2-D convolution's mean over
its channels and positions together; and a grouped 1-D transposed convolution summed over its channels alone. The candidates under Triton's interpreter against the original and a float64
reference, infinities and NaNs where the original puts them, the declines on edited kernels, and `kernelopt
optimize` through the gate."""
from __future__ import annotations

import functools
import math
import os

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from reduction_epilogue_helpers import (assert_as_accurate_as_the_original, assert_specials_land_alike,
                                        conv_of, library_roles, random_args,
                                        reduction_epilogue_target, run_conv_then_kernel)
from row_loop_helpers import REPO
from search_helpers import optimized_call

from kernelopt.proposers.registry import make_proposer
from kernelopt.proposers.conv_sums_source import CONV_SUMS_HELPERS as _HELPERS
from kernelopt.proposers.sum_through_conv import ConvSumDeclined, SumThroughConvProposer, plan_sum_through_conv

FIXTURE = REPO / "tests" / "fixtures" / "conv-sum-cpu-2.13"
INTERPRETED = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
SUMMED = ("conv2d_bn_sum", "conv1d_groups_mean", "conv2d_stride2_sum", "conv1d_dilated_stride_sum",
          "conv_transpose2d_mean", "conv2d_global_mean", "conv_transpose1d_channel_sum", "conv2d_sum_split",
          "conv_transpose2d_rows_mean")


def _target(name="conv2d_bn_sum", edit=None, **changes):
    return reduction_epilogue_target(FIXTURE / f"{name}.py", edit, **changes)


def _reference(name, target, args):
    """The problem's result in float64 (the convolution exact)."""
    y = conv_of(target, args, torch.float64)
    if name == "conv1d_groups_mean":
        return y.mean(2) * 2.0
    if name == "conv2d_stride2_sum":
        return y.sum((2, 3))
    if name == "conv1d_dilated_stride_sum":
        return y.sum(2) * 0.25
    if name == "conv_transpose2d_mean":
        return y.mean((2, 3)) + 0.5
    if name == "conv2d_global_mean":
        return y.mean((1, 2, 3)) * 3.0
    if name == "conv_transpose1d_channel_sum":
        return y.sum(1) + 1.0
    if name == "conv2d_sum_split":          # the first half of a split sum: each chunk of two rows of a plane
        return y.reshape(y.shape[0], y.shape[1], -1, 2 * y.shape[3]).sum(3)
    if name == "conv_transpose2d_rows_mean":    # the first half: each row of a plane
        return y.sum(3)
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
    dilated = plan_sum_through_conv(_target("conv1d_dilated_stride_sum"))
    assert (dilated.stride, dilated.dilation, dilated.padding, dilated.transposed) == ((3,), (2,), (2,), False)
    transposed = plan_sum_through_conv(_target("conv_transpose2d_mean"))
    assert (transposed.stride, transposed.padding, transposed.groups, transposed.transposed,
            transposed.out_spatial) == ((2, 2), (1, 1), 2, True, (6, 8))
    assert [plan_sum_through_conv(_target(name)).summed for name in
            ("conv2d_bn_sum", "conv2d_global_mean", "conv_transpose1d_channel_sum")] == ["planes", "samples", "channels"]
    assert make_proposer("sum-through-conv").name == "sum-through-conv"


def test_rows_that_take_the_boxes_channel_fastest_read_their_sums_by_row():
    # the channels-last split sum's rows run (chunk, channel), channel fastest, where the sums come (channel, chunk):
    # the candidate puts the sums in the rows' order, so that each row reads its sum at its own index, with no
    # division per element (as the H100 module of conv2d_global_avg_pool_softmax, whose per-element arithmetic
    # made its rewritten reduction 1.8x the original's 74 us)
    candidate = next(iter(SumThroughConvProposer().propose(_target("conv2d_sum_split"), [])))
    assert "ko_sums = ko_sums.reshape([3, 48]).permute([1, 0])" in candidate.source
    assert "tl.load(ko_sums + xindex" in candidate.source and "//" not in candidate.source.split("tmp0 =")[1][:400]


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
        assert_as_accurate_as_the_original(target, candidate, args, run_conv_then_kernel,
                                           _reference(name, target, args),
                                           f"{name} seed {seed}")


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
    spatial = tuple(min(2, size - 1) for size in x.shape[2:])      # one input element of a plane
    last = x.shape[0] - 1           # sample 1 where there are two
    if case == "inf-in-x":
        x[(min(1, last), 0) + spatial] = float("inf")
    elif case == "nan-in-x":
        x[(0, 1) + spatial] = float("nan")
    elif case == "inf-in-w":
        w[1, 0, 1] = float("-inf")
    else:
        x[min(1, last)] *= 3e37                    # the plane sums of sample 1 overflow
    candidate = next(iter(SumThroughConvProposer().propose(target, [])))
    assert_specials_land_alike(target, candidate, args, run_conv_then_kernel, overflow=case == "overflow")


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
    assert why in SumThroughConvProposer().declined(target)


def test_a_kept_output_and_gemm_groups_are_declined():
    with pytest.raises(ConvSumDeclined, match="read after the reduction"):
        plan_sum_through_conv(_target(scratch_args=()))
    gemm = reduction_epilogue_target(REPO / "tests" / "fixtures" / "gemm-sum-cpu-2.13" / "gemm_div_sum.py")
    assert list(SumThroughConvProposer().propose(gemm, [])) == [] and SumThroughConvProposer().declined(gemm) == ""


@INTERPRETED
def test_optimize_replaces_the_convolution_through_the_gate_and_the_module_matches_eager(tmp_path):
    # one whole job (each costs a capture, the gate and a load): the boxes of a transposed convolution's planes,
    # the widest path; the other kinds share its gate and emit path and are checked against float64 above
    optimized_call(FIXTURE / "problem_conv_transpose2d_rows_mean.py", "sum-through-conv", tmp_path,
                   "sum-through-conv 2-D 32 boxes per plane (transposed)", "extern_kernels.convolution(",
                   (1, 3, 16, 64))


def _helpers() -> dict:
    """The candidate's sums helpers (everything before the Triton kernels), defined in a fresh namespace."""
    namespace = {"torch": torch, "functools": functools, "math": math}
    exec(_HELPERS[_HELPERS.index("def ko_cumsum64"):_HELPERS.index("def ko_spatial3")], namespace)
    return namespace


convolutions = st.fixed_dictionaries({
    "dims": st.integers(1, 3), "transposed": st.booleans(), "groups": st.integers(1, 2),
    "cin": st.integers(1, 2), "cout": st.integers(1, 2), "taps": st.lists(st.integers(1, 4), min_size=3, max_size=3),
    "stride": st.lists(st.integers(1, 3), min_size=3, max_size=3),
    "dilation": st.lists(st.integers(1, 2), min_size=3, max_size=3),
    "padding": st.lists(st.integers(0, 3), min_size=3, max_size=3),
    "size": st.lists(st.integers(1, 7), min_size=3, max_size=3), "extra": st.integers(0, 2),
    "ranges": st.lists(st.sampled_from(["whole", "each", "chunks"]), min_size=3, max_size=3),
    "chunk": st.integers(1, 4)})


@settings(max_examples=200 if os.environ.get("KERNELOPT_FUZZ") == "nightly" else 60, deadline=None)
@given(convolutions)
def test_the_plane_sums_are_the_convolutions_summed(c):
    # the candidate's own helpers (box sums of strided views per tap, contracted with the weights) against
    # torch's convolution and transposed convolution, summed, in float64, over strides, dilations, paddings,
    # output paddings and groups
    namespace = _helpers()
    n = c["dims"]
    taps, stride, dilation, padding, size = (c[k][:n] for k in ("taps", "stride", "dilation", "padding", "size"))
    groups = c["groups"]
    cin, cout = groups * c["cin"], groups * c["cout"]
    x = torch.randn(2, cin, *size, dtype=torch.float64)
    b = torch.randn(cout, dtype=torch.float64)
    output_padding = [min(c["extra"], max(s, d) - 1) for s, d in zip(stride, dilation)]
    try:
        if c["transposed"]:
            w = torch.randn(cin, cout // groups, *taps, dtype=torch.float64)
            conv = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[n]
            y = conv(x, w, b, stride, padding, output_padding, groups, dilation)
        else:
            w = torch.randn(cout, cin // groups, *taps, dtype=torch.float64)
            y = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[n](x, w, b, stride, padding, dilation, groups)
    except RuntimeError:         # an output with no positions: torch refuses the shape
        return
    args = (x, w, b, stride, padding, dilation, c["transposed"], output_padding if c["transposed"] else [0] * n,
            groups, list(y.shape[2:]))
    positions = tuple(range(2, y.dim()))
    for summed, want in (("planes", y.sum(positions)), ("samples", y.sum((1,) + positions)), ("channels", y.sum(1))):
        sums, flags, planes = namespace["ko_summed"](*args, summed)
        torch.testing.assert_close(sums.double(), want, rtol=1e-6, atol=1e-6)
        assert not flags.any() and not planes.any() and planes.shape == (2, cout)
    # boxes of the planes: per dimension the whole extent, each position alone, or chunks of a length that
    # divides it (the first half of a split reduction), against y summed over each box
    ranges, boxed = [], y
    for d, (kind, extent) in enumerate(zip(c["ranges"], y.shape[2:])):
        length = {"whole": extent, "each": 1}.get(kind) or max(v for v in range(1, c["chunk"] + 1) if extent % v == 0)
        ranges.append((extent // length, length))
    for d, (count, length) in enumerate(ranges):       # y [N, C, count_0, length_0, ...], lengths summed
        boxed = boxed.reshape(*boxed.shape[:2 + 2 * d], count, length, *boxed.shape[3 + 2 * d:])
    want = boxed.sum(tuple(3 + 2 * d for d in range(n))).reshape(2, cout, -1)
    sums, flags, planes = namespace["ko_summed"](*args, "planes", ranges)
    torch.testing.assert_close(sums.double(), want.reshape(2, -1), rtol=1e-6, atol=1e-6)
    assert not flags.any() and flags.shape == sums.shape and planes.shape == (2, cout)


@pytest.mark.parametrize("transposed", [False, True])
def test_bfloat16_sums_accumulate_wide(transposed):
    # a bf16 convolution's sums: the input summed (or convolved, for channel sums) in float32, never in bf16
    namespace = _helpers()
    generator = torch.Generator().manual_seed(3)
    x = torch.randn(2, 4, 9, 11, generator=generator).to(torch.bfloat16)
    shape = (4, 3, 3, 3) if transposed else (6, 2, 3, 3)
    w = torch.randn(*shape, generator=generator).to(torch.bfloat16)
    b = torch.randn(6, generator=generator).to(torch.bfloat16)
    if transposed:
        y = F.conv_transpose2d(x.double(), w.double(), b.double(), 2, 1, 1, 2, 1)
    else:
        y = F.conv2d(x.double(), w.double(), b.double(), 2, 1, 1, 2)
    args = (x, w, b, [2, 2], [1, 1], [1, 1], transposed, [1, 1] if transposed else [0, 0], 2, list(y.shape[2:]))
    for summed, want in (("planes", y.sum((2, 3))), ("samples", y.sum((1, 2, 3))), ("channels", y.sum(1))):
        sums, flags, _ = namespace["ko_summed"](*args, summed)
        assert sums.dtype == torch.float32 and not flags.any()
        torch.testing.assert_close(sums.double(), want, rtol=1e-5, atol=1e-4)


def test_boxes_too_small_or_too_many_for_their_sums_to_pay_are_declined():
    # a box of 4 positions (rows of 4 of a plane): its box sums cost about what the convolution does; 64 boxes per
    # plane of a 2-input-channel, 3 x 3-tap convolution of an 8 x 8 input: 2 x 64 x 9 box sums per sample, over 4
    # times the input's 2 x 64
    from types import SimpleNamespace

    from kernelopt.proposers.sum_through_conv import _worth_it

    x, w = SimpleNamespace(sizes=(1, 2, 8, 8)), SimpleNamespace(sizes=(3, 2, 3, 3))
    with pytest.raises(ConvSumDeclined, match="each row sums 4 output position"):
        _worth_it(((8, 1), (1, 4)), x, w)
    with pytest.raises(ConvSumDeclined, match="64 boxes per plane"):
        _worth_it(((8, 1), (8, 8)), x, w)
    _worth_it(((2, 4), (1, 8)), x, w)          # 2 boxes of 32 positions: 2 x 2 x 9 sums against 128 inputs
