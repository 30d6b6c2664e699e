"""window-through-conv through a bias kernel: on a GPU, Inductor calls a convolution without its bias and adds the
bias in a pointwise kernel of its own before an average pool (the H100 modules in benchmarks/results/2026-12-07-s18/
modules). detect-fusion groups the three; channel_affine proves the middle kernel is m = a[c] * y + b[c]; the
candidate sums m's windows as a[c] * (y's window sums) + k * b[c].

The fixture `conv3d_bias_kernel_avgpool_relu.py` is the H100 module of conv3d_avgpool_bias_relu shrunk by hand to CPU
sizes (CPU Inductor fuses the bias into the pool). The proof is also run on the H100 modules themselves (their
kernels' code at their own sizes: 67M lanes, proven on samples)."""
from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

from reduction_epilogue_helpers import (assert_as_accurate_as_the_original, assert_specials_land_alike, conv_of,
                                        library_roles, random_args, reduction_epilogue_target, run_conv_then_kernel)
from row_loop_helpers import REPO

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.channel_affine import NotChannelAffine, read_channel_affine
from kernelopt.proposers.sum_through_conv import ConvSumDeclined
from kernelopt.proposers.window_through_conv import WindowThroughConvProposer, plan_window_through_conv

FIXTURE = REPO / "tests" / "fixtures" / "conv-window-cpu-2.13" / "conv3d_bias_kernel_avgpool_relu.py"
GPU_MODULES = REPO / "benchmarks" / "results" / "2026-12-07-s18" / "modules"
INTERPRETED = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
BIAS_LOAD = "tmp1 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')"


def _target(edit=None):
    """The fixture's group 0 (convolution, bias kernel, pool), the bias kernel's source edited by `edit`."""
    target = reduction_epilogue_target(FIXTURE, kind="epilogue")
    if edit is None:
        return target
    middle = target.kernels[1]
    edited = edit(middle.source)
    assert edited != middle.source, "the edit changed nothing"
    return dataclasses.replace(target, kernels=(target.kernels[0], dataclasses.replace(middle, source=edited),
                                                target.kernels[2]))


def _reference(target, args):
    """The group's result in float64: the convolution exact, its bias, the pool, the second bias and the ReLU."""
    bias = args[target.group_positions[1][1]].double()          # the bias kernel's in_ptr0
    late = args[target.group_positions[2][2]].double()          # the pool kernel's in_ptr1
    y = conv_of(target, args, torch.float64) + bias[None, :, None, None, None]
    return torch.relu(F.avg_pool3d(y, 2) + late.reshape(1, -1, 1, 1, 1))


def _kernel_source(module: str, kernel: str) -> str:
    return lift_file(str(GPU_MODULES / f"{module}.default.0.py")).kernel_table()[kernel].attrs["source"]


def test_the_convolution_its_bias_kernel_and_the_pool_are_one_group_and_the_bias_is_per_channel():
    target = _target()
    assert [launch.kernel for launch in target.launches] == [
        "extern_kernels.convolution", "triton_poi_fused_convolution_0",
        "triton_poi_fused_add_avg_pool3d_convolution_relu_1"]
    plan = plan_window_through_conv(target)
    assert (plan.windows, plan.coarse_taps, plan.coarse_stride) == ((2, 2, 2), (4, 4, 4), (2, 2, 2))
    assert plan.affine.slope == "1.0" and plan.affine.intercept == "(0.0) + (ko_chan0)"
    assert plan.out == library_roles(target)["out"]         # in place: the bias kernel writes the convolution's buffer


def test_the_proof_reads_the_gpu_modules_bias_kernels_at_their_own_sizes():
    # channels-last and in place (a 2-D convolution), and a transposed 3-D one scaled into a padded buffer
    source = _kernel_source("conv2d_avgpool_sigmoid_sum", "triton_poi_fused_convolution_2")
    layout = ((64, 64, 128, 128), (1048576, 1, 8192, 64), 0)
    found = read_channel_affine(source, "triton_poi_fused_convolution_2", "in_out_ptr0", layout, "in_out_ptr0", layout)
    assert (found.slope, found.intercept) == ("1.0", "(0.0) + (ko_chan0)") and found.loads[0].step == 1
    source = _kernel_source("conv_transpose3d_scale_avgpool_bias", "triton_poi_fused_convolution_mul_0")
    y = ((64, 16, 31, 63, 63), (1968624, 123039, 3969, 63, 1), 0)
    m = ((64, 16, 31, 63, 63), (1984000, 124000, 4000, 63, 1), 0)
    found = read_channel_affine(source, "triton_poi_fused_convolution_mul_0", "in_ptr0", y, "out_ptr0", m)
    assert eval(found.slope) == 0.5 and found.intercept == "((0.0) + (ko_chan0)) * (0.5)"
    with pytest.raises(NotChannelAffine, match="does not load y at the element"):     # m's layout taken for y's
        read_channel_affine(source, "triton_poi_fused_convolution_mul_0", "in_ptr0", m, "out_ptr0", m)


def test_an_activation_between_the_convolution_and_its_pool_leaves_them_to_the_vertical_sweep(tmp_path):
    # max(y, bias) is no bias: the window sums cannot go through it, so the convolution is not taken with the pool
    # (which the vertical sweep then pairs with the kernel before it)
    path = tmp_path / "activation_between.py"
    path.write_text(FIXTURE.read_text().replace("tmp2 = tmp0 + tmp1", "tmp2 = triton_helpers.maximum(tmp0, tmp1)"))
    module = lift_file(str(path))
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    kinds = {op.symbol or op.name: op.attrs.get("fusion_kind") for op in module.body
             if op.name in ("ko.launch", "ko.extern")}
    assert kinds == {"ko.extern": None, "triton_poi_fused_convolution_0": "vertical",
                     "triton_poi_fused_add_avg_pool3d_convolution_relu_1": "vertical"}


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 * tmp0"), "not affine in y"),
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tl.sigmoid(tmp0) + tmp1"), "not affine arithmetic"),
    (lambda s: s.replace(BIAS_LOAD, BIAS_LOAD.replace("(x1)", "(x3 % 4)")), "varies with more than the channel"),
    (lambda s: s.replace("tmp0 = tl.load(in_out_ptr0 + (x3), xmask)",
                         "tmp0 = tl.load(in_out_ptr0 + (2047 - x3), xmask)"),
     "does not load y at the element"),
])
def test_a_bias_kernel_it_cannot_prove_per_channel_affine_is_declined_with_the_reason(edit, why):
    with pytest.raises(ConvSumDeclined, match=why):
        plan_window_through_conv(_target(edit))


def test_the_candidate_maps_the_window_sums_through_the_bias_and_forms_flagged_planes_through_it():
    float32, _ = WindowThroughConvProposer().propose(_target(), [])
    source = float32.source
    assert "extern_kernels" not in source and "triton_poi_fused_convolution_0" not in source
    assert re.search(r"ko_chan0 = torch.as_strided\(args\[\d+\], \(ko_c,\), \(1,\), args\[\d+\].storage_offset\(\) "
                     r"\+ 0\)", source)
    assert "scale=ko_scale, shift=ko_shift" in source and "HAS_AFFINE=True" in source


@INTERPRETED
def test_the_candidate_is_as_accurate_as_the_original():
    target = _target()
    float32, float64 = WindowThroughConvProposer().propose(target, [])
    for seed in range(2):
        args = random_args(target, seed)
        reference = _reference(target, args)
        assert_as_accurate_as_the_original(target, float64, args, run_conv_then_kernel, reference, f"seed {seed}")
        assert_as_accurate_as_the_original(target, float32, args, run_conv_then_kernel, reference, f"seed {seed}",
                                           factor=3.0)


@INTERPRETED
@pytest.mark.parametrize("case", ["inf-in-x", "nan-in-x", "inf-in-bias"])
def test_infinities_and_nans_land_where_the_original_puts_them(case):
    # an infinite bias makes its channel's planes flagged: they are formed directly, through the bias
    target = _target()
    roles = library_roles(target)
    args = random_args(target, 5)
    x = args[roles["input"]]
    if case == "inf-in-x":
        x[1, 0, 2, 2, 2] = float("inf")
    elif case == "nan-in-x":
        x[0, 1, 2, 2, 2] = float("nan")
    else:
        args[target.group_positions[1][1]][2] = float("inf")
    candidate = next(iter(WindowThroughConvProposer().propose(target, [])))
    assert_specials_land_alike(target, candidate, args, run_conv_then_kernel, overflow=False)


@INTERPRETED
def test_planes_that_may_overflow_are_formed_directly_through_the_bias_and_stay_accurate():
    # sample 1's elements reach 1e36 and more: its planes are flagged (the bound times the window passes 1e36), formed
    # by ko_conv_planes with the bias kernel's slope and intercept, and read as written. Where the elements overflow
    # outright, which of them end up finite follows each library's own order of additions, so that is not compared
    target = _target()
    args = random_args(target, 7)
    args[library_roles(target)["input"]][1] *= 1e35
    args[target.group_positions[1][1]].mul_(1e36)
    candidate = next(iter(WindowThroughConvProposer().propose(target, [])))
    assert_as_accurate_as_the_original(target, candidate, args, run_conv_then_kernel, _reference(target, args),
                                       "flagged planes", factor=3.0)


@INTERPRETED
def test_the_whole_job_keeps_the_rewrite_of_all_three_launches_through_the_gate(tmp_path):
    # `kernelopt optimize` on the module itself (the static cost model: no GPU here); the gate runs its cases on the
    # group of three and the emitted module calls neither the convolution nor the bias kernel
    out = tmp_path / "out.py"
    done = subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", str(FIXTURE), "--device", "cpu",
                           "--cost-model", "static", "--proposers", "window-through-conv", "-o", str(out),
                           "--report", str(tmp_path / "report")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = (tmp_path / "report" / "report.md").read_text()
    assert "rewrite of group:0 accepted" in report
    emitted = out.read_text()
    assert "ko_window_sums(" in emitted and "extern_kernels.convolution(" not in emitted


def test_a_batch_norm_in_eval_mode_is_per_channel_affine_and_its_slope_and_intercept_are_torch_s():
    # the H200 module of batch_norm_eval_channels_last: (y - mean) * (1 / sqrt(var + eps)) * weight + bias, per
    # channel of a channels-last tensor; evaluated with the candidate's helpers on random statistics, the slope and
    # intercept give torch's batch norm
    from kernelopt.proposers.window_through_conv import _WINDOW_HELPERS      # lazy: the helpers' source only here

    path = REPO / "tests" / "fixtures" / "cuda-2.11-general" / "batch_norm_eval_channels_last" / \
        "batch_norm_eval_channels_last.default.0.py"
    kernel = "triton_poi_fused__native_batch_norm_legit_no_training_0"
    source = lift_file(str(path)).kernel_table()[kernel].attrs["source"]
    layout = ((64, 256, 56, 56), (802816, 1, 14336, 256), 0)
    found = read_channel_affine(source, kernel, "in_ptr0", layout, "out_ptr0", layout)
    assert [load.param for load in found.loads] == ["in_ptr1", "in_ptr2", "in_ptr3", "in_ptr4"]
    generator = torch.Generator().manual_seed(0)
    mean, weight, bias = (torch.randn(256, generator=generator, dtype=torch.float64) for _ in range(3))
    var = torch.rand(256, generator=generator, dtype=torch.float64) + 0.1
    helpers = {"torch": torch, "math": __import__("math")}
    exec(_WINDOW_HELPERS.split("def ko_window_weights")[0], helpers)
    scope = {**helpers, "ko_chan0": mean, "ko_chan1": var, "ko_chan2": weight, "ko_chan3": bias}
    y = torch.randn(3, 256, 2, 2, generator=generator, dtype=torch.float64)
    shape = (1, -1, 1, 1)
    got = y * (torch.zeros(256, dtype=torch.float64) + eval(found.slope, scope)).reshape(shape) \
        + (torch.zeros(256, dtype=torch.float64) + eval(found.intercept, scope)).reshape(shape)
    torch.testing.assert_close(got, F.batch_norm(y, mean, var, weight, bias, eps=1e-5), rtol=1e-12, atol=1e-12)
