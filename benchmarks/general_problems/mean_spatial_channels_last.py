"""Reduction: mean over the spatial dims (global average pool) of a channels-last [64, 256, 56, 56]."""
import torch
from torch import nn

batch_size = 64
channels = 256
height = 56
width = 56


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(x, dim=(2, 3))


def get_inputs():
    return [torch.randn(batch_size, channels, height, width).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
