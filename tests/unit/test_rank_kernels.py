"""Which kernels agentic-rewrite searches, from annotate-profile's figures: a kernel near its floor is skipped
(nothing to win), and so is one whose measured part of the module is negligible (its search would take the
job's time from the kernels that matter); without measured times (the static model on a CPU) only the floor
decides, and the rest are ranked by the gap they leave."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelopt.lift import lift_file
from kernelopt.rewrite.targets import NEGLIGIBLE_SHARE, rank_kernels

MODULE = (Path(__file__).resolve().parents[1] / "corpus" / "cpu-2.13" / "groupnorm_silu" / "small.default"
          / "groupnorm_silu.default.0.py")
STATS, AFFINE, SILU = ("triton_per_fused_native_group_norm_0", "triton_poi_fused_native_group_norm_1",
                       "triton_poi_fused_native_group_norm_silu_2")


def _measured(figures: dict[str, tuple[float, float, float]]):
    """The module with each kernel's launch timed: name -> (time_us, floor_us, share)."""
    module = lift_file(str(MODULE))
    for op in module.launches():
        time_us, floor_us, share = figures[op.symbol]
        op.attrs.update(time_us=time_us, floor_us=floor_us, share=share, gap_us=time_us - floor_us)
    return module


def test_a_kernel_of_negligible_share_is_skipped_and_says_why():
    module = _measured({STATS: (500.0, 100.0, 0.80), AFFINE: (1.3, 0.05, 0.002), SILU: (123.0, 120.0, 0.198)})
    ranked = dict(rank_kernels(module))
    assert ranked[STATS] is None
    assert ranked[AFFINE] == "0.2% of the module's time: even gone, the module would be under 1% faster"
    assert ranked[SILU] == "already within 10% of its floor"
    assert [name for name, reason in rank_kernels(module) if reason is None] == [STATS]


@pytest.mark.parametrize("share", [NEGLIGIBLE_SHARE, 0.3])
def test_a_kernel_at_or_over_the_threshold_is_searched(share):
    module = _measured({STATS: (500.0, 100.0, 0.5), AFFINE: (50.0, 10.0, share), SILU: (400.0, 100.0, 0.4)})
    assert [name for name, reason in rank_kernels(module) if reason is None] == [STATS, SILU, AFFINE]


def test_without_measured_times_no_kernel_is_skipped_for_its_share():
    module = lift_file(str(MODULE))
    assert all(reason is None for _, reason in rank_kernels(module))
