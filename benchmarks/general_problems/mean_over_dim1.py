"""Reduction: mean over the middle dim (dim 1) of [64, 2048, 1024]."""
import torch
from torch import nn

batch_size = 64
dim1 = 2048
dim2 = 1024


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(x, dim=self.dim)


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [1]
