"""A 3-D transposed convolution, a scaling, a 2 x 2 x 2 average pool, a bias and a second scaling, fp32:
ConvTranspose3d(3 -> 16, 3 x 3 x 3, stride 2, padding 1) on [64, 3, 16, 32, 32] (output [64, 16, 31, 63, 63],
500 MB; pooled [64, 16, 15, 31, 31]).

Written (2026-12-07, seventeenth session) after window-through-conv took transposed convolutions and before any
GPU ran it, and not edited afterwards: a KernelBench level-2 style chain (a transposed convolution, a scaling, an
average pool by its stride, a bias, a scaling) at sizes no CPU fixture has."""
import torch
from torch import nn

BATCH = 64
IN_CHANNELS, OUT_CHANNELS = 3, 16
DEPTH, SIZE = 16, 32


class Model(nn.Module):
    def __init__(self, in_channels: int = IN_CHANNELS, out_channels: int = OUT_CHANNELS):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, 3, stride=2, padding=1)
        self.pool = nn.AvgPool3d(2)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1, 1) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.pool(self.deconv(x) * 0.5)
        return (x + self.bias) * 2.0


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, DEPTH, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]
