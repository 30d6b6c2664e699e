"""Loss: triplet margin loss (margin 1.0, p=2) of [128, 131072] anchor/positive/negative rows (KernelBench 99 style)."""
import torch
from torch import nn

batch_size = 128
dim = 131072


class Model(nn.Module):
    def __init__(self, margin: float):
        super().__init__()
        self.loss = nn.TripletMarginLoss(margin=margin)

    def forward(self, anchor: torch.Tensor, positive: torch.Tensor, negative: torch.Tensor) -> torch.Tensor:
        return self.loss(anchor, positive, negative)


def get_inputs():
    # anchor - positive ~ N(0, 2) like anchor - negative, so both distances are ~sqrt(2 * dim) and differ
    # by ~N(0, 2): with margin 1 the hinge is active for about three rows in four, not for all or none.
    anchor = torch.randn(batch_size, dim)
    positive = anchor + 2**0.5 * torch.randn(batch_size, dim)
    return [anchor, positive, torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1.0]
