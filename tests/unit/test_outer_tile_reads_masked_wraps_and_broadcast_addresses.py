"""outer-tile reads the strides of two address forms Inductor writes in reductions over a non-last dimension, which
the holdout census (benchmarks/results/proposer_census_holdout.md) found declined on six problems it was meant for:

- a split reduction over H and W of a channels-last tensor wraps its positions where its own mask stops the load,
  `in_ptr0 + (x0 + 24*(((r0_3 + 108*x1) % 323)) + 7752*x2)` under `r0_3 + 108*x1 < 323`: the wrap at a masked-off
  probe made the r stride unknown (a channel max, a squeeze-excite mean, an fp16 spatial mean);
- a per-row value read inside the r-loop through a broadcast address, `tl.load(in_ptr1 + (tl.broadcast_to(x0,
  [XBLOCK, R0_BLOCK])), ...)`, was taken for a load that moves with r with unknown strides (a conv-transpose bias
  before a mean, a variance over dim 0, a layer norm over a permuted middle dimension).

Each first-round candidate must write what the kernel's own code writes, on fresh random inputs at the captured
sizes (rows of 108 and 125, neither a power of two nor a multiple of the tiles).
"""
from __future__ import annotations

import pytest
import torch
from row_loop_helpers import REPO, clone, looped_target, make_args, run_candidate, run_original

from kernelopt.proposers.access_strides import load_strides, outer_layout
from kernelopt.proposers.outer_tile import OuterTileProposer

FIXTURES = REPO / "tests" / "fixtures"
SPLIT_CHANNELS_LAST = (FIXTURES / "split-channels-last-cpu-2.13" / "channel_max_channels_last.py",
                       "triton_red_fused_amax_0")
BROADCAST_BIAS = (FIXTURES / "conv-transpose-cpu-2.13" / "conv_transpose_bias_tanh_mean.py",
                  "triton_red_fused_add_mean_tanh_2")


@pytest.mark.parametrize("kernel, form", [(SPLIT_CHANNELS_LAST, "% 323"), (BROADCAST_BIAS, "tl.broadcast_to(x0")])
def test_every_first_round_tile_writes_what_the_kernels_own_code_writes(kernel, form):
    target = looped_target(*kernel, {})
    assert form in target.kernels[0].source                  # the address form this test is about
    candidates = list(OuterTileProposer().propose(target, []))
    assert candidates, OuterTileProposer.declined(target)
    for seed, candidate in enumerate(candidates):
        args = make_args(target, seed)
        original = run_original(target, clone(args), r0_block=16, xblock=4)
        got = run_candidate(candidate, target, clone(args))
        for name, want in original.items():
            if "amax" in kernel[1]:                           # a max is the same whatever the order
                assert torch.equal(got[name], want), f"{candidate.strategy} {name}"
            else:                                             # a sum of 125 tanh values, summed in another order
                torch.testing.assert_close(got[name], want, rtol=1e-5, atol=1e-5, msg=candidate.strategy)


@pytest.mark.parametrize("channels, positions, chunk", [(24, 323, 108), (7, 221, 111), (12, 100, 34), (3, 17, 16)])
def test_a_split_channels_last_walk_has_channel_stride_one_and_position_stride_channels(channels, positions, chunk):
    # Inductor's split of x[n, c, p] (channels last) reduced over p: x = (x0 channel, x1 chunk, x2 image); the
    # last chunk's positions wrap modulo p where the mask stops the load.
    chunks = -(-positions // chunk)
    source = (f"def k(in_ptr0, out_ptr0, xnumel, r0_numel):\n"
              f"    xnumel = {2 * channels * chunks}\n    r0_numel = {chunk}\n"
              f"    xmask = xindex < xnumel\n    r0_mask = r0_index < r0_numel\n"
              f"    x0 = xindex % {channels}\n    x1 = (xindex // {channels}) % {chunks}\n"
              f"    x2 = xindex // {channels * chunks}\n    r0_3 = r0_index\n"
              f"    tmp0 = (r0_3 + {chunk}*x1).to(tl.int32)\n    tmp1 = tl.full([1, 1], {positions}, tl.int32)\n"
              f"    tmp2 = tmp0 < tmp1\n"
              f"    tmp3 = tl.load(in_ptr0 + (x0 + {channels}*(((r0_3 + {chunk}*x1) % {positions})) + "
              f"{channels * positions}*x2), r0_mask & tmp2 & xmask, other=0.0)\n")
    (stride,) = load_strides(source, "k", 2 * channels * chunks, chunk)
    assert stride.r_stride == channels
    if channels >= 4:                                         # fewer channels: every x probe may sit on a wrap
        assert stride.x_stride == 1 and outer_layout([stride])


def test_a_wrap_the_mask_does_not_stop_still_makes_the_stride_unknown():
    # the same address without the mask that stops the wrapped positions: the wrap is read, so no stride is claimed
    source = ("def k(in_ptr0, xnumel, r0_numel):\n    xnumel = 144\n    r0_numel = 108\n"
              "    xmask = xindex < xnumel\n    r0_mask = r0_index < r0_numel\n"
              "    x0 = xindex % 24\n    x1 = (xindex // 24) % 3\n    x2 = xindex // 72\n    r0_3 = r0_index\n"
              "    tmp3 = tl.load(in_ptr0 + (x0 + 24*(((r0_3 + 108*x1) % 323)) + 7752*x2), r0_mask & xmask)\n")
    (stride,) = load_strides(source, "k", 144, 108)
    assert stride.r_stride is None and not outer_layout([stride])


def test_a_broadcast_per_row_load_does_not_move_with_r():
    target = looped_target(*BROADCAST_BIAS, {})
    strides = load_strides(target.kernels[0].source, BROADCAST_BIAS[1], 70, 125)
    assert {(s.param, s.r_stride) for s in strides} == {("in_ptr0", 7), ("in_ptr1", 0)}
    assert outer_layout(strides)
