"""Chain: ConvTranspose2d 4x4 stride 2 (32 -> 64) on [16, 32, 64, 64], then softmax over channels, times 2."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, 4, stride=2, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.deconv(x), dim=1) * 2.0


def get_inputs():
    return [torch.randn(16, 32, 64, 64)]


def get_init_inputs():
    return [32, 64]
