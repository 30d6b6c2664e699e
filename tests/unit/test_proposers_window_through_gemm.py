"""window-through-gemm: a GEMM whose output an average pool (Inductor's pointwise kernel with one load per window
element) only sums in windows of its features becomes a GEMM k times narrower against the other operand's window
sums. Its candidates against the original's bits and float64 on the interpreter, special values, the proof's
declines (with their reasons), the window proof over a space of kernels (Hypothesis), and a whole job through
the gate. The fixtures are CPU captures of KernelBench-style problems (tests/fixtures/gemm-window-cpu-2.13)."""
from __future__ import annotations

import os

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from reduction_epilogue_helpers import (assert_as_accurate_as_the_original, assert_same_specials,
                                        assert_unread_columns_ignored, gemm_in_float64, library_roles, random_args,
                                        reduction_epilogue_target, run_gemm_then_kernel)
from row_loop_helpers import REPO
from search_helpers import optimized_call

from kernelopt.proposers.index_values import parse_kernel
from kernelopt.proposers.linear_reads import NotLinear
from kernelopt.proposers.registry import make_proposer
from kernelopt.proposers.sum_through_gemm import SumDeclined
from kernelopt.proposers.window_reads import window_reads
from kernelopt.proposers.window_through_gemm import WindowThroughGemmProposer, plan_window_through_gemm

FIXTURE = REPO / "tests" / "fixtures" / "gemm-window-cpu-2.13"
INTERPRETED = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
POOLED = ("linear_avgpool_gelu", "matmul_avgpool_bf16", "linear_avgpool_gelu_max", "linear_avgpool_mean_looped",
          "linear_avgpool_tail")
GELU_KERNEL = "triton_poi_fused_avg_pool2d_gelu_mul_squeeze_unsqueeze_0"


def _target(name="linear_avgpool_gelu", edit=None):
    # the pool inside a reduction (a max of the pooled row, the first half of a split mean) is a reduction-epilogue
    # group
    kind = "reduction-epilogue" if name.endswith(("_max", "_looped")) else "epilogue"
    return reduction_epilogue_target(FIXTURE / f"{name}.py", edit, kind=kind)


def _reference(name: str, target, args: list) -> torch.Tensor:
    """The problem's result in float64 (the GEMM exact, no rounding of its output)."""
    y = gemm_in_float64(target, args)
    if name == "linear_avgpool_gelu":
        return torch.nn.functional.gelu(y.reshape(37, 8, 16).mean(2)) * 2.0
    if name == "linear_avgpool_gelu_max":
        return (torch.nn.functional.gelu(y.reshape(9, 20, 16).mean(2)) * 2.0).amax(1)
    if name == "linear_avgpool_mean_looped":       # the split mean's first half: each row's two partial sums
        return torch.relu(y.reshape(5, 256, 8).mean(2)).reshape(5, 2, 128).sum(2)
    if name == "linear_avgpool_tail":              # 7 windows of 16 of each row's 120 features: the last 8 in none
        return torch.tanh(y[:, :112].reshape(21, 7, 16).mean(2)) * 3.0
    return y.reshape(24, 10, 4).mean(2) * 3.0


def test_the_gemm_and_its_pooling_kernel_are_one_group_with_the_output_as_scratch():
    target = _target()
    assert [launch.kernel for launch in target.launches] == ["extern_kernels.addmm", GELU_KERNEL]
    assert target.scratch_args == (library_roles(target)["out"],)       # nothing reads the GEMM's output afterwards
    plans = {name: plan_window_through_gemm(_target(name)) for name in POOLED}
    assert {name: (p.m, p.n, p.window, p.bias is not None, p.dtype) for name, p in plans.items()} == {
        "linear_avgpool_gelu": (37, 128, 16, True, "float32"), "matmul_avgpool_bf16": (24, 40, 4, False, "bfloat16"),
        "linear_avgpool_gelu_max": (9, 320, 16, True, "float32"),
        "linear_avgpool_mean_looped": (5, 2048, 8, True, "float32"),
        "linear_avgpool_tail": (21, 120, 16, True, "float32")}
    assert make_proposer("window-through-gemm").name == "window-through-gemm"


def test_the_candidate_forms_the_window_sums_with_a_narrower_gemm_and_keeps_the_epilogue():
    candidates = list(WindowThroughGemmProposer().propose(_target(), []))
    assert len(candidates) == 2 and len({c.strategy for c in candidates}) == 2
    source = candidates[0].source
    assert "extern_kernels" not in source and source.count("torch.mm(") == 1       # the 37 x 8 window sums
    assert "ko_q = 8" in source and "windows of 16" in candidates[0].strategy
    # the kernel's own arithmetic after the loads stays: the sum, the division by 16, the GELU, the scaling
    assert "tmp32 = tmp30 / tmp31" in source and "libdevice.erf(tmp36)" in source and "tmp42 = tmp40 * tmp41" in source
    # each lane finds its window's index and flag once; the load of the window's first element reads the sum, the
    # other 15 read 0 (or y, in a flagged window)
    assert source.count("ko_window_at = ") == 1 and source.count("ko_window_flagged = ") == 1
    assert source.count("tl.load(ko_sums + ko_window_at") == 1 and source.count(", 0.0)") == 15


@INTERPRETED
@pytest.mark.parametrize("name", POOLED)
def test_every_candidate_is_as_accurate_as_the_original(name):
    target = _target(name)
    candidates = list(WindowThroughGemmProposer().propose(target, []))
    assert candidates, f"{name}: no candidate"
    for seed, candidate in enumerate(candidates):
        args = random_args(target, seed)
        assert_as_accurate_as_the_original(target, candidate, args, run_gemm_then_kernel,
                                           _reference(name, target, args), f"{name} {candidate.strategy}")


@INTERPRETED
def test_features_past_the_last_window_are_never_read():
    # 120 features in windows of 16: the last 8 are in no window. An infinity in W's column 115 makes y's column 115
    # infinite in the original, which its pool never reads; the candidate's window sums do not include it either.
    target = _target("linear_avgpool_tail")
    assert_unread_columns_ignored(target, next(iter(WindowThroughGemmProposer().propose(target, []))), 112, 115,
                                  lambda args: _reference("linear_avgpool_tail", target, args))


@INTERPRETED
@pytest.mark.parametrize("name, case", [("linear_avgpool_gelu", case) for case in
                                        ("inf-in-x", "nan-and-inf-in-x", "inf-in-w", "overflow-and-bias")]
                         + [("matmul_avgpool_bf16", "inf-in-w"), ("linear_avgpool_gelu_max", "nan-and-inf-in-x"),
                            ("linear_avgpool_mean_looped", "overflow-and-bias"),
                            ("linear_avgpool_tail", "nan-and-inf-in-x")])
def test_infinities_nans_and_overflow_land_where_the_original_puts_them(name, case):
    # A window whose sum is not finite, or whose row's GEMM elements may overflow, is formed as the GEMM forms it
    # and read as written: with the flags forced off (`bad = im & False`), three of the four fp32 cases fail.
    target = _target(name)
    roles = library_roles(target)
    args = random_args(target, 7)
    a, b = args[roles["mat1"]], args[roles["mat2"]]
    if case == "inf-in-x":
        a[2, 3] = float("inf")
    elif case == "nan-and-inf-in-x":
        a[1, 0], a[4, 5] = float("nan"), float("-inf")
    elif case == "inf-in-w":
        b[3, 4] = float("inf")
    else:
        a[0] *= 1e37                               # the GEMM's elements of row 0 overflow, or their sum does
        args[roles["input"]][1] = float("-inf")
    assert_same_specials(target, next(iter(WindowThroughGemmProposer().propose(target, []))), args,
                         run_gemm_then_kernel)


LOADS = ("tmp0 = tl.load(in_ptr0 + (16*x0), xmask, eviction_policy='evict_last')",
         "tmp1 = tl.load(in_ptr0 + (1 + 16*x0), xmask, eviction_policy='evict_last')")


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 + 2.0 * tmp1"), "one equal-weight sum"),
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 - tmp1"), "one equal-weight sum"),
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 * tmp1"), "one equal-weight sum"),
    (lambda s: s.replace("tmp42 = tmp40 * tmp41", "tmp42 = tmp40 * tmp0"), "one equal-weight sum"),
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 + tmp0"), "adds a load"),
    (lambda s: s.replace(LOADS[1], LOADS[1].replace("1 + 16*x0", "16*x0")), "each element once"),
    (lambda s: s.replace(LOADS[1], LOADS[1].replace("1 + 16*x0", "17 + 16*x0")),
     "lane 295 of the kernel reads outside the tensor"),
    (lambda s: s.replace("tmp2 = tmp0 + tmp1", "tmp2 = tmp0.to(tl.bfloat16) + tmp1"), "one equal-weight sum"),
], ids=["weighted", "difference", "product", "one-element-used", "load-twice", "element-twice", "past-the-window",
        "downcast"])
def test_a_kernel_it_cannot_prove_reads_window_sums_is_declined_with_the_reason(edit, why):
    target = _target(edit=edit)
    proposer = WindowThroughGemmProposer()
    assert list(proposer.propose(target, [])) == []
    assert why in proposer.declined(target), proposer.declined(target)


def test_overlapping_windows_are_declined_and_a_plain_epilogue_is_not_its_business():
    overlapping = _target("linear_overlapping_pool")
    with pytest.raises(SumDeclined, match="each element once"):
        plan_window_through_gemm(overlapping)
    # an MLP's GEMM and its GELU (one load of the output per lane): no candidate and nothing to say
    mlp = reduction_epilogue_target(REPO / "tests" / "corpus" / "cpu-2.13" / "mlp" / "small.default" /
                                    "mlp.default.0.py", kind="epilogue")
    proposer = WindowThroughGemmProposer()
    assert list(proposer.propose(mlp, [])) == [] and proposer.declined(mlp) == ""


WINDOW_KERNEL = '''
@triton.jit
def k(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmps = tl.full([1], 0.25, tl.float32)
    tmpt = tl.full([1], 0.25, tl.float32)
    free = tl.load(in_ptr1 + (xindex), xmask)
{body}
    tl.store(out_ptr0 + (xindex), tl.sigmoid(total), xmask)
'''


@settings(max_examples=60, deadline=None)
@given(k=st.integers(2, 6), data=st.data())
def test_the_window_proof_accepts_any_order_and_placement_of_one_weight_and_refuses_any_other(k, data):
    """Loads combined in a random order; each scaled (before or after adding) by one of two equal constants, by the
    free value, or not: accepted exactly when every load ends up with the same weight."""
    order = data.draw(st.permutations(list(range(k))))
    scales = data.draw(st.lists(st.sampled_from(["", " * tmps", " * tmpt", " * free", " / free"]), min_size=k,
                                max_size=k))
    lines = [f"    y{i} = tl.load(in_ptr0 + ({k}*xindex + {i}), xmask)" for i in range(k)]
    lines.append(f"    total = y{order[0]}{scales[order[0]]}")
    for i in order[1:]:
        lines.append(f"    total = total + y{i}{scales[i]}")
    source = WINDOW_KERNEL.format(body="\n".join(lines))
    _, function = parse_kernel(source, "k", NotLinear)
    weights = {s.replace("tmpt", "tmps") for s in scales}            # two names of one constant weigh alike
    if len(weights) == 1:
        assert len(window_reads(function, "in_ptr0")) == k
    else:
        with pytest.raises(NotLinear, match="one equal-weight sum"):
            window_reads(function, "in_ptr0")


@INTERPRETED
def test_optimize_replaces_the_gemm_through_the_gate_and_the_module_matches_eager(tmp_path):
    # one whole job: the pool inside a reduction (window-through-conv's whole job runs a pointwise pool)
    optimized_call(FIXTURE / "problem_linear_avgpool_gelu_max.py", "window-through-gemm", tmp_path,
                   "window-through-gemm windows of 16", "extern_kernels.addmm(", (9, 64))
