"""TARGET: ce_softmax_stats
EXPECT: precision
WHAT: lowers precision: exponentials and the running sum in bf16 for an fp32 result
"""
import triton
import triton.language as tl


@triton.jit
def _stats_bf16(in_ptr0, out_ptr0, out_ptr1, r0_numel, R0_BLOCK: tl.constexpr):
    row = tl.program_id(0)
    r = tl.arange(0, R0_BLOCK)
    mask = r < r0_numel
    x = tl.load(in_ptr0 + row * r0_numel + r, mask, other=float("-inf"))
    m = tl.max(x.to(tl.float32), 0)
    e = tl.exp((x.to(tl.float32) - m)).to(tl.bfloat16)
    s = tl.sum(e.to(tl.float32), 0).to(tl.bfloat16)
    tl.store(out_ptr0 + row, m)
    tl.store(out_ptr1 + row, s.to(tl.float32))


def run(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel):
    _stats_bf16[(xnumel,)](in_ptr0, out_ptr0, out_ptr1, r0_numel, R0_BLOCK=triton.next_power_of_2(r0_numel))
