"""Chain: ConvTranspose2d (5 -> 7, 3x3, stride 2) on [2, 5, 11, 13] -> [2, 7, 23, 27], plus a bias [7, 1, 1], tanh,
then the mean over H and W (keepdim)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int):
        super().__init__()
        self.conv_t = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.conv_t(x) + self.bias).mean(dim=(2, 3), keepdim=True)


def get_inputs():
    return [torch.randn(2, 5, 11, 13)]


def get_init_inputs():
    return [5, 7, 3, 2]
