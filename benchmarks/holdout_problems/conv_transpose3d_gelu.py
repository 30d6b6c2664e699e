"""Structure: ConvTranspose3d 3 -> 5, kernel 3, stride 2, padding 1, output_padding 1, then GELU and a per-channel
scale, [2, 3, 5, 7, 6] -> [2, 5, 10, 14, 12]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2, padding=1, output_padding=1)
        self.scale = nn.Parameter(torch.rand(out_channels, 1, 1, 1) + 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.gelu(self.conv(x)) * self.scale


def get_inputs():
    return [torch.randn(2, 3, 5, 7, 6)]


def get_init_inputs():
    return [3, 5, 3]
