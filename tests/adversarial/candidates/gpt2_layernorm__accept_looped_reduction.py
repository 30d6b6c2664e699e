"""TARGET: gpt2_layernorm
EXPECT: accept
WHAT: reorder only: a looped reduction (R0_BLOCK=32, per-lane fp32 sums over 3 masked loads, then the tree) instead of one persistent block
"""
import triton
import triton.language as tl


@triton.jit
def _layer_norm_looped(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, r0_numel, R0_BLOCK: tl.constexpr):
    # one row per program, y = LN(in0 + (in1 + in2)) * w + b, the row read R0_BLOCK elements at a time:
    # the same math, the additions in another order
    row = tl.program_id(0)
    lanes = tl.arange(0, R0_BLOCK)
    total = tl.zeros([R0_BLOCK], dtype=tl.float32)
    for start in range(0, r0_numel, R0_BLOCK):
        r = start + lanes
        mask = r < r0_numel
        v = tl.load(in_ptr0 + r + r0_numel * row, mask, other=0.0) + \
            (tl.load(in_ptr1 + r, mask, other=0.0) + tl.load(in_ptr2 + r + r0_numel * row, mask, other=0.0))
        total += tl.where(mask, v, 0.0)
    mean = tl.sum(total, 0) / r0_numel
    squares = tl.zeros([R0_BLOCK], dtype=tl.float32)
    for start in range(0, r0_numel, R0_BLOCK):
        r = start + lanes
        mask = r < r0_numel
        v = tl.load(in_ptr0 + r + r0_numel * row, mask, other=0.0) + \
            (tl.load(in_ptr1 + r, mask, other=0.0) + tl.load(in_ptr2 + r + r0_numel * row, mask, other=0.0))
        d = tl.where(mask, v - mean, 0.0)
        squares += d * d
    rstd = tl.rsqrt(tl.sum(squares, 0) / r0_numel + 1e-05)
    for start in range(0, r0_numel, R0_BLOCK):
        r = start + lanes
        mask = r < r0_numel
        v = tl.load(in_ptr0 + r + r0_numel * row, mask, other=0.0) + \
            (tl.load(in_ptr1 + r, mask, other=0.0) + tl.load(in_ptr2 + r + r0_numel * row, mask, other=0.0))
        y = (v - mean) * rstd * tl.load(in_ptr3 + r, mask, other=0.0) + tl.load(in_ptr4 + r, mask, other=0.0)
        tl.store(out_ptr2 + r + r0_numel * row, y, mask)


def run(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel):
    _layer_norm_looped[(xnumel,)](in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, r0_numel, R0_BLOCK=32)
