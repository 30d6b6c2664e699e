"""fold-pass: a looped reduction's last pass that only sums a value linear in the row is folded into the earlier
pass that reads the same data. On the label-smoothed cross-entropy's H200 kernel (max and sum of exponentials in
one loop, then the sum of `x - max - log(sum)` in a second), cut to a few short rows so the interpreter runs it,
with a row length that leaves a masked tail: the folded candidate gives the original's outputs; the kernels it
must not fold are declined with the reason."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

from row_loop_helpers import assert_as_accurate, clone, label_config, edited_target, make_args, run_candidate, run_original

from kernelopt.proposers.fold_passes import FoldDeclined, FoldPassesProposer, plan_fold
from kernelopt.rewrite.evaluate import load_candidate

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"
CE = GENERAL / "cross_entropy_label_smoothing_bf16" / "cross_entropy_label_smoothing_bf16.default.0.py"
CE_KERNEL = "triton_red_fused__log_softmax_prepare_softmax_online_sub_sum_0"
ROWS, LENGTH = 6, 300            # 300 = 4 x 64 + a masked tail of 44

interpreter = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


@interpreter
@pytest.mark.parametrize("seed", [0, 1])
def test_the_folded_cross_entropy_gives_the_original_outputs(seed):
    target = edited_target(CE, CE_KERNEL, {4096: ROWS, 32000: LENGTH})
    candidates = list(FoldPassesProposer().propose(target, []))
    assert candidates and all(c.proposer == "fold-pass" for c in candidates)
    args = make_args(target, seed)
    x = args[0].double()
    reference = {"out_ptr0": x.max(1, keepdim=True).values,
                 "out_ptr1": torch.exp(x - x.max(1, keepdim=True).values).sum(1, keepdim=True),
                 "out_ptr2": torch.log_softmax(x, 1).sum(1, keepdim=True)}
    for candidate in candidates:
        config = label_config(candidate)           # the original at the candidate's blocks: the same first pass
        expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
        got = run_candidate(candidate, target, clone(args))
        for name in ("out_ptr0", "out_ptr1"):            # the first pass is untouched: the same bits
            assert torch.equal(got[name], expected[name]), (candidate.strategy, name)
        assert_as_accurate(got["out_ptr2"], expected["out_ptr2"], reference["out_ptr2"].view_as(got["out_ptr2"]),
                           candidate.strategy)
    assert "one pass over the row fewer" in candidates[0].notes


@interpreter
def test_overlapping_buffers_take_the_original_kernel():
    """The statistics are stored between the passes: a caller whose output overlaps the input must get the
    original order of reads and stores."""
    target = edited_target(CE, CE_KERNEL, {4096: ROWS, 32000: LENGTH})
    candidate = next(iter(FoldPassesProposer().propose(target, [])))
    overlap = load_candidate(candidate.source, "fold_overlap").__globals__["_overlap"]
    storage = torch.zeros(64)
    assert overlap(storage[:10], storage[5:20]) and not overlap(storage[:10], storage[10:20])
    assert "_unfolded if _overlap(args[0], args[1]) or _overlap(args[0], args[2])" in candidate.source


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("tmp7 = tmp6 - tmp3", "tmp7 = tl_math.log(tmp6 - tmp3)"), "not linear in the row"),
    (lambda s: s.replace("tmp13 = _tmp12 + tmp11", "tmp13 = triton_helpers.maximum(_tmp12, tmp11)"), "does not only sum"),
    (lambda s: s.replace("_tmp12 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)",
                         "_tmp12 = tl.full([XBLOCK, R0_BLOCK], 0, tl.int64)"), "not in floating point"),
])
def test_a_last_pass_that_is_not_a_linear_sum_is_declined(edit, why):
    with pytest.raises(FoldDeclined, match=why):
        plan_fold(edited_target(CE, CE_KERNEL, edit=edit))


def test_passes_that_store_the_row_and_single_loops_are_declined():
    softmax = edited_target(GENERAL / "softmax_over_dim1_bf16" / "softmax_over_dim1_bf16.default.0.py",
                      "triton_red_fused__softmax_exp_prepare_softmax_online_sub_0")
    assert "stores row elements" in FoldPassesProposer.declined(softmax)
    argmin = edited_target(GENERAL / "argmin_over_last_dim" / "argmin_over_last_dim.default.0.py", "triton_red_fused_argmin_0")
    with pytest.raises(FoldDeclined, match="one r-loop"):
        plan_fold(argmin)
    assert FoldPassesProposer.declined(argmin) == ""      # one pass: no remark (row-on-chip already says so)
    assert list(FoldPassesProposer().propose(softmax, [])) == []


def test_fold_pass_is_asked_by_default_after_row_on_chip():
    from passes.agentic_rewrite import AgenticRewrite
    order = AgenticRewrite().proposers
    assert order.index("row-on-chip") < order.index("fold-pass") < order.index("retune")


# -- the linear form, on a space of summed values ------------------------------------------------------------

_ROW = ("x", "y")             # row data
_STAT = ("a", "b")            # earlier passes' per-row results


def _expressions():
    leaf = st.sampled_from(_ROW + _STAT + ("2.0", "0.5"))
    return st.recursive(leaf, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(_STAT + ("3.0",)), inner).map(lambda t: f"({t[0]} * {t[1]})"),
        st.tuples(inner, st.sampled_from(_STAT)).map(lambda t: f"({t[0]} / {t[1]})"),
        inner.map(lambda e: f"(-{e})")), max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(_expressions())
def test_the_linear_form_sums_to_what_the_expression_sums(text):
    """For any value built from row data and per-row results with +, -, and scaling by per-row results, the
    folded sum (coefficients times row sums, plus the per-row part times the count) is the direct sum."""
    import ast
    from kernelopt.proposers.fold_passes import _linear

    expr = ast.parse(text.replace("x", "tl.load(X)").replace("y", "tl.load(Y)"), mode="eval").body
    linear = _linear(expr, set(_STAT))
    generator = torch.Generator().manual_seed(len(text))
    values = {"X": torch.randn(37, generator=generator, dtype=torch.float64),
              "Y": torch.randn(37, generator=generator, dtype=torch.float64),
              "a": torch.tensor(1.7, dtype=torch.float64), "b": torch.tensor(-0.6, dtype=torch.float64)}

    class tl:  # noqa: N801 - evaluates `tl.load(X)` as the row tensor
        @staticmethod
        def load(name):
            return name

    scope = {"tl": tl, **values}

    def value(node):          # the folded form is written out as source (ast.unparse), so it is read back so
        return torch.as_tensor(eval(compile(ast.parse(ast.unparse(node), mode="eval"), "<fold>", "eval"), scope),
                               dtype=torch.float64)

    direct = torch.broadcast_to(value(expr), (37,)).sum()
    folded = torch.tensor(0.0, dtype=torch.float64)
    for term in linear.terms:
        row = torch.broadcast_to(value(term.row), (37,)).sum()
        folded = folded + (1.0 if term.coefficient is None else value(term.coefficient)) * row
    if linear.constant is not None:
        folded = folded + 37 * value(linear.constant)
    torch.testing.assert_close(folded, direct, rtol=1e-9, atol=1e-9)


@interpreter
def test_the_legality_gate_accepts_the_fold_and_rejects_a_wrong_one():
    from kernelopt.legality import LaunchInputs, check_candidate
    from kernelopt.proposers.candidate_source import LaunchConfig, candidate_source

    target = edited_target(CE, CE_KERNEL, {4096: ROWS, 32000: LENGTH})
    candidate = next(c for c in FoldPassesProposer().propose(target, []) if "XBLOCK=1 " in c.strategy)
    config = label_config(candidate)
    spec, launch = target.kernels[0], target.launches[0]
    original = load_candidate(candidate_source(
        spec.source, spec.name, [a.name for a in launch.args], spec.signature, "Grid1D",
        LaunchConfig((("XBLOCK", config["XBLOCK"]), ("R0_BLOCK", config["R0_BLOCK"])), 1, 1)), "fold_gate_original")
    inputs = [LaunchInputs(tuple(make_args(target, 3)))]
    outputs = {1, 2, 3}
    verdict = check_candidate(original, candidate.source, inputs, output_args=outputs, seeds=(0, 1), timeout_floor_s=20.0)
    assert verdict.accepted, verdict.reason
    wrong = candidate.source.replace("tl_math.log(tmp4) * -1.0", "tl_math.log(tmp4) * 1.0")
    assert wrong != candidate.source
    verdict = check_candidate(original, wrong, inputs, output_args=outputs, seeds=(0, 1), timeout_floor_s=20.0)
    assert not verdict.accepted and verdict.check == "mismatch", verdict.reason


def test_a_count_over_the_whole_row_is_the_row_length_not_an_accumulator():
    """`sum(x - c)` folds to `sum(x) - c * n`: where the mask lets the whole row in (the r bound, with or
    without the x bound), n is r0_numel, and the loop carries one accumulator, not a second one of ones."""
    for target in (edited_target(CE, CE_KERNEL),
                   edited_target(GENERAL.parent / "looped-cpu-2.13" / "cross_entropy_online.py",
                                 "triton_red_fused__log_softmax_prepare_softmax_online_sum_0")):
        source = next(iter(FoldPassesProposer().propose(target, []))).source
        assert "tl.full([XBLOCK, 1], r0_numel, tl.float32)" in source and "_ko_fold1" not in source
