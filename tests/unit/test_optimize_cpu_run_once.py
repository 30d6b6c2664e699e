"""Without a GPU no guard times the written module: it is run once under Triton's interpreter beside the Inductor
module, and a module that fails to run (or returns other outputs) is not written; Inductor's is.

On the diagonal-GEMM fixture (a torch 2.13 CPU capture): the module `kernelopt emit` writes for it runs; the same
module with a launch of a name it does not define, or returning an output of another dtype, is refused with the
reason, and the job's step writes the Inductor module instead."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
import torch

from row_loop_helpers import REPO

from kernelopt import guard
from kernelopt.optimize_job import Steps, _cpu_run_step

MODULE = REPO / "tests" / "fixtures" / "diagonal-gemm-cpu-2.13" / "diag_left.py"
pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


@pytest.fixture(scope="module")
def emitted(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("emit") / "emitted.py"
    done = subprocess.run([sys.executable, "-m", "kernelopt.cli", "emit", str(MODULE), "-o", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out.read_text()


def _inputs() -> list:
    return [torch.randn(40), torch.randn(40, 33)]


def _write(tmp_path, source: str):
    path = tmp_path / "written.py"
    path.write_text(source)
    return str(path)


def test_the_emitted_module_runs_beside_the_original(emitted, tmp_path):
    assert guard.run_once_on_cpu(str(MODULE), _write(tmp_path, emitted), _inputs()) == ""


@pytest.mark.parametrize("break_it, why", [
    (lambda s: s.replace("launch_triton_poi_fused_diag_embed_0(", "launch_nowhere(", 1), "NameError"),
    (lambda s: s.replace("return (buf1, )", "return (buf1.double(), )"), "torch.float64 [40, 33]"),
    (lambda s: s.replace("return (buf1, )", "return (buf1, buf1)"), "returns 2 outputs, the original 1"),
], ids=["undefined-launch", "other-dtype", "other-count"])
def test_a_written_module_that_does_not_run_as_the_original_is_refused_for_inductor_s(emitted, tmp_path,
                                                                                      break_it, why):
    broken = break_it(emitted)
    assert broken != emitted
    assert why in guard.run_once_on_cpu(str(MODULE), _write(tmp_path, broken), _inputs())
    log = io.StringIO()
    steps = Steps(log)
    written = _cpu_run_step(broken, str(MODULE), _inputs(), tmp_path, steps)
    assert written == MODULE.read_text()
    assert steps.records[-1].name == "run-once" and steps.records[-1].detail.startswith("REJECT")
    assert "the Inductor module is written instead" in log.getvalue()


def test_inputs_too_large_to_interpret_are_not_run(emitted, tmp_path):
    steps = Steps(None)
    large = [torch.randn(40), torch.randn(guard.RUN_ONCE_MAX_ELEMENTS + 1)]
    assert _cpu_run_step("not python at all", str(MODULE), large, tmp_path, steps) == "not python at all"
    assert steps.records[-1].status == "skipped" and "more than" in steps.records[-1].detail


def test_inputs_the_original_itself_refuses_skip_the_check(emitted, tmp_path):
    # a layout the Inductor module's own assert_size_stride refuses: nothing to compare with, so the step says
    # so and the emitted module is written (the legality gate checked its rewrites on the captured launches)
    steps = Steps(None)
    transposed = [torch.randn(40), torch.randn(33, 40).t()]
    assert _cpu_run_step(emitted, str(MODULE), transposed, tmp_path, steps) == emitted
    assert steps.records[-1].status == "skipped" and "does not run on these inputs" in steps.records[-1].detail

