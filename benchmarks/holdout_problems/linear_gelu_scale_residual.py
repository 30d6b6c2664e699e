"""Chain: Linear(300 -> 170) on [37, 300], GELU (erf), times 0.7, plus a residual [37, 170] (level 2 style)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return nn.functional.gelu(self.linear(x)) * self.scale + residual


def get_inputs():
    return [torch.randn(37, 300), torch.randn(37, 170)]


def get_init_inputs():
    return [300, 170, 0.7]
