"""The gate's float64 reference of a split scan (Inductor's `triton_spl_` kernels: rows cut into chunks that
chain their carries through a zeroed workspace). A float64 carry does not fit beside its flag in one word, so
the float64 variant exchanges carries in three words per chunk (`exclusive_scan_decoupled_lookback_64`), as
Inductor writes a float64 scan; without it the reference failed to build and every scan candidate was judged
with none. The gate passes it a workspace three times the one Inductor gave the fp32 original
(test_split_scan_gate.py); a launch whose chunks would need more still fails to build instead of writing past
it."""
from __future__ import annotations

import math
import os

import pytest
import torch
from split_scan_helpers import CHUNK, CHUNKS, GENERAL, ROWS, run_split_scan, scan_kernel_source

from kernelopt.inductor_source import float64_native_inputs_variant, float64_variant, kernel_sources
SMALLEST_BLOCK = 8                      # stands in for Inductor's min_split_scan_rblock (256) at these sizes

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")

SCANS = [("cumsum_long_rows", "triton_spl_fused_cumsum_0", 262144, lambda x: torch.cumsum(x, 1)),
         ("cumprod_rows", "triton_spl_fused_cumprod_0", 131072, lambda x: torch.cumprod(x, 1))]


def _scan_source(problem: str, kernel: str, length: int, smallest_block: int) -> str:
    source = scan_kernel_source(problem, kernel, length)
    return source.replace("'min_split_scan_rblock': 256", f"'min_split_scan_rblock': {smallest_block}")


def _run(kernel: str, variant: str, x: torch.Tensor, out: torch.Tensor, workspace: torch.Tensor) -> None:
    run_split_scan(kernel, variant, x, out, workspace, f"float64_{kernel}")


def _inductor_workspace(smallest_block: int) -> torch.Tensor:
    """Zeroed, and as large as Inductor makes it for the fp32 scan: 8 bytes per chunk, as many chunks per row as
    its smallest block allows."""
    return torch.zeros(8 * ROWS * math.ceil(CHUNK * CHUNKS / smallest_block), dtype=torch.uint8)


@pytest.mark.parametrize("problem, kernel, length, reference", SCANS)
@pytest.mark.parametrize("native_inputs", [True, False])
def test_float64_variant_of_a_split_scan_computes_the_scan_in_float64(problem, kernel, length, reference,
                                                                         native_inputs):
    source = _scan_source(problem, kernel, length, SMALLEST_BLOCK)
    variant = float64_native_inputs_variant(source) if native_inputs else float64_variant(source)
    assert variant is not None and "exclusive_scan_decoupled_lookback_64(" in variant
    x = 1 + 0.01 * torch.randn(ROWS, CHUNK * CHUNKS, dtype=torch.float64)
    given = x.float() if native_inputs else x
    out = torch.full_like(x, float("nan"))
    _run(kernel, variant, given, out, _inductor_workspace(SMALLEST_BLOCK))
    # float64 all the way: far tighter than any fp32 scan could get (fp32 cumsum of 96 terms: ~1e-6)
    torch.testing.assert_close(out, reference(given.double()), rtol=1e-12, atol=1e-12)


def test_a_workspace_too_small_for_float64_carries_fails_to_build_instead_of_overflowing():
    # Inductor's real smallest block (256): one fp32 chunk's 8 bytes per row, where 3 chunks need 72
    problem, kernel, length, _ = SCANS[0]
    variant = float64_variant(_scan_source(problem, kernel, length, 256))
    x = torch.randn(ROWS, CHUNK * CHUNKS, dtype=torch.float64)
    workspace = torch.zeros(_inductor_workspace(256).numel() + 64, dtype=torch.uint8)
    with pytest.raises(Exception, match="AssertionError|static_assert"):
        _run(kernel, variant, x, torch.empty_like(x), workspace)
    assert not workspace[-64:].any(), "the launch wrote past the workspace Inductor sized"


def test_kernels_without_a_split_scan_are_unchanged_by_the_rewrite():
    source = kernel_sources((GENERAL / "exclusive_cumsum" / "exclusive_cumsum.default.0.py").read_text())[
        "triton_poi_fused_constant_pad_nd_slice_1"]
    assert "lookback" not in float64_variant(source) and "static_assert" not in float64_variant(source)
