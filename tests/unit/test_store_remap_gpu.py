"""store-remap on the GPU, at the general problem's own size: Inductor's H200 reverse cumulative sum of
[128, 131072] (a split scan with a decoupled look-back, then a flip copy) rewritten into one scan that
stores flipped. The gate, on the GPU, accepts it although the scan's buffer is left unwritten (a scratch
slot), and rejects the same kernel storing unflipped. Skipped without CUDA."""
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

CAPTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general" / "reverse_cumsum"
MODULE = CAPTURE / "reverse_cumsum.default.0.py"
FLIPPED = "131072 * _remap_d0 - 1 * _remap_d1 + 131071"


def test_remapped_split_scan_is_accepted_and_an_unflipped_one_rejected_on_the_gpu():
    module = lift_file(str(MODULE))
    apply_recorded_configs(module, json.loads((CAPTURE / "manifest.json").read_text()))
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = group_target(module, 0)
    assert target is not None, why
    candidate = next(iter(StoreRemapProposer().propose(target, [])))
    assert "R0_BLOCK=2048 num_warps=16" in candidate.strategy     # the capture's autotuner choice
    assert FLIPPED in candidate.source
    evaluator = ModuleEvaluator(str(MODULE), [torch.randn(128, 131072, device="cuda")], device="cuda")
    good = evaluator.evaluate(target, candidate)
    assert good.accepted and good.timed_by == "cuda-events" and good.speedup, good.reason
    unflipped = Candidate(candidate.source.replace(FLIPPED, "131072 * _remap_d0 + _remap_d1"), "test", "unflipped")
    bad = evaluator.evaluate(target, unflipped)
    assert not bad.accepted and bad.reason.startswith("mismatch"), bad.reason
