"""hoist-invariant: per-row values an r-loop recomputes for every element are computed once per row.

On the cosine-similarity loss's H200 kernel (Inductor split each row's norms into another kernel; this one loads
the two norms through broadcast addresses inside its r-loop and takes two square roots, two maxima and two
divisions per element pair), cut to a few short rows with chunk tails so the interpreter runs it: the hoisted
candidate gives the original's bits, the reciprocal one is as accurate as the original against float64, the
loop no longer computes the per-row math, and a per-row address that cannot be proven in bounds is declined."""
from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from row_loop_helpers import (assert_as_accurate, clone, edited_target, label_config, make_args, original_kernel,
                              run_candidate, run_original)

from kernelopt.proposers.loop_invariant import HoistDeclined, HoistInvariantProposer, plan_hoist
from kernelopt.proposers.registry import make_proposer

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"
COSINE = GENERAL / "cosine_similarity_loss" / "cosine_similarity_loss.default.0.py"
KERNEL = "triton_red_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_2"
CHUNKS = 5                       # the kernel splits each row into 5 chunks (`x0 = xindex % 5`)

interpreter = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


def cosine_target(rows: int, length: int, chunk: int, edit=lambda source: source):
    return edited_target(COSINE, KERNEL, {262144: length, 52429: chunk, 640: rows * CHUNKS, 128: rows}, edit)


def cosine_args(target, seed: int) -> list:
    """Rows of x and y, and their squared norms (non-negative; the first row's zero, so the eps clamp acts)."""
    args = make_args(target, seed)
    for position in (1, 3):
        args[position] = args[position].abs()
        args[position][0] = 0.0
    return args


def reference(args, rows: int, length: int, chunk: int) -> torch.Tensor:
    x, y = args[0].double(), args[2].double()
    nx = args[1].double().sqrt().clamp_min(9.99999993922529e-09)
    ny = args[3].double().sqrt().clamp_min(9.99999993922529e-09)
    terms = torch.nn.functional.pad((x / nx) * (y / ny), (0, CHUNKS * chunk - length))
    return terms.view(rows, CHUNKS, chunk).sum(-1)


def loop_source(candidate) -> str:
    function = next(n for n in ast.parse(candidate.source).body if isinstance(n, ast.FunctionDef) and n.name == KERNEL)
    return "\n".join(ast.unparse(s) for s in function.body if isinstance(s, ast.For))


@interpreter
@pytest.mark.parametrize("rows, length, chunk", [(3, 301, 61), (2, 64, 13)])
def test_hoisted_cosine_gives_the_original_bits_and_the_reciprocal_is_as_accurate(rows, length, chunk):
    target = cosine_target(rows, length, chunk)
    candidates = list(HoistInvariantProposer().propose(target, []))
    variants = {c.strategy.split()[0] for c in candidates}
    assert variants == {"hoist-invariant", "hoist-invariant+reciprocal"}
    args = cosine_args(target, seed=rows)
    want = reference(args, rows, length, chunk)
    for candidate in candidates:
        config = label_config(candidate)
        expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
        got = run_candidate(candidate, target, clone(args))
        loop = loop_source(candidate)
        assert "sqrt_rn" not in loop and "maximum" not in loop and "in_ptr1" not in loop, candidate.strategy
        if candidate.strategy.startswith("hoist-invariant+reciprocal"):
            assert " / " not in loop
            assert_as_accurate(got["out_ptr0"], expected["out_ptr0"], want.view_as(got["out_ptr0"]), candidate.strategy)
        else:
            assert torch.equal(got["out_ptr0"], expected["out_ptr0"]), candidate.strategy
    assert "computed once per row" in candidates[0].notes


@interpreter
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 3), chunk=st.integers(1, 23), short=st.integers(0, 4), seed=st.integers(0, 2**16))
def test_the_hoisted_form_is_bit_for_bit_at_any_row_and_chunk_length(rows, chunk, short, seed):
    """Rows of any length whose last chunk is cut short (or empty), one row or several."""
    length = max(1, CHUNKS * chunk - short * (chunk // 4 + 1))
    sizes = {rows * CHUNKS, rows, length, chunk}
    assume(len(sizes) == 4 and CHUNKS not in sizes)   # sizes that coincide cannot be told apart when shrunk
    target = cosine_target(rows, length, chunk)
    candidate = next(c for c in HoistInvariantProposer().propose(target, []) if "+reciprocal" not in c.strategy)
    args = cosine_args(target, seed)
    config = label_config(candidate)
    expected = run_original(target, clone(args), r0_block=config["R0_BLOCK"], xblock=config["XBLOCK"])
    assert torch.equal(run_candidate(candidate, target, clone(args))["out_ptr0"], expected["out_ptr0"])


def test_a_per_row_address_that_could_leave_the_buffer_is_declined():
    """`x1 + 1` reaches one row past the norms for the last row: the original read it only where its mask
    held; a load hoisted under `xmask` alone could read past the buffer, so nothing is proposed."""
    norm = "in_ptr1 + (tl.broadcast_to(x1, [XBLOCK, R0_BLOCK]))"
    edit = lambda s: s.replace(norm, norm.replace("x1", "x1 + 1"))
    target = cosine_target(3, 301, 61, edit)
    with pytest.raises(HoistDeclined, match="outside in_ptr1's 3 elements"):
        plan_hoist(target)
    assert "outside in_ptr1's" in HoistInvariantProposer.declined(target)
    assert list(HoistInvariantProposer().propose(target, [])) == []


def test_a_value_the_kernel_stores_to_is_not_hoisted_and_kernels_without_per_row_math_say_nothing():
    stored = cosine_target(3, 301, 61, lambda s: s.replace("tl.store(out_ptr0 + (x3), tmp18, xmask)",
                                                            "tl.store(in_ptr1 + (x3), tmp18, xmask)"))
    assert plan_hoist(cosine_target(3, 301, 61)).hoisted == ["tmp7", "tmp12"]
    assert plan_hoist(stored).hoisted == ["tmp12"]   # in_ptr1 may change under the loop: only in_ptr3's math moves
    argmin = edited_target(GENERAL / "argmin_over_last_dim" / "argmin_over_last_dim.default.0.py",
                           "triton_red_fused_argmin_0")
    assert HoistInvariantProposer.declined(argmin) == ""
    assert list(HoistInvariantProposer().propose(argmin, [])) == []


def test_it_is_a_built_in_proposer_asked_by_default():
    from kernelopt.passes.agentic_rewrite import AgenticRewrite

    assert make_proposer("hoist-invariant").name == "hoist-invariant"
    order = AgenticRewrite().proposers
    assert order.index("fold-pass") < order.index("hoist-invariant") < order.index("retune")


@interpreter
def test_the_legality_gate_accepts_both_forms():
    """The gate's own cases (random, realistic, adversarial: NaN, infinities, huge and tiny values, in the
    norms too) against the original kernel and a float64 reference: both forms are proven."""
    from kernelopt.legality import LaunchInputs, check_candidate

    target = cosine_target(3, 301, 61)
    launch = target.launches[0]
    names = [a.name for a in launch.args]
    original = original_kernel(target, r0_block=64, xblock=1, num_warps=2)
    firsts = {}
    for candidate in HoistInvariantProposer().propose(target, []):
        firsts.setdefault(candidate.strategy.split()[0], candidate)
    assert set(firsts) == {"hoist-invariant", "hoist-invariant+reciprocal"}
    for candidate in firsts.values():
        verdict = check_candidate(original, candidate.source, [LaunchInputs(tuple(cosine_args(target, 5)))],
                                  output_args=[i for i, a in enumerate(launch.args) if a.written], arg_names=names)
        assert verdict.accepted, (candidate.strategy, verdict.reason)
