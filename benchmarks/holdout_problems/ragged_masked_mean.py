"""A masked mean over the sequence dim of x [16, 37, 129] with a bool mask [16, 37] from ragged lengths (one row of
length 0: its mean is 0, not NaN), plus the int64 count of kept positions per row."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, mask: torch.Tensor):
        weights = mask.unsqueeze(-1).to(x.dtype)
        counts = mask.sum(dim=1)
        summed = (x * weights).sum(dim=1)
        mean = summed / counts.clamp(min=1).unsqueeze(-1).to(x.dtype)
        return mean, counts


def get_inputs():
    lengths = torch.randint(1, 38, (16,))
    lengths[3] = 0
    mask = torch.arange(37).unsqueeze(0) < lengths.unsqueeze(1)
    return [torch.randn(16, 37, 129), mask]


def get_init_inputs():
    return []
