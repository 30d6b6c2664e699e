"""The torch.compile backend on a real GPU (skipped without one; `bash benchmarks/h200_session.sh gpu_tests`
runs it on the H200): the whole path with GPU timing, the cache across a recompile, and a training step.

Kept small (a retune-only search of a few candidates): these check that the path works on the device, the
figures live in benchmarks/backend_training.py and cuda_graphs_suite.py."""
from __future__ import annotations

import logging
import os

import pytest
import torch

from kernelopt.backend.cache import ModuleCache
from test_dynamo_backend import SiluSoftmax, fresh_dynamo  # noqa: F401 (autouse: a fresh Dynamo and cache per test)

pytestmark = pytest.mark.skipif(not torch.cuda.is_available() or os.environ.get("TRITON_INTERPRET") == "1",
                                reason="needs a CUDA GPU (and Triton compiling for it, not the interpreter)")

QUICK = {"proposers": ["retune"], "max_candidates": 3, "gpu_seconds": 20}
LOGGER = "kernelopt.backend"


def test_inference_on_the_gpu_matches_eager_and_the_recompile_is_cached_on_its_own(caplog):
    model = SiluSoftmax().cuda()
    compiled = torch.compile(model, backend="kernelopt", options=QUICK, dynamic=False)
    for rows in (64, 33):                     # a second shape: Dynamo recompiles, KernelOPT optimizes it too
        x = torch.randn(rows, 1000, device="cuda")
        with caplog.at_level(logging.INFO, logger=LOGGER), torch.no_grad():
            got = compiled(x)
        torch.testing.assert_close(got, model(x), rtol=1e-5, atol=1e-5)
    assert caplog.text.count("running the emitted module") == 2 and len(ModuleCache().entries()) == 2
    torch._dynamo.reset()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER), torch.no_grad():
        torch.compile(model, backend="kernelopt", options=QUICK, dynamic=False)(torch.randn(64, 1000, device="cuda"))
    assert "cache hit" in caplog.text


def test_a_training_step_on_the_gpu_gives_inductors_gradients(caplog):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(), torch.nn.LayerNorm(512)).cuda()
    reference = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(), torch.nn.LayerNorm(512)).cuda()
    reference.load_state_dict(model.state_dict())
    x = torch.randn(128, 256, device="cuda")
    with caplog.at_level(logging.INFO, logger=LOGGER):
        torch.compile(model, backend="kernelopt", options=QUICK)(x).square().mean().backward()
    torch.compile(reference)(x).square().mean().backward()
    assert "(forward)" in caplog.text and "(backward)" in caplog.text
    for ours, theirs in zip(model.parameters(), reference.parameters()):
        torch.testing.assert_close(ours.grad, theirs.grad, rtol=1e-4, atol=1e-5)
