"""Scan: cumulative sum along rows of 262144 elements, [128, 262144] (KernelBench 89_cumsum style, longer rows)."""
import torch
from torch import nn

batch_size = 128
dim = 262144


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=self.dim)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1]
