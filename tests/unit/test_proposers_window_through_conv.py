"""window-through-conv: a convolution whose output an average pool only sums in windows becomes one convolution at
the windows' stride, with the windows' summed weights.

On torch 2.13 CPU captures (tests/fixtures/conv-window-cpu-2.13, each beside its problem): a 2-D convolution laid
out channels-last, pooled 2 x 2 (a column in no window) inside a persistent reduction (a sigmoid, then a sum); a
3-D convolution pooled 2 x 2 x 2 (a slice in no window) and scaled, in a pointwise kernel; a grouped, dilated 1-D
convolution pooled by 3 under a GELU; a grouped 2-D transposed convolution (stride 2, output padding 1) pooled by
its stride under a ReLU; a 2-D convolution pooled by a kernel whose pooled map a log-sum-exp kernel reads next;
and a strided, dilated 1-D convolution pooled by 3, whose coarse convolution does barely less work (declined once
its taps are edited to 1). The candidates under Triton's interpreter against the original and float64, special values, the
declines with their reasons, the coarse weights against torch's convolution and pool (Hypothesis), and a whole job
through the gate."""
from __future__ import annotations

import dataclasses
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

from kernelopt.proposers.conv_sums_source import CONV_SUMS_HELPERS
from kernelopt.proposers.registry import make_proposer
from kernelopt.proposers.sum_through_conv import ConvSumDeclined
from kernelopt.proposers.window_through_conv import (_WINDOW_HELPERS, WindowThroughConvProposer,
                                                     plan_window_through_conv)

FIXTURE = REPO / "tests" / "fixtures" / "conv-window-cpu-2.13"
INTERPRETED = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
POOLED = ("conv2d_avgpool_sigmoid_sum", "conv3d_avgpool_scale", "conv1d_dilated_avgpool_gelu",
          "conv_transpose2d_avgpool_relu", "conv2d_avgpool_then_lse")


def _target(name="conv3d_avgpool_scale", edit=None, **changes):
    return reduction_epilogue_target(FIXTURE / f"{name}.py", edit, **changes)


def _reference(name, target, args):
    """The group's result in float64 (the convolution exact)."""
    y = conv_of(target, args, torch.float64)
    if name == "conv2d_avgpool_sigmoid_sum":
        return torch.sigmoid(F.avg_pool2d(y, 2)).sum((1, 2, 3))
    if name == "conv3d_avgpool_scale":
        return F.avg_pool3d(y, 2) * 2.0
    if name == "conv_transpose2d_avgpool_relu":
        return torch.relu(F.avg_pool2d(y, 2) - 0.1)
    if name == "conv2d_avgpool_then_lse":        # the group writes the pooled map (the log-sum-exp comes after)
        return F.avg_pool2d(y, 2)
    return F.gelu(F.avg_pool1d(y, 3))


def test_the_convolution_and_its_pool_are_one_group_and_the_windows_come_from_the_kernel():
    target = _target("conv2d_avgpool_sigmoid_sum")
    assert [launch.kernel for launch in target.launches] == ["extern_kernels.convolution",
                                                             "triton_per_fused_avg_pool2d_sigmoid_sum_2"]
    roles = library_roles(target)
    assert target.scratch_args == (roles["out"],)
    assert target.group_args[roles["out"]].strides == (360, 1, 36, 4)           # channels-last, as Inductor chose
    # a pointwise pooling kernel after a convolution is an epilogue group too
    assert [launch.kernel for launch in _target().launches] == ["extern_kernels.convolution",
                                                                "triton_poi_fused_avg_pool3d_mul_0"]
    plans = {name: plan_window_through_conv(_target(name)) for name in POOLED}
    assert [(p.windows, p.coarse_taps, p.coarse_stride) for p in plans.values()] == [
        ((2, 2), (4, 4), (2, 2)), ((2, 2, 2), (4, 4, 4), (2, 2, 2)), ((3,), (7,), (3,)),
        # stride 2, 3 taps, padding 1, windows of 2: window q takes inputs q (taps 1 and 2) and q + 1 (tap 0)
        ((2, 2), (2, 2), (1, 1)), ((2, 2), (4, 4), (2, 2))]
    # a pool whose map a log-sum-exp kernel reads next: detect-fusion pairs the pool with the convolution (its
    # windows proven) before the vertical sweep would pair it with the log-sum-exp
    then = _target("conv2d_avgpool_then_lse")
    assert [launch.kernel for launch in then.launches] == ["extern_kernels.convolution", "triton_poi_fused_avg_pool2d_2"]
    assert plans["conv1d_dilated_avgpool_gelu"].dilation == (2,) and plans["conv1d_dilated_avgpool_gelu"].groups == 2
    assert make_proposer("window-through-conv").name == "window-through-conv"


def test_the_candidate_convolves_at_the_windows_stride_and_keeps_the_kernel_s_arithmetic():
    candidates = list(WindowThroughConvProposer().propose(_target(), []))
    assert len(candidates) == 2                   # accumulating in float32, then in float64
    source = candidates[0].source
    assert "extern_kernels" not in source
    assert "ko_window_sums(ko_x, ko_w, ko_b, [1, 1, 1], [0, 0, 0], [1, 1, 1], 1, [2, 2, 2], 'float32')" in source
    assert "tmp16 = tmp14 / tmp15" in source and "tmp18 = tmp16 * tmp17" in source    # the pool's division and the
    assert "tl.full([1], 8.0, tl.float32)" in source                                  # scaling, as written
    # each lane finds its window's index and flag once; its first element's load reads the sum, the other 7 read 0
    assert source.count("ko_window_at = ") == 1 and source.count("tl.load(ko_sums + ko_window_at") == 1


@INTERPRETED
@pytest.mark.parametrize("name", POOLED)
def test_the_candidate_is_as_accurate_as_the_original(name):
    # float64: within twice the original's largest error, as every sum transform; float32 (the library's fast
    # path): the coarse convolution adds fewer, larger products, measured at 1.3 to 2.5 times the original's
    # largest error on these fixtures, so within three times it (what the gate accepts is the gate's business)
    target = _target(name)
    float32, float64 = WindowThroughConvProposer().propose(target, [])
    assert "'float32'" in float32.source and "'float64'" in float64.source
    for seed in range(2):
        args = random_args(target, seed)
        reference = _reference(name, target, args)
        assert_as_accurate_as_the_original(target, float64, args, run_conv_then_kernel, reference, f"{name} seed {seed}")
        assert_as_accurate_as_the_original(target, float32, args, run_conv_then_kernel, reference, f"{name} seed {seed}",
                                           factor=3.0)


@INTERPRETED
@pytest.mark.parametrize("name, case", [("conv3d_avgpool_scale", case) for case in ("inf-in-x", "nan-in-x", "inf-in-w",
                                                                                     "overflow")]
                         + [("conv1d_dilated_avgpool_gelu", case) for case in ("inf-in-x", "nan-in-x", "inf-in-w")]
                         + [("conv_transpose2d_avgpool_relu", case) for case in ("inf-in-x", "nan-in-x", "overflow")])
def test_infinities_nans_and_overflow_land_where_the_original_puts_them(name, case):
    # A plane with a window sum that is not finite, or whose elements may overflow, is formed directly and read as
    # written: with the flags forced off (`bad = ~(... | True)` in ko_window_sums), inf-in-x and overflow fail.
    target = _target(name)
    roles = library_roles(target)
    args = random_args(target, 5)
    x, w = args[roles["input"]], args[roles["weight"]]
    spatial = tuple(min(2, size - 1) for size in x.shape[2:])
    if case == "inf-in-x":
        x[(1, 0) + spatial] = float("inf")
    elif case == "nan-in-x":
        x[(0, 1) + spatial] = float("nan")
    elif case == "inf-in-w":
        w[(1, 0) + (0,) * (w.dim() - 2)] = float("-inf")
    else:
        x[1] *= 3e37                               # the windows of sample 1 overflow
    candidate = next(iter(WindowThroughConvProposer().propose(target, [])))
    assert_specials_land_alike(target, candidate, args, run_conv_then_kernel, overflow=case == "overflow")


LOAD = "tmp1 = tl.load(in_ptr0 + (1 + 2*x0 + 12*x1 + 72*x2 + 180*x3), xmask, eviction_policy='evict_last')"


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 + 2.0 * tmp1"), "one equal-weight sum"),
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 * tmp1"), "one equal-weight sum"),
    (lambda s: s.replace(LOAD, LOAD.replace("1 + 2*x0", "2*x0")), "each element once"),
], ids=["weighted", "product", "element-twice"])
def test_a_kernel_it_cannot_prove_reads_window_sums_is_declined_with_the_reason(edit, why):
    target = _target(edit=edit)
    proposer = WindowThroughConvProposer()
    assert list(proposer.propose(target, [])) == []
    assert why in proposer.declined(target), proposer.declined(target)


def test_windows_whose_coarse_convolution_does_no_less_work_are_declined():
    # stride 2 and dilation 2, pooled by 3: 6 windows of (3 - 1) * 2 + (3 - 1) * 2 + 1 = 9 coarse taps, against 20
    # fine outputs of 3 taps: 54 multiply-adds per channel pair against 60, proposed; the same with 1 tap (a
    # pointwise convolution, its weight's sizes edited): 6 x 5 = 30 against 20 x 1, declined
    target = _target("conv1d_strided_avgpool_gelu")
    assert plan_window_through_conv(target).coarse_taps == (9,)
    weight = library_roles(target)["weight"]
    args = list(target.group_args)
    args[weight] = dataclasses.replace(args[weight], sizes=args[weight].sizes[:2] + (1,))
    with pytest.raises(ConvSumDeclined, match=r"does no less work than the fine one \(30 multiply-adds per channel "
                                              r"pair against 20\)"):
        plan_window_through_conv(dataclasses.replace(target, group_args=tuple(args)))


def test_a_transposed_convolution_s_windows_must_be_multiples_of_its_stride():
    # the same kernel after a stride-3 transposed convolution (its config edited): windows of 2 start at input
    # positions 2 / 3 apart, no convolution's stride
    target = _target("conv_transpose2d_avgpool_relu")
    conv = target.launches[0]
    kwargs = dict(conv.config["kwargs"], stride=[3, 3])
    edited = dataclasses.replace(target, launches=(dataclasses.replace(conv, config={**conv.config, "kwargs": kwargs}),
                                                   *target.launches[1:]))
    with pytest.raises(ConvSumDeclined, match="windows that are multiples of the stride are handled"):
        plan_window_through_conv(edited)


def test_a_reduction_of_whole_planes_and_gemm_groups_are_not_its_business():
    summed = reduction_epilogue_target(REPO / "tests" / "fixtures" / "conv-sum-cpu-2.13" / "conv2d_bn_sum.py")
    gemm = reduction_epilogue_target(REPO / "tests" / "fixtures" / "gemm-window-cpu-2.13" / "linear_avgpool_gelu.py",
                                     kind="epilogue")
    for target in (summed, gemm):
        proposer = WindowThroughConvProposer()
        assert list(proposer.propose(target, [])) == [] and proposer.declined(target) == ""


def _helpers() -> dict:
    """The candidate's window helpers (and the bound they use), defined in a fresh namespace."""
    namespace = {"torch": torch, "math": math, "functools": functools}
    exec(CONV_SUMS_HELPERS[CONV_SUMS_HELPERS.index("def ko_element_bound"):
                           CONV_SUMS_HELPERS.index("def ko_conv_sums")] + _WINDOW_HELPERS, namespace)
    return namespace


convolutions = st.fixed_dictionaries({
    "dims": st.integers(1, 3), "groups": st.integers(1, 2), "cin": st.integers(1, 2), "cout": st.integers(1, 2),
    "taps": st.lists(st.integers(1, 3), min_size=3, max_size=3),
    "stride": st.lists(st.integers(1, 2), min_size=3, max_size=3),
    "dilation": st.lists(st.integers(1, 2), min_size=3, max_size=3),
    "padding": st.lists(st.integers(0, 2), min_size=3, max_size=3),
    "size": st.lists(st.integers(2, 9), min_size=3, max_size=3),
    "windows": st.lists(st.integers(1, 3), min_size=3, max_size=3),
    "transposed": st.booleans(), "extra": st.integers(0, 1)})


@settings(max_examples=200 if os.environ.get("KERNELOPT_FUZZ") == "nightly" else 50, deadline=None)
@given(convolutions)
def test_the_coarse_convolution_gives_the_window_sums_of_the_fine_one(c):
    # the candidate's own helpers against torch's convolution then average pool (times the window), in float64,
    # over strides, dilations, paddings, groups and windows (sizes the window does not divide included), for
    # convolutions and transposed ones (windows that are multiples of the stride, output padding included)
    namespace = _helpers()
    n = c["dims"]
    taps, stride, dilation, padding, size, windows = (c[k][:n] for k in ("taps", "stride", "dilation", "padding",
                                                                          "size", "windows"))
    groups = c["groups"]
    cin, cout = groups * c["cin"], groups * c["cout"]
    x = torch.randn(2, cin, *size, dtype=torch.float64)
    b = torch.randn(cout, dtype=torch.float64)
    transposed = c["transposed"]
    if transposed:               # windows that are multiples of the stride
        windows = [s * min(k, 2) for s, k in zip(stride, windows)]
        w = torch.randn(cin, cout // groups, *taps, dtype=torch.float64)
        extra = [min(c["extra"], max(s, d) - 1) for s, d in zip(stride, dilation)]
    else:
        w = torch.randn(cout, cin // groups, *taps, dtype=torch.float64)
    try:
        if transposed:
            y = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[n](
                x, w, b, stride, padding, extra, groups, dilation)
        else:
            y = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[n](x, w, b, stride, padding, dilation, groups)
        pooled = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[n](y, windows) * math.prod(windows)
    except RuntimeError:         # an output (or a pooled output) with no positions: torch refuses the shape
        return
    sums, flags, planes = namespace["ko_window_sums"](x, w, b, stride, padding, dilation, groups, windows, "float32",
                                                      transposed, [o // k for o, k in zip(y.shape[2:], windows)])
    torch.testing.assert_close(sums.double(), pooled.reshape(-1), rtol=1e-5, atol=1e-5)
    assert not flags.any() and flags.numel() == sums.numel() and planes.shape == (2, cout)


@INTERPRETED
def test_optimize_replaces_the_convolution_through_the_gate_and_the_module_matches_eager(tmp_path):
    optimized_call(FIXTURE / "problem_conv3d_avgpool_scale.py", "window-through-conv", tmp_path,
                   "window-through-conv 2 x 2 x 2 windows in float32", "extern_kernels.convolution(", (2, 2, 7, 8, 8))


@pytest.mark.parametrize("transposed", [False, True])
def test_bfloat16_window_sums_convolve_in_float32(transposed):
    # a bf16 convolution's window sums: the coarse convolution runs on the input widened to float32, never in bf16
    namespace = _helpers()
    generator = torch.Generator().manual_seed(3)
    x = torch.randn(2, 4, 9, 11, generator=generator).to(torch.bfloat16)
    b = torch.randn(6, generator=generator).to(torch.bfloat16)
    if transposed:
        w = torch.randn(4, 3, 3, 3, generator=generator).to(torch.bfloat16)
        y = F.conv_transpose2d(x.double(), w.double(), b.double(), 2, 1, 1, 2, 1)
    else:
        w = torch.randn(6, 2, 3, 3, generator=generator).to(torch.bfloat16)
        y = F.conv2d(x.double(), w.double(), b.double(), 1, 1, 1, 2)
    want = F.avg_pool2d(y, 2) * 4
    sums, flags, _ = namespace["ko_window_sums"](x, w, b, [2, 2] if transposed else [1, 1], [1, 1], [1, 1], 2, [2, 2],
                                                 "float32", transposed, list(want.shape[2:]))
    assert sums.dtype == torch.float32 and not flags.any()
    torch.testing.assert_close(sums.double(), want.reshape(-1), rtol=1e-5, atol=1e-4)
