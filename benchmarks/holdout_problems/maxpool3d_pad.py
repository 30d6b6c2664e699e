"""Pooling: MaxPool3d(kernel_size=3, stride=2, padding=1) of [2, 3, 13, 15, 17]."""
import torch
from torch import nn

batch_size = 2
channels = 3
dim1 = 13
dim2 = 15
dim3 = 17
kernel_size = 3
stride = 2
padding = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.maxpool = nn.MaxPool3d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)


def get_inputs():
    return [torch.randn(batch_size, channels, dim1, dim2, dim3)]


def get_init_inputs():
    return [kernel_size, stride, padding]
