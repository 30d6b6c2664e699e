"""retune on Inductor's split scans (`triton_spl_`): a row's chunks chain their carries through a zeroed
workspace, and the chunk size (R0_BLOCK) and warps are what Inductor's noisy autotuner picks among (a capture on
an H100 recorded R0_BLOCK=4096 with 16 warps, 1.2x slower than the 8192 with 4 warps a fresh process picked).
The search times them itself: its first round sees every chunk size, and each candidate, run under the
interpreter on the real kernel (cut to 2 rows of 32768), gives the scan."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
import torch

from kernelopt.inductor_source import shrink_sizes
from kernelopt.lift import lift_file
from kernelopt.proposers.retune import RetuneProposer
from kernelopt.proposers.store_remap import _configs
from kernelopt.rewrite.evaluate import load_candidate
from kernelopt.rewrite.targets import kernel_target

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"
MODULE = GENERAL / "cumsum_long_rows" / "cumsum_long_rows.default.0.py"
SCAN = "triton_spl_fused_cumsum_0"
ROWS, LENGTH = 2, 32768         # the fixture's 128 rows of 262144, cut (each chunk size still divides a row)

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


def _target(rows: int | None = None):
    target = kernel_target(lift_file(str(MODULE)), SCAN)
    if rows is None:
        return target
    kernel = dataclasses.replace(target.kernels[0], source=shrink_sizes(target.kernels[0].source, {128: rows, 262144: LENGTH}))
    return dataclasses.replace(target, kernels=(kernel,))


def test_the_first_round_sees_every_chunk_size():
    candidates = list(RetuneProposer().propose(_target(), []))
    chunks = {dict(c.launch_config)["R0_BLOCK"] for c in candidates}
    assert len(candidates) == 8 and chunks == {1024, 2048, 4096, 8192, 16384}, [c.strategy for c in candidates]


def test_store_remap_tries_the_recorded_split_scan_configuration_first_then_others():
    producer = _target().kernels[0]
    configs = _configs(producer, {"R0_BLOCK": 4096, "num_warps": 16, "num_stages": 1})
    assert configs[0].label() == "R0_BLOCK=4096 num_warps=16 num_stages=1"
    assert len(configs) > 1 and len(set(configs)) == len(configs)


@pytest.mark.parametrize("chunk", [1024, 8192, 16384])
def test_a_retuned_split_scan_still_scans_each_row(chunk):
    candidate = next(c for c in RetuneProposer().propose(_target(ROWS), [])
                     if dict(c.launch_config)["R0_BLOCK"] == chunk)
    x = torch.randn(ROWS, LENGTH, generator=torch.Generator().manual_seed(chunk))
    out = torch.full_like(x, float("nan"))
    workspace = torch.zeros(8 * ROWS * (LENGTH // 256), dtype=torch.uint8)     # as Inductor sizes it, zeroed
    load_candidate(candidate.source, f"retune_scan_{chunk}")(x, out, workspace, ROWS, LENGTH)
    torch.testing.assert_close(out, torch.cumsum(x.double(), 1).float(), rtol=1e-4, atol=2e-3)
