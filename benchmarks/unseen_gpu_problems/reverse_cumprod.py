"""Reverse cumulative product along each row (flip, cumprod, flip) of an fp32 [64, 16384] near 1."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.flip(-1).cumprod(dim=-1).flip(-1)


def get_inputs():
    return [1.0 + 1e-4 * torch.randn(64, 16384)]


def get_init_inputs():
    return []
