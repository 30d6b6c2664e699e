"""The emitter's own split-scan helpers (`exclusive_scan_decoupled_lookback` and what it calls) on Inductor's
H200 split-scan kernels: every helper the general problems' kernels call is provided, and a cumulative
sum and a cumulative product of rows cut into chunks that chain their carries through the workspace give
what torch gives, under the Triton interpreter (its programs run one after another, so every look-back
finds its predecessor's prefix published)."""
from __future__ import annotations

import os

import pytest
import torch
from split_scan_helpers import CHUNK, CHUNKS, GENERAL, ROWS, run_split_scan, scan_kernel_source

from kernelopt.codegen.helpers import HELPERS, used_helpers
from kernelopt.inductor_source import kernel_sources

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")


def test_every_helper_the_general_problems_call_is_provided():
    for path in GENERAL.glob("*/*.default.0.py"):
        for name in used_helpers(list(kernel_sources(path.read_text()).values())):
            assert name in HELPERS, f"{path.name}: triton_helpers.{name}"


@pytest.mark.parametrize("problem, kernel, length, reference", [
    ("cumsum_long_rows", "triton_spl_fused_cumsum_0", 262144, lambda x: torch.cumsum(x, 1)),
    ("cumprod_rows", "triton_spl_fused_cumprod_0", 131072, lambda x: torch.cumprod(x, 1)),
])
def test_emitted_lookback_chains_the_chunks_of_a_split_scan(problem, kernel, length, reference):
    x = 1 + 0.01 * torch.randn(ROWS, CHUNK * CHUNKS, generator=torch.Generator().manual_seed(0))
    out = torch.full_like(x, float("nan"))
    workspace = torch.zeros(ROWS * CHUNKS * 8, dtype=torch.uint8)       # zeroed before the launch, as Inductor does
    run_split_scan(kernel, scan_kernel_source(problem, kernel, length), x, out, workspace, "emitted_split_scan")
    torch.testing.assert_close(out, reference(x.double()).float(), rtol=1e-5, atol=1e-5)
