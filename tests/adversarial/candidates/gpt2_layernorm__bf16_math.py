"""TARGET: gpt2_layernorm
EXPECT: static-precision
WHAT: lowers precision: normalises in bf16 for an all-fp32 kernel
"""
import triton
import triton.language as tl


@triton.jit
def _layer_norm_bf16(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, r0_numel, R0_BLOCK: tl.constexpr):
    row = tl.program_id(0)
    r = tl.arange(0, R0_BLOCK)
    mask = r < r0_numel
    v = (tl.load(in_ptr0 + r + r0_numel * row, mask, other=0.0) + tl.load(in_ptr1 + r, mask, other=0.0)
         + tl.load(in_ptr2 + r + r0_numel * row, mask, other=0.0)).to(tl.bfloat16)
    mean = tl.sum(tl.where(mask, v, 0.0).to(tl.float32), 0) / r0_numel
    d = tl.where(mask, v.to(tl.float32) - mean, 0.0).to(tl.bfloat16)
    var = tl.sum((d * d).to(tl.float32), 0) / r0_numel
    y = d.to(tl.float32) * tl.rsqrt(var + 1e-05)
    y = y * tl.load(in_ptr3 + r, mask, other=0.0) + tl.load(in_ptr4 + r, mask, other=0.0)
    tl.store(out_ptr2 + r + r0_numel * row, y, mask)


def run(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel):
    _layer_norm_bf16[(xnumel,)](in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, r0_numel,
                                R0_BLOCK=triton.next_power_of_2(r0_numel))
