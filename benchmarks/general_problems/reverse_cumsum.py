"""Scan: reverse cumulative sum (suffix sums) along rows of [128, 131072] (KernelBench 91_cumsum_reverse style)."""
import torch
from torch import nn

batch_size = 128
dim = 131072


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x.flip(self.dim), dim=self.dim).flip(self.dim)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1]
