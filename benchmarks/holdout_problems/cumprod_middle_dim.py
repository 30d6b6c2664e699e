"""Scan: cumulative product over the middle dim (length 600) of [3, 600, 7], values near 1."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=1)


def get_inputs():
    # 1 + 0.02 * N(0, 1): over 600 steps the log of the product has std ~0.5, so prefixes stay O(1).
    return [1 + 0.02 * torch.randn(3, 600, 7)]


def get_init_inputs():
    return []
