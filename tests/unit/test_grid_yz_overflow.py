"""Candidates relaunch kernels Inductor tiles in y past the hardware's 65535 programs (`Grid2DWithYZOverflow`: a
channels-last pool over 65,536 rows on the H100). The kernel takes its y program as program_id(1) + program_id(2) *
num_programs(1); the candidate's grid must spread the y programs over y and z exactly as Inductor's runtime does,
or rows are skipped or run twice."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from torch._inductor.runtime.triton_heuristics import GridExpr

from kernelopt.proposers.candidate_source import LaunchConfig, grid_text

SIGNATURE = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "ynumel": "i32", "xnumel": "i32", "YBLOCK": "constexpr",
             "XBLOCK": "constexpr"}
PARAMS = ["in_ptr0", "out_ptr0", "ynumel", "xnumel"]


@settings(max_examples=200, deadline=None)
@given(ynumel=st.integers(0, 2**31 - 1), xnumel=st.integers(1, 4096), yblock=st.sampled_from([1, 2, 16, 64, 256]),
       xblock=st.sampled_from([1, 4, 64, 1024]))
def test_the_grid_is_inductor_s_own_for_every_size(ynumel, xnumel, yblock, xblock):
    text = grid_text(PARAMS, SIGNATURE, "Grid2DWithYZOverflow", LaunchConfig((("YBLOCK", yblock), ("XBLOCK", xblock)),
                                                                             4, 1))
    ours = eval(text, {"triton": __import__("triton"), "args": [None, None, ynumel, xnumel]})
    inductor = GridExpr.from_meta({"grid_type": "Grid2DWithYZOverflow"}, {"XBLOCK": xblock, "YBLOCK": yblock})
    theirs = inductor.eval_slow({"xnumel": xnumel, "ynumel": ynumel})
    rows = math.ceil(ynumel / yblock)
    if rows:                       # Inductor launches no y program for no rows; both cover every row once
        assert ours == theirs
        assert ours[1] <= 65535 and ours[2] <= 65535 and ours[1] * ours[2] >= rows
    else:
        assert ours[1] * ours[2] == 0
