"""Scan: cumulative sum of where(mask, x, 0) along the last dim of [128, 32, 8192]."""
import torch
from torch import nn

batch_size = 128
heads = 32
dim = 8192


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(torch.where(mask, x, torch.zeros_like(x)), dim=self.dim)


def get_inputs():
    x = torch.randn(batch_size, heads, dim)
    mask = torch.rand(batch_size, heads, dim) < 0.5
    return [x, mask]


def get_init_inputs():
    return [-1]
