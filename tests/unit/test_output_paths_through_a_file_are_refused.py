"""Output paths that run through a file (found by the tenth holdout pass).

`kernelopt optimize model.py -o model.py/out.py` captured the model, then died with a FileExistsError traceback
from mkdir (exit 1); `--report model.py/rep` wrote the module first and then died with NotADirectoryError;
`--keep-work model.py/work` died the same way. Each is now refused before any work, exit 2, saying which file
stands in the way.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

MODEL = '''import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(4, 8)]


def get_init_inputs():
    return []
'''


@pytest.mark.parametrize("arguments", [
    ["optimize", "{model}", "-o", "{model}/out.py"],
    ["optimize", "{model}", "-o", "{tmp}/out.py", "--report", "{model}/deeper/report"],
    ["optimize", "{model}", "-o", "{tmp}/out.py", "--keep-work", "{model}/work"],
    ["optimize", "{model}", "-o", "{tmp}/out.py", "--keep-work", "{model}"],
    ["capture", "{model}", "-o", "{model}/capture"],
])
def test_a_path_through_a_file_is_refused_before_any_work(tmp_path, arguments):
    model = tmp_path / "model.py"
    model.write_text(MODEL)
    argv = [a.format(model=model, tmp=tmp_path) for a in arguments]
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", *argv, "--device", "cpu"], cwd=tmp_path,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=300)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert f"{model} is a file" in proc.stderr, proc.stderr
    assert "graph(s)" not in proc.stderr           # refused before the model was captured
    assert not (tmp_path / "out.py").exists() and model.read_text() == MODEL
