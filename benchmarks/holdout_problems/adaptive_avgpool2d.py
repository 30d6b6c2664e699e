"""Pooling: AdaptiveAvgPool2d((5, 7)) of [3, 8, 23, 29] (windows of uneven size)."""
import torch
from torch import nn

batch_size = 3
channels = 8
height = 23
width = 29
output_size = (5, 7)


class Model(nn.Module):
    def __init__(self, output_size):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(output_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [output_size]
