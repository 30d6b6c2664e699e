"""The CPU shims settle torch's thread pool: in a fresh process the first op torch splits across threads could
compute one thread's share inaccurately (torch.exp of an [8, 1024] float32 block up to 1.5e-4 relative off in
about 1 process in 10 on two threads), and the libdevice shims compute every interpreted exp with torch."""
from __future__ import annotations

import os
import subprocess
import sys

CHILD = """
import torch
from kernelopt.runtime.interpret import install_cpu_triton_shims
install_cpu_triton_shims()
torch.manual_seed(11)
x = (torch.randn(8, 1024) * 3 - 8).clamp(max=0)
got = torch.exp(x)            # the first exp: before the float64 one, which would settle the threads itself
exact = torch.exp(x.double())
print(((got.double() - exact).abs() / exact).max().item())
"""
PROCESSES = 16      # before the fix about 1 process in 10 went wrong on a quiet machine: one of 16 in ~80 %


def _first_exp_error(script) -> float:
    # as a user's script that imports an emitted module starts: TRITON_INTERPRET not set yet (set, the imports
    # before the shims ran a parallel op of their own and the race never showed; so did the test plugin on
    # PYTHONPATH)
    env = {k: v for k, v in os.environ.items() if k not in ("TRITON_INTERPRET", "PYTHONPATH")}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env,
                          cwd=script.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    return float(done.stdout.strip().splitlines()[-1])


def test_the_first_exp_after_the_shims_are_installed_is_accurate_in_every_fresh_process(tmp_path):
    script = tmp_path / "first_exp.py"
    script.write_text(CHILD)
    # one process at a time: two at once on two cores, the race did not show before the fix either
    errors = [_first_exp_error(script) for _ in range(PROCESSES)]
    assert max(errors) < 1e-6, sorted(errors)[-3:]
