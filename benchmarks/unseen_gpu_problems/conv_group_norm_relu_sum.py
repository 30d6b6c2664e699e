"""Chain: Conv2d 3x3 (16 -> 64) then GroupNorm(16, 64), ReLU, and the sum over H and W of [32, 16, 128, 128]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, groups: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.gn = nn.GroupNorm(groups, out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.gn(self.conv(x))).sum(dim=(2, 3))


def get_inputs():
    return [torch.randn(32, 16, 128, 128)]


def get_init_inputs():
    return [16, 64, 16]
