"""Chain: Conv2d (3 -> 10, 3x3) on a channels-last [2, 3, 19, 23] input -> [2, 10, 17, 21], InstanceNorm2d (no
affine), then LeakyReLU(0.1)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.norm = nn.InstanceNorm2d(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.leaky_relu(self.norm(self.conv(x)), 0.1)


def get_inputs():
    return [torch.randn(2, 3, 19, 23).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [3, 10, 3]
