"""Inductor's H200 split-scan kernels (`triton_spl_`) cut to a few short rows, run under the interpreter with the
look-back helpers the emitter writes (helpers, not tests)."""
from __future__ import annotations

from pathlib import Path

import torch

from kernelopt.codegen.helpers import helpers_source, used_helpers
from kernelopt.codegen.plain_jit import standalone_kernel
from kernelopt.inductor_source import kernel_sources, shrink_sizes
from kernelopt.rewrite.evaluate import load_candidate

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"
ROWS, CHUNK, CHUNKS = 3, 32, 3          # rows of 96: no size collides with the 128 rows being shrunk


def scan_kernel_source(problem: str, kernel: str, length: int) -> str:
    """The problem's scan kernel with its 128 rows of `length` cut to ROWS rows of CHUNK x CHUNKS."""
    source = kernel_sources((GENERAL / problem / f"{problem}.default.0.py").read_text())[kernel]
    return shrink_sizes(source, {length: CHUNK * CHUNKS, 128: ROWS})


def run_split_scan(kernel: str, source: str, x: torch.Tensor, out: torch.Tensor, workspace: torch.Tensor,
                   name: str) -> None:
    """Launch `source` (the kernel and the helpers it calls, as emitted) on CHUNKS chunks of CHUNK per row."""
    module = "\n".join([
        "import types", "import triton", "import triton.language as tl",
        helpers_source(used_helpers([source]), "2.11.0"), standalone_kernel(kernel, source).text,
        "def run(x, out, workspace):",
        f"    {kernel}[({CHUNKS}, {ROWS}, 1)](x, out, workspace, {ROWS}, {CHUNK * CHUNKS}, R0_BLOCK={CHUNK})"])
    load_candidate(module, name)(x, out, workspace)
