# Input: x [262144, 4000] fp32 = 4.19 GB and mask [262144, 4000] bool = 1.05 GB: 5.24 GB (4.88 GiB);
# output [262144, 4000] fp32 = 4.19 GB.
"""Masked cumulative sum along rows of 4000 (KernelBench level 1, 93_masked_cumsum, 262144 rows)."""
import torch
from torch import nn

batch_size = 262144
input_shape = (4000,)
dim = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x * mask, dim=self.dim)


def get_inputs():
    x = torch.randn(batch_size, *input_shape)
    mask = torch.randint(0, 2, x.shape).bool()
    return [x, mask]


def get_init_inputs():
    return [dim]
