"""Norm: RMS norm with a weight over the last dim of [4, 4000] (few long rows)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, dim: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.randn(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight


def get_inputs():
    return [torch.randn(4, 4000)]


def get_init_inputs():
    return [4000, 1e-6]
