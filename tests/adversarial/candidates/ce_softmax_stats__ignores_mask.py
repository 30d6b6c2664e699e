"""TARGET: ce_softmax_stats
EXPECT: mismatch nonfinite
WHAT: drops the load mask of the reduction loop: reads past the row (the next row, or the guard band)
"""
import triton
import triton.language as tl


@triton.jit
def _unmasked(in_ptr0, out_ptr0, out_ptr1, r0_numel, R0_BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = tl.arange(0, R0_BLOCK)
    m = tl.full([R0_BLOCK], float("-inf"), tl.float32)
    for r0 in tl.range(0, r0_numel, R0_BLOCK):
        m = tl.maximum(m, tl.load(in_ptr0 + row * r0_numel + r0 + base).to(tl.float32))
    row_max = tl.max(m, 0)
    s = tl.zeros([R0_BLOCK], tl.float32)
    for r0 in tl.range(0, r0_numel, R0_BLOCK):
        s += tl.exp(tl.load(in_ptr0 + row * r0_numel + r0 + base).to(tl.float32) - row_max)
    tl.store(out_ptr0 + row, row_max)
    tl.store(out_ptr1 + row, tl.sum(s, 0))


def run(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel):
    _unmasked[(xnumel,)](in_ptr0, out_ptr0, out_ptr1, r0_numel, R0_BLOCK=64)
