"""Reduction, bf16: sum of squares over dim 0 of [900, 29] (29 columns of 900 strided elements), bf16 out."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x * x).sum(dim=0)


def get_inputs():
    return [torch.randn(900, 29, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
