"""GPU-only: the CUDA path runs a captured module as is, and the timing helpers measure it.

Each check runs in a fresh process: other test modules switch this one to the CPU interpreter.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "inductor-2.11-h200"
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")]


def _in_fresh_process(body: str) -> None:
    prelude = ("import torch\nfrom pathlib import Path\nfrom kernelopt.runtime.execute import run_module\n"
               "from kernelopt.runtime.loader import load_output_module\n"
               "from kernelopt.runtime.timing import compare, median_time_ms, rotating\n"
               f"FIXTURES = Path({str(FIXTURES)!r})\n")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}  # set by the CPU tests
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(body)], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]


def test_cuda_module_runs_as_is_and_hook_sees_launches():
    _in_fresh_process("""
    module = load_output_module(str(FIXTURES / "ln_gelu.default.0.py"), "cuda")
    seen = []
    module.launch_hook = lambda name, index, args, run: (seen.append(name), run())
    args = module.get_args()
    outputs = module.call(list(args))
    assert outputs and all(o.is_cuda for o in outputs if isinstance(o, torch.Tensor))
    assert seen == [site.kernel_name for site in module.launch_sites]
    """)


def test_timing_compares_two_modules_in_one_process():
    _in_fresh_process("""
    a = load_output_module(str(FIXTURES / "ce.default.0.py"), "cuda")
    b = load_output_module(str(FIXTURES / "ce.max-autotune-no-cudagraphs.0.py"), "cuda")
    args = a.get_args()
    result = compare(rotating(a.call, args), rotating(b.call, args), rounds=2)
    assert result.median_a_ms > 0 and result.median_b_ms > 0
    assert median_time_ms(rotating(a.call, args), reps=5) > 0
    assert run_module(str(FIXTURES / "ce.default.0.py"), None, "cuda")["outputs"][0].numel() == 1
    """)
