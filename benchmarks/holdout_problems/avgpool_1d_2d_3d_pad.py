"""Pooling: AvgPool1d(5, 2, 2) of [4, 9, 307], AvgPool2d(3, 2, 1, count_include_pad=False) of [2, 6, 33, 35] and
AvgPool3d(3, 2, 1) (count_include_pad=True) of [2, 3, 11, 13, 15], three outputs."""
import torch
from torch import nn

length = 307
height = 33
width = 35
depth = 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool1 = nn.AvgPool1d(kernel_size=5, stride=2, padding=2)
        self.pool2 = nn.AvgPool2d(kernel_size=3, stride=2, padding=1, count_include_pad=False)
        self.pool3 = nn.AvgPool3d(kernel_size=3, stride=2, padding=1, count_include_pad=True)

    def forward(self, a: torch.Tensor, b: torch.Tensor, c: torch.Tensor):
        return self.pool1(a), self.pool2(b), self.pool3(c)


def get_inputs():
    return [torch.randn(4, 9, length), torch.randn(2, 6, height, width), torch.randn(2, 3, depth, 13, 15)]


def get_init_inputs():
    return []
