"""Reduction: argmax over the middle dim of [4, 300, 50]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=1)


def get_inputs():
    return [torch.randn(4, 300, 50)]


def get_init_inputs():
    return []
