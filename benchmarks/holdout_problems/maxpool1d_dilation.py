"""Pooling: MaxPool1d(kernel_size=4, stride=2, padding=2, dilation=3) of [5, 7, 411]."""
import torch
from torch import nn

batch_size = 5
channels = 7
length = 411
kernel_size = 4
stride = 2
padding = 2
dilation = 3


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]
