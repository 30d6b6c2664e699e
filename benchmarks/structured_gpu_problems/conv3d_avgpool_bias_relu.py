"""A 3-D convolution, a 2 x 2 x 2 average pool, a bias and a ReLU, fp32: Conv3d(16 -> 32, 3 x 3 x 3) on
[16, 16, 34, 66, 66] (output [16, 32, 32, 64, 64], 268 MB; pooled [16, 32, 16, 32, 32]).

Written (2026-12-07, seventeenth session) after window-through-conv was written and before any GPU ran it, and not
edited afterwards: a KernelBench level-2 style chain at sizes no CPU fixture has."""
import torch
from torch import nn

BATCH = 16
IN_CHANNELS, OUT_CHANNELS = 16, 32
DEPTH, SIZE = 34, 66


class Model(nn.Module):
    def __init__(self, in_channels: int = IN_CHANNELS, out_channels: int = OUT_CHANNELS):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, 3)
        self.pool = nn.AvgPool3d(2)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1, 1) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.pool(self.conv(x)) + self.bias)


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, DEPTH, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]
