"""outer-tile: reductions over a non-last dimension relaunched with wide-x, short-r tiles.

Kernels are Inductor's own H200 kernels for general problems (tests/fixtures/cuda-2.11-general), their
sizes shrunk so the Triton interpreter runs them; every candidate of the first round must write what the
original kernel writes and be as close as it to a float64 torch reference.
"""
from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings, strategies as st
from row_loop_helpers import REPO, assert_as_accurate, clone, looped_target, make_args, run_candidate, written

from kernelopt.proposers.access_strides import load_strides, outer_layout
from kernelopt.proposers.candidate_source import LaunchConfig, candidate_source, config_overruns
from kernelopt.proposers.outer_tile import OuterTileProposer
from kernelopt.proposers.retune import RetuneProposer
from kernelopt.rewrite.evaluate import load_candidate

GENERAL = REPO / "tests" / "fixtures" / "cuda-2.11-general"


def fixture(problem: str, kernel: str):
    return GENERAL / problem / f"{problem}.default.0.py", kernel


SOFTMAX_DIM1 = fixture("softmax_over_dim1_bf16", "triton_red_fused__softmax_exp_prepare_softmax_online_sub_0")
MEAN_DIM1 = fixture("mean_over_dim1", "triton_red_fused_mean_0")
MIN_DIM1 = fixture("min_over_dim1_bf16", "triton_red_fused_min_0")
ARGMAX_DIM0 = fixture("argmax_over_dim0", "triton_per_fused_argmax_0")
LOG_SOFTMAX_DIM0 = fixture("log_softmax_over_dim0", "triton_per_fused__log_softmax_prepare_softmax_online_sub_0")
MAX_LAST_DIM = fixture("max_over_last_dim", "triton_red_fused_max_0")

# (kernel, size map: the shape shrunk, rows (x) to 192 = 3 x 64 so that 128-wide tiles, which would run
# past the unmasked last row, must be left out; row lengths odd where the kernel masks r; reference)
CASES = {
    "softmax over dim 1, bf16, looped online softmax": (
        SOFTMAX_DIM1, {8192: 6, 512: 11, 4194304: 11 * 6, 262144: 32 * 6},
        lambda a: {"out_ptr2": torch.softmax(a[0].double(), 1)}),
    "mean over dim 1, fp32, looped sum": (
        MEAN_DIM1, {1024: 3, 2048: 13, 2097152: 13 * 3, 65536: 64 * 3},
        lambda a: {"in_out_ptr0": a[1].double().mean(1)}),
    "min over dim 1, bf16, looped min": (
        MIN_DIM1, {2048: 3, 4194304: 9, 131072: 64 * 3},
        lambda a: {"out_ptr0": a[0].double().amin(1)}),
    "argmax over dim 0, persistent, first index on ties": (
        ARGMAX_DIM0, {2048: 16, 1024: 12, 2097152: 192},
        lambda a: {"out_ptr0": _first_argmax(a[0].double(), 0)}),
    "log-softmax over dim 0, persistent online softmax": (
        LOG_SOFTMAX_DIM0, {2048: 16, 1024: 12, 2097152: 192},
        lambda a: {"out_ptr2": torch.log_softmax(a[0].double(), 0)}),
}


def _first_argmax(x: torch.Tensor, dim: int) -> torch.Tensor:
    """The first index of the maximum (torch.argmax promises no tie order on every backend)."""
    top = x.amax(dim, keepdim=True)
    positions = torch.arange(x.shape[dim]).view([-1 if d == dim else 1 for d in range(x.dim())])
    return torch.where(x == top, positions, x.shape[dim]).amin(dim)


def run_original(target, args: list) -> dict:
    """The kernel's own code, 8 rows per program (R0_BLOCK 8 for a looped reduction, so it loops)."""
    spec, launch = target.kernels[0], target.launches[0]
    blocks = (("XBLOCK", 8), ("R0_BLOCK", 8)) if spec.kind == "reduction" else (("XBLOCK", 8),)
    source = candidate_source(spec.source, spec.name, [a.name for a in launch.args], spec.signature, "Grid1D",
                              LaunchConfig(blocks, 1, 1))
    load_candidate(source, "original")(*args)
    return written(target, args)


@pytest.mark.parametrize("case", CASES)
def test_every_first_round_tile_writes_what_the_original_writes(case):
    kernel, sizes, reference = CASES[case]
    target = looped_target(*kernel, sizes)
    candidates = list(OuterTileProposer().propose(target, []))
    assert candidates, OuterTileProposer.declined(target)
    for seed, candidate in enumerate(candidates):
        args = make_args(target, seed)
        if "argmax" in case:      # ties: small integers, so the first-index rule decides many rows
            args[0] = torch.randint(-3, 4, args[0].shape, generator=torch.Generator().manual_seed(seed)).float()
        original = run_original(target, clone(args))
        got = run_candidate(candidate, target, clone(args))
        for name, want in reference(args).items():
            if not got[name].is_floating_point() or "min" in case:      # indices and min: exact
                assert torch.equal(got[name], original[name]), f"{candidate.strategy} {name}"
                assert torch.equal(got[name].double(), want.to(got[name].dtype).double()), candidate.strategy
            else:
                assert_as_accurate(got[name], original[name], want, f"{candidate.strategy} {name}")


def test_first_round_tiles_read_at_least_128_contiguous_bytes_and_fill_the_gpu():
    target = looped_target(*SOFTMAX_DIM1, {})                      # the real size: 262144 rows of 512, bf16
    labels = [c.strategy for c in OuterTileProposer().propose(target, [])]
    assert len(labels) == OuterTileProposer.first_round
    for label in labels:
        blocks = dict(part.split("=") for part in label.split()[1:])
        assert int(blocks["XBLOCK"]) * 2 >= 128, label                 # bf16: 64 rows side by side at least
        assert int(blocks["XBLOCK"]) * int(blocks["R0_BLOCK"]) <= 4096, label
        assert 262144 // int(blocks["XBLOCK"]) >= 2 * 132, label


OUTER_FIXTURES = {"softmax over dim 1, bf16": (SOFTMAX_DIM1, 2), "mean over dim 1, fp32": (MEAN_DIM1, 4),
                  "min over dim 1, bf16": (MIN_DIM1, 2), "argmax over dim 0, fp32": (ARGMAX_DIM0, 4),
                  "log-softmax over dim 0, fp32": (LOG_SOFTMAX_DIM0, 4)}


@pytest.mark.parametrize("case", OUTER_FIXTURES)
def test_retune_times_no_tile_narrower_than_a_dram_sector_on_a_reduction_over_a_non_last_dimension(case):
    # XBLOCK=1 on the bf16 softmax over channels ran 0.07-0.09x of Inductor's on an H200: the retune
    # candidates that read 2 bytes per row step took search time from the ones that could win
    fx, element = OUTER_FIXTURES[case]
    labels = [c.strategy for c in RetuneProposer().propose(looped_target(*fx, {}), [])]
    assert labels
    for label in labels:
        assert int(dict(part.split("=") for part in label.split()[1:])["XBLOCK"]) * element >= 32, label


def test_retune_still_times_one_row_per_program_on_a_reduction_over_the_last_dimension():
    labels = [c.strategy for c in RetuneProposer().propose(looped_target(*MAX_LAST_DIM, {}), [])]
    assert any(" XBLOCK=1 " in label for label in labels), labels


def test_a_reduction_over_the_last_dimension_is_declined_with_its_strides():
    target = looped_target(*MAX_LAST_DIM, {})
    assert not list(OuterTileProposer().propose(target, []))
    why = OuterTileProposer.declined(target)
    assert "not a reduction over a non-last dimension" in why and "in_ptr0 (x 4096, r 1)" in why


def test_strides_are_read_from_the_kernels_address_arithmetic():
    source = SOFTMAX_DIM1[0].read_text()
    from kernelopt.inductor_source import kernel_source

    strides = load_strides(kernel_source(source, SOFTMAX_DIM1[1]), SOFTMAX_DIM1[1], 262144, 512)
    assert [(s.param, s.x_stride, s.r_stride) for s in strides] == [("in_ptr0", 1, 8192)] * 2
    assert outer_layout(strides)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(outer=st.integers(1, 9), reduced=st.integers(1, 300), inner=st.integers(1, 300), offset=st.integers(0, 5))
def test_strides_of_any_3d_reduction_over_dim_1(outer, reduced, inner, offset):
    # Inductor's spelling of x[outer, reduced, inner] reduced over dim 1: x splits into (x0, x1).
    source = (f"def k(in_ptr0, xnumel, r0_numel):\n"
              f"    x0 = xindex % {inner}\n    x1 = xindex // {inner}\n    r0_2 = r0_index\n"
              f"    tmp0 = tl.load(in_ptr0 + ({offset} + x0 + {inner}*r0_2 + {inner * reduced}*x1), r0_mask)\n")
    (stride,) = load_strides(source, "k", outer * inner, reduced)
    # A wrap at x0 = inner - 1 would give another step; the probe points must not mistake it for the stride.
    expected_x = 1 if inner > 1 else inner * reduced
    assert (stride.x_stride, stride.r_stride) in {(expected_x, inner), (None, inner)}
    if inner >= 4:
        assert stride.x_stride == 1
    assert outer_layout([stride]) == (stride.x_stride == 1 and inner > 1)


def test_a_block_that_would_run_past_an_unmasked_extent_is_never_proposed():
    target = looped_target(*ARGMAX_DIM0, {2048: 8, 1024: 12, 2097152: 96})  # no xmask: XBLOCK must divide 96
    for proposer in (OuterTileProposer(), RetuneProposer()):
        for candidate in proposer.propose(target, []):
            xblock = int(candidate.strategy.split("XBLOCK=")[1].split()[0])
            assert 96 % xblock == 0, candidate.strategy
    source = target.kernels[0].source
    assert "does not divide xnumel=96" in config_overruns(source, LaunchConfig((("XBLOCK", 64),), 4))
    assert config_overruns(source, LaunchConfig((("XBLOCK", 32),), 4)) == ""


def test_the_default_search_asks_outer_tile_after_the_row_transforms_and_before_the_generic_retune():
    """Where several transforms apply, the row transforms go first (they won most of their candidates on GPUs;
    outer-tile none of its 26 in jobs starting from max-autotune's module); retune, the generic one, comes after
    all of them."""
    from kernelopt.passes.agentic_rewrite import AgenticRewrite

    order = AgenticRewrite().proposers
    assert order.index("row-on-chip") < order.index("block-online") < order.index("outer-tile") < order.index("retune")
