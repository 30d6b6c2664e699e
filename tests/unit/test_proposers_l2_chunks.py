"""l2-chunks: a fusion group that reads a large input twice runs one chunk of rows at a time.

The group is the H200 capture of an L1 norm over 128 rows of 262,144 fp32 (Inductor's three launches:
partial sums of |x| per (row, split of 5), their merge per row, and x / the row's sum, which reads x again),
shrunk to 12 rows of 1,000 (splits of 334, the last one masked) so that it runs under the interpreter. A
chunked group sums the same elements in the same order, so its results must be the original's bits, for
every chunk size, including one that does not divide the rows; and a row that reads what a later chunk
writes must compute with the gate's poison (a NaN), which is how the gate rejects a chunking that is not sound.
"""
from __future__ import annotations

import dataclasses

import pytest
import torch
from test_proposers_memory_order import GENERAL, group, run_original

from kernelopt.inductor_source import shrink_sizes
from kernelopt.legality.cases import LaunchInputs, is_poison, poison_
from kernelopt.legality.gate import check_candidate
from kernelopt.proposers.l2_chunks import L2ChunksDeclined, L2ChunksProposer, x_range_kernel
from kernelopt.rewrite.evaluate import load_candidate

L1_NORM = GENERAL / "l1_norm_few_long_rows" / "l1_norm_few_long_rows.default.0.py"
LAYER_NORM = GENERAL / "layer_norm_few_long_rows" / "layer_norm_few_long_rows.default.0.py"
ROWS, LENGTH, SPLITS, SPLIT = 12, 1000, 3, 334
# the capture's sizes -> the shrunk ones (the split count 5 last: 52429 and 262144 hold no lone 5)
SHRINK = {640: ROWS * SPLITS, 52429: SPLIT, 262144: LENGTH, 33554432: ROWS * LENGTH, 128: ROWS, 5: SPLITS}
# budgets scaled to the shrunk sizes: the input (48 kB) is read twice and is "larger than L2"
# as a max-autotune capture records them; the division's XBLOCK=16 does not divide a row of 1,000 (its x mask
# is all true), so a chunk must hold an even number of rows
CONFIGS = ({"XBLOCK": 2, "R0_BLOCK": 64, "num_warps": 1}, {"XBLOCK": 4, "num_warps": 1}, {"XBLOCK": 16, "num_warps": 1})
SMALL = dict(l2_bytes=16_000, chunk_bytes=(20_000, 8_000, 4_000 * 7))


def shrunk_l1_norm():
    target = group(L1_NORM)
    kernels = tuple(dataclasses.replace(k, source=shrink_sizes(k.source, SHRINK)) for k in target.kernels)
    sizes = {(128, 262144): (ROWS, LENGTH), (128, 1, 5): (ROWS, 1, SPLITS), (128, 1): (ROWS, 1)}
    strides = {(ROWS, LENGTH): (LENGTH, 1), (ROWS, 1, SPLITS): (SPLITS, SPLITS, 1), (ROWS, 1): (1, 1)}

    def shrink(arg):
        if not arg.is_tensor:
            return dataclasses.replace(arg, value=SHRINK.get(arg.value, arg.value))
        new = sizes[arg.sizes]
        return dataclasses.replace(arg, sizes=new, strides=strides[new])

    launches = tuple(dataclasses.replace(spec, args=tuple(shrink(a) for a in spec.args), config=config)
                     for spec, config in zip(target.launches, CONFIGS))
    return dataclasses.replace(target, kernels=kernels, launches=launches,
                               group_args=tuple(shrink(a) for a in target.group_args))


def fresh_args(target, seed: int) -> list:
    generator = torch.Generator().manual_seed(seed)
    args = []
    for arg in target.group_args:
        if not arg.is_tensor:
            args.append(arg.value)
        else:               # inputs random; everything the group writes starts as the gate's poison
            tensor = torch.randn(arg.sizes, generator=generator)
            args.append(poison_(tensor) if arg.written else tensor)
    return args


def output_slot(target) -> int:
    return next(s for a, s in zip(target.launches[-1].args, target.group_positions[-1]) if a.is_tensor and a.written)


def test_the_l1_norm_group_gets_chunks_that_fit_the_budget():
    target = shrunk_l1_norm()
    candidates = list(L2ChunksProposer(**SMALL).propose(target, []))
    # 48 kB read twice over 12 rows: 4 kB a row; budgets of 20, 8 and 28 kB hold 5, 2 and 7 rows, even: 4, 2, 6
    assert [c.strategy for c in candidates] == [f"l2-chunks {n} of {ROWS} rows per chunk" for n in (4, 2, 6)]
    assert candidates[0].notes == "3 chunks of 4 rows, each launch per chunk"


@pytest.mark.parametrize("seed", [0, 1])
def test_chunked_group_gives_the_original_bits(seed):
    target = shrunk_l1_norm()
    out = output_slot(target)
    original = fresh_args(target, seed)
    run_original(target, original)
    x = original[0].double()
    torch.testing.assert_close(original[out].double(), x / x.abs().sum(1, keepdim=True), rtol=1e-5, atol=1e-7)
    for candidate in L2ChunksProposer(**SMALL).propose(target, []):
        mine = fresh_args(target, seed)
        load_candidate(candidate.source, "l2_chunks_candidate")(*mine)
        assert torch.equal(mine[out], original[out]), candidate.strategy


def test_a_row_that_reads_a_later_chunks_result_carries_the_poison():
    """The soundness the docstring leaves to the gate: the division reads the sum of the *next* row (written
    only by the next chunk's merge at the end of a chunk), so the last row of every chunk but the last divides
    by the poison, and the gate, which poisons what the candidate writes, sees NaN rows in the output."""
    target = unsound_l1_norm()
    candidate = next(iter(L2ChunksProposer(**SMALL).propose(target, [])))       # 4 rows per chunk
    args = fresh_args(target, 0)
    load_candidate(candidate.source, "l2_chunks_unsound")(*args)
    out = args[output_slot(target)]
    assert not is_poison(out).any()                                # every element was written ...
    assert out.isnan().all(dim=1).nonzero().flatten().tolist() == [3, 7]     # ... from the poison
    assert out[[r for r in range(ROWS) if r not in (3, 7)]].isfinite().all()


def test_x_range_changes_the_first_program_and_the_mask_only():
    target = group(LAYER_NORM)
    kernel = next(k for k in target.kernels if k.kind == "pointwise")
    found = x_range_kernel(kernel.source, kernel.name)
    assert found.unmasked and found.x_numel == 67108864
    header = f"def {kernel.name}(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, ko_x_start, ko_x_stop, XBLOCK"
    assert header in found.source
    assert "xoffset = ko_x_start + tl.program_id(0) * XBLOCK" in found.source
    reduction = next(k for k in target.kernels if k.kind == "reduction")
    found = x_range_kernel(reduction.source, reduction.name)
    assert not found.unmasked and "xmask = xindex < ko_x_stop" in found.source
    assert found.source.count("ko_x_") == 4          # parameters, first program, mask


def test_the_real_group_is_chunked_at_l2_sizes():
    """At its own size (32 rows of 8 MiB, read twice) the layer norm gets chunks of 3, 1 and 6 rows."""
    strategies = [c.strategy for c in L2ChunksProposer().propose(group(LAYER_NORM), [])]
    assert strategies == [f"l2-chunks {n} of 32 rows per chunk" for n in (3, 1, 6)]


@pytest.mark.parametrize("edit, why", [
    (("xmask = xindex < xnumel", "xmask = xindex < xnumel - 1"), "x mask is not `xindex < xnumel`"),
    (("x0 = (xindex % 5)", "x0 = (xindex % 5) + 0 * xnumel"), "reads xnumel beyond its x mask"),
    (("xoffset = tl.program_id(0) * XBLOCK", "xoffset = tl.program_id(1) * XBLOCK"), "not one x block each"),
])
def test_kernels_it_cannot_give_an_x_range_say_why(edit, why):
    kernel = next(k for k in group(L1_NORM).kernels if k.kind == "reduction")
    with pytest.raises(L2ChunksDeclined, match=why):
        x_range_kernel(kernel.source.replace(*edit), kernel.name)


def test_groups_it_does_not_chunk_say_why():
    proposer = L2ChunksProposer()
    assert "fits in L2 already" in proposer.declined(shrunk_l1_norm())
    zeroed = dataclasses.replace(group(L1_NORM), zeroed_args=(1,))
    assert "zeroes a workspace" in proposer.declined(zeroed)
    assert list(proposer.propose(shrunk_l1_norm(), [])) == []


def unsound_l1_norm():
    """The division reads the next row's sum: chunked, a chunk's last row reads what the next chunk writes."""
    target = shrunk_l1_norm()
    divide = target.launches[-1].kernel
    kernels = tuple(dataclasses.replace(k, source=k.source.replace(f"x1 = xindex // {LENGTH}",
                                                                   f"x1 = (xindex // {LENGTH} + 1) % {ROWS}"))
                    if k.name == divide else k for k in target.kernels)
    return dataclasses.replace(target, kernels=kernels)


@pytest.mark.parametrize("make, accepted", [(shrunk_l1_norm, True), (unsound_l1_norm, False)],
                         ids=["rows read within their chunk", "a row reads the next chunk's result"])
def test_the_gate_accepts_a_sound_chunking_and_rejects_an_unsound_one(make, accepted):
    target = make()
    candidate = next(iter(L2ChunksProposer(**SMALL).propose(target, [])))
    out = output_slot(target)
    verdict = check_candidate(lambda *args: run_original(target, list(args)), candidate.source,
                              [LaunchInputs(tuple(fresh_args(target, 0)))], output_args={out},
                              scratch_args=target.scratch_args, seeds=(0,), timeout_floor_s=60.0)
    assert verdict.accepted == accepted, verdict.reason
    if not accepted:
        assert "mismatch" in verdict.reason or "nan" in verdict.reason.lower()
