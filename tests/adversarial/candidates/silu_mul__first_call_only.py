"""TARGET: silu_mul
EXPECT: stale-result unwritten
WHAT: an in-place kernel that skips the work when it has seen the output pointer before
"""
import triton
import triton.language as tl


@triton.jit
def _silu_mul(in_out_ptr0, in_ptr0, xnumel, XBLOCK: tl.constexpr):
    # in place: gate <- silu(gate) * up, in fp32, stored as bf16
    index = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    mask = index < xnumel
    gate = tl.load(in_out_ptr0 + index, mask).to(tl.float32)
    up = tl.load(in_ptr0 + index, mask).to(tl.float32)
    tl.store(in_out_ptr0 + index, gate * tl.sigmoid(gate) * up, mask)


def _launch(in_out_ptr0, in_ptr0, xnumel, block=256):
    _silu_mul[(triton.cdiv(xnumel, block),)](in_out_ptr0, in_ptr0, xnumel, XBLOCK=block)

_DONE = set()


def run(in_out_ptr0, in_ptr0, xnumel):
    if in_out_ptr0.data_ptr() in _DONE:
        return
    _DONE.add(in_out_ptr0.data_ptr())
    _launch(in_out_ptr0, in_ptr0, xnumel)
