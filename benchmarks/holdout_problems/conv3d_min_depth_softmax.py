"""Chain: Conv3d (3 -> 11, 3x3x3) on [2, 3, 9, 13, 15] -> [2, 11, 7, 11, 13], min over depth, softmax over channels."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(torch.amin(self.conv(x), dim=2), dim=1)


def get_inputs():
    return [torch.randn(2, 3, 9, 13, 15)]


def get_init_inputs():
    return [3, 11, 3]
