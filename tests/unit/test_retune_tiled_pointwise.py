"""retune on pointwise kernels tiled in two dimensions (YBLOCK x XBLOCK: the layout changes around a conv). A torch
2.13 CPU capture of conv -> mean over channels -> sigmoid (`tests/fixtures/tiled-pointwise-cpu-2.13`) has two:
6 x 400 and 48 x 9, neither a multiple of the tiles, so every tile runs masked edges. retune offered nothing
for them before; its candidates must pass the gate on the module's own launches."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from kernelopt.lift import lift_file
from kernelopt.proposers.retune import RetuneProposer
from kernelopt.rewrite.evaluate import ModuleEvaluator
from kernelopt.rewrite.targets import kernel_target

MODULE = Path(__file__).resolve().parents[1] / "fixtures" / "tiled-pointwise-cpu-2.13" / "conv_mean_channels_sigmoid.py"
TILED = ["triton_poi_fused_convolution_0", "triton_poi_fused_convolution_1"]

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


@pytest.fixture(scope="module")
def lifted():
    module = lift_file(str(MODULE))
    return module, ModuleEvaluator.for_module(module, None, "cpu")


@pytest.mark.parametrize("kernel", TILED)
def test_tiled_pointwise_kernels_get_tiles_that_pass_the_gate(lifted, kernel):
    module, evaluator = lifted
    target = kernel_target(module, kernel)
    candidates = list(RetuneProposer().propose(target, []))
    assert len(candidates) >= 4, [c.strategy for c in candidates]
    tiles = {(dict(c.launch_config)["XBLOCK"], dict(c.launch_config)["YBLOCK"]) for c in candidates}
    assert len(tiles) >= 3, tiles
    for candidate in candidates[::2]:
        evaluation = evaluator.evaluate(target, candidate)
        assert evaluation.accepted, f"{candidate.strategy}: {evaluation.reason}"
