"""On a GPU, a capture past its device byte limit is kept on the host (pinned) and the gate and the timing
still run on the GPU: the real-sizes path (issue 18) that keeps a multi-GB input's launch copies off the
device. Forced here on a small module by KERNELOPT_CAPTURE_DEVICE_BYTES=0. Skipped without CUDA."""
from pathlib import Path

import pytest
import torch

from kernelopt.lift import lift_file
from kernelopt.rewrite.evaluate import ModuleEvaluator
from kernelopt.rewrite.targets import kernel_target
from search_helpers import ZEROS, widest_retunes

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

CAPTURE = Path(__file__).resolve().parents[1] / "corpus" / "cuda-2.11-h200" / "mlp" / "small.default"
MODULE = CAPTURE / "mlp.default.0.py"
GELU = "triton_poi_fused_gelu_0"


def _evaluator(monkeypatch, limit: str) -> ModuleEvaluator:
    monkeypatch.setenv("KERNELOPT_CAPTURE_DEVICE_BYTES", limit)
    inputs = [a.cuda() if isinstance(a, torch.Tensor) else a for a in torch.load(CAPTURE / "inputs.pt")["args"]]
    return ModuleEvaluator(str(MODULE), inputs, device="cuda")


def test_a_parked_capture_gives_the_same_verdicts_as_one_on_the_device(monkeypatch):
    target = kernel_target(lift_file(str(MODULE)), GELU)
    retune = widest_retunes(target)[0]
    parked = _evaluator(monkeypatch, "0")
    captured = [a for launch in parked.capture.launches for a in launch.args if isinstance(a, torch.Tensor)]
    assert captured and all(a.device.type == "cpu" for a in captured)
    assert all(a.is_pinned() for a in captured if a.is_contiguous())     # pinned: copied back at full speed
    assert parked.capture.store.parked == sum(a.numel() * a.element_size() for a in captured)
    launches = parked.launch_inputs(target)
    assert all(launch.run_device().type == "cuda" for launch in launches)

    on_device = _evaluator(monkeypatch, "1GiB")
    for evaluator in (parked, on_device):
        good, bad = evaluator.evaluate(target, retune), evaluator.evaluate(target, ZEROS)
        assert good.accepted and good.timed_by == "cuda-events" and good.speedup, good.reason
        assert not bad.accepted and bad.reason.startswith("mismatch"), bad.reason
