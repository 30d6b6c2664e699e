"""A convolution, a global average pool, a bias and a softmax over channels, fp32: Conv2d(32 -> 96, 3 x 3, padding 1)
on [64, 32, 96, 96] (output [64, 96, 96, 96], 226 MB).

Written (2026-12-07, seventeenth session) before sum-through-conv took split or row-wise plane sums, and not edited
afterwards: a KernelBench level-2 style chain (convolution, global pooling, a per-channel bias, a softmax), with
no fixture of it on the CPU."""
import torch
from torch import nn

BATCH = 64
IN_CHANNELS, OUT_CHANNELS = 32, 96
SIZE = 96


class Model(nn.Module):
    def __init__(self, in_channels: int = IN_CHANNELS, out_channels: int = OUT_CHANNELS):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.bias = nn.Parameter(torch.randn(out_channels) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv(x).mean(dim=(2, 3)) + self.bias
        return torch.softmax(x, dim=1)


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]
