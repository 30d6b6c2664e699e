"""Reduction: min values over dim 1 of a bf16 [64, 2048, 2048]."""
import torch
from torch import nn

batch_size = 64
dim1 = 2048
dim2 = 2048


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.min(x, dim=self.dim).values


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2, dtype=torch.bfloat16)]


def get_init_inputs():
    return [1]
