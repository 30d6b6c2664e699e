"""Reduction: argmin over the middle dim of [3, 500, 40] in bf16."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmin(x, dim=1)


def get_inputs():
    return [torch.randn(3, 500, 40).bfloat16()]


def get_init_inputs():
    return []
