"""Candidates, proposers and comparisons shared by the search and pool tests (helpers, not tests)."""
from kernelopt.proposers.base import Candidate
from kernelopt.proposers.retune import RetuneProposer

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
