"""Chain: Conv2d (3 -> 12, 3x3) on [2, 3, 21, 19], then a squeeze-excitation gate: y * sigmoid(mean over H, W of y)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        return y * torch.sigmoid(y.mean(dim=(2, 3), keepdim=True))


def get_inputs():
    return [torch.randn(2, 3, 21, 19)]


def get_init_inputs():
    return [3, 12, 3]
