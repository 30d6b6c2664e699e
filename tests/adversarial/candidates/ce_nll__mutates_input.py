"""TARGET: ce_nll
EXPECT: input-mutated
WHAT: takes the log of the row sums in place (an input the original only reads) to save a log later
"""
import triton
import triton.language as tl


@triton.jit
def _nll(loss_ptr, target_ptr, logits_ptr, max_ptr, sum_ptr, r0_numel, vocab, R0_BLOCK: tl.constexpr):
    # the whole batch in one block: mean over rows whose target is not ignore_index (-100)
    r = tl.arange(0, R0_BLOCK)
    mask = r < r0_numel
    target = tl.load(target_ptr + r, mask, other=-100)
    valid = (target != -100) & mask
    index = tl.where(valid, target, 0)
    index = tl.where(index < 0, index + vocab, index)
    logit = tl.load(logits_ptr + index + vocab * r, valid, other=0.0).to(tl.float32)
    row_max = tl.load(max_ptr + r, mask, other=0.0)
    row_sum = tl.load(sum_ptr + r, mask, other=1.0)
    nll = tl.where(valid, -(logit - row_max - tl.log(row_sum)), 0.0)
    count = tl.sum(valid.to(tl.int64), 0)
    tl.store(loss_ptr, tl.sum(nll, 0) / count.to(tl.float32))


def _launch(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, r0_numel):
    _nll[(1,)](in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, r0_numel, in_ptr1.shape[-1],
               R0_BLOCK=triton.next_power_of_2(r0_numel))


def run(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, r0_numel):
    in_ptr3.log_()
    in_ptr3.exp_()
    _launch(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, r0_numel)
