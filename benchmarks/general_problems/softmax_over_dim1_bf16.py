"""Softmax: softmax over dim 1 (not the last) of a bf16 [32, 512, 8192]."""
import torch
from torch import nn

batch_size = 32
dim1 = 512
dim2 = 8192


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=self.dim)


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2, dtype=torch.bfloat16)]


def get_init_inputs():
    return [1]
