"""The legality gate on a split scan (Inductor's `triton_spl_` kernel: a row's chunks chain their carries through a
workspace the module allocates, zeroes, passes and frees). A torch 2.13 CPU capture of a cumsum over the middle
dim of [2, 600, 3] (`tests/fixtures/split-scan-cpu-2.13`), launched at Inductor's smallest chunk (256): three
chunks a column, the last masked. Two things rejected every retune of it: the float64 reference needed three
times the workspace and was dropped, and the workspace was compared like an output, so a candidate with fewer
chunks "left it unwritten"."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

from kernelopt.lift import lift_file
from kernelopt.proposers.retune import RetuneProposer
from kernelopt.rewrite.evaluate import ModuleEvaluator
from kernelopt.rewrite.targets import kernel_target

MODULE = Path(__file__).resolve().parents[1] / "fixtures" / "split-scan-cpu-2.13" / "cumsum_middle_dim.py"
SCAN = "triton_spl_fused_cumsum_0"

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


@pytest.fixture(scope="module")
def scan():
    module = lift_file(str(MODULE))
    return module, kernel_target(module, SCAN), ModuleEvaluator.for_module(module, None, "cpu")


def test_the_workspace_is_the_scans_scratch_and_its_outputs_are_not(scan):
    _, target, _ = scan
    names = [a.name for a in target.launches[0].args]
    assert [names[i] for i in target.scratch_args] == ["ws_ptr"]


def test_the_float64_reference_of_a_scan_at_three_chunks_a_row_runs_and_is_float64_exact(scan):
    _, target, evaluator = scan
    reference = evaluator.reference_runner(target)
    assert reference is not None
    args = list(evaluator.launch_inputs(target)[0].args)
    x = torch.randn(2, 600, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(7))
    given = x.float() if getattr(reference, "native_inputs", False) else x
    out = torch.full((2, 600, 3), float("nan"), dtype=torch.float64)
    reference(given, out, torch.zeros_like(args[2]), *args[3:])
    torch.testing.assert_close(out, torch.cumsum(given.double(), 1), rtol=1e-12, atol=1e-12)


def test_a_retune_to_one_chunk_a_row_passes_the_gate(scan):
    _, target, evaluator = scan
    candidate = next(c for c in RetuneProposer().propose(target, []) if dict(c.launch_config)["R0_BLOCK"] == 1024)
    evaluation = evaluator.evaluate(target, candidate)
    assert evaluation.accepted, evaluation.reason


def test_timing_zeroes_the_workspace_before_every_run_as_each_call_of_the_module_does(scan):
    """The module zeroes the workspace before each scan; the scan's programs wait on the flags in it. Timed
    back to back on one copy of the arguments, the second run found the flags the first had published, so on
    a GPU no program waited for its predecessor: a scan no call runs (a store-remapped exclusive cumsum timed
    1.295x faster so, and its module ran 1.16x slower than Inductor's; H100, 2026-12-06). Timing now zeroes
    the slots the module zeroes, on both sides alike, and nothing else."""
    from kernelopt.rewrite.evaluate import zeroing_before

    _, target, evaluator = scan
    names = [a.name for a in target.launches[0].args]
    assert [names[i] for i in target.zeroed_args] == ["ws_ptr"]
    args = [a.clone() if isinstance(a, torch.Tensor) else a for a in evaluator.launch_inputs(target)[0].args]
    workspace, source = args[target.zeroed_args[0]], args[0]
    scan_run = evaluator.timing_runner(target)
    flags_on_entry = []

    def recorded(*run_args):
        flags_on_entry.append(int(run_args[target.zeroed_args[0]].count_nonzero()))
        scan_run(*run_args)

    before = source.clone()
    timed = zeroing_before(recorded, args, target.zeroed_args)
    for _ in range(3):
        timed()
        assert workspace.count_nonzero() > 0      # the scan published its chunks' carries
    assert flags_on_entry == [0, 0, 0]
    assert torch.equal(source, before)            # what the module does not zero stays as it was
    untouched = zeroing_before(recorded, args, ())
    untouched()
    assert flags_on_entry[-1] > 0                 # without the slot, the last run's flags are still there
