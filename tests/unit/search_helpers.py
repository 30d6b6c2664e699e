"""Proposers used by several search tests (a module of helpers, not of tests)."""
from kernelopt.proposers.base import Candidate
from kernelopt.proposers.retune import RetuneProposer


class ZerosThenRetune:
    """A proposer whose first idea writes zeros (the gate must reject it), then retune's configurations."""

    name = "zeros"
    summary = "test proposer"

    def propose(self, target, history):
        if not history:
            yield Candidate("import torch\n\ndef run(in_out_ptr0, xnumel):\n    in_out_ptr0.zero_()\n",
                            self.name, "write zeros")
        yield from RetuneProposer().propose(target, history)
