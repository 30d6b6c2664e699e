"""A model file whose own code raises (found by the tenth holdout pass).

A NameError at the file's top level, `get_inputs()` or `Model(...)` raising, or an --entry factory raising ended
`kernelopt optimize` and `kernelopt capture` with a Python traceback through KernelOPT's loader (exit 1); only a
syntax error and a failing forward were said as errors, and the forward's without its line. Each now says
`FILE:LINE: <what> failed: <error>` at the innermost line of the user's file, exit 1, no traceback.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kernelopt.capture import capture
from kernelopt.capture.models import load_model
from kernelopt.errors import InputError

REPO = Path(__file__).resolve().parents[2]

KERNELBENCH_PARTS = '''import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, {out_features})

    def forward(self, x):
        return x @ x{forward_tail}


def get_inputs():
    return [torch.randn(2, 3){inputs_tail}]


def get_init_inputs():
    return [3]
{top_level}'''


def _model_file(tmp_path: Path, name: str, out_features="4", forward_tail=".t()", inputs_tail="",
                top_level="") -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(KERNELBENCH_PARTS.format(out_features=out_features, forward_tail=forward_tail,
                                             inputs_tail=inputs_tail, top_level=top_level))
    return path


@pytest.mark.parametrize("name, parts, expected", [
    ("top_level", {"top_level": "SCALE = undefined_scale * 2\n"},
     ":20: running the file failed: NameError: name 'undefined_scale' is not defined"),
    ("get_inputs", {"inputs_tail": " @ torch.randn(4, 5)"},
     ":15: get_inputs() failed: RuntimeError: mat1 and mat2 shapes cannot be multiplied"),
    ("init", {"out_features": "-1"},
     ":8: Model(*get_init_inputs()) failed: RuntimeError: Trying to create tensor with negative dimension"),
])
def test_an_error_of_the_model_files_own_code_names_its_line(tmp_path, name, parts, expected):
    path = _model_file(tmp_path, name, **parts)
    with pytest.raises(InputError) as failure:
        load_model(str(path), device="cpu", seed=0)
    assert str(failure.value).startswith(str(path) + expected), str(failure.value)


def test_a_failing_factory_names_its_line(tmp_path):
    path = tmp_path / "factory.py"
    path.write_text("import torch\n\n\ndef make():\n    raise ValueError('no weights here')\n")
    with pytest.raises(InputError) as failure:
        load_model(None, entry=f"{path}:make", device="cpu", seed=0)
    assert str(failure.value) == f"{path}:5: the factory make() failed: ValueError: no weights here"


def test_a_forward_failing_in_eager_names_its_line(tmp_path):
    path = _model_file(tmp_path, "forward", forward_tail="")      # x @ x of a [2, 3]
    with pytest.raises(InputError) as failure:
        capture(str(path), tmp_path / "cap", device="cpu", seed=0, store_tensors=False)
    assert str(failure.value).startswith(f"{path}:11: the model's forward fails in eager mode: RuntimeError"), \
        str(failure.value)


def test_the_command_says_it_in_one_line_without_a_traceback(tmp_path):
    path = _model_file(tmp_path, "get_inputs", inputs_tail=" @ torch.randn(4, 5)")
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", str(path), "--device", "cpu",
                           "-o", str(tmp_path / "out.py")], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=300)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert f"{path}:15: get_inputs() failed: RuntimeError" in proc.stderr
    assert not (tmp_path / "out.py").exists()
