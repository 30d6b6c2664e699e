"""TARGET: ce_softmax_stats
EXPECT: mismatch
WHAT: writes zeros (the classic KernelBench false pass)
"""


def run(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel):
    out_ptr0.zero_()
    out_ptr1.zero_()
