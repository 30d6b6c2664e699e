"""Welford in block form (block_welford, offered by block-online and taken by row-on-chip): a looped layer
norm's per-lane Welford states kept as one (mean, M2, weight) per row, merged once per block. On the H200
bf16 layer norm kernel cut to a few rows of 300 (a masked tail in every block size), the normalised rows
are as accurate as the original's against a float64 layer norm, at any row length and with a large mean
over a small spread (where a naive sum of squares cancels); the forms it must not rewrite are declined."""
from __future__ import annotations

import ast
import dataclasses
import os
from pathlib import Path

import pytest
import torch
from hypothesis import example, given, settings, strategies as st

from row_loop_helpers import assert_as_accurate, clone, label_config, looped_target, make_args, run_candidate, run_original

from kernelopt.lift import lift_file
from kernelopt.proposers.block_online import BlockOnlineDeclined, BlockOnlineProposer, _variants
from kernelopt.proposers.block_welford import BlockWelfordDeclined, blockwise_welford
from kernelopt.proposers.row_loops import analyse_loop_nest
from kernelopt.proposers.row_on_chip import RowOnChipProposer
from kernelopt.rewrite.targets import kernel_target

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"
LN = GENERAL / "layer_norm_many_rows_bf16" / "layer_norm_many_rows_bf16.default.0.py"
LN_KERNEL = "triton_red_fused_native_layer_norm_0"

interpreter = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


def _small(rows: int, length: int):
    """The kernel at `rows` x `length`, on fp32 tensors: its math is fp32 either way (loads are cast), and
    fp32 outputs show a statistic that is off by far less than a bf16 rounding."""
    target = looped_target(LN, LN_KERNEL, {65536: rows, 4096: length, 32: 1, 2048: rows})
    launch = target.launches[0]
    args = tuple(dataclasses.replace(a, dtype="float32") if a.is_tensor else a for a in launch.args)
    return dataclasses.replace(target, launches=(dataclasses.replace(launch, args=args),))


def _layer_norm(args) -> torch.Tensor:
    x, weight, bias = (a.double() for a in args[:3])
    return torch.nn.functional.layer_norm(x, x.shape[-1:], weight, bias, eps=1e-5)


def _check(target, args, candidates):
    reference = _layer_norm(args)
    for candidate in candidates:
        config = label_config(candidate)
        expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
        got = run_candidate(candidate, target, clone(args))
        assert_as_accurate(got["out_ptr2"], expected["out_ptr2"], reference.view_as(got["out_ptr2"]), candidate.strategy)


@interpreter
@pytest.mark.parametrize("seed", [0, 1])
def test_the_layer_norm_in_block_form_gives_the_layer_norm(seed):
    target = _small(5, 300)
    candidates = list(BlockOnlineProposer().propose(target, []))
    assert candidates and {c.strategy.split()[0] for c in candidates} == {"block-online", "block-online+lane"}
    assert "Welford" in candidates[0].notes and "no division per element" in candidates[1].notes
    body = candidates[0].source.split("def run")[0]
    assert "welford_reduce" not in body.split("_per_lane(")[0] and "welford_combine" in body
    _check(target, make_args(target, seed), candidates[:3])


@interpreter
@settings(max_examples=6, deadline=None)
@given(length=st.integers(1, 600), offset=st.sampled_from([0.0, 50.0]), spread=st.sampled_from([1e-2, 1.0, 8.0]),
       seed=st.integers(0, 2**16))
@example(length=89, offset=50.0, spread=0.01, seed=1095)     # a plain block sum lost the spread here
def test_any_row_length_and_a_large_mean_over_a_small_spread(length, offset, spread, seed):
    target = _small(3, length)
    args = make_args(target, seed)
    args[0] = (offset + spread * args[0].double()).to(args[0].dtype)
    candidates = list(BlockOnlineProposer().propose(target, []))
    _check(target, args, candidates[:2])


@interpreter
def test_row_on_chip_merges_the_whole_row_at_once():
    target = _small(4, 300)
    candidates = list(RowOnChipProposer().propose(target, []))
    assert candidates
    fast = candidates[0].source.split("_row_on_chip(")[1].split("def run")[0]
    assert "welford_reduce" not in fast and "welford_combine" in fast
    _check(target, make_args(target, 3), candidates[:2])


def _function(edit=lambda s: s):
    target = kernel_target(lift_file(str(LN)), LN_KERNEL)
    return analyse_loop_nest(edit(target.kernels[0].source), LN_KERNEL).function


def test_the_running_tiles_become_one_column_and_the_final_merge_reads_it():
    function, count = blockwise_welford(_function())
    text = ast.unparse(function)
    assert count == 1
    assert "tmp3_mean = tl.zeros([XBLOCK, 1], tl.float32)" in text
    assert "tmp4, tmp5, tmp6 = (tl.sum(tmp3_mean, 1), tl.sum(tmp3_m2, 1), tl.sum(tmp3_weight, 1))" in text


@pytest.mark.parametrize("edit, why, lane", [
    (lambda s: s.replace("tmp3_weight = tl.where(r0_mask, tmp3_weight_next, tmp3_weight)",
                         "tmp3_weight = tl.where(r0_mask & (tmp2 > 0), tmp3_weight_next, tmp3_weight)"), "different masks",
     True),
    (lambda s: s.replace("tmp4, tmp5, tmp6 = triton_helpers.welford(tmp3_mean, tmp3_m2, tmp3_weight, 1)",
                         "tmp4, tmp5, tmp6 = triton_helpers.welford(tmp3_mean, tmp3_m2, tmp3_weight, 1)\n"
                         "    tl.store(out_ptr2 + x0, tl.sum(tmp3_m2, 1)[:, None], None)"), "read 2 times after their loop",
     False),
])
def test_forms_it_does_not_read_are_declined_with_the_reason(edit, why, lane):
    """The block form declines both; the lane form, which keeps Inductor's per-lane commits, still takes a
    state committed under two masks, but not one read again after the loop (its tiles hold sums there)."""
    with pytest.raises(BlockWelfordDeclined, match=why):
        blockwise_welford(_function(edit))
    target = kernel_target(lift_file(str(LN)), LN_KERNEL)
    target = dataclasses.replace(target, kernels=(dataclasses.replace(target.kernels[0],
                                                                      source=edit(target.kernels[0].source)),))
    if lane:
        labels = [c.strategy for c in BlockOnlineProposer().propose(target, [])]
        assert labels and all("+lane " in label for label in labels)
    else:
        with pytest.raises(BlockOnlineDeclined, match=why):
            _variants(target)
        assert why in BlockOnlineProposer.declined(target)


@interpreter
def test_a_mask_that_skips_elements_counts_them_by_reduction():
    """A commit mask that lets only some elements in (here every other one): the block's count is the
    masked elements', reduced, not the row length; the normalised rows match the original's."""
    keep_even = ("r0_mask", "r0_mask & (r0_index % 2 == 0)")

    def edit(source):
        for name in ("mean", "m2", "weight"):
            source = source.replace(f"tmp3_{name} = tl.where({keep_even[0]},", f"tmp3_{name} = tl.where({keep_even[1]},")
        return source

    target = _small(4, 300)
    target = dataclasses.replace(target, kernels=(dataclasses.replace(target.kernels[0],
                                                                      source=edit(target.kernels[0].source)),))
    candidates = list(BlockOnlineProposer().propose(target, []))
    assert candidates and "tl.minimum(r0_numel - r0_offset" not in candidates[0].source
    args = make_args(target, 8)
    for candidate in candidates[:2]:
        config = label_config(candidate)
        expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
        got = run_candidate(candidate, target, clone(args))
        torch.testing.assert_close(got["out_ptr2"], expected["out_ptr2"], rtol=1e-4, atol=1e-4)


def test_a_whole_row_mask_counts_without_a_reduction():
    function, _ = blockwise_welford(_function())
    assert "tl.minimum(r0_numel - r0_offset, R0_BLOCK)" in ast.unparse(function)


@interpreter
@pytest.mark.parametrize("r0_block", [16, 64])
def test_the_lane_form_keeps_a_small_spread_when_each_lane_sums_many_values(r0_block):
    """Rows of 600 at R0_BLOCK 16 or 64 (dozens of values per lane) around 50 with a spread of 0.01: the
    lane's shift keeps the deviations small, so its sums lose no more than the original's Welford."""
    target = _small(3, 600)
    args = make_args(target, 21)
    args[0] = 50.0 + 0.01 * args[0]
    lane = next(c for c in BlockOnlineProposer().propose(target, []) if c.strategy.startswith("block-online+lane "))
    config = label_config(lane)
    lane = dataclasses.replace(lane, source=lane.source.replace(f"R0_BLOCK={config['R0_BLOCK']}", f"R0_BLOCK={r0_block}"))
    expected = run_original(target, clone(args), r0_block=r0_block, xblock=config["XBLOCK"])
    got = run_candidate(lane, target, clone(args))
    assert_as_accurate(got["out_ptr2"], expected["out_ptr2"], _layer_norm(args).view_as(got["out_ptr2"]), "lane form")
