"""Chain: Conv2d 3x3 (32 -> 64) then GroupNorm(8, 64) then the mean over C, H, W of [64, 32, 128, 128] (level 2 style)."""
import torch
from torch import nn

batch_size = 64
in_channels = 32
out_channels = 64
groups = 8
height = 128
width = 128
kernel_size = 3


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, groups: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.gn = nn.GroupNorm(groups, out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(self.conv(x)).mean(dim=(1, 2, 3))


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, groups]
