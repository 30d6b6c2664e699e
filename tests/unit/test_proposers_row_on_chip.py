"""The row-on-chip proposer on REAL looped Inductor kernels (H200 captures of torch 2.11, CPU captures of
torch 2.13 with persistent reductions off), shrunk to small shapes and run on the CPU through the Triton
interpreter: each candidate against the original kernel (its r-loops forced to loop) and a float64
reference, on row lengths and row counts that exercise every mask."""
from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from hypothesis import example, given, settings, strategies as st

from kernelopt.inductor_source import float64_variant
from kernelopt.proposers.row_loops import analyse_loop_nest
from kernelopt.proposers.row_on_chip import RowOnChipProposer, plan_row_on_chip
from row_loop_helpers import (H200_CORPUS, H200_FIXTURES, LOOPED_CPU, assert_as_accurate, clone, looped_target,
                              make_args, run_candidate, run_original)

# ---------------------------------------------------------------------------------------------------
# float64 references, from the launch arguments by position

def ln_gelu_cpu(a):            # (in_out_ptr1=out, x, r, w, b): GELU(LayerNorm(x + r) * w + b) * 0.5 + r
    out, x, r, w, b = (t.double() for t in a[:5])
    y = F.gelu(F.layer_norm(x + r, (x.shape[-1],), w, b, 1e-5))
    return {"in_out_ptr1": y * 0.5 + r}


def ln_gelu_h200(a):           # (x, r, w, b, out_ptr3): bf16
    x, r, w, b = (t.double() for t in a[:4])
    y = F.gelu(F.layer_norm(x + r, (x.shape[-1],), w, b, 1e-5))
    return {"out_ptr3": y * 0.5 + r}


def rms_cpu(a):                # (x bf16, w fp32, out_ptr1 bf16): x * rsqrt(mean(x^2) + 1e-6) * w
    x, w = a[0].double(), a[1].double()
    return {"out_ptr1": x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w}


def rms_h200(a):               # (x bf16, w bf16, out_ptr1 bf16)
    x, w = a[0].double(), a[1].double()
    return {"out_ptr1": x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w}


def scaled_softmax_cpu(a):     # (in_out_ptr0=out, x, bias): softmax(x * 0.125 + bias)
    return {"in_out_ptr0": torch.softmax(a[1].double() * 0.125 + a[2].double(), -1)}


def softmax_h200(a):           # (x bf16, out_ptr2 bf16): softmax(x * 0.125)
    return {"out_ptr2": torch.softmax(a[0].double() * 0.125, -1)}


def log_softmax_cpu(a):        # (x, out_ptr1)
    return {"out_ptr1": torch.log_softmax(a[0].double(), -1)}


def cross_entropy_lse_cpu(a):  # (in_out_ptr0 = log(sum(exp(x - max))), x, out_ptr0 = max), per row
    x = a[1].double()
    top = x.amax(-1, keepdim=True)
    return {"out_ptr0": top.reshape(a[2].shape), "in_out_ptr0": torch.log(torch.exp(x - top).sum(-1, keepdim=True)).reshape(a[0].shape)}


LN_CPU = (LOOPED_CPU / "layer_norm_gelu.py", "triton_red_fused_add_gelu_mul_native_layer_norm_0")
RMS_CPU = (LOOPED_CPU / "rms_norm.py", "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0")
SOFTMAX_CPU = (LOOPED_CPU / "scaled_softmax.py", "triton_red_fused__softmax_add_mul_0")
LOG_SOFTMAX_CPU = (LOOPED_CPU / "log_softmax.py", "triton_red_fused__log_softmax_0")
CE_CPU = (LOOPED_CPU / "cross_entropy.py", "triton_red_fused__log_softmax_0")
LN_H200 = (H200_FIXTURES / "ln_gelu.default.0.py", "triton_red_fused_add_gelu_mul_native_layer_norm_0")
RMS_H200 = (H200_CORPUS / "rmsnorm" / "large.default" / "rmsnorm.default.0.py",
            "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0")
SOFTMAX_H200 = (H200_CORPUS / "softmax" / "large.default" / "softmax.default.0.py",
                "triton_red_fused__softmax__to_copy_amax_mul_sub_0")
KL_H200 = (H200_CORPUS / "kl_div" / "large.default" / "kl_div.default.0.py",
           "triton_red_fused__log_softmax__to_copy_amax_div_exp_mul_sub_sum_0")

# (kernel, size map: rows and row length shrunk to odd sizes, float64 reference)
CASES = {
    "layer-norm-gelu 2.13 (3 loops)": (LN_CPU, {7: 5, 300: 37}, ln_gelu_cpu),
    "rms-norm bf16 2.13 (2 loops)": (RMS_CPU, {7: 3, 300: 45}, rms_cpu),
    "softmax scale+bias 2.13 (3 loops)": (SOFTMAX_CPU, {7: 3, 300: 33}, scaled_softmax_cpu),
    "log-softmax 2.13 (3 loops)": (LOG_SOFTMAX_CPU, {7: 5, 300: 20}, log_softmax_cpu),
    "cross-entropy logsumexp 2.13 (2 loops, max stored between)": (CE_CPU, {7: 3, 300: 29}, cross_entropy_lse_cpu),
    "layer-norm-gelu Welford H200 (2 loops)": (LN_H200, {8192: 3, 4096: 37}, ln_gelu_h200),
    "rms-norm H200 (2 loops)": (RMS_H200, {8192: 3, 4096: 50}, rms_h200),
    "softmax H200 (3 loops)": (SOFTMAX_H200, {8192: 11}, softmax_h200),
}


def check_candidate(target, candidate, reference, seed: int) -> None:
    args = make_args(target, seed)
    original = run_original(target, clone(args), r0_block=8)
    got = run_candidate(candidate, target, clone(args))
    want = reference(args)
    for name, value in want.items():
        assert_as_accurate(got[name], original[name], value, f"{candidate.strategy} {name}")
        torch.testing.assert_close(got[name].double(), original[name].double(),
                                   **_tolerance(got[name].dtype), msg=f"{candidate.strategy} {name} vs original")


def _tolerance(dtype) -> dict:
    return {"rtol": 1.6e-2, "atol": 1e-2} if dtype in (torch.bfloat16, torch.float16) else {"rtol": 1e-5, "atol": 1e-5}


@pytest.mark.parametrize("case", CASES)
def test_every_variant_of_a_real_looped_kernel_is_exact_to_the_original_and_float64(case):
    (path, kernel), sizes, reference = CASES[case]
    target = looped_target(path, kernel, sizes)
    candidates = list(RowOnChipProposer().propose(target, []))
    assert candidates, RowOnChipProposer.declined(target)
    warps = {int(c.strategy.split("num_warps=")[1]) for c in candidates}
    assert warps <= {4, 8, 16}
    for seed, candidate in enumerate(candidates[:3]):
        check_candidate(target, candidate, reference, seed)


def test_the_rewritten_kernel_reads_each_row_once_and_keeps_the_original_reductions():
    target = looped_target(*LN_CPU, {7: 5, 300: 37})
    plan = plan_row_on_chip(target)
    assert plan.row_block == 64 and plan.reused_params == ("in_ptr0", "in_ptr1")
    source = next(iter(RowOnChipProposer().propose(target, []))).source
    kernel = source.split("def run(")[0]
    assert "for r0_offset" not in kernel
    # x and r are each loaded once (the weights once), where the original loads them in all three loops
    assert kernel.count("tl.load(in_ptr0") == kernel.count("tl.load(in_ptr1") == 1
    assert kernel.count("tl.sum(_tmp4, 1)") == kernel.count("tl.sum(_tmp14, 1)") == 1
    original = target.kernels[0].source
    assert original.count("tl.load(in_ptr0") == 3


@pytest.mark.parametrize("path,kernel,loops,reloads,combines", [
    (*LN_H200, 2, 2, {"welford"}),
    (*SOFTMAX_H200, 3, 2, {"max", "sum"}),
    (*KL_H200, 5, 4, {"max", "sum"}),
    (H200_FIXTURES / "gpt2_2l.default.0.py", "triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0",
     2, 2, {"welford"}),
    (*CE_CPU, 2, 1, {"max", "sum"}),
    (*SOFTMAX_CPU, 3, 2, {"max", "sum"}),
])
def test_the_loop_nest_is_read_from_the_kernels_code(path, kernel, loops, reloads, combines):
    from kernelopt.inductor_source import kernel_source

    nest = analyse_loop_nest(kernel_source(path.read_text(), kernel), kernel)
    assert len(nest.loops) == loops and nest.row_passes() == loops
    assert len(nest.reloads()) == reloads
    assert {a.combine for a in nest.accumulators} == combines


def test_a_five_pass_kl_divergence_and_an_embedding_gather_match_their_float64_kernels():
    # No model reference needed: the kernel's own float64 variant, run on the same arguments, is one.
    gpt2 = (H200_FIXTURES / "gpt2_2l.default.0.py", "triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0")
    for (path, kernel), sizes, int_high in ((KL_H200, {4096: 3, 32000: 41}, 2),
                                            (gpt2, {4096: 6, 512: 3, 768: 24, 50257: 11, 1024: 5}, 11)):
        target = looped_target(path, kernel, sizes)
        candidate = next(iter(RowOnChipProposer().propose(target, [])))
        args = make_args(target, seed=3, int_high=int_high)
        original = run_original(target, clone(args), r0_block=8)
        got = run_candidate(candidate, target, clone(args))
        wide = _float64_target(target)
        reference = run_original(wide, [a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                                        for a in clone(args)], r0_block=8)
        for name in got:
            assert_as_accurate(got[name], original[name], reference[name], f"{kernel} {name}")


def _float64_target(target):
    import dataclasses

    spec = target.kernels[0]
    return dataclasses.replace(target, kernels=(dataclasses.replace(spec, source=float64_variant(spec.source)),))


# ---------------------------------------------------------------------------------------------------
# Shapes: every mask (rows and row lengths not powers of two, of length 1, rows not divisible by XBLOCK)

@settings(max_examples=4, deadline=None, derandomize=True)
@given(rows=st.integers(1, 9), cols=st.integers(1, 70), pick=st.integers(0, 5))
@example(rows=1, cols=1, pick=0)
@example(rows=7, cols=64, pick=5)
def test_layer_norm_single_pass_over_random_shapes(rows, cols, pick):
    _check_shape(LN_CPU, {7: rows, 300: cols}, ln_gelu_cpu, pick)


@settings(max_examples=4, deadline=None, derandomize=True)
@given(rows=st.integers(1, 9), cols=st.integers(1, 70), pick=st.integers(0, 5))
@example(rows=1, cols=1, pick=0)
@example(rows=9, cols=33, pick=5)
def test_scaled_softmax_single_pass_over_random_shapes(rows, cols, pick):
    _check_shape(SOFTMAX_CPU, {7: rows, 300: cols}, scaled_softmax_cpu, pick)


def _check_shape(kernel, sizes, reference, pick: int) -> None:
    target = looped_target(*kernel, sizes)
    candidates = list(RowOnChipProposer().propose(target, []))
    # rows per program beyond the first variants too: with 7 rows and XBLOCK 2 or 4 the last program is partial
    candidate = candidates[pick % len(candidates)]
    check_candidate(target, candidate, reference, seed=pick)
