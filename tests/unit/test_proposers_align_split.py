"""align-split: Inductor's split reductions whose chunk is unaligned get it rounded up, and nothing else changes.

On the H200 captures of three norms over few long rows (chunks of 123,362, 116,509 and 52,429 positions):
the chunk the candidate names, that only the chunk's literal changed, and the declines' reasons. Under
Triton's interpreter, on a CPU capture of a layer norm over rows of 24,064 split into 3 chunks of 8,022: the
group (partials, merge, normalisation) against a float64 reference, and `kernelopt optimize` through the gate."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
import torch

from kernelopt.proposers.align_split import AlignSplitDeclined, AlignSplitProposer, align_kernel, plan_align_split
from kernelopt.proposers.registry import make_proposer
from kernelopt.rewrite.evaluate import load_candidate
from row_loop_helpers import (REPO, assert_as_accurate, edited_target, fusion_group_target, group_args_with, label_config,
                              looped_target, run_group_original)
from search_helpers import optimize_with_proposer, problem_model

GENERAL = REPO / "tests" / "fixtures" / "cuda-2.11-general"
SPLIT_NORMS = [  # problem, partial kernel, Inductor's chunk, the aligned chunk
    ("layer_norm_few_long_rows", "triton_red_fused_native_layer_norm_0", 123362, 123392),
    ("rms_norm_few_long_rows", "triton_red_fused_mean_pow_0", 116509, 116608),
    ("l1_norm_few_long_rows", "triton_red_fused_abs_sum_0", 52429, 52480),
]
CPU_FIXTURE = REPO / "tests" / "fixtures" / "split-reduction-cpu-2.13"
CPU_MODULE = CPU_FIXTURE / "layer_norm_long_rows.py"
ROWS, ROW, SPLITS, CHUNK, ALIGNED = 2, 24064, 3, 8022, 8064


def _module(problem: str) -> Path:
    return next((GENERAL / problem).glob("*.py"))


@pytest.mark.parametrize("problem, kernel, chunk, aligned", SPLIT_NORMS, ids=[p[0] for p in SPLIT_NORMS])
def test_an_unaligned_chunk_is_rounded_up_and_only_the_chunk_changes(problem, kernel, chunk, aligned):
    target = fusion_group_target(_module(problem))
    assert [launch.kernel for launch in target.launches][0] == kernel      # partials, merge, normalisation
    candidates = list(AlignSplitProposer().propose(target, []))
    assert candidates and all(c.strategy.startswith(f"align-split chunk={aligned} {kernel} ") for c in candidates)
    source = candidates[0].source.split("\n", 1)[1]                      # the code, below its header comment
    assert str(chunk) not in source
    assert f"r0_numel = {aligned}" in source and f"{aligned} * x0" in source
    # every load and store, and the row guard, are the originals' but for the chunk's literal
    original = "".join(k.source for k in target.kernels)
    for call in ("tl.load(", "tl.store(", "tl.full([1, 1], "):
        assert source.count(call) == original.count(call), call
    assert source.count("[grid](") == len(target.launches)                 # every launch of the group, once
    assert f"{chunk} per row" in candidates[0].notes and f"-> chunks of {aligned}" in candidates[0].notes
    assert make_proposer("align-split").name == "align-split"


@pytest.mark.parametrize("edit, why", [
    (lambda s: s.replace("123362", "123392"), "its chunk of 123392 already is a multiple of 128"),
    (lambda s: s.replace("2097152*x1", "2097151*x1"), "its rows do not start on a 4-element boundary"),
    (lambda s: s.replace("    x0 = (xindex % 17)\n", "    x0 = (xindex % 17)\n    tmp99 = 123362 + x0\n"),
     "123362 appears outside the chunk offset `123362\\*x0`"),
    (lambda s: s.replace("r0_mask & tmp2 & xmask", "r0_mask & xmask"),
     "a load at a chunk offset is not masked by the row guard `tmp2`"),
], ids=["already-aligned", "rows-unaligned", "chunk-used-elsewhere", "load-unguarded"])
def test_a_split_it_cannot_align_is_declined_with_the_reason(edit, why):
    kernel = edited_target(_module("layer_norm_few_long_rows"), "triton_red_fused_native_layer_norm_0",
                           edit=edit).kernels[0]
    with pytest.raises(AlignSplitDeclined, match=why):
        align_kernel(kernel)
    group = fusion_group_target(_module("layer_norm_few_long_rows"))
    group = dataclasses.replace(group, kernels=(kernel,) + group.kernels[1:])
    assert list(AlignSplitProposer().propose(group, [])) == []
    assert why.replace("\\", "") in AlignSplitProposer.declined(group)


def test_partials_are_only_changed_inside_the_group_that_merges_them():
    # the split kernel alone: its partials would differ from the original's, which only the group may allow
    alone = looped_target(_module("layer_norm_few_long_rows"), "triton_red_fused_native_layer_norm_0", {})
    assert list(AlignSplitProposer().propose(alone, [])) == []
    assert "its partials change, which only its fusion group may allow" in AlignSplitProposer.declined(alone)
    # chunks that tile the row exactly (131,072 of 512 programs): no `< L` guard, nothing to pad, no remark
    mse = looped_target(_module("mse_loss_long_rows"), "triton_red_fused_mse_loss_0", {})
    with pytest.raises(AlignSplitDeclined, match="no `r \\+ 131072\\*x0 < L` guard ends the row"):
        align_kernel(mse.kernels[0])
    assert AlignSplitProposer.declined(mse) == ""
    # the merge (persistent) and the normalisation (pointwise): not its kind, and no remark
    for kernel in ("triton_per_fused_native_layer_norm_1", "triton_poi_fused_native_layer_norm_2"):
        target = looped_target(_module("layer_norm_few_long_rows"), kernel, {})
        assert list(AlignSplitProposer().propose(target, [])) == []
        assert AlignSplitProposer.declined(target) == ""


@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
@pytest.mark.parametrize("seed", [0, 1])
def test_the_aligned_group_normalises_each_row_as_accurately_as_the_original(seed):
    target = fusion_group_target(CPU_MODULE)
    found = plan_align_split(target).aligned["triton_red_fused_native_layer_norm_0"]
    assert (found.splits, found.chunk, found.aligned, found.row) == (SPLITS, CHUNK, ALIGNED, ROW)
    generator = torch.Generator().manual_seed(seed)
    x = 1000.0 + 3.0 * torch.randn(ROWS, ROW, generator=generator)       # a large mean: Welford's reason to be
    x[0, ALIGNED - 1: ALIGNED + 1] = -5000.0                             # outliers astride a moved boundary
    x[1, CHUNK - 1: CHUNK + 1] = 7000.0                                  # and astride an old one
    out = next(s for a, s in zip(target.launches[-1].args, target.group_positions[-1]) if a.written)
    want, got = group_args_with(target, x), group_args_with(target, x)
    run_group_original(target, want)
    # the widest r block: the fewest loop steps under the interpreter (every candidate runs the same kernels)
    candidate = max(AlignSplitProposer().propose(target, []), key=lambda c: label_config(c).get("R0_BLOCK", 0))
    assert "r0_numel = 8064" in candidate.source
    load_candidate(candidate.source, "align_split")(*got)
    reference = torch.nn.functional.layer_norm(x.double(), (ROW,))
    assert_as_accurate(got[out], want[out], reference, candidate.strategy)


@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
def test_optimize_passes_the_aligned_split_through_the_gate_and_the_module_matches_eager(tmp_path):
    """`kernelopt optimize` on the CPU (static cost model) with align-split alone: the gate accepts the
    group's candidate, and the written module computes the layer norm of fresh inputs."""
    import kernelopt  # lazy: loads the API only where a test needs it

    problem = CPU_FIXTURE / "problem_layer_norm_long_rows.py"
    report = optimize_with_proposer(problem, "align-split", tmp_path, TORCHINDUCTOR_PERSISTENT_REDUCTIONS="0")
    assert "align-split chunk=8064" in report, report
    model = problem_model(problem)
    fast = kernelopt.load(str(tmp_path / "out.py"), model)
    x = 5.0 + torch.randn(ROWS, ROW)
    torch.testing.assert_close(fast(x), model(x), rtol=1e-5, atol=1e-5)
