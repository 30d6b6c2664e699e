"""sum-through-gemm: a GEMM whose output a reduction only sums along one dimension becomes a matrix-vector product.

On torch 2.13 CPU captures (tests/fixtures/gemm-sum-cpu-2.13, each beside the problem it was captured from):
`(x @ w.T / 2).sum(1) * 1.5` (fp32 mm, row sums), a Linear layer summed by row then max/mean/logsumexp over the
kept dimension (fp32 addmm), `(linear(x) * 0.5 - shift).sum(0)` (column sums, a per-column shift), a bf16 mean over
rows of 2,100 (a looped reduction), a sigmoid before the sum (nonlinear: declined), and two sums Inductor splits in
two launches (64 chunks of each column of 8,192; 2 chunks of each row of 12,288). The reduction-epilogue
group detect-fusion forms, the proof's declines on edited kernels, the candidates under Triton's interpreter
against the original and a float64 reference, infinities, NaNs and overflow landing where the original puts them,
and `kernelopt optimize` through the gate."""
from __future__ import annotations

import dataclasses
import functools
import os

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from reduction_epilogue_helpers import (assert_as_accurate_as_the_original, assert_same_specials,
                                        assert_unread_columns_ignored, gemm_in_float64, library_roles, random_args,
                                        reduction_epilogue_target, run_gemm_then_kernel)
from row_loop_helpers import REPO, fusion_group_target, mangled_kernel_source
from search_helpers import optimized_call

from kernelopt.codegen.configs import next_pow2
from kernelopt.proposers.candidate_source import LaunchConfig
from kernelopt.proposers.registry import make_proposer
from kernelopt.proposers.sum_through_gemm import SumDeclined, SumThroughGemmProposer, plan_sum_through_gemm
from kernelopt.proposers.summed_reads import SUMMED_MAX_R0, one_step_rows

FIXTURE = REPO / "tests" / "fixtures" / "gemm-sum-cpu-2.13"
INTERPRETED = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
SUMMED = ("gemm_div_sum", "linear_sum_chain", "linear_shift_sum_batch", "linear_mean_bf16")
# Inductor splits these reductions in two (partial sums of chunks, then their merge): the group is the GEMM and the
# first half, whose rows each sum one chunk of a column (of 8,192 rows, in 64 chunks) or of a row (of 12,288, in 2)
SPLIT = ("linear_shift_sum_split_batch", "linear_mean_few_long_rows")
# An average pool of 30 features of each row's 100, a reduction row per window (a window this wide is not unrolled):
# rows in 3 chunks of 30 that leave each row's last 10 features unread
TAIL = "linear_avgpool_wide_tail"


def _target(name="gemm_div_sum", edit=None, **changes):
    return reduction_epilogue_target(FIXTURE / f"{name}.py", edit, **changes)


@INTERPRETED
def test_rows_that_read_another_row_s_block_find_their_sums_from_the_offsets():
    # Row x reads GEMM row 28 - x: each row still sums one whole row, but not its own, so the rewritten loads
    # find the row (and its first element) from each offset's coordinates; the same bits as the original's order.
    reversed_rows = ("tl.load(in_ptr0 + (r0_1 + 37*x0)", "tl.load(in_ptr0 + (r0_1 + 37*(28 - x0))")
    target = _target(edit=lambda source: source.replace(*reversed_rows))
    candidate = next(iter(SumThroughGemmProposer().propose(target, [])))
    assert "ko_sums + xindex" not in candidate.source and "// 37 % 29" in candidate.source
    args = random_args(target, 3)
    assert_as_accurate_as_the_original(target, candidate, args, run_gemm_then_kernel,
                                       _reference("gemm_div_sum", target, args).flip(0), "reversed rows")


def _reference(name: str, target, args: list) -> torch.Tensor:
    """The problem's result in float64 (the GEMM exact, no rounding of its output)."""
    y = gemm_in_float64(target, args)
    if name == "gemm_div_sum":
        return (y / 2).sum(1, keepdim=True) * 1.5
    if name == "linear_sum_chain":
        return y.sum(1, keepdim=True)             # then max, mean and logsumexp over one element: itself
    if name == "linear_shift_sum_batch":
        shift = args[target.group_positions[1][1]].double()
        return (y * 0.5 - shift).sum(0)
    if name == "linear_shift_sum_split_batch":        # the first half's partial sums: [columns, chunks]
        shift = args[target.group_positions[1][1]].double()
        return (y * 0.5 - shift).reshape(64, 128, 13).sum(1).T
    if name == "linear_mean_few_long_rows":           # [rows, chunks]
        return y.reshape(3, 2, 6144).sum(2)
    if name == TAIL:                                  # [rows, windows]: the first 90 features of each row
        return torch.tanh(y[:, :90].reshape(21, 3, 30).mean(2)) * 3.0
    return y.mean(1)


def test_the_gemm_and_the_reduction_reading_its_output_are_one_group_with_the_output_as_scratch():
    target = _target()
    assert [launch.kernel for launch in target.launches] == ["extern_kernels.mm", "triton_per_fused_div_mul_sum_0"]
    assert [k.kind for k in target.kernels] == ["vendor", "persistent_reduction"]
    assert target.scratch_args == (library_roles(target)["out"],)       # nothing reads the GEMM's output afterwards
    plans = {name: plan_sum_through_gemm(_target(name)) for name in SUMMED}
    assert {name: (p.along, p.m, p.n, p.bias is not None) for name, p in plans.items()} == {
        "gemm_div_sum": ("rows", 29, 37, False), "linear_sum_chain": ("rows", 31, 23, True),
        "linear_shift_sum_batch": ("columns", 45, 27, True), "linear_mean_bf16": ("rows", 6, 2100, False)}
    assert make_proposer("sum-through-gemm").name == "sum-through-gemm"


def test_the_candidate_launches_no_gemm_and_the_reduction_reads_the_sums():
    candidates = list(SumThroughGemmProposer().propose(_target(), []))
    assert len(candidates) == 4 and len({c.strategy for c in candidates}) == 4
    source = candidates[0].source
    assert "mm(" not in source and "extern_kernels" not in source
    # the kernel's own arithmetic after the load stays: the division, the sum, the scaling
    assert "tmp2 = tmp0 / tmp1" in source and "tl.sum(tmp5, 1)" in source and "tmp8 = tmp6 * tmp7" in source
    # Inductor's rows read the block at their own index, first in lane 0: the sums are read by xindex
    assert "tl.load(ko_sums + xindex, r0_mask & xmask & (r0_index == 0), other=0.0)" in source, source
    assert source.count("[grid](") == 1 and source.count("[(") == 2             # the sums, then the reduction


def test_the_gpu_module_s_split_column_sums_are_proven_at_the_rows_and_lanes_it_launches():
    # Inductor's GPU module drops the x mask where XBLOCK divides the rows: rows past the end would read past the
    # GEMM's output, and the proof once evaluated 256 of them (and 4,096 lanes past each row's end, 605 million
    # lanes in all, over its limit): declined. Only what the candidate's configuration launches is evaluated now.
    target = reduction_epilogue_target(REPO / "tests" / "fixtures" / "gemm-sum-cuda-2.11" /
                                       "linear_shift_sum_over_batch.default.0.py", None)
    proposer = SumThroughGemmProposer()
    plan = proposer._plan(target)
    assert (plan.along, plan.m, plan.n, plan.chunks, plan.bias) == ("columns", 16384, 4096, 32, None)
    assert "ko_sums + xindex" in plan.rewritten          # row x = n + 4096 * chunk: the chunk sums at xindex
    # propose() and declined() on the same target reuse the plan: the proof (seconds at this size) runs once
    assert proposer.declined(target) == "" and proposer._plan(target) is plan


def test_a_split_reduction_s_first_half_is_grouped_with_the_gemm_and_sums_chunks():
    # detect-fusion pairs the GEMM with the half that reads its output (before the vertical sweep could take the
    # two halves together); the merge runs after the group, as written
    plans = {name: plan_sum_through_gemm(_target(name)) for name in SPLIT}
    assert {name: (p.along, p.m, p.n, p.chunks, p.bias is not None) for name, p in plans.items()} == {
        "linear_shift_sum_split_batch": ("columns", 8192, 13, 64, True),
        "linear_mean_few_long_rows": ("rows", 3, 12288, 2, False)}
    for name in SPLIT:
        target = _target(name)
        assert len(target.launches) == 2 and target.scratch_args == (library_roles(target)["out"],)
        assert target.launches[1].kernel.startswith("triton_red_fused_")
        assert all("in 64 chunks" in c.strategy or "in 2 chunks" in c.strategy
                   for c in SumThroughGemmProposer().propose(target, []))


@INTERPRETED
@pytest.mark.parametrize("name", SUMMED + SPLIT + (TAIL,))
def test_every_candidate_is_as_accurate_as_the_original(name):
    target = _target(name)
    candidates = list(SumThroughGemmProposer().propose(target, []))
    assert candidates, f"{name}: no candidate"
    if name in SPLIT:           # one tile (each chunk is a program: slow to interpret); the others are the same code
        candidates = candidates[:1]
    for seed, candidate in enumerate(candidates):
        args = random_args(target, seed)
        assert_as_accurate_as_the_original(target, candidate, args, run_gemm_then_kernel,
                                           _reference(name, target, args), f"{name} {candidate.strategy}")


def test_the_rewritten_reduction_adds_each_chunk_in_one_step_a_few_lanes_per_thread():
    # The rewritten reduction's lanes all add the same shift (y reads 0 but in one lane per chunk), and identical
    # addends round alike: at the short R0_BLOCK an autotuner may record (8 of each 128-row chunk: 16 steps), the
    # candidate's error grows with the steps and with the lanes each thread adds in sequence (on an H100 the gate
    # rejected such a candidate, 1.58e-6 against the original's 8.5e-8). So it runs each chunk in one step, at most
    # 4 lanes a thread at the recorded warp (64 rows x 8 lanes become 1 row x 128 lanes).
    # The interpreter sums a block in numpy's order, not a GPU's, so the accuracy is the GPU gate's to show: here, the
    # launch.
    target = _target("linear_shift_sum_split_batch")
    recorded = {"XBLOCK": 64, "R0_BLOCK": 8, "num_warps": 1, "num_stages": 1}
    target = dataclasses.replace(target, launches=(target.launches[0],
                                                   dataclasses.replace(target.launches[1], config=recorded)))
    plan = plan_sum_through_gemm(target)
    assert (plan.chunks, plan.length) == (64, 128)
    for candidate in SumThroughGemmProposer().propose(target, []):
        launch = candidate.source[candidate.source.index("triton_red_fused_mul_sub_sum_0["):]
        assert "XBLOCK=1, R0_BLOCK=128, num_warps=1" in launch.split("\n")[0], launch.split("\n")[0]


@functools.lru_cache(maxsize=1)
def _split_first_half():
    """The looped first half of linear_shift_sum_split_batch's split column sums (each row a chunk of 128)."""
    return next(k for k in _target("linear_shift_sum_split_batch").kernels if k.name.startswith("triton_red_"))


@settings(max_examples=200, deadline=None)
@given(r_numel=st.integers(1, 20000), x_log=st.integers(0, 7), r_log=st.integers(0, 12), warps_log=st.integers(0, 5),
       r_masked=st.booleans())
def test_one_step_rows_takes_a_row_in_one_step_within_four_lanes_a_thread(r_numel, x_log, r_log, warps_log, r_masked):
    # Any recorded looped-reduction configuration and row length: the rewritten reduction's row goes in one step up
    # to 4,096 lanes, no thread holds more than 4 lanes unless one row at 32 warps needs it, XBLOCK only narrows and
    # the warps only rise; and a block that would run past an unmasked row keeps the recorded configuration.
    kernel = _split_first_half()
    source = kernel.source.replace("r0_numel = 128", f"r0_numel = {r_numel}")
    if not r_masked:
        source = source.replace("r0_mask = r0_index < r0_numel", "r0_mask = tl.full([1, R0_BLOCK], True, tl.int1)")
    kernel = dataclasses.replace(kernel, source=source)
    recorded = LaunchConfig((("XBLOCK", 2 ** x_log), ("R0_BLOCK", 2 ** r_log)), 2 ** warps_log)
    got = one_step_rows(kernel, recorded)
    x, r, warps = 2 ** x_log, 2 ** r_log, 2 ** warps_log
    lanes = min(next_pow2(r_numel), SUMMED_MAX_R0)
    if got == recorded:         # nothing to change, or a change that would run past an unmasked row
        assert (r >= lanes and x * r <= 128 * warps) or not r_masked
        return
    blocks = dict(got.blocks)
    assert blocks["R0_BLOCK"] == max(r, lanes)
    assert 1 <= blocks["XBLOCK"] <= x and warps <= got.num_warps <= 32
    assert blocks["XBLOCK"] * blocks["R0_BLOCK"] <= 128 * got.num_warps or (blocks["XBLOCK"], got.num_warps) == (1, 32)


@INTERPRETED
def test_chunks_that_leave_each_row_s_last_features_unread_never_read_them():
    # 100 features in windows of 30: the last 10 are in no window, and 100 // 3 is not 30. An infinity in W's column
    # 95 makes y's column 95 infinite in the original, which its pool never reads; the candidate's sums skip it too.
    target = _target(TAIL)
    plan = plan_sum_through_gemm(target)
    assert (plan.along, plan.m, plan.n, plan.chunks, plan.length) == ("rows", 21, 100, 3, 30)
    assert_unread_columns_ignored(target, next(iter(SumThroughGemmProposer().propose(target, []))), 90, 95,
                                  lambda args: _reference(TAIL, target, args))


@INTERPRETED
@pytest.mark.parametrize("name, case", [
    *((name, case) for name in ("gemm_div_sum", "linear_shift_sum_batch", "linear_mean_bf16", "linear_sum_chain")
      for case in ("inf-in-x", "nan-and-inf-in-x", "inf-in-w", "overflow-and-bias")),
    # the split sums (slow to interpret: a program per chunk): each flag path once, columns and rows
    ("linear_shift_sum_split_batch", "inf-in-x"), ("linear_shift_sum_split_batch", "overflow-and-bias"),
    ("linear_mean_few_long_rows", "nan-and-inf-in-x"), ("linear_mean_few_long_rows", "inf-in-w"),
    (TAIL, "nan-and-inf-in-x")])
def test_infinities_nans_and_overflow_land_where_the_original_puts_them(name, case):
    # A row whose sum is not finite, or whose GEMM elements may overflow, is formed as the GEMM forms it and read
    # as written: with the flags forced off (`bad = im & ~good & False`), 8 of these 16 cases fail.
    target = _target(name)
    roles = library_roles(target)
    args = random_args(target, 7)
    a, b = args[roles["mat1"]], args[roles["mat2"]]
    rows = a.shape[0]           # three in linear_mean_few_long_rows
    if case == "inf-in-x":
        a[2, 3] = float("inf")
    elif case == "nan-and-inf-in-x":
        a[1, 0], a[4 % rows, 5] = float("nan"), float("-inf")
    elif case == "inf-in-w":
        b[3, 4] = float("inf")
    else:
        a[0] *= 1e37                               # the GEMM's elements of row 0 overflow, or their sum does
        if "input" in roles:
            args[roles["input"]][1] = float("-inf")
    assert_same_specials(target, next(iter(SumThroughGemmProposer().propose(target, []))), args,
                         run_gemm_then_kernel)


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("tmp2 = (tmp0 / tmp1)", "tmp2 = (tmp0 * tmp0)"), "not linear"),
    (lambda s: s.replace("tmp2 = (tmp0 / tmp1)", "tmp2 = (tmp0 / (r0_1 + 1))"), "varies along r"),
    (lambda s: s.replace("tmp2 = (tmp0 / tmp1)", "tmp2 = libdevice.exp(tmp0)"), "not linear"),
    (lambda s: s.replace("tmp6 = tl.sum(tmp5, 1)", "tmp6 = tl.sum(tmp5, 0)"), "over another axis"),
    (lambda s: s.replace("tmp6 = tl.sum(tmp5, 1)", "tmp6 = tl.max(tmp5, 1)"), "not linear"),
    (lambda s: s.replace("tl.store(in_out_ptr0 + (x0), tmp8, xmask)", "tl.store(in_out_ptr0 + (x0), tmp2, xmask)"),
     "not summed"),
    (lambda s: s.replace("tmp5 = tl.where(r0_mask & xmask, tmp3, 0)", "tmp5 = tl.where(r0_index < 5, tmp3, 0)"),
     "something other than the loads' mask"),
    (lambda s: s.replace("tmp0 = tl.load(in_ptr0 + (r0_1 + 37*x0)", "tmp0 = tl.load(in_ptr0 + (r0_1 // 2 + 37*x0)"),
     "does not read whole blocks"),
    (lambda s: s.replace("tmp0 = tl.load(in_ptr0 + (r0_1 + 37*x0)", "tmp0 = tl.load(in_ptr0 + (r0_1 + 36*x0)"),
     "does not read whole blocks"),
    (lambda s: s.replace("tmp0 = tl.load(in_ptr0 + (r0_1 + 37*x0)", "tmp0 = tl.load(in_ptr0 + (r0_1 + 37*x0 + 37)"),
     "reads outside the tensor"),
    (lambda s: s.replace("tmp2 = (tmp0 / tmp1)", "tmp2 = (tmp0 / tmp1).to(tl.bfloat16)"), "narrower type"),
    (lambda s: s.replace("eviction_policy='evict_first', other=0.0)", "eviction_policy='evict_first', other=1.0)"),
     "not 0"),
], ids=["square", "slope-along-r", "exp", "sum-over-x", "max", "store-an-element", "other-mask", "half-rows",
        "overlapping-rows", "past-the-end", "downcast", "other-one"])
def test_a_reduction_it_cannot_prove_reads_only_sums_is_declined_with_the_reason(edit, why):
    target = _target(edit=edit)
    with pytest.raises(SumDeclined, match=why):
        plan_sum_through_gemm(target)
    assert list(SumThroughGemmProposer().propose(target, [])) == []
    assert why in SumThroughGemmProposer().declined(target)


def test_a_nonlinear_reduction_and_other_groups_are_declined():
    sigmoid = _target("linear_sigmoid_sum")
    assert "`tl.sigmoid(tmp0)` is not linear" in SumThroughGemmProposer().declined(sigmoid)
    assert list(SumThroughGemmProposer().propose(sigmoid, [])) == []
    with pytest.raises(SumDeclined, match="read after the reduction"):
        plan_sum_through_gemm(_target(scratch_args=()))
    half = _target()
    out = library_roles(half)["out"]
    fp16 = tuple(dataclasses.replace(a, dtype="float16") if a.is_tensor else a for a in half.group_args)
    with pytest.raises(SumDeclined, match="float32 or bfloat16"):
        plan_sum_through_gemm(dataclasses.replace(half, group_args=fp16))
    assert out in half.scratch_args
    other = fusion_group_target(REPO / "tests" / "fixtures" / "split-reduction-cpu-2.13" / "layer_norm_long_rows.py")
    assert list(SumThroughGemmProposer().propose(other, [])) == [] and SumThroughGemmProposer().declined(other) == ""


# KERNELOPT_FUZZ=nightly: many more mangled kernels (front_end_fuzzing.py's profiles)
@settings(max_examples=1000 if os.environ.get("KERNELOPT_FUZZ") == "nightly" else 40, deadline=None)
@given(st.data())
def test_a_mangled_reduction_is_declined_or_rewritten_never_a_crash(data):
    name = data.draw(st.sampled_from(SUMMED))
    target = _target(name)
    reduction = target.kernels[1]
    mangled = dataclasses.replace(reduction, source=mangled_kernel_source(data, reduction.source))
    target = dataclasses.replace(target, kernels=(target.kernels[0], mangled))
    why = SumThroughGemmProposer().declined(target)
    candidates = list(SumThroughGemmProposer().propose(target, []))
    assert isinstance(why, str)
    assert all(c.proposer == "sum-through-gemm" and "def run(" in c.source for c in candidates)


@INTERPRETED
def test_optimize_replaces_the_gemm_through_the_gate_and_the_module_matches_eager(tmp_path):
    # a split reduction: the group is the GEMM and the first half; the merge (and the mean's scaling) runs after it
    written = optimized_call(FIXTURE / "problem_linear_mean_few_long_rows.py", "sum-through-gemm", tmp_path,
                             "sum-through-gemm rows in 2 chunks", "extern_kernels.mm(", (3, 24))
    assert "triton_per_fused_mean_mul_1" in written
