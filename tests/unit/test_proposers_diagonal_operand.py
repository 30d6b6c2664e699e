"""diagonal-operand: a GEMM whose operand a kernel builds as a diagonal matrix becomes a scaling of the other operand.

On torch 2.13 CPU captures of `torch.diag(a) @ b` (fp32, 40 x 40 by 40 x 33) and `b @ torch.diag(a * 2 + 1)`
(fp16, 19 x 24 by 24 x 24): the prologue group detect-fusion forms, the proof's declines on edited kernels,
the candidate under Triton's interpreter against the GEMM (the same bits, NaN where the GEMM's 0 * inf gives
NaN, the matrix itself where it is read after), and `kernelopt optimize` through the gate."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from row_loop_helpers import REPO, fusion_group_target, mangled_kernel_source
from search_helpers import optimize_with_proposer, problem_model

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.diagonal_operand import DiagonalDeclined, DiagonalOperandProposer, plan_diagonal
from kernelopt.proposers.registry import make_proposer
from kernelopt.rewrite.evaluate import load_candidate
from kernelopt.rewrite.targets import fusion_target

FIXTURE = REPO / "tests" / "fixtures" / "diagonal-gemm-cpu-2.13"
LEFT, RIGHT = FIXTURE / "diag_left.py", FIXTURE / "diag_right.py"
INTERPRETED = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


def _target(path=LEFT, edit=None, must_change: bool = True, **changes):
    module = lift_file(str(path))
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = fusion_target(module, 0, "prologue")
    assert target is not None, why
    builder = target.kernels[0]
    edited = dataclasses.replace(builder, source=edit(builder.source)) if edit else builder
    assert edit is None or not must_change or edited.source != builder.source, "the edit changed nothing"
    return dataclasses.replace(target, kernels=(edited,) + target.kernels[1:], **changes)


def _slots(target) -> dict:
    """The GEMM's operands and result as group slots."""
    return {a.name: s for a, s in zip(target.launches[1].args, target.group_positions[1])}


def _args(target, a: torch.Tensor, b: torch.Tensor) -> list:
    """The group's arguments: the builder's input, the matrix it builds (NaN: unbuilt), b, the result (NaN)."""
    plan = plan_diagonal(target)
    values = []
    for slot, arg in enumerate(target.group_args):
        if not arg.is_tensor:
            values.append(arg.value)
        elif slot in (target.group_positions[0][0], plan.b_slot):
            values.append((a if slot == target.group_positions[0][0] else b).clone())
        else:
            values.append(torch.full(arg.sizes, float("nan"), dtype=getattr(torch, arg.dtype)))
    return values


def test_the_gemm_and_the_kernel_building_its_operand_are_one_prologue_group_with_the_matrix_as_scratch():
    target = _target()
    assert [launch.kernel for launch in target.launches] == ["triton_poi_fused_diag_embed_0", "extern_kernels.mm"]
    assert [k.kind for k in target.kernels] == ["pointwise", "vendor"]
    matrix = _slots(target)["mat1"]
    assert target.scratch_args == (matrix,)                      # nothing reads the diagonal matrix afterwards
    plan = plan_diagonal(target)
    assert (plan.side, plan.n, plan.other, plan.keep_builder) == ("left", 40, 33, False)
    assert (plan_diagonal(_target(RIGHT)).side, plan_diagonal(_target(RIGHT)).n) == ("right", 24)
    assert make_proposer("diagonal-operand").name == "diagonal-operand"


def test_the_candidate_launches_no_gemm_and_runs_the_builder_s_own_statements_on_the_diagonal():
    candidates = list(DiagonalOperandProposer().propose(_target(), []))
    assert len(candidates) == 4 and len({c.strategy for c in candidates}) == 4
    source = candidates[0].source
    assert "mm(" not in source and "def triton_poi_fused_diag_embed_0" not in source   # the matrix is never built
    assert "xindex = ko_i * 41" in source                                   # position (i, i) of the 40 x 40 matrix
    assert "tmp4 = tmp1 == tmp3" in source                                  # the kernel's own code computes d
    assert source.count("[grid](") == 2                                     # the count, then the scaling


@INTERPRETED
@pytest.mark.parametrize("path", [LEFT, RIGHT], ids=["fp32-left", "fp16-right"])
def test_the_scaling_gives_the_gemm_s_bits_on_random_operands(path):
    target = _target(path)
    plan = plan_diagonal(target)
    dtype = getattr(torch, plan.dtype)
    generator = torch.Generator().manual_seed(3)
    for candidate in DiagonalOperandProposer().propose(target, []):
        a = torch.randn(plan.n, generator=generator).to(dtype)
        shape = (plan.n, plan.other) if plan.side == "left" else (plan.other, plan.n)
        b = torch.randn(shape, generator=generator).to(dtype)
        args = _args(target, a, b)
        load_candidate(candidate.source, "diagonal_operand")(*args)
        d = torch.diag(a) if path == LEFT else torch.diag(a * 2.0 + 1.0)
        want = d @ b if plan.side == "left" else b @ d
        got = args[_slots(target)["out"]]
        assert torch.equal(got, want), (candidate.strategy, (got - want).abs().max())


@INTERPRETED
def test_nan_and_inf_spread_as_the_gemm_spreads_them():
    # 0 * inf in the GEMM's sum: a non-finite element of b makes its whole column NaN, except where it meets the
    # diagonal (d * inf); an infinite diagonal element only touches its own row. Without the count, the column
    # would keep finite values; the test fails then.
    target = _target()
    candidate = next(iter(DiagonalOperandProposer().propose(target, [])))
    a, b = torch.randn(40), torch.randn(40, 33)
    b[3, 5], b[7, 9], b[11, 2] = float("inf"), float("nan"), float("-inf")
    b[20, 2] = float("inf")                                   # two in one column
    a[10], b[10, 4] = float("inf"), 0.0                       # inf * 0 on the diagonal: NaN, that element only
    args = _args(target, a, b)
    load_candidate(candidate.source, "diagonal_operand")(*args)
    want, got = torch.diag(a) @ b, args[_slots(target)["out"]]
    assert torch.equal(got.isnan(), want.isnan()) and got[:, 5].isnan().sum() == 39
    assert torch.equal(got.nan_to_num(1.5, 2.5, -2.5), want.nan_to_num(1.5, 2.5, -2.5))


@INTERPRETED
def test_a_matrix_read_after_the_gemm_is_still_built():
    target = _target(scratch_args=())
    plan = plan_diagonal(target)
    assert plan.keep_builder
    candidate = next(iter(DiagonalOperandProposer().propose(target, [])))
    a, b = torch.randn(40), torch.randn(40, 33)
    args = _args(target, a, b)
    load_candidate(candidate.source, "diagonal_operand")(*args)
    assert torch.equal(args[_slots(target)["mat1"]], torch.diag(a))
    assert torch.equal(args[_slots(target)["out"]], torch.diag(a) @ b)


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("tmp4 = tmp1 == tmp3", "tmp4 = tmp1 == tmp3 + 1"), "not the zero branch at row 0, column 1"),
    (lambda s: s.replace("tmp4 = tmp1 == tmp3", "tmp4 = tmp1 <= tmp3"), "not the zero branch at row 1, column 0"),
    (lambda s: s.replace("tmp6 = tl.full([1], 0.0, tl.float32)", "tmp6 = tl.full([1], 1.0, tl.float32)"),
     "neither branch"),
    (lambda s: s.replace("tmp6 = tl.full([1], 0.0, tl.float32)", "tmp6 = tl.full([1], -0.0, tl.float32)"),
     "neither branch"),
    (lambda s: s.replace("tmp4 = tmp1 == tmp3", "tmp4 = tmp5 > 0"), "depends on a loaded value"),
    (lambda s: s.replace("tl.store(out_ptr0 + (x2), tmp7, xmask)", "tl.store(out_ptr0 + (1599 - x2), tmp7, xmask)"),
     "not at xindex"),
    (lambda s: s.replace("tl.store(out_ptr0 + (x2), tmp7, xmask)", "tl.store(out_ptr0 + (x2), tmp5, xmask)"),
     "is not a tl.where"),
], ids=["superdiagonal", "triangle", "nonzero-branch", "negative-zero", "condition-reads-memory", "reversed-store",
        "not-a-where"])
def test_an_operand_it_cannot_prove_diagonal_is_declined_with_the_reason(edit, why):
    target = _target(edit=edit)
    with pytest.raises(DiagonalDeclined, match=why):
        plan_diagonal(target)
    assert list(DiagonalOperandProposer().propose(target, [])) == []
    assert why.split(" at ")[0] in DiagonalOperandProposer.declined(target)


def test_an_operand_past_32_bit_offsets_is_declined():
    target = _target()
    b_slot = plan_diagonal(target).b_slot
    huge = dataclasses.replace(target.group_args[b_slot], strides=(1 << 26, 1))    # 40 rows 2^26 apart: 2^31+
    args = tuple(huge if i == b_slot else a for i, a in enumerate(target.group_args))
    with pytest.raises(DiagonalDeclined, match="index in 32 bits"):
        plan_diagonal(dataclasses.replace(target, group_args=args))


def test_other_groups_get_no_candidate_and_no_remark():
    target = fusion_group_target(REPO / "tests" / "fixtures" / "split-reduction-cpu-2.13" / "layer_norm_long_rows.py")
    assert list(DiagonalOperandProposer().propose(target, [])) == []
    assert DiagonalOperandProposer.declined(target) == ""


# KERNELOPT_FUZZ=nightly: many more mangled kernels (front_end_fuzzing.py's profiles)
@settings(max_examples=1000 if os.environ.get("KERNELOPT_FUZZ") == "nightly" else 40, deadline=None)
@given(st.data())
def test_a_mangled_builder_is_declined_or_rewritten_never_a_crash(data):
    def mangle(source: str) -> str:
        return mangled_kernel_source(data, source)

    target = _target(data.draw(st.sampled_from([LEFT, RIGHT])), edit=mangle, must_change=False)
    why = DiagonalOperandProposer.declined(target)
    candidates = list(DiagonalOperandProposer().propose(target, []))
    assert isinstance(why, str)
    assert all(c.proposer == "diagonal-operand" and "def run(" in c.source for c in candidates)


@INTERPRETED
def test_optimize_replaces_the_gemm_through_the_gate_and_the_module_matches_eager(tmp_path):
    import kernelopt  # lazy: loads the API only where a test needs it

    problem = FIXTURE / "problem_diag_left.py"
    report = optimize_with_proposer(problem, "diagonal-operand", tmp_path)
    assert "diagonal-operand left" in report, report
    written = (tmp_path / "out.py").read_text()
    assert "extern_kernels.mm(" not in written.split("def call(", 1)[1]
    model = problem_model(problem)
    fast = kernelopt.load(str(tmp_path / "out.py"), model)
    a, b = torch.randn(40), torch.randn(40, 33)
    assert torch.equal(fast(a, b), model(a, b))
    # the written module lifts back with its rewrite as a candidate kernel, and optimizing it again writes a
    # module that still runs the rewrite (it once lifted to an opaque call, re-emitted without its definition)
    module = lift_file(str(tmp_path / "out.py"))
    candidate = next(k for k in module.kernels if k.attrs.get("kind") == "candidate")
    assert "def run(" in candidate.attrs["source"] and [op.symbol for op in module.launches()] == [candidate.symbol]
    env = dict(os.environ, TRITON_INTERPRET="1", KERNELOPT_CACHE_DIR=str(tmp_path / "cache"))
    again = subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", "out.py", "-o", "again.py",
                            "--device", "cpu", "--cost-model", "static", "--max-candidates", "1"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert "ko_diagonal_scale" in (tmp_path / "again.py").read_text()
    assert torch.equal(kernelopt.load(str(tmp_path / "again.py"), model)(a, b), model(a, b))
