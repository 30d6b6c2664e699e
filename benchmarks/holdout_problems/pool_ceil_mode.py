"""Structure: pools with ceil_mode=True (a last window that hangs over the edge). MaxPool2d(3, stride=2, padding=1,
ceil_mode=True) of [2, 4, 16, 37], AvgPool1d(4, stride=3, padding=1, ceil_mode=True) of [3, 5, 129] and
AvgPool2d(2, stride=2, ceil_mode=True, count_include_pad=False) of the same [2, 4, 16, 37]: three outputs."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.max2d = nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)
        self.avg1d = nn.AvgPool1d(4, stride=3, padding=1, ceil_mode=True)
        self.avg2d = nn.AvgPool2d(2, stride=2, ceil_mode=True, count_include_pad=False)

    def forward(self, x: torch.Tensor, seq: torch.Tensor):
        return self.max2d(x), self.avg1d(seq), self.avg2d(x)


def get_inputs():
    return [torch.randn(2, 4, 16, 37), torch.randn(3, 5, 129)]


def get_init_inputs():
    return []
