"""TARGET: ce_softmax_stats
EXPECT: accept
WHAT: reordered reduction: a max pass, then a sum-of-exp pass, one row per program, R0_BLOCK=32
"""
import triton
import triton.language as tl


@triton.jit
def _two_pass(in_ptr0, out_ptr0, out_ptr1, r0_numel, R0_BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = tl.arange(0, R0_BLOCK)
    m = tl.full([R0_BLOCK], float("-inf"), tl.float32)
    for r0 in tl.range(0, r0_numel, R0_BLOCK):
        r = r0 + base
        x = tl.load(in_ptr0 + row * r0_numel + r, r < r0_numel, other=float("-inf")).to(tl.float32)
        m = tl.maximum(m, x)
    row_max = tl.max(m, 0)
    s = tl.zeros([R0_BLOCK], tl.float32)
    for r0 in tl.range(0, r0_numel, R0_BLOCK):
        r = r0 + base
        x = tl.load(in_ptr0 + row * r0_numel + r, r < r0_numel, other=float("-inf")).to(tl.float32)
        s += tl.exp(x - row_max)
    tl.store(out_ptr0 + row, row_max)
    tl.store(out_ptr1 + row, tl.sum(s, 0))


def run(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel):
    _two_pass[(xnumel,)](in_ptr0, out_ptr0, out_ptr1, r0_numel, R0_BLOCK=32)
