"""Reductions: torch.prod and torch.argmin over the middle dim of [5, 23, 131] with keepdim, two outputs."""
import torch
from torch import nn

batch_size = 5
dim1 = 23
dim2 = 131
reduce_dim = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor):
        return torch.prod(x, dim=self.dim, keepdim=True), torch.argmin(x, dim=self.dim, keepdim=True)


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [reduce_dim]
