# Input: x [96, 4096, 4096] fp32 = 6.44 GB (6.00 GiB); output [96, 4096] int64 (3.1 MB).
"""Argmax over a non-last dimension (dim 1) of [96, 4096, 4096] (KernelBench level 1, 51_Argmax style)."""
import torch
from torch import nn

batch_size = 96
dim1 = 4096
dim2 = 4096


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=self.dim)


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [1]
