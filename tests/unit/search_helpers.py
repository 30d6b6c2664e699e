"""Candidates, proposers, the capture, comparisons and a CPU optimize run shared by tests (helpers, not tests)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from kernelopt.proposers.base import Candidate
from kernelopt.proposers.retune import RetuneProposer

# The CPU capture of the mlp model and its GELU kernel: small enough for the Triton interpreter.
CAPTURE = Path(__file__).resolve().parents[1] / "corpus" / "cpu-2.13" / "mlp" / "small.default"
MODULE = CAPTURE / "mlp.default.0.py"
INPUTS = CAPTURE / "inputs.pt"
GELU = "triton_poi_fused_gelu_0"
REPO = Path(__file__).resolve().parents[2]


def optimize_on_the_cpu(model: Path, folder: Path) -> subprocess.CompletedProcess:
    """`kernelopt optimize MODEL` in a fresh process on the CPU (interpreter, static cost model, two retunes at
    most), its cache and module written in `folder`."""
    env = dict(os.environ, PYTHONPATH=str(REPO), TRITON_INTERPRET="1", KERNELOPT_CACHE_DIR=str(folder / "cache"))
    return subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", str(model), "--device", "cpu",
                           "--cost-model", "static", "--proposers", "retune", "--max-candidates", "2",
                           "-o", str(folder / "out.py")],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def optimize_with_proposer(problem: Path, proposer: str, folder: Path, **env_extra: str) -> str:
    """`kernelopt optimize PROBLEM -o out.py --report report` on the CPU with `proposer`'s first candidate alone
    (interpreter, static cost model, Inductor default as the base), in `folder`; the report's markdown. A nonzero
    exit fails the test with kernelopt's messages."""
    env = dict(os.environ, TRITON_INTERPRET="1", KERNELOPT_CACHE_DIR=str(folder / "cache"), **env_extra)
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", str(problem), "-o", "out.py",
                           "--device", "cpu", "--cost-model", "static", "--proposers", proposer,
                           "--max-candidates", "1", "--base", "default", "--report", "report"],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return (folder / "report" / "report.md").read_text()


def problem_model(problem: Path, seed: int = 0):
    """A KernelBench-style problem file's Model(), its parameters drawn after torch.manual_seed(seed)."""
    namespace: dict = {}
    exec(compile(problem.read_text(), str(problem), "exec"), namespace)
    torch.manual_seed(seed)
    return namespace["Model"](*namespace.get("get_init_inputs", list)())


def optimized_call(problem, proposer: str, folder, strategy: str, gone: str, shape: tuple[int, ...]) -> str:
    """`kernelopt optimize` of `problem` with `proposer` alone through the gate: its report names `strategy` and an
    ACCEPT, the written call() no longer has `gone`, and the written module gives the model's results on fresh
    inputs of `shape`. The written call()'s source, for more checks."""
    import kernelopt  # lazy: loads the API only where a test needs it

    report = optimize_with_proposer(problem, proposer, folder)
    assert strategy in report and "ACCEPT" in report, report
    written = (folder / "out.py").read_text().split("def call(", 1)[1]
    assert gone not in written
    model = problem_model(problem)
    fast = kernelopt.load(str(folder / "out.py"), model)
    x = torch.randn(*shape)
    with torch.no_grad():
        torch.testing.assert_close(fast(x), model(x), rtol=1e-5, atol=1e-5)
    return written


@pytest.fixture(autouse=True)
def interpreter(monkeypatch, tmp_path):
    """Import it into a test module to run every test there on the interpreter with a private cache."""
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))


# A wrong candidate for the mlp capture's GELU kernel: it writes zeros (the gate says "mismatch").
ZEROS = Candidate("import torch\n\ndef run(in_out_ptr0, xnumel):\n    in_out_ptr0.zero_()\n", "zeros", "write zeros")


def _block_elements(candidate: Candidate) -> int:
    elements = 1
    for value in re.findall(r"BLOCK=(\d+)", candidate.strategy):
        elements *= int(value)
    return elements


def widest_retunes(target, history=()) -> list[Candidate]:
    """Retune's candidates, the widest blocks first (stable otherwise). The interpreter runs a kernel's
    programs one after another, so the widest block (the fewest programs) is the fastest to check on
    the CPU: XBLOCK=1024 checks about 10x faster than retune's first idea, XBLOCK=64. What the search
    and pool tests assert (the same verdicts, attempts and best candidate however the work is spread)
    does not depend on which configurations are tried."""
    return sorted(RetuneProposer().propose(target, list(history)), key=_block_elements, reverse=True)


class WidestRetune:
    """Retune, proposing its candidates widest block first (see widest_retunes)."""

    name = "retune"
    summary = "test proposer: retune, widest blocks first"

    def propose(self, target, history):
        yield from widest_retunes(target, history)


class ZerosThenRetune:
    """A proposer whose first idea writes zeros (the gate must reject it), then retune's configurations
    (widest blocks first, see widest_retunes)."""

    name = "zeros"
    summary = "test proposer"

    def propose(self, target, history):
        if not history:
            yield ZEROS
        yield from widest_retunes(target, history)


def verdict(evaluation) -> tuple:
    """What two evaluations of one candidate must agree on: accepted, the failing check, the speedup."""
    return evaluation.accepted, evaluation.reason.split(":")[0], evaluation.speedup
