"""Reduction: argmin over the last dim of [64, 512, 4096]."""
import torch
from torch import nn

batch_size = 64
dim1 = 512
dim2 = 4096


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmin(x, dim=self.dim)


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [2]
