"""fold-split: a split maximum and the split sum of exponentials after it read the input once, not twice.

On the H200 capture of a linear + logsumexp (its 128 rows of 16,384 split into 256 chunks) and a torch 2.13 CPU
capture of a tempered logsumexp over 2 rows of 20,011 (6 chunks, the last of each row padded): what the
candidate changes, each decline's reason, the group under Triton's interpreter against the original and a
float64 reference (random rows, and chunks of every special value, where the original's bits are kept), and
`kernelopt optimize` through the gate."""
from __future__ import annotations

import dataclasses
import os
import re

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelopt.proposers.fold_split import FoldSplitDeclined, FoldSplitProposer, plan_fold_split
from kernelopt.proposers.registry import make_proposer
from kernelopt.rewrite.evaluate import load_candidate
from row_loop_helpers import REPO, assert_as_accurate, fusion_group_target, group_args_with, run_group_original
from search_helpers import optimize_with_proposer, problem_model

GEMM_LSE = REPO / "tests" / "fixtures" / "cuda-2.11-general" / "gemm_logsumexp" / "gemm_logsumexp.default.0.py"
CPU_FIXTURE = REPO / "tests" / "fixtures" / "split-logsumexp-cpu-2.13"
CPU_MODULE = CPU_FIXTURE / "logsumexp_temperature.py"
ROWS, ROW, CHUNK = 2, 20011, 6671
MAXIMA, SUMS = "triton_red_fused_div_logsumexp_0", "triton_red_fused_div_logsumexp_2"


def _edited(path, kernel: str, edit):
    """The group with one kernel's source passed through `edit`: a form Inductor could write."""
    target = fusion_group_target(path)
    kernels = tuple(dataclasses.replace(k, source=edit(k.source)) if k.name == kernel else k for k in target.kernels)
    assert kernels != target.kernels, "the edit changed nothing"
    return dataclasses.replace(target, kernels=kernels)


def test_the_sum_pass_rescales_the_maximum_pass_s_chunk_sums_instead_of_reading_the_input():
    target = fusion_group_target(GEMM_LSE)
    plan = plan_fold_split(target)
    assert (plan.maxima, plan.sums, plan.chunks) == (0, 2, 256)
    candidates = list(FoldSplitProposer().propose(target, []))
    assert candidates and all(c.strategy.startswith("fold-split triton_red_fused_logsumexp_0 ") for c in candidates)
    source = candidates[0].source
    maxima = source[source.index("def triton_red_fused_logsumexp_0("):source.index("def triton_per_fused_logsumexp_1(")]
    sums = source[source.index("def triton_red_fused_logsumexp_2("):source.index("def triton_per_fused_logsumexp_3(")]
    # the maximum pass reads the input once, as before, and now writes each chunk's (max, sum) as well
    assert maxima.count("tl.load(") == 1 and "ko_chunk_parts + (256 + xindex)" in maxima
    # the sum pass reads the input only for special chunks: every load in its loop is masked to them
    loop = sums[sums.index("for r0_offset"):]
    assert loop.count("tl.load(") == loop.count("& _ko_special_rows") - 1 == 1
    # ... and a program whose chunks are all finite runs none of its iterations (masked iterations still cost the
    # lanes' exponentials: with the loop always walked the candidates were 0.58x-0.91x of the original, H200)
    assert "_ko_stop = r0_numel * tl.max(_ko_special_rows.to(tl.int32))" in sums
    assert "for r0_offset in tl.range(0, _ko_stop, R0_BLOCK):" in sums
    assert "_ko_chunk_sum * libdevice.exp(_ko_chunk_max - _ko_shift)" in sums
    assert "torch.empty(512, dtype=torch.float32" in source
    assert source.count("[grid](") == len(target.launches) == 4           # every launch of the group, once
    assert make_proposer("fold-split").name == "fold-split"


@pytest.mark.parametrize("kernel, edit, why", [
    (SUMS, lambda s: s.replace("tmp12 = tmp5 - tmp11", "tmp12 = tmp5 * 2.0 - tmp11"), "not the same value"),
    (MAXIMA, lambda s: s.replace("tmp7 = tl.where(tmp2, tmp5, tmp6)", "tmp7 = tl.where(tmp2 & (r0_2 > 0), tmp5, tmp6)"),
     "run over different elements"),
    (SUMS, lambda s: s.replace("tmp15 = tl.where(tmp2, tmp13, tmp14)", "tmp15 = tmp13"),
     "adds terms for elements its loads mask off"),
    (SUMS, lambda s: s.replace("tmp12 = tmp5 - tmp11", "tmp12 = tmp5 - (tmp11 + r0_2)"), "moves along the row"),
    # no compiler writes a name through itself; the inliner must say so, not recurse until Python gives up
    (SUMS, lambda s: s.replace("tmp12 = tmp5 - tmp11", "tmp12 = tmp5 - tmp12"), "`tmp12` is defined through itself"),
], ids=["other-value", "other-elements", "unguarded-padding", "shift-moves", "self-reference"])
def test_a_pair_it_cannot_prove_equal_is_declined_with_the_reason(kernel, edit, why):
    target = _edited(CPU_MODULE, kernel, edit)
    with pytest.raises(FoldSplitDeclined, match=why):
        plan_fold_split(target)
    assert list(FoldSplitProposer().propose(target, [])) == []
    assert why in FoldSplitProposer.declined(target)


def test_a_group_without_a_split_max_and_sum_gets_no_candidate_and_no_remark():
    # a layer norm's split Welford, merge and normalisation: no maximum at all
    target = fusion_group_target(REPO / "tests" / "fixtures" / "split-reduction-cpu-2.13" / "layer_norm_long_rows.py")
    assert list(FoldSplitProposer().propose(target, [])) == []
    assert FoldSplitProposer.declined(target) == ""


def _x(seed: int, special: str) -> torch.Tensor:
    x = 3.0 * torch.randn(ROWS, ROW, generator=torch.Generator().manual_seed(seed))
    if special == "values":
        # two +inf in one lane of a chunk (R0_BLOCK apart): the online sum meets inf - inf there, the original
        # sums inf + inf; a chunk of -inf only: its max is -inf
        x[0, [5, 5 + 2048]] = float("inf")
        x[1, CHUNK:2 * CHUNK] = float("-inf")
    else:
        x[1, 2 * CHUNK + 11] = 400.0                             # one chunk's max far above the others'
    return x


@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
@pytest.mark.parametrize("seed, special", [(0, "large"), (1, "values")])
def test_the_folded_group_is_as_accurate_as_the_original_and_keeps_its_special_values(seed, special):
    # launch configurations as a capture records them: the candidate's first one, wide blocks (few loop steps
    # under the interpreter)
    target = fusion_group_target(CPU_MODULE)
    configs = {"XBLOCK": 1, "R0_BLOCK": 2048, "num_warps": 4, "num_stages": 1}
    launches = tuple(dataclasses.replace(s, config={**configs, "XBLOCK": 1 if "red" in s.kernel else 4})
                     for s in target.launches)
    target = dataclasses.replace(target, launches=launches)
    candidate = next(iter(FoldSplitProposer().propose(target, [])))
    assert "R0_BLOCK=2048" in candidate.strategy
    x = _x(seed, special)
    want, got = group_args_with(target, x), group_args_with(target, x)
    run_group_original(target, want, r0_block=2048)
    load_candidate(candidate.source, "fold_split")(*got)
    out = next(s for a, s in zip(target.launches[-1].args, target.group_positions[-1]) if a.written)
    if special == "values":      # row 0's chunks are special: the original's own loop, its bits
        torch.testing.assert_close(got[out].flatten()[0], want[out].flatten()[0], rtol=0, atol=0, equal_nan=True)
        assert got[out].flatten()[0] == float("inf")
    reference = torch.logsumexp(x.double() / 0.7, dim=-1)
    finite = torch.isfinite(reference)
    assert_as_accurate(got[out].flatten()[finite], want[out].flatten()[finite], reference[finite], candidate.strategy)


@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
def test_optimize_passes_the_folded_group_through_the_gate_and_the_module_matches_eager(tmp_path):
    """`kernelopt optimize` on the CPU (static cost model) with fold-split alone: the gate accepts the group's
    candidate, and the written module computes the logsumexp of fresh inputs (the sum pass's output reuses the
    maximum pass's buffer there, as Inductor planned it)."""
    import kernelopt  # lazy: loads the API only where a test needs it

    problem = CPU_FIXTURE / "problem_logsumexp_temperature.py"
    report = optimize_with_proposer(problem, "fold-split", tmp_path)
    assert "fold-split triton_red_fused_div_logsumexp_0" in report, report
    model = problem_model(problem)
    fast = kernelopt.load(str(tmp_path / "out.py"), model)
    x = 2.0 * torch.randn(ROWS, ROW)
    torch.testing.assert_close(fast(x), model(x), rtol=1e-5, atol=1e-5)


# KERNELOPT_FUZZ=nightly: many more mangled kernels (front_end_fuzzing.py's profiles)
@settings(max_examples=1000 if os.environ.get("KERNELOPT_FUZZ") == "nightly" else 40, deadline=None)
@given(st.data())
def test_a_mangled_pair_is_declined_or_rewritten_never_a_crash(data):
    """Kernels the analysis did not foresee: the maximum's or the sum's kernel with a line dropped, an integer
    changed or a name swapped for another. The proposer offers candidates or says why not; it never raises
    into the search."""
    target = fusion_group_target(CPU_MODULE)
    name = data.draw(st.sampled_from([MAXIMA, SUMS]))
    kernel = next(k for k in target.kernels if k.name == name)
    head, body = kernel.source.split("@triton.jit", 1)
    lines = body.split("\n")
    how = data.draw(st.sampled_from(["drop", "number", "name"]))
    if how == "drop":
        lines.pop(data.draw(st.integers(2, len(lines) - 1)))
    elif how == "number":
        numbers = [(i, m) for i, line in enumerate(lines) for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", line)]
        i, match = data.draw(st.sampled_from(numbers))
        lines[i] = lines[i][:match.start()] + str(data.draw(st.integers(0, 200000))) + lines[i][match.end():]
    else:
        names = sorted(set(re.findall(r"\b(?:tmp\d+|_tmp\d+|x\d|r0_\d|xmask|r0_mask)\b", body)))
        old, new = data.draw(st.sampled_from(names)), data.draw(st.sampled_from(names))
        i = data.draw(st.sampled_from([i for i, line in enumerate(lines) if re.search(rf"\b{old}\b", line)]))
        lines[i] = re.sub(rf"\b{old}\b", new, lines[i], count=1)
    mangled = dataclasses.replace(kernel, source=head + "@triton.jit" + "\n".join(lines))
    target = dataclasses.replace(target, kernels=tuple(mangled if k.name == name else k for k in target.kernels))
    why = FoldSplitProposer.declined(target)
    candidates = list(FoldSplitProposer().propose(target, []))
    assert isinstance(why, str)
    assert all(c.proposer == "fold-split" and "def run(" in c.source for c in candidates)
