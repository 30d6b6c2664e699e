"""store-remap on the GPU, at the general problems' own sizes: Inductor's H200 reverse cumulative sum of
[128, 131072] (a split scan with a decoupled look-back, then a flip copy) rewritten into one scan that
stores flipped, and its exclusive cumulative sum of [128, 262144] (the scan, then a copy that shifts it
right by one and pads with 0) into one scan that stores shifted. The gate, on the GPU, accepts each
although the scan's buffer is left unwritten (a scratch slot), and rejects the same kernel storing
unmoved. Skipped without CUDA."""
import json
from pathlib import Path

import pytest
import torch

from kernelopt.codegen.configs import apply_recorded_configs
from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.base import Candidate
from kernelopt.proposers.store_remap import StoreRemapProposer
from kernelopt.rewrite.evaluate import ModuleEvaluator
from kernelopt.rewrite.targets import group_target

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"


# the unmoved exclusive scan keeps its mask, so it leaves the last column unwritten
@pytest.mark.parametrize("problem, length, moved, unmoved, rejected_as", [
    ("reverse_cumsum", 131072, "131072 * _remap_d0 - 1 * _remap_d1 + 131071", "131072 * _remap_d0 + _remap_d1",
     "mismatch"),
    ("exclusive_cumsum", 262144, "262144 * _remap_d0 + 1 * _remap_d1 + 1", "262144 * _remap_d0 + _remap_d1",
     "unwritten"),
])
def test_remapped_split_scan_is_accepted_and_an_unmoved_one_rejected_on_the_gpu(problem, length, moved, unmoved,
                                                                                rejected_as):
    CAPTURE = GENERAL / problem
    MODULE = CAPTURE / f"{problem}.default.0.py"
    module = lift_file(str(MODULE))
    apply_recorded_configs(module, json.loads((CAPTURE / "manifest.json").read_text()))
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = group_target(module, 0)
    assert target is not None, why
    candidate = next(iter(StoreRemapProposer().propose(target, [])))
    assert "R0_BLOCK=2048 num_warps=16" in candidate.strategy     # the capture's autotuner choice
    assert moved in candidate.source
    evaluator = ModuleEvaluator(str(MODULE), [torch.randn(128, length, device="cuda")], device="cuda")
    good = evaluator.evaluate(target, candidate)
    assert good.accepted and good.timed_by == "cuda-events" and good.speedup, (good.reason, good.evidence)
    bad = evaluator.evaluate(target, Candidate(candidate.source.replace(moved, unmoved), "test", "unmoved"))
    assert not bad.accepted and bad.reason.startswith(rejected_as), bad.reason
