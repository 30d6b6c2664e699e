"""TARGET: gpt2_layernorm
EXPECT: mismatch
WHAT: right everywhere but one element: the output of largest magnitude off by 1e-3 relative
"""
import triton
import triton.language as tl


@triton.jit
def _layer_norm(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, r0_numel, R0_BLOCK: tl.constexpr,
                STORE_BLOCK: tl.constexpr):
    # one row per program: y = LN(in0 + (in1 + in2)) * w + b
    row = tl.program_id(0)
    r = tl.arange(0, R0_BLOCK)
    mask = r < r0_numel
    a = tl.load(in_ptr0 + r + r0_numel * row, mask, other=0.0)
    b = tl.load(in_ptr1 + r, mask, other=0.0)
    c = tl.load(in_ptr2 + r + r0_numel * row, mask, other=0.0)
    v = a + (b + c)
    mean = tl.sum(tl.where(mask, v, 0.0), 0) / r0_numel
    d = tl.where(mask, v - mean, 0.0)
    var = tl.sum(d * d, 0) / r0_numel
    y = d * tl.rsqrt(var + 1e-05)
    y = y * tl.load(in_ptr3 + r, mask, other=0.0) + tl.load(in_ptr4 + r, mask, other=0.0)
    tl.store(out_ptr2 + r + r0_numel * row, y, r < STORE_BLOCK)


def _launch(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel, store_block=None):
    block = triton.next_power_of_2(r0_numel)
    _layer_norm[(xnumel,)](in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, r0_numel, R0_BLOCK=block,
                           STORE_BLOCK=store_block or r0_numel)


def run(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel):
    _launch(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel)
    out = out_ptr2.view(-1)
    worst = int(out.abs().argmax())
    out[worst] = out[worst] * (1 + 1e-3)
