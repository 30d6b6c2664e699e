"""Norm: GroupNorm(16 groups, 128 channels) on a channels-last [32, 128, 96, 96] input."""
import torch
from torch import nn

batch_size = 32
channels = 128
groups = 16
height = 96
width = 96


class Model(nn.Module):
    def __init__(self, groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(groups, channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [groups, channels]
