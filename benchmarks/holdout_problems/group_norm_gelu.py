"""Norm: GroupNorm (3 groups of 4 channels, affine) on [2, 12, 30, 30], then GELU (erf)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, groups: int, channels: int):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels)
        with torch.no_grad():
            self.norm.weight.normal_(1, 0.1)
            self.norm.bias.normal_(0, 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.gelu(self.norm(x))


def get_inputs():
    return [torch.randn(2, 12, 30, 30)]


def get_init_inputs():
    return [3, 12]
