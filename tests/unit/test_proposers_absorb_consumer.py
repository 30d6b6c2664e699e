"""absorb-consumer: the pointwise kernel after a persistent reduction runs inside it, storing where it stored.

On a torch 2.13 CPU capture of a transposed convolution followed by a softmax over channels (the convolution
channels-last, the output contiguous): what the candidate launches and stores, each decline's reason, the
result under Triton's interpreter against the original pair's (the same operations: the same bits), and
`kernelopt optimize` through the gate."""
from __future__ import annotations

import dataclasses
import os

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelopt.proposers.absorb_consumer import AbsorbConsumerProposer, AbsorbDeclined, plan_absorb
from kernelopt.proposers.registry import make_proposer
from kernelopt.rewrite.evaluate import load_candidate
from row_loop_helpers import REPO, fusion_group_target, mangled_kernel_source, run_group_original
from search_helpers import optimize_with_proposer, problem_model

FIXTURE = REPO / "tests" / "fixtures" / "channel-softmax-cpu-2.13"
MODULE = FIXTURE / "conv_transpose_channel_softmax.py"
REDUCTION, POINTWISE = "triton_per_fused__softmax_2", "triton_poi_fused__softmax_mul_3"


def _target(edit_kernel: str = "", edit=lambda source: source, **changes):
    target = fusion_group_target(MODULE)
    kernels = tuple(dataclasses.replace(k, source=edit(k.source)) if k.name == edit_kernel else k
                    for k in target.kernels)
    if edit_kernel:
        assert kernels != target.kernels, "the edit changed nothing"
    return dataclasses.replace(target, kernels=kernels, **changes)


def _args(target, seed: int) -> list:
    """The group's arguments: the convolution's output (read and updated in place) random, NaN where a kernel
    must write."""
    generator = torch.Generator().manual_seed(seed)
    out = []
    for arg in target.group_args:
        if not arg.is_tensor:
            out.append(arg.value)
            continue
        tensor = torch.empty_strided(arg.sizes, arg.strides)
        if arg.name.startswith("in_out"):
            tensor.copy_(4.0 * torch.randn(arg.sizes, generator=generator))
        else:
            tensor.fill_(float("nan"))
        out.append(tensor)
    return out


def _output_slot(target) -> int:
    return next(s for a, s in zip(target.launches[1].args, target.group_positions[1]) if a.written)


def test_the_pointwise_code_runs_in_the_reduction_and_stores_where_the_pointwise_kernel_did():
    target = _target()
    assert [s.kernel for s in target.launches] == [REDUCTION, POINTWISE]
    candidates = list(AbsorbConsumerProposer().propose(target, []))
    assert candidates and all(c.strategy.startswith(f"absorb-consumer {REDUCTION} ") for c in candidates)
    source = candidates[0].source
    assert source.count("[grid](") == 1 and f"def {POINTWISE}" not in source        # one launch: the reduction
    # the convolution's output and the sums are dead after the pair: only the result is stored, transposed
    assert source.count("tl.store(") == 1 and "tl.store(ko_absorbed_out + (" in source
    assert "_ko_position = r0_1 + 64 * x0 - 0" in source
    assert "576 * (_ko_position % 64)" in source                                  # the channel: NCHW's stride
    assert make_proposer("absorb-consumer").name == "absorb-consumer"


@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
@pytest.mark.parametrize("scratch", [True, False], ids=["dead-buffers-dropped", "buffers-kept"])
def test_the_absorbed_kernel_gives_the_pair_s_bits(scratch):
    target = _target() if scratch else _target(scratch_args=())
    out = _output_slot(target)
    for candidate in AbsorbConsumerProposer().propose(target, []):
        want, got = _args(target, 0), _args(target, 0)
        got[0][0, :, 3, 5] = float("-inf")              # a pixel of -inf channels: NaN, as the original gives
        want[0][0, :, 3, 5] = float("-inf")
        run_group_original(target, want)
        load_candidate(candidate.source, "absorb_consumer")(*got)
        assert torch.equal(got[out].nan_to_num(7.0), want[out].nan_to_num(7.0)), candidate.strategy
        assert torch.isnan(got[out][0, :, 3, 5]).all()
        if not scratch:                                   # the buffers a later launch could read: the same too
            assert torch.equal(got[0].nan_to_num(7.0), want[0].nan_to_num(7.0))
            assert torch.equal(got[1].nan_to_num(7.0), want[1].nan_to_num(7.0))


@pytest.mark.parametrize("kernel, edit, why", [
    (POINTWISE, lambda s: s.replace("tmp1 = tl.load(in_ptr1 + (x2 + 576*y1)", "tmp1 = tl.load(in_ptr1 + (575 - x2 + 576*y1)"),
     "reads out_ptr1 at another row than its element's"),
    (POINTWISE, lambda s: s.replace("tmp4 = tmp2 * tmp3", "tmp4 = tmp2 * tmp3 + x2"), "depends on its index"),
    (POINTWISE, lambda s: s.replace("tmp0 = tl.load(in_ptr0 + (y0 + 64*x2 + 36864*y1), xmask & ymask)",
                                    "tmp0 = tl.load(in_ptr0 + (y0 + 64*x2 + 36864*y1), xmask & ymask & (x2 > 0))"),
     "masked inside the launch's elements"),
    (REDUCTION, lambda s: s.replace("tl.store(in_out_ptr0 + (r0_1 + 64*x0), tmp6, xmask)",
                                    "tl.store(in_out_ptr0 + (r0_1 + 64*(x0 // 2)), tmp6, xmask)"),
     "does not write each element of in_out_ptr0 once"),
], ids=["row-mismatch", "index-in-math", "masked-load", "store-not-a-bijection"])
def test_a_pair_it_cannot_prove_is_declined_with_the_reason(kernel, edit, why):
    target = _target(kernel, edit)
    with pytest.raises(AbsorbDeclined, match=why):
        plan_absorb(target)
    assert list(AbsorbConsumerProposer().propose(target, [])) == []
    assert why in AbsorbConsumerProposer.declined(target)


def test_an_output_sharing_memory_with_the_reduction_s_buffer_is_declined():
    # `buf6 = buf4  # reuse` would make the pointwise kernel's output the convolution's memory: the absorbed
    # stores would overwrite elements other programs have yet to read
    target = _target()
    shared = list(target.storage_slots)
    shared[_output_slot(target)] = 0
    with pytest.raises(AbsorbDeclined, match="stores into memory"):
        plan_absorb(dataclasses.replace(target, storage_slots=tuple(shared)))


def test_other_groups_get_no_candidate_and_no_remark():
    target = fusion_group_target(REPO / "tests" / "fixtures" / "split-reduction-cpu-2.13" / "layer_norm_long_rows.py")
    assert list(AbsorbConsumerProposer().propose(target, [])) == []
    assert AbsorbConsumerProposer.declined(target) == ""


# KERNELOPT_FUZZ=nightly: many more mangled kernels (front_end_fuzzing.py's profiles)
@settings(max_examples=1000 if os.environ.get("KERNELOPT_FUZZ") == "nightly" else 40, deadline=None)
@given(st.data())
def test_a_mangled_pair_is_declined_or_absorbed_never_a_crash(data):
    name = data.draw(st.sampled_from([REDUCTION, POINTWISE]))
    target = _target()
    kernel = next(k for k in target.kernels if k.name == name)
    mangled = dataclasses.replace(kernel, source=mangled_kernel_source(data, kernel.source))
    target = dataclasses.replace(target, kernels=tuple(mangled if k.name == name else k for k in target.kernels))
    why = AbsorbConsumerProposer.declined(target)
    candidates = list(AbsorbConsumerProposer().propose(target, []))
    assert isinstance(why, str)
    assert all(c.proposer == "absorb-consumer" and "def run(" in c.source for c in candidates)


@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
def test_optimize_passes_the_absorbed_pair_through_the_gate_and_the_module_matches_eager(tmp_path):
    import kernelopt  # lazy: loads the API only where a test needs it

    # the fixture's problem at a quarter of its channels and positions (the same four launches, a third of the time)
    problem = FIXTURE / "problem_conv_transpose_channel_softmax_small.py"
    report = optimize_with_proposer(problem, "absorb-consumer", tmp_path)
    assert f"absorb-consumer {REDUCTION}" in report and "ACCEPT" in report, report
    model = problem_model(problem)
    fast = kernelopt.load(str(tmp_path / "out.py"), model)
    x = torch.randn(1, 16, 6, 6)
    torch.testing.assert_close(fast(x), model(x), rtol=1e-5, atol=1e-6)
