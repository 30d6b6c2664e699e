"""Softmax over dim 1 (not the last) of x [16, 37, 129] divided by a per-position temperature tensor [1, 1, 129]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x / temperature, dim=1)


def get_inputs():
    return [torch.randn(16, 37, 129), torch.rand(1, 1, 129) + 0.5]


def get_init_inputs():
    return []
