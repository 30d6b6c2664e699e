"""On the GPU the evaluator's original runs at the configuration the capture recorded: Inductor's
autotuner is pinned before the module's first run, so it neither benchmarks its configurations again nor
picks another one than the capture did (a split scan or a split reduction would then combine in another
order than the candidates built from its code). Skipped without CUDA."""
from pathlib import Path

import pytest
import torch

from kernelopt.rewrite.evaluate import ModuleEvaluator

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

CAPTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general" / "exclusive_cumsum"
MODULE = CAPTURE / "exclusive_cumsum.default.0.py"
PAD = "triton_poi_fused_constant_pad_nd_slice_1"      # Inductor gave it two configurations


@pytest.mark.parametrize("xblock, warps", [(512, 8), (1024, 4)])
def test_the_evaluator_runs_each_kernel_at_its_recorded_configuration(xblock, warps):
    recorded = {PAD: {"XBLOCK": xblock, "num_warps": warps, "num_stages": 1, "grid": "unused"}}
    evaluator = ModuleEvaluator(str(MODULE), [torch.randn(128, 262144, device="cuda")], device="cuda",
                                recorded_configs=recorded)
    autotuner = evaluator.loaded.kernels[PAD].target
    chosen = [(launcher.config.kwargs["XBLOCK"], launcher.config.num_warps) for launcher in autotuner.launchers]
    assert chosen == [(xblock, warps)]


def test_a_recorded_configuration_the_autotuner_lacks_is_compiled_and_pinned():
    """Max-autotune's coordinate descent records configurations outside Inductor's list (the H100's split scan:
    R0_BLOCK=4096 with 16 warps); the evaluator compiles a launcher for it and the first run keeps it."""
    recorded = {PAD: {"XBLOCK": 64, "num_warps": 1, "num_stages": 1}}       # not one of Inductor's two
    evaluator = ModuleEvaluator(str(MODULE), [torch.randn(128, 262144, device="cuda")], device="cuda",
                                recorded_configs=recorded)
    assert evaluator.unpinned == []
    launchers = evaluator.loaded.kernels[PAD].target.launchers
    assert [(la.config.kwargs["XBLOCK"], la.config.num_warps) for la in launchers] == [(64, 1)]


def test_a_recorded_configuration_that_does_not_compile_is_named():
    recorded = {PAD: {"XBLOCK": 1024, "num_warps": 3, "num_stages": 1}}     # warps must be a power of 2
    evaluator = ModuleEvaluator(str(MODULE), [torch.randn(128, 262144, device="cuda")], device="cuda",
                                recorded_configs=recorded)
    assert evaluator.unpinned == [PAD]


def test_a_warm_autotune_cache_does_not_stop_the_pin():
    """Inductor caches its autotuner's pick beside the kernel; a later load of the same module then lists
    only that pick. The evaluator must still run the configuration the capture recorded."""
    from kernelopt.runtime.loader import load_output_module

    x = torch.randn(128, 262144, device="cuda")
    plain = load_output_module(str(MODULE), "cuda", hooks=False)
    plain.call([x.clone()])                                   # autotunes the pad kernel, caches its pick
    picked = plain.kernels[PAD].target.launchers[0].config
    other = {(1024, 4): (512, 8), (512, 8): (1024, 4)}[(picked.kwargs["XBLOCK"], picked.num_warps)]
    recorded = {PAD: {"XBLOCK": other[0], "num_warps": other[1], "num_stages": 1}}
    evaluator = ModuleEvaluator(str(MODULE), [x], device="cuda", recorded_configs=recorded)
    launchers = evaluator.loaded.kernels[PAD].target.launchers
    assert [(la.config.kwargs["XBLOCK"], la.config.num_warps) for la in launchers] == [other]
    assert evaluator.unpinned == []
