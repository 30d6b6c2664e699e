"""Fresh captures on the CPU (Inductor's Triton backend under the Triton interpreter), every CI run.

Each capture must reproduce eager PyTorch, and the saved output module, loaded on its own and called
with the saved inputs.pt, must give the saved outputs.pt.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from kernelopt.capture import capture
from kernelopt.capture.models import load_model, missing_requirements, _import_file

REPO = Path(__file__).resolve().parents[2]
ZOO = REPO / "tests" / "zoo"
FAST = ["mlp", "ln_gelu", "rmsnorm", "softmax", "cross_entropy", "kl_div", "zloss", "groupnorm_silu",
        "embedding_pos", "depthwise_conv", "rms_swiglu"]
SLOW = ["transformer_block", "vit", "conv_bn_relu", "adaln_modulate", "gpt2"]
RANDOM_SEEDS = range(6)


def load_output_module(path: Path):
    """Import a saved Inductor output module the way a user of the corpus would."""
    spec = importlib.util.spec_from_file_location(f"captured_{path.stem.replace('.', '_').replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_close(got, want, dtype):
    tol = {torch.bfloat16: 2e-2, torch.float16: 5e-3}.get(dtype, 1e-4)
    torch.testing.assert_close(got, want, rtol=tol, atol=tol)


def check_replay(directory: Path, manifest: dict) -> None:
    """The saved module + inputs.pt reproduce outputs.pt (the contract the lifter and optimizer rely on)."""
    inputs = torch.load(directory / "inputs.pt")
    outputs = torch.load(directory / "outputs.pt")
    graph = manifest["graphs"][0]
    assert len(inputs["args"]) == len(graph["arguments"])
    module = load_output_module(directory / graph["module"])
    replayed = module.call(list(inputs["args"]))
    replayed = [replayed] if isinstance(replayed, torch.Tensor) else list(replayed)
    assert len(replayed) == len(outputs["outputs"])
    for got, want in zip(replayed, outputs["outputs"]):
        assert_close(got, want, want.dtype)


def capture_zoo(name: str, tmp_path: Path) -> tuple[Path, dict]:
    path = ZOO / f"{name}.py"
    if missing_requirements(_import_file(path)):
        pytest.skip(f"{name} needs {missing_requirements(_import_file(path))}")
    result = capture(str(path), tmp_path / name, device="cpu", seed=0)
    return result.directory, result.manifest


@pytest.mark.parametrize("name", FAST)
def test_small_zoo_model_capture_reproduces_eager(name, tmp_path):
    directory, manifest = capture_zoo(name, tmp_path)
    assert manifest["matches_eager"]["ok"], manifest["matches_eager"]
    check_replay(directory, manifest)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_slower_small_zoo_model_capture_reproduces_eager(name, tmp_path):
    directory, manifest = capture_zoo(name, tmp_path)
    assert manifest["matches_eager"]["ok"], manifest["matches_eager"]
    check_replay(directory, manifest)


@pytest.mark.parametrize("seed", RANDOM_SEEDS)
def test_random_model_capture_reproduces_eager(seed, tmp_path):
    result = capture(None, tmp_path / f"random{seed}", entry="kernelopt.capture.random_models:factory",
                     device="cpu", seed=seed)
    assert result.manifest["matches_eager"]["ok"], result.manifest["matches_eager"]
    assert any(g["kernels"] for g in result.manifest["graphs"]), "a random model has Triton kernels to lift"
    check_replay(result.directory, result.manifest)


def test_cli_capture_end_to_end(tmp_path):
    out = tmp_path / "ce"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "kernelopt.cli", "capture", str(ZOO / "cross_entropy.py"), "--device", "cpu",
         "--seed", "3", "-o", str(out)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "captured cross_entropy" in proc.stdout
    manifest = json.loads((out / "manifest.json").read_text())

    for key in ("name", "mode", "size", "environment", "forward_inputs", "input_ranges", "graphs",
                "model_outputs", "matches_eager", "recipe", "files"):
        assert key in manifest
    assert manifest["mode"] == "default" and manifest["size"] == "small"
    assert manifest["environment"]["torch"] == torch.__version__
    assert manifest["input_ranges"] == {"1": [0, 512]}
    assert manifest["recipe"]["seed"] == 3
    for name in manifest["files"]:
        assert (out / name).is_file(), name
    graph = manifest["graphs"][0]
    assert graph["module"] == "cross_entropy.default.0.py"
    assert graph["kernels"], "Triton kernels listed"

    # outputs.pt holds what eager PyTorch computes for the same seed
    model, inputs, _ = load_model(str(ZOO / "cross_entropy.py"), device="cpu", seed=3)
    with torch.no_grad():
        eager = model(*inputs)
    saved = torch.load(out / "outputs.pt")
    torch.testing.assert_close(saved["model_outputs"][0], eager, rtol=1e-5, atol=1e-5)

    # the argument mapping says which call() argument is which forward input
    args = torch.load(out / "inputs.pt")["args"]
    for entry in graph["arguments"]:
        assert entry["kind"] == "input"
        assert torch.equal(args[entry["index"]], inputs[entry["position"]])


def test_cli_maps_parameters_to_call_arguments(tmp_path):
    result = capture(str(ZOO / "mlp.py"), tmp_path / "mlp", device="cpu", seed=1)
    model, inputs, _ = load_model(str(ZOO / "mlp.py"), device="cpu", seed=1)
    args = torch.load(result.directory / "inputs.pt")["args"]
    params = dict(model.named_parameters())
    kinds = set()
    for entry in result.manifest["graphs"][0]["arguments"]:
        kinds.add(entry["kind"])
        want = params[entry["name"]] if entry["kind"] == "parameter" else inputs[entry["position"]]
        assert torch.equal(args[entry["index"]], want)
    assert kinds == {"parameter", "input"}


def test_cli_errors_are_messages_not_tracebacks(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nclass Model(torch.nn.Module):\n    pass\n")
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "capture", str(bad), "-o", str(tmp_path / "o")],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "missing get_init_inputs" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "capture", "-o", str(tmp_path / "o")],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


_INSTANCE_NORM = '''import torch
from torch import nn
class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.norm = nn.InstanceNorm2d(features)
    def forward(self, x):
        return self.norm(x)
def get_inputs():
    return [torch.randn(3, 5, 37, 41)]
def get_init_inputs():
    return [5]
'''


def test_a_capture_leaves_no_full_size_tensor_behind(tmp_path):
    """After capture returns, the only tensors of the input's size still alive are the arguments it
    hands back: Dynamo's cache keeps the recording backend for the life of the process, and it held the
    forward's input and output (at real sizes 14 GiB per capture, twice for --base best; issue 18)."""
    import gc

    model = tmp_path / "inorm.py"
    model.write_text(_INSTANCE_NORM)
    numel = 3 * 5 * 37 * 41
    kept = []
    for mode in ("default", "max-autotune-no-cudagraphs"):
        result = capture(str(model), tmp_path / mode, size="large", mode=mode, device="cpu",
                         store_tensors=False, time_runs=False)
        kept += [a.untyped_storage().data_ptr() for a in result.arg_values if isinstance(a, torch.Tensor)]
        del result
    gc.collect()
    alive = {t.untyped_storage().data_ptr() for t in gc.get_objects()
             if type(t) is torch.Tensor and t.numel() == numel}
    assert alive <= set(kept), f"{len(alive - set(kept))} full-size tensor(s) left behind"
