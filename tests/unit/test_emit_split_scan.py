"""The emitter's own split-scan helpers (`exclusive_scan_decoupled_lookback` and what it calls) on Inductor's
H200 split-scan kernels: every helper the general problems' kernels call is provided, and a cumulative
sum and a cumulative product of rows cut into chunks that chain their carries through the workspace give
what torch gives, under the Triton interpreter (its programs run one after another, so every look-back
finds its predecessor's prefix published)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

from kernelopt.codegen.helpers import HELPERS, helpers_source, used_helpers
from kernelopt.codegen.plain_jit import standalone_kernel
from kernelopt.inductor_source import kernel_sources, shrink_sizes
from kernelopt.rewrite.evaluate import load_candidate

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"
ROWS, CHUNK, CHUNKS = 3, 32, 3          # rows of 96: no size collides with the 128 rows being shrunk

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
    source = kernel_sources((GENERAL / problem / f"{problem}.default.0.py").read_text())[kernel]
    source = shrink_sizes(source, {length: CHUNK * CHUNKS, 128: ROWS})
    code = standalone_kernel(kernel, source)
    module = "\n".join([
        "import types", "import triton", "import triton.language as tl",
        helpers_source(used_helpers([source]), "2.11.0"), code.text,
        "def run(x, out, workspace):",
        f"    {kernel}[({CHUNKS}, {ROWS}, 1)](x, out, workspace, {ROWS}, {CHUNK * CHUNKS}, R0_BLOCK={CHUNK})"])
    x = 1 + 0.01 * torch.randn(ROWS, CHUNK * CHUNKS, generator=torch.Generator().manual_seed(0))
    out = torch.full_like(x, float("nan"))
    workspace = torch.zeros(ROWS * CHUNKS * 8, dtype=torch.uint8)       # zeroed before the launch, as Inductor does
    load_candidate(module, "emitted_split_scan")(x, out, workspace)
    torch.testing.assert_close(out, reference(x.double()).float(), rtol=1e-5, atol=1e-5)
