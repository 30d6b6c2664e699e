"""The legality gate's worker pool closes its socket when closed (found by the tenth holdout pass).

`WorkerPool.close()` ended the zygote and removed its folder but left its socket and connection open until the
garbage collector found them: every process that ran a search (kernelopt.optimize of a model with a graph break,
a torch.compile backend) ended with "ResourceWarning: unclosed <socket.socket ...>" under `-W default`, and a
closed pool held two descriptors.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kernelopt.legality.sandbox import WorkerPool

REPO = Path(__file__).resolve().parents[2]


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_closed_pool_holds_no_descriptor_and_starts_again():
    before = _open_descriptors()
    pool = WorkerPool("cpu")
    try:
        for _ in range(2):
            pool.launch()
            pool.start()
            assert _open_descriptors() > before
            pool.close()
            assert _open_descriptors() == before
    finally:
        pool.close()


def test_a_process_that_used_the_pool_exits_without_a_resource_warning(tmp_path):
    code = ("from kernelopt.legality.sandbox import default_pool\n"
            "pool = default_pool('cpu')\npool.launch()\npool.start()\n")
    proc = subprocess.run([sys.executable, "-W", "always::ResourceWarning", "-c", code], cwd=tmp_path,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "ResourceWarning" not in proc.stderr, proc.stderr[-2000:]
