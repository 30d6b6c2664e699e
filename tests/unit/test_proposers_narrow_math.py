"""narrow-math: a kernel whose every store is 16-bit runs its own schedule with fast exponentials and the
hardware's max. On the zoo's H200 bf16 softmax (persistent, rows of 256): the candidate's code, its
numbers under Triton's interpreter against the original kernel at the same launch configuration and a
float64 reference (rows with -inf and NaN included), and no candidate for a kernel with an fp32 store."""
from __future__ import annotations

import os

import pytest
import torch

from kernelopt.proposers.candidate_source import LaunchConfig, candidate_source, grid_type_of
from kernelopt.proposers.narrow_math import NarrowMathDeclined, NarrowMathProposer, plan_narrow_math
from kernelopt.proposers.registry import make_proposer
from kernelopt.rewrite.evaluate import load_candidate
from row_loop_helpers import H200_CORPUS, REPO, assert_as_accurate, clone, label_config, looped_target, make_args

SOFTMAX = (H200_CORPUS / "softmax" / "small.default" / "softmax.default.0.py",
           "triton_per_fused__softmax__to_copy_amax_mul_sub_0")        # bf16 in, bf16 out: softmax(x * 0.125)
SPATIAL_CE = (REPO / "tests" / "fixtures" / "cuda-2.11-general" / "cross_entropy_spatial"
              / "cross_entropy_spatial.default.0.py", "triton_per_fused_prepare_softmax_online_0")   # fp32 stores

interpreter = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


def test_the_bf16_softmax_gets_fast_exponentials_and_the_hardware_max_at_its_own_schedule():
    target = looped_target(*SOFTMAX, {})
    candidates = list(NarrowMathProposer().propose(target, []))
    assert candidates and all(c.strategy.startswith("narrow-math ") for c in candidates)
    source = candidates[0].source
    assert "libdevice.exp(" not in source and "tl.math.exp2(" in source and "1.4426950408889634" in source
    assert "tl.reduce(tmp6, 1, _ko_nanmax)" in source and "triton_helpers.max2" not in source
    assert "1 precise exponential(s) made flushed ex2" in candidates[0].notes
    # the rest of the kernel is the original's, line for line
    original = target.kernels[0].source
    assert source.count("tl.store(") == original.count("tl.store(") and source.count("tl.load(") == original.count("tl.load(")
    assert make_proposer("narrow-math").name == "narrow-math"


def test_a_kernel_with_an_fp32_store_keeps_its_precise_exponentials():
    target = looped_target(*SPATIAL_CE, {})
    assert "libdevice.exp(" in target.kernels[0].source
    assert list(NarrowMathProposer().propose(target, [])) == []
    with pytest.raises(NarrowMathDeclined, match="stores float32 to out_ptr0, wider than 16 bits"):
        plan_narrow_math(target)
    assert NarrowMathProposer.declined(target) == ""


@interpreter
@pytest.mark.parametrize("seed", [0, 1])
def test_the_candidate_computes_the_originals_softmax(seed):
    target = looped_target(*SOFTMAX, {})
    spec, launch = target.kernels[0], target.launches[0]
    args = make_args(target, seed)
    x = args[0]
    x[1, 7] = float("-inf")
    x[2, :] = float("-inf")                 # a row of -inf: NaN in eager and in the original
    x[3, 11] = float("nan")
    reference = torch.softmax(x.double() * 0.125, -1)
    for candidate in NarrowMathProposer().propose(target, []):
        config = label_config(candidate)
        original = candidate_source(spec.source, spec.name, [a.name for a in launch.args], spec.signature,
                                    grid_type_of(spec), _config(config), header="original")
        want, got = clone(args), clone(args)
        load_candidate(original, "original")(*want)
        load_candidate(candidate.source, "narrow_math")(*got)
        assert torch.equal(got[1].isnan(), want[1].isnan()), candidate.strategy
        finite = ~want[1].isnan()
        torch.testing.assert_close(got[1][finite].double(), want[1][finite].double(), rtol=8e-3, atol=1e-6)
        rows = ~reference.isnan().any(-1)
        assert_as_accurate(got[1][rows], want[1][rows], reference[rows], candidate.strategy)


def _config(values: dict[str, int]) -> LaunchConfig:
    """The launch configuration a candidate's label names, to run the original at it."""
    blocks = tuple((k, v) for k, v in values.items() if k.endswith("BLOCK"))
    return LaunchConfig(blocks, values.get("num_warps", 4), values.get("num_stages", 1))
