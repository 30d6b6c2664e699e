"""Reduction: standard deviation over (2, 3) of NCHW [2, 8, 30, 30]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.std(x, dim=(2, 3))


def get_inputs():
    return [torch.randn(2, 8, 30, 30) * 2.0 + 1.0]


def get_init_inputs():
    return []
