"""benchmarks/proposer_census.py lists a GEMM's epilogue group (detect-fusion's `epilogue`: a vendor mm/addmm and the
pointwise launch after it) as a target, built the way agentic-rewrite builds it (`epilogue_target`), so the
`epilogue` proposer's offer or its reason shows. The third holdout pass (Linear -> GELU -> scale -> residual add,
torch 2.13 on the CPU) found no row for it at all: the census built every group with `group_target`, which needs
two Triton launches and silently dropped the group, so epilogue's decline ("reads in_ptr0 ... not the GEMM output
or a column bias": the residual) was never seen."""
from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")

from suite_helpers import REPO, load_suite

FIXTURE = REPO / "tests" / "fixtures" / "gemm-epilogue-cpu-2.13"


def test_the_epilogue_group_of_an_addmm_gets_a_row_with_epilogues_reason():
    rows = load_suite("proposer_census").census(FIXTURE)
    groups = [r for r in rows if r["target"].startswith("group:")]
    assert [r["problem"] for r in groups] == ["linear_gelu_scale_residual"], rows
    [row] = groups
    assert not row["offered"].get("epilogue"), row
    assert "not the GEMM output or a column bias" in row["declined"].get("epilogue", ""), row
