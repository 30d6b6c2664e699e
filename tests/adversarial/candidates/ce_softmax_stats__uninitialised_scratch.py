"""TARGET: ce_softmax_stats
EXPECT: nonfinite
WHAT: accumulates the sum into torch.empty scratch, assuming it starts at zero
"""
import torch


def run(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel):
    x = in_ptr0.float()
    row_max = x.amax(dim=1, keepdim=True)
    scratch = torch.empty(xnumel, 1, device=x.device)
    scratch += (x - row_max).exp().sum(dim=1, keepdim=True)
    out_ptr0.copy_(row_max)
    out_ptr1.copy_(scratch)
