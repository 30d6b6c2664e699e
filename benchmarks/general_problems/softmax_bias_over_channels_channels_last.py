"""Softmax: softmax over channels (dim 1) of x + per-channel bias, x a channels-last [32, 128, 64, 64]."""
import torch
from torch import nn

batch_size = 32
channels = 128
height = 64
width = 64


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x + self.bias[None, :, None, None], dim=1)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [channels]
