"""Small GPU captures (tests/corpus/cuda-2.11-h200, H200, torch 2.11) run on the CPU and reproduce the
outputs the GPU produced from the same inputs (inputs.pt / outputs.pt next to each module)."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch

from kernelopt.runtime.interpret import install_cpu_triton_shims

install_cpu_triton_shims()

from kernelopt.runtime.execute import run_module  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "cuda-2.11-h200"
# depthwise_conv's max-autotune capture has a Triton convolution template: ~1 min in the interpreter
SLOW = {"depthwise_conv/small.max-autotune-no-cudagraphs"}


def _captures() -> list[Path]:
    found = []
    for directory in sorted(CORPUS.glob("*/small.*")):
        modules = sorted(directory.glob("*.py"))
        if (directory / "inputs.pt").exists() and (directory / "outputs.pt").exists() and len(modules) == 1:
            found.append(modules[0])
    return found


def _tolerance(dtype: torch.dtype) -> dict:
    if dtype in (torch.bfloat16, torch.float16):
        return {"rtol": 2e-2, "atol": 5e-2}
    return {"rtol": 2e-3, "atol": 2e-3}  # fp32 GEMM/conv on the GPU may use TF32


@pytest.mark.parametrize("module", _captures(), ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_gpu_capture_reproduces_gpu_outputs_on_the_cpu(module):
    case = f"{module.parent.parent.name}/{module.parent.name}"
    if case in SLOW:
        pytest.skip("takes about a minute in the Triton interpreter")
    inputs = torch.load(module.parent / "inputs.pt")["args"]
    expected = torch.load(module.parent / "outputs.pt")["outputs"]
    result = run_module(str(module), inputs, "cpu")
    assert len(result["outputs"]) == len(expected)
    for got, want in zip(result["outputs"], expected):
        if isinstance(want, torch.Tensor):
            assert got.shape == want.shape and got.dtype == want.dtype and got.stride() == want.stride()
            torch.testing.assert_close(got, want, equal_nan=True, **_tolerance(want.dtype))


def test_corpus_is_present():
    if not CORPUS.exists():
        pytest.skip("no GPU corpus in this checkout")
    assert _captures()
