"""Issue 20: `kernelopt check` on the CPU prints its verdict and nothing else.

Under the Triton interpreter numpy computes what a GPU computes silently (`0 * inf` in a buffer the gate
poisoned, `inf - inf` in masked-off lanes) and warned `RuntimeWarning: invalid value encountered in
multiply` on every check of a GELU kernel. The interpreter's launches now run with numpy's floating-point
warnings off (kernelopt/runtime/interpret.py); the verdict is the same.
"""
from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MLP = REPO / "tests" / "corpus" / "cpu-2.13" / "mlp" / "small.default" / "mlp.default.0.py"

# The GELU of the MLP through exp, with masked-off lanes loaded as -inf: numpy warns on both the original
# (on the gate's poisoned buffer) and on this (`-inf - -inf`), a GPU on neither.
GELU_CANDIDATE = '''
import triton
import triton.language as tl


@triton.jit
def _gelu(ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(ptr + i, m, other=float("-inf")).to(tl.float32)
    x = x + (x - x) * 0.0 * (i >= n)
    z = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(ptr + i, 0.5 * x * (1.0 + (2.0 / (1.0 + tl.exp(-2.0 * z)) - 1.0)), m)


def run(in_out_ptr0, xnumel):
    _gelu[(triton.cdiv(xnumel, 1000),)](in_out_ptr0, xnumel, BLOCK=1024)
'''


def test_check_on_the_cpu_prints_no_numpy_warning(tmp_path):
    candidate = tmp_path / "gelu.py"
    candidate.write_text(GELU_CANDIDATE)
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "check", str(MLP), "--kernel",
                           "triton_poi_fused_gelu_0", "--candidate", str(candidate)], capture_output=True, text=True,
                          cwd=tmp_path, env=dict(os.environ, TRITON_INTERPRET="1"), timeout=600)
    assert proc.returncode == 0 and proc.stdout.startswith("ACCEPT"), proc.stdout + proc.stderr
    assert "RuntimeWarning" not in proc.stderr and "invalid value encountered" not in proc.stderr, proc.stderr


def test_an_interpreted_launch_computes_nan_silently_and_numpy_still_warns_elsewhere():
    """Only the launches are quieted (as a GPU is): the shims change no global numpy setting."""
    import numpy as np
    import torch

    from kernelopt.runtime import install_cpu_triton_shims

    install_cpu_triton_shims()
    import triton
    import triton.language as tl

    @triton.jit
    def times_zero(ptr):
        offsets = tl.arange(0, 4)
        tl.store(ptr + offsets, tl.load(ptr + offsets) * 0.0)

    x = torch.full((4,), float("inf"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        times_zero[(1,)](x)
    assert torch.isnan(x).all()
    with pytest.warns(RuntimeWarning, match="invalid value"):
        np.float32(np.inf) * np.float32(0)
