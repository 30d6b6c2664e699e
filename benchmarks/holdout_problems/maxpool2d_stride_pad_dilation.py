"""Pooling: MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=2) of [2, 5, 37, 41]."""
import torch
from torch import nn

batch_size = 2
channels = 5
height = 37
width = 41
kernel_size = 3
stride = 2
padding = 1
dilation = 2


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]
