"""block-online: an online softmax's running max and sum kept per row and updated once per block. On the H200
kernels of a label-smoothed cross-entropy (online softmax, then a linear sum: folded too), a scaled and biased
log-softmax and a softmax over dim 1, cut to a few short rows with a masked tail so the interpreter runs them:
each candidate writes what the original writes (the max bit for bit, the sums as accurately against a float64
reference), keeps the helper's -inf and NaN semantics, and the forms it must not rewrite are declined."""
from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

from row_loop_helpers import assert_as_accurate, clone, label_config, edited_target, make_args, run_candidate, run_original

from kernelopt.proposers.block_online import BlockOnlineDeclined, BlockOnlineProposer, _variants

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"
CE = GENERAL / "cross_entropy_label_smoothing_bf16" / "cross_entropy_label_smoothing_bf16.default.0.py"
CE_KERNEL = "triton_red_fused__log_softmax_prepare_softmax_online_sub_sum_0"
LOG_SOFTMAX = GENERAL / "log_softmax_scale_bias_bf16" / "log_softmax_scale_bias_bf16.default.0.py"
LOG_SOFTMAX_KERNEL = "triton_red_fused__log_softmax_add_mul_prepare_softmax_online_sub_0"
LOOPED_CPU = Path(__file__).resolve().parents[1] / "fixtures" / "looped-cpu-2.13"
ONLINE_CE_KERNEL = "triton_red_fused__log_softmax_prepare_softmax_online_sum_0"
ROWS, LENGTH = 5, 300            # 300 = 4 x 64 + a masked tail of 44

interpreter = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


def _ce_reference(x: torch.Tensor) -> dict[str, torch.Tensor]:
    x = x.double()
    top = x.max(1, keepdim=True).values
    return {"out_ptr0": top, "out_ptr1": torch.exp(x - top).sum(1, keepdim=True),
            "out_ptr2": torch.log_softmax(x, 1).sum(1, keepdim=True)}


def _check_ce(target, args, candidates):
    reference = _ce_reference(args[0])
    for candidate in candidates:
        config = label_config(candidate)
        expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
        got = run_candidate(candidate, target, clone(args))
        assert torch.equal(got["out_ptr0"], expected["out_ptr0"]), candidate.strategy     # a max: any order
        for name in ("out_ptr1", "out_ptr2"):
            assert_as_accurate(got[name], expected[name], reference[name].view_as(got[name]),
                               f"{candidate.strategy} {name}")


@interpreter
@pytest.mark.parametrize("seed", [0, 1])
def test_the_cross_entropy_in_block_form_gives_the_original_outputs(seed):
    target = edited_target(CE, CE_KERNEL, {4096: ROWS, 32000: LENGTH})
    candidates = list(BlockOnlineProposer().propose(target, []))
    forms = {c.strategy.split()[0] for c in candidates}
    assert forms == {"block-online+fold-pass", "block-online+fold-pass+lane", "block-online", "block-online+lane"}
    assert candidates[0].strategy.startswith("block-online+fold-pass")      # the folded form is tried first
    _check_ce(target, make_args(target, seed), candidates)
    assert "once per block" in candidates[0].notes and "one pass over the row fewer" in candidates[0].notes


@interpreter
def test_rows_of_minus_infinity_and_nan_keep_the_helpers_semantics():
    """A row all -inf counts its elements into the sum (the helper's scale is 1 there), a row with one -inf
    ignores it, a NaN propagates to the max and the sum: as the original kernel does."""
    target = edited_target(CE, CE_KERNEL, {4096: ROWS, 32000: LENGTH})
    args = make_args(target, 5)
    x = args[0]
    x[0] = float("-inf")
    x[1, 7] = float("-inf")
    x[2, 299] = float("nan")
    x[3, :150] = float("-inf")
    for candidate in BlockOnlineProposer().propose(target, []):
        config = label_config(candidate)
        expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
        got = run_candidate(candidate, target, clone(args))
        for name in ("out_ptr0", "out_ptr1"):
            torch.testing.assert_close(got[name], expected[name], equal_nan=True, rtol=1e-5, atol=0,
                                       msg=f"{candidate.strategy} {name}")
        assert float(got["out_ptr1"][0]) == LENGTH                          # every -inf element counted
        assert torch.isnan(got["out_ptr0"][2]).all() and torch.isnan(got["out_ptr1"][2]).all()


@interpreter
@settings(max_examples=6, deadline=None)
@given(length=st.integers(1, 700), rows=st.integers(1, 4), scale=st.sampled_from([1e-3, 1.0, 30.0]),
       seed=st.integers(0, 2**16))
def test_any_row_length_and_scale_gives_the_cross_entropys_statistics(length, rows, scale, seed):
    """At any row length (masked tails, rows shorter than a block), row count and value scale, every form
    writes the max bit for bit and the sums as accurately as the original."""
    target = edited_target(CE, CE_KERNEL, {4096: rows, 32000: length})
    candidates = list(BlockOnlineProposer().propose(target, []))
    args = make_args(target, seed)
    args[0] = args[0] * scale
    _check_ce(target, args, [candidates[0], next(c for c in candidates if c.strategy.startswith("block-online "))])


@interpreter
def test_the_log_softmax_that_stores_the_row_is_rewritten_too():
    """Its statistics feed a second pass that stores the row (nothing to fold): the stored row is as
    accurate as the original's against log_softmax(0.5 x + bias) in float64."""
    target = edited_target(LOG_SOFTMAX, LOG_SOFTMAX_KERNEL, {8192: 40})
    candidates = list(BlockOnlineProposer().propose(target, []))
    assert candidates and all(c.strategy.split()[0] in ("block-online", "block-online+lane") for c in candidates)
    args = make_args(target, 2)
    reference = torch.log_softmax(0.5 * args[0].double() + args[1].double(), 1)
    for candidate in candidates[:2]:
        config = label_config(candidate)
        expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
        got = run_candidate(candidate, target, clone(args))
        assert_as_accurate(got["out_ptr2"], expected["out_ptr2"], reference.view_as(got["out_ptr2"]),
                           candidate.strategy)


def test_long_rows_get_one_row_per_program_and_wide_blocks():
    target = edited_target(CE, CE_KERNEL)
    labels = [c.strategy for c in BlockOnlineProposer().propose(target, [])]
    row_configs = [s for s in labels if "XBLOCK=1 R0_BLOCK=2048 num_warps=8" in s]
    assert len(row_configs) == 4                                   # folded and plain, block and lane forms
    assert all("R0_BLOCK=8192" not in s or "num_warps=16" in s for s in labels)
    assert len(labels) == len(set(labels)) <= 24


def test_fast_math_is_declined_with_the_reason():
    target = edited_target(CE, CE_KERNEL, edit=lambda s: s.replace("_tmp3_sum, tmp2, False", "_tmp3_sum, tmp2, True"))
    with pytest.raises(BlockOnlineDeclined, match="fast math"):
        _variants(target)
    assert "fast math" in BlockOnlineProposer.declined(target)
    assert list(BlockOnlineProposer().propose(target, [])) == []


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("tmp3, tmp4 = triton_helpers.online_softmax_reduce(",
                         "tl.store(out_ptr0 + (x0), tl.sum(_tmp3_sum, 1)[:, None], None)\n"
                         "    tmp3, tmp4 = triton_helpers.online_softmax_reduce("), "read 2 times after their loop"),
    (lambda s: s.replace("_tmp3_sum = tl.where(r0_mask, _tmp3_sum_next, _tmp3_sum)",
                         "_tmp3_sum = tl.where(r0_mask & (tmp2 > 0), _tmp3_sum_next, _tmp3_sum)"), "different masks"),
])
def test_a_state_the_block_form_cannot_keep_per_row_gets_the_lane_form_only(edit, why):
    """Read again after the loop, or committed under two masks: the per-lane tiles must stay (the block
    form says why), and the one-exponential update, which keeps them, is still offered."""
    from kernelopt.proposers.block_online import blockwise_online
    from kernelopt.proposers.row_loops import analyse_loop_nest

    target = edited_target(CE, CE_KERNEL, edit=edit)
    with pytest.raises(BlockOnlineDeclined, match=why):
        blockwise_online(analyse_loop_nest(target.kernels[0].source, CE_KERNEL).function)
    labels = [c.strategy for c in BlockOnlineProposer().propose(target, [])]
    assert labels and all("+lane " in label for label in labels)


def test_kernels_without_an_online_softmax_get_nothing_and_no_remark():
    argmin = edited_target(GENERAL / "argmin_over_last_dim" / "argmin_over_last_dim.default.0.py", "triton_red_fused_argmin_0")
    assert list(BlockOnlineProposer().propose(argmin, [])) == []
    assert BlockOnlineProposer.declined(argmin) == ""


def test_block_online_is_asked_by_default_after_fold_pass():
    from passes.agentic_rewrite import AgenticRewrite
    order = AgenticRewrite().proposers
    assert order.index("fold-pass") < order.index("block-online") < order.index("retune")


@interpreter
def test_row_on_chip_takes_an_online_softmax_in_block_form():
    """Row-on-chip holds the whole row as one block: its online softmax becomes the row's max and one
    exponential per element (no per-lane running tiles), and the stored log-softmax stays as accurate."""
    from kernelopt.proposers.row_on_chip import RowOnChipProposer

    target = edited_target(LOG_SOFTMAX, LOG_SOFTMAX_KERNEL, {8192: 40})
    candidates = list(RowOnChipProposer().propose(target, []))
    assert candidates
    args = make_args(target, 4)
    reference = torch.log_softmax(0.5 * args[0].double() + args[1].double(), 1)
    expected = run_original(target, clone(args), r0_block=16)
    for candidate in candidates:
        assert "online_softmax_combine" not in candidate.source.split("def run")[0].split("_row_on_chip(")[1]
        got = run_candidate(candidate, target, clone(args))
        assert_as_accurate(got["out_ptr2"], expected["out_ptr2"], reference.view_as(got["out_ptr2"]), candidate.strategy)


def test_a_softmax_over_a_strided_dimension_gets_outer_tiles():
    """Softmax over dim 1 of [N, C, L] reads each row with stride L: the block form is launched with
    outer-tile's wide-x tiles (every r step of a program reads contiguous rows), not long-r ones."""
    softmax = edited_target(GENERAL / "softmax_over_dim1_bf16" / "softmax_over_dim1_bf16.default.0.py",
                      "triton_red_fused__softmax_exp_prepare_softmax_online_sub_0")
    configs = [label_config(c) for c in BlockOnlineProposer().propose(softmax, [])]
    assert configs and all(c["XBLOCK"] >= 64 and c["R0_BLOCK"] <= 16 for c in configs)


@interpreter
def test_the_strided_softmax_in_outer_tiles_gives_the_softmax():
    """[4, 20, 64] over dim 1 (rows of 20 with stride 64, a masked tail in every R0_BLOCK above 4): each
    outer tile that fits the 256 rows is as accurate as the original against softmax in float64."""
    target = edited_target(GENERAL / "softmax_over_dim1_bf16" / "softmax_over_dim1_bf16.default.0.py",
                           "triton_red_fused__softmax_exp_prepare_softmax_online_sub_0",
                           {8192: 64, 512: 20, 4194304: 1280, 262144: 256, 32: 4})
    args = make_args(target, 6)
    reference = torch.softmax(args[0].double(), 1)
    tried = 0
    for candidate in BlockOnlineProposer().propose(target, []):
        config = label_config(candidate)
        if config["XBLOCK"] > 256:
            continue
        expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
        got = run_candidate(candidate, target, clone(args))
        assert_as_accurate(got["out_ptr2"], expected["out_ptr2"], reference, candidate.strategy)
        tried += 1
    assert tried >= 2


# ---------------------------------------------------------------------------------------------------
# Through the pipeline: proposed by agentic-rewrite, re-proven by check-legality, emitted, run

@pytest.mark.slow
@interpreter
@pytest.mark.parametrize("proposer, markers", [("block-online", ("_ko_max0", "_ko_max1", "_ko_fold0")),
                                               ("fold-pass", ("_ko_fold0",))])
def test_the_pipeline_emits_the_transformed_cross_entropy_and_it_runs(tmp_path, monkeypatch, proposer, markers):
    """torch 2.13's label-smoothed cross-entropy for CPU tensors in the online form the GPU gets (7 rows of
    300, x-masked): the transform is accepted, re-proven and emitted as the transformed kernel (not as the
    original at the candidate's launch configuration, as a retune is), and the emitted module's loss is as
    accurate as Inductor's against float64."""
    import io

    import torch.nn.functional as F

    from kernelopt.lift import lift_file
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.pass_manager import PassManager
    from kernelopt.passes.pipeline import parse_pipeline
    from kernelopt.runtime import run_module

    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))
    path = LOOPED_CPU / "cross_entropy_online.py"
    generator = torch.Generator().manual_seed(12)
    inputs = [3 * torch.randn(7, 300, generator=generator), torch.randint(0, 300, (7,), generator=generator)]
    module = lift_file(str(path))
    ctx = PassContext(options={"device": "cpu", "inputs": inputs, "progress_stream": io.StringIO()})
    pipeline = ("classify-dispatch,annotate-profile,agentic-rewrite{cost-model=static max-candidates=2 "
                f"proposers={proposer}}},check-legality,emit-python")
    PassManager(parse_pipeline(pipeline)).run(module, ctx)
    rewrite = module.kernel(ONLINE_CE_KERNEL).attrs["rewrite"]
    assert rewrite["status"] == "accepted" and rewrite["proposer"] == proposer, rewrite
    assert rewrite["recheck"]["verdict"] == "ACCEPT"
    emitted = tmp_path / "cross_entropy_online_opt.py"
    emitted.write_text(ctx.artifacts["python"])
    kernel_text = emitted.read_text()
    assert all(marker in kernel_text for marker in markers)            # both online pairs in block form, folded
    loss = run_module(str(emitted), [t.clone() for t in inputs], "cpu")["outputs"][0]
    inductor = run_module(str(path), [t.clone() for t in inputs], "cpu")["outputs"][0]
    reference = F.cross_entropy(inputs[0].double(), inputs[1], label_smoothing=0.1)
    assert_as_accurate(loss.reshape(()), inductor.reshape(()), reference, "label-smoothed cross-entropy")


def test_only_retunes_mark_their_candidates_as_the_original_at_another_configuration():
    """Codegen emits a candidate with a launch_config as the original kernel at that configuration: a
    transform that set it would be measured transformed and shipped untransformed."""
    from kernelopt.proposers.fold_passes import FoldPassesProposer
    from kernelopt.proposers.row_on_chip import RowOnChipProposer

    target = edited_target(CE, CE_KERNEL)
    for proposer in (BlockOnlineProposer(), FoldPassesProposer(), RowOnChipProposer()):
        candidates = list(proposer.propose(target, []))
        assert candidates and all(c.launch_config == () for c in candidates), proposer.name


@interpreter
@pytest.mark.parametrize("edit", [lambda s: s, lambda s: s.replace(
    "tmp3, tmp4 = triton_helpers.online_softmax_reduce(\n        _tmp3_max, _tmp3_sum, 1, False)",
    "tmp3, tmp4 = (triton_helpers.max2(_tmp3_max, 1), tl.sum(_tmp3_sum, 1))")],
    ids=["as written", "per-lane sums stored"])
def test_the_lane_form_keeps_the_originals_special_values_and_sums(edit):
    """One exponential of -|x - max| serves both of the helper's scales (one of them is always exp(0)). Each
    lane takes 5 elements of every row (R0_BLOCK=64 over rows of 300, whatever the shipped tiles are), so the
    update runs on real differences: -inf, +inf and NaN rows come out as the original's, the max bit for bit,
    and the sums within a few ulp (the update's exponential is the flushed ex2 form, the helper's CUDA's expf),
    the per-lane running sums themselves too (summed raw, without the final rescale, by the edited kernel: the
    NaN an infinite element or running max gives is kept even where the rescale would hide it)."""
    target = edited_target(CE, CE_KERNEL, {4096: 6, 32000: LENGTH}, edit=edit)
    assert "online_softmax_reduce" in target.kernels[0].source or edit("x") == "x"
    args = make_args(target, 9)
    x = args[0]
    x[0] = float("-inf")
    x[1, :100] = float("-inf")
    x[2, 17] = float("inf")
    x[3, 250] = float("nan")
    x[4, LENGTH - 1] = float("inf")
    x[5, 3] = float("inf")
    lanes = [c for c in BlockOnlineProposer().propose(target, []) if c.strategy.startswith("block-online+lane ")]
    assert lanes
    for candidate in lanes[:2]:
        small = dataclasses.replace(candidate, source=re.sub(r"R0_BLOCK=\d+", "R0_BLOCK=64", candidate.source))
        expected = run_original(target, clone(args), r0_block=64, xblock=label_config(candidate)["XBLOCK"])
        got = run_candidate(small, target, clone(args))
        for name in ("out_ptr0", "out_ptr1", "out_ptr2"):
            assert torch.equal(got[name].isnan(), expected[name].isnan()), (candidate.strategy, name)
            assert torch.equal(got[name].isinf(), expected[name].isinf()), (candidate.strategy, name)
            torch.testing.assert_close(got[name], expected[name], rtol=1e-6, atol=0, equal_nan=True,
                                       msg=f"{candidate.strategy} {name}")
        torch.testing.assert_close(got["out_ptr0"], expected["out_ptr0"], rtol=0, atol=0, equal_nan=True)
