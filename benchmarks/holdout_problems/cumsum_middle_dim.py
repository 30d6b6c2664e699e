"""Scan: cumsum over the middle dim (length 1000) of [3, 1000, 8]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=1)


def get_inputs():
    return [torch.randn(3, 1000, 8)]


def get_init_inputs():
    return []
