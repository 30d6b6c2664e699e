"""TARGET: ce_softmax_stats
EXPECT: unwritten
WHAT: launches one program: only the first block of rows is written
"""
import triton
import triton.language as tl


@triton.jit
def _stats(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    # single pass online softmax: running max and rescaled running sum per row
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, R0_BLOCK)[None, :]
    m = tl.full([XBLOCK, 1], float("-inf"), tl.float32)
    s = tl.zeros([XBLOCK, 1], tl.float32)
    for r0 in tl.range(0, r0_numel, R0_BLOCK):
        r = r0 + rbase
        mask = (r < r0_numel) & xmask
        x = tl.load(in_ptr0 + (r + r0_numel * xindex), mask, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 1)[:, None])
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 1)[:, None]
        m = m_new
    tl.store(out_ptr0 + xindex, m, xmask)
    tl.store(out_ptr1 + xindex, s, xmask)


def _launch(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, grid=None):
    grid = grid or (triton.cdiv(xnumel, 2),)
    _stats[grid](in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK=2, R0_BLOCK=128)


def run(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel):
    _launch(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, grid=(1,))
