"""memory-order on a kernel whose loads include a broadcast address (`tl.load(in_ptr1 + (tl.broadcast_to(x0,
[XBLOCK, R0_BLOCK])), ...)`, a per-channel bias read inside an r-loop) reads that address as the index arithmetic
it is. The third holdout pass (ConvTranspose2d -> + bias -> tanh -> mean over H, W, torch 2.13 on the CPU) found
it declined with "a load's address is not integer arithmetic on the indices (an indirect load)": a broadcast
changes the shape of an address, not its values, and nothing in the kernel is loaded through another load.
"""
import os

os.environ.setdefault("TRITON_INTERPRET", "1")

from pathlib import Path

import pytest

from kernelopt.lift import lift_file
from kernelopt.proposers.memory_order import MemoryOrderProposer
from kernelopt.proposers.traversal import NotPermuted, retraverse
from kernelopt.rewrite.targets import kernel_target

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "conv-transpose-cpu-2.13" / "conv_transpose_bias_tanh_mean.py"
KERNEL = "triton_red_fused_add_mean_tanh_2"


def test_a_broadcast_address_is_not_called_an_indirect_load():
    target = kernel_target(lift_file(str(FIXTURE)), KERNEL)
    source = target.kernels[0].source
    assert "tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])" in source       # the form this test is about
    with pytest.raises(NotPermuted) as why:
        retraverse(source, KERNEL)
    # the broadcast bias is read like the other load; what stops the transform is the truth about this kernel:
    # its channels-last input is already walked in ascending addresses (7 floats apart, one channel per row)
    assert "already in memory order" in str(why.value), why.value
    proposer = MemoryOrderProposer()
    assert list(proposer.propose(target, [])) == []
    remark = proposer.declined(target)
    assert "already in memory order" in remark and "indirect" not in remark, remark
