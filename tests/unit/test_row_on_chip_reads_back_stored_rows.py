"""row-on-chip on looped reductions that store a row in one r-loop and read it back in a later one: the holdout
census (benchmarks/results/proposer_census_holdout.md) found nine such kernels (softmaxes with a temperature or a
scale store their exponentials and divide them in a third pass; an in-place update of an input stores the row and
copies it back). Two of them got nothing ("no later loop reads data an earlier one read"), seven kept the read
back from memory inside the single pass. With the row in one tile, the read-back is the stored value, cast to the
pointer's element type where the load's mask is on and the load's `other` where it is off.

Every candidate must write what the kernel's own code writes (at R0_BLOCK 16, so its r-loops loop) on fresh random
inputs; rows of 613 and 1000 elements, neither a power of two nor a multiple of 16.
"""
from __future__ import annotations

import pytest
import torch
from row_loop_helpers import REPO, clone, looped_target, make_args, run_candidate, run_original

from kernelopt.proposers.row_on_chip import RowOnChipProposer, plan_row_on_chip

FIXTURES = REPO / "tests" / "fixtures" / "looped-store-reload-cpu-2.13"
INPLACE = (FIXTURES / "inplace_input_add.py", "triton_red_fused_add_copy__mul_sum_0", "out_ptr1")
SOFTMAX = (FIXTURES / "masked_softmax_temperature.py",
           "triton_red_fused__softmax_abs_add_all_amax_div_eq_mul_ne_sub_0", "in_out_ptr0")


def _fast_kernel(source: str) -> str:
    """The single-pass kernel's text (the candidate also holds a fallback for overlapping buffers)."""
    start = source.index("_row_on_chip(")
    end = source.find("\ndef ", start)
    return source[start:end if end > 0 else len(source)]


@pytest.mark.parametrize("case", [INPLACE, SOFTMAX], ids=["in-place copy back", "softmax third pass"])
def test_a_row_stored_then_read_back_is_served_from_the_stored_registers(case):
    path, kernel, stored = case
    target = looped_target(path, kernel, {})
    candidates = list(RowOnChipProposer().propose(target, []))
    assert candidates, RowOnChipProposer.declined(target)
    assert plan_row_on_chip(target).forwards
    for seed, candidate in enumerate(candidates):
        fast = _fast_kernel(candidate.source)
        assert f"tl.load({stored} " not in fast, candidate.strategy         # read from the registers, not memory
        args = make_args(target, seed)
        # 16 rows a program: a row's passes do not depend on how many rows a program takes, and the interpreter
        # runs one program of 16 rows 7x faster than 8 of 2
        original = run_original(target, clone(args), r0_block=16, xblock=16)
        got = run_candidate(candidate, target, clone(args))
        for name, want in original.items():
            torch.testing.assert_close(got[name], want, rtol=1e-5, atol=1e-4, msg=f"{candidate.strategy} {name}")


def test_overlapping_buffers_run_the_single_pass_that_reads_the_row_back_from_memory():
    # the in-place kernel stores the row sum (out_ptr0) between the store of the row (out_ptr1) and its read-back:
    # a caller passing overlapping buffers gets the unrolled kernel that reloads, as the original would read
    path, kernel, _ = INPLACE
    target = looped_target(path, kernel, {})
    candidate = next(iter(RowOnChipProposer().propose(target, [])))
    assert "_overlap(args[3], args[2])" in candidate.source
    args = make_args(target, 0)
    scratch = torch.zeros(11 * 613 + 11)
    overlapping = clone(args)
    overlapping[3], overlapping[2] = scratch[11:].view(11, 613), scratch[:11]      # adjacent: no overlap
    assert torch.equal(run_candidate(candidate, target, clone(overlapping))["out_ptr2"],
                       run_original(target, clone(overlapping))["out_ptr2"])
    shared = clone(args)
    shared[3], shared[2] = scratch[:-11].view(11, 613), scratch[:11]                # the sums land on row 0
    assert torch.equal(run_candidate(candidate, target, clone(shared))["out_ptr2"],
                       run_original(target, clone(shared), r0_block=1024)["out_ptr2"])
