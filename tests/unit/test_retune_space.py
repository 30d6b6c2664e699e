"""retune's search space for reductions: no tile that spills a thread's registers (more than 64 elements per
thread: an XBLOCK=32 R0_BLOCK=512 tile on 2 warps took 21.7 s to compile and ran 0.02x on an H200), and no
tile that leaves threads without an element, unless the rows are too small for any other. A kernel it cannot
relaunch or has no configuration for gets a reason (it said nothing)."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kernelopt.codegen.configs import next_pow2
from kernelopt.lift import lift_file
from kernelopt.proposers.base import KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.retune import MAX_ELEMENTS_PER_THREAD, RetuneProposer
from kernelopt.rewrite.targets import kernel_target

KINDS = {"reduction": ["XBLOCK", "R0_BLOCK"], "persistent_reduction": ["XBLOCK"]}


def _elements(config, r_hint):
    blocks = dict(config.blocks)
    return blocks.get("XBLOCK", 1) * blocks.get("R0_BLOCK", next_pow2(r_hint))


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(sorted(KINDS)), x_hint=st.integers(1, 1 << 22), r_hint=st.integers(1, 1 << 16))
def test_every_reduction_tile_fits_a_thread_and_busies_it_where_the_rows_allow(kind, x_hint, r_hint):
    space = RetuneProposer().space(kind, KINDS[kind], {"x": x_hint, "r0_": r_hint})
    for config in space:
        assert _elements(config, r_hint) <= MAX_ELEMENTS_PER_THREAD * 32 * config.num_warps, config.label()
    idle = [c for c in space if _elements(c, r_hint) < 32 * c.num_warps]
    assert not idle or len(idle) == len(space), "idle threads kept beside configurations that busy them all"


def test_a_long_row_still_gets_a_first_round_and_a_short_one_is_not_left_without_candidates():
    retune = RetuneProposer()
    long_rows = retune.space("reduction", KINDS["reduction"], {"x": 4096, "r0_": 32768})
    assert len(retune.order(long_rows, [])) == retune.first_round
    tiny = retune.space("persistent_reduction", KINDS["persistent_reduction"], {"x": 2, "r0_": 4})
    assert tiny, "a kernel with tiny rows keeps some configuration to time"


def test_a_kernel_retune_cannot_relaunch_gets_a_reason_and_one_it_can_gets_none():
    def target(kind, signature, size_hints, source=""):
        spec = KernelSpec("k", kind, source, signature, size_hints)
        return RewriteTarget(id="k", kernels=(spec,), launches=(LaunchSpec("k", (), {}),))

    three_d = target("pointwise", {"xnumel": "i32", "XBLOCK": "constexpr", "YBLOCK": "constexpr", "ZBLOCK": "constexpr"},
                     {"x": 64, "y": 64, "z": 64})
    assert "no launch configuration to search for a pointwise kernel with block sizes XBLOCK, YBLOCK, ZBLOCK" in \
        RetuneProposer().declined(three_d)
    combo = target("pointwise", {"xnumel": "i32", "XBLOCK": "constexpr"}, {"x": 4096},
                   "inductor_meta={'grid_type': 'ComboKernelGrid'}")
    assert "ComboKernelGrid" in RetuneProposer().declined(combo)
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "tiled-pointwise-cpu-2.13" / "conv_mean_channels_sigmoid.py"
    module = lift_file(str(fixture))
    assert all(RetuneProposer().declined(kernel_target(module, k.symbol)) == "" for k in module.kernels)
