"""Candidates, proposers, the capture and comparisons shared by the search and pool tests (helpers, not tests)."""
from pathlib import Path

import pytest

from kernelopt.proposers.base import Candidate
from kernelopt.proposers.retune import RetuneProposer

# The CPU capture of the mlp model and its GELU kernel: small enough for the Triton interpreter.
CAPTURE = Path(__file__).resolve().parents[1] / "corpus" / "cpu-2.13" / "mlp" / "small.default"
MODULE = CAPTURE / "mlp.default.0.py"
INPUTS = CAPTURE / "inputs.pt"
GELU = "triton_poi_fused_gelu_0"


@pytest.fixture(autouse=True)
def interpreter(monkeypatch, tmp_path):
    """Import it into a test module to run every test there on the interpreter with a private cache."""
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))


# A wrong candidate for the mlp capture's GELU kernel: it writes zeros (the gate says "mismatch").
ZEROS = Candidate("import torch\n\ndef run(in_out_ptr0, xnumel):\n    in_out_ptr0.zero_()\n", "zeros", "write zeros")


class ZerosThenRetune:
    """A proposer whose first idea writes zeros (the gate must reject it), then retune's configurations."""

    name = "zeros"
    summary = "test proposer"

    def propose(self, target, history):
        if not history:
            yield ZEROS
        yield from RetuneProposer().propose(target, history)


def verdict(evaluation) -> tuple:
    """What two evaluations of one candidate must agree on: accepted, the failing check, the speedup."""
    return evaluation.accepted, evaluation.reason.split(":")[0], evaluation.speedup
