"""Values the search cannot use (found by the tenth holdout pass).

`kernelopt optimize --max-candidates -1` and `options={"max_candidates": -1}` ran the whole job and searched
nothing ("0 rewrite(s) accepted", exit 0); `kernelopt-opt -p "agentic-rewrite{cost-model=wrong}"` timed as
`measure` and `{max-candidates=-1}` searched nothing, without a word. Each is a usage error now (exit 2).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from kernelopt.backend.options import backend_options
from kernelopt.errors import UsageError
from kernelopt.passes.pipeline import parse_pipeline

REPO = Path(__file__).resolve().parents[2]


def test_the_optimize_command_refuses_a_negative_candidate_count_before_any_work(tmp_path):
    model = tmp_path / "relu.py"
    model.write_text("import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x.relu()\n"
                     "def get_inputs():\n    return [torch.randn(4)]\ndef get_init_inputs():\n    return []\n")
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", str(model), "--device", "cpu",
                           "--max-candidates", "-1", "-o", str(tmp_path / "out.py")], cwd=tmp_path,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=300)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "--max-candidates must be >= 0, got -1" in proc.stderr
    assert not (tmp_path / "out.py").exists()


def test_the_backend_refuses_a_negative_candidate_count():
    with pytest.raises(UsageError, match=r"torch.compile\(backend='kernelopt'\): --max-candidates must be >= 0"):
        backend_options({"max_candidates": -1})
    assert backend_options({"max_candidates": 0}).max_candidates == 0      # 0: no candidate, as asked


@pytest.mark.parametrize("pipeline, message", [
    ("agentic-rewrite{cost-model=wrong}", "cost-model must be one of measure, static, got 'wrong'"),
    ("agentic-rewrite{max-candidates=-1}", "max-candidates must be >= 0, got -1"),
    ("agentic-rewrite{gpu-seconds=-5}", "gpu-seconds must be >= 0, got -5"),
])
def test_a_pipeline_with_an_unusable_search_option_is_refused(pipeline, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(")):
        parse_pipeline(pipeline)


def test_torch_compile_reports_the_refusal():
    torch._dynamo.reset()
    compiled = torch.compile(torch.nn.ReLU(), backend="kernelopt", options={"max_candidates": -1})
    with pytest.raises(Exception, match="--max-candidates must be >= 0"):
        compiled(torch.randn(3))
    torch._dynamo.reset()
