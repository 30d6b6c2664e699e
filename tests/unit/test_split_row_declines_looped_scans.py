"""split-row on a looped scan (torch 2.13's cummax on the CPU with persistent reductions off) says why it
declines: a scan stores every prefix of the row, and a chunk's prefix needs all the earlier chunks, which
split-row's per-chunk partial states cannot give. The second holdout pass found the decline reading
"`roffset > 0` compares the loop offset with something other than 0", which is not what the code does.
"""
import os

os.environ.setdefault("TRITON_INTERPRET", "1")

from pathlib import Path

from kernelopt.lift import lift_file
from kernelopt.proposers.split_row.proposer import SplitRowProposer
from kernelopt.rewrite.targets import kernel_target

CUMMAX = Path(__file__).resolve().parents[1] / "fixtures" / "looped-scan-cpu-2.13" / "cummax_rows.py"


def test_split_row_declines_a_looped_scan_for_being_a_scan():
    target = kernel_target(lift_file(str(CUMMAX)), "triton_red_fused_cummax_0")
    assert list(SplitRowProposer().propose(target, [])) == []
    why = SplitRowProposer.declined(target)
    assert "tl.associative_scan" in why and "earlier chunks" in why, why
    assert "other than 0" not in why, why


def test_split_row_says_a_split_scan_is_split_already():
    """The fourth holdout pass: a split scan (cumprod over a middle dim) got three retunes and no word from any
    other proposer on why they offered nothing."""
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general" / "cumsum_long_rows"
    target = kernel_target(lift_file(str(fixture / "cumsum_long_rows.default.0.py")), "triton_spl_fused_cumsum_0")
    assert list(SplitRowProposer().propose(target, [])) == []
    why = SplitRowProposer.declined(target)
    assert why.startswith("triton_spl_fused_cumsum_0 is Inductor's split scan") and "workspace" in why, why


def test_the_row_loop_transforms_decline_a_looped_scan_for_being_a_scan():
    """row-on-chip and fold-pass read the kernel's r-loops; on a scan they said its carry "is updated by
    `tl.where(roffset > 0, ...)`, not committed as `tl.where(mask, next, ...)`", true but not the reason."""
    from kernelopt.proposers.fold_passes import FoldPassesProposer
    from kernelopt.proposers.row_on_chip import RowOnChipProposer

    target = kernel_target(lift_file(str(CUMMAX)), "triton_red_fused_cummax_0")
    for proposer in (RowOnChipProposer, FoldPassesProposer):
        assert list(proposer().propose(target, [])) == []
        why = proposer.declined(target)
        assert "a scan (`tl.associative_scan`) in the r-loop" in why, (proposer.name, why)
        assert "not committed" not in why, (proposer.name, why)
