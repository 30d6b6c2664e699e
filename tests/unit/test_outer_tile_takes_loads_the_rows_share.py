"""outer-tile on a reduction over a non-last dimension that also reads a value per r step shared by every row: the
[batch, seq] mask of a masked mean over the sequence of x [batch, seq, features] is read with x stride 0 and r
stride 1 beside x's x stride 1, r stride 129. The holdout census (benchmarks/results/proposer_census_holdout.md)
found outer-tile declining it ("needs x stride 1 and r stride above 1 on every one"): a shared value is one read per
r step whatever the tile's width, so it does not decide the tile. Every first-round candidate must write what the
kernel's own code writes on fresh random inputs (rows of 37 positions, 2064 rows: neither a power of two).
"""
from __future__ import annotations

import torch
from row_loop_helpers import REPO, clone, looped_target, make_args, run_candidate, written

from kernelopt.proposers.access_strides import LoadStride, coalesced_rows, load_strides, outer_layout
from kernelopt.proposers.candidate_source import LaunchConfig, candidate_source
from kernelopt.proposers.outer_tile import OuterTileProposer
from kernelopt.rewrite.evaluate import load_candidate

MASKED_MEAN = (REPO / "tests" / "fixtures" / "masked-mean-seq-cpu-2.13" / "ragged_masked_mean.py",
               "triton_per_fused__to_copy_clamp_div_mul_sum_unsqueeze_1")


def run_original(target, args: list) -> dict:
    """The kernel's own code (a persistent reduction), 64 rows per program: a row's sum does not depend on how many
    rows a program takes, and the interpreter runs the 33 programs (the last one masked) 10x faster than 516 of 4."""
    spec, launch = target.kernels[0], target.launches[0]
    source = candidate_source(spec.source, spec.name, [a.name for a in launch.args], spec.signature, "Grid1D",
                              LaunchConfig((("XBLOCK", 64),), 1, 1))
    load_candidate(source, "original")(*args)
    return written(target, args)


def test_every_first_round_tile_of_a_masked_mean_over_the_sequence_writes_what_the_original_writes():
    target = looped_target(*MASKED_MEAN, {})
    strides = load_strides(target.kernels[0].source, MASKED_MEAN[1], 2064, 37)
    assert ("in_ptr1", 0, 1) in {(s.param, s.x_stride, s.r_stride) for s in strides}     # the shared mask
    candidates = list(OuterTileProposer().propose(target, []))
    assert candidates, OuterTileProposer.declined(target)
    for seed, candidate in enumerate(candidates):
        args = make_args(target, seed, int_high=3)           # counts 0..2: the clamp(min=1) decides some rows
        original = run_original(target, clone(args))
        got = run_candidate(candidate, target, clone(args))
        for name, want in original.items():
            torch.testing.assert_close(got[name], want, rtol=1e-5, atol=1e-5, msg=candidate.strategy)


def test_the_shared_loads_element_size_does_not_set_the_tiles_width():
    # a 1-byte bool mask read once per r step would otherwise ask for 128 rows side by side; x (fp32) asks for 32
    target = looped_target(*MASKED_MEAN, {})
    spec = target.kernels[0]
    assert coalesced_rows(spec.source, spec.name, spec.signature, 2064, 37) == 128 // 4


def test_loads_that_only_the_rows_share_do_not_make_an_outer_layout():
    shared = LoadStride("in_ptr1", 1, 0, 1)
    assert not outer_layout([shared])                                     # nothing read along x
    assert outer_layout([LoadStride("in_ptr0", 1, 1, 129), shared])
    assert not outer_layout([LoadStride("in_ptr0", 1, 1, 129), shared, LoadStride("in_ptr2", 1, 129, 1)])
    assert not outer_layout([LoadStride("in_ptr0", 1, 1, 129), LoadStride("in_ptr1", 1, 0, None)])
