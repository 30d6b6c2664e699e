"""Reduction: sum over the outer dim (dim 0) of [128, 1024, 1024]: columns of 128 strided elements."""
import torch
from torch import nn

batch_size = 128
dim1 = 1024
dim2 = 1024


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim)


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [0]
