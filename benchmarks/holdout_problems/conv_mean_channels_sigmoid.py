"""Conv2d (3 -> 16, 3x3) on [2, 3, 20, 20], then the mean over channels and a sigmoid."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.conv(x).mean(dim=1, keepdim=True))


def get_inputs():
    return [torch.randn(2, 3, 20, 20)]


def get_init_inputs():
    return [3, 16, 3]
