"""A convolution, a 4 x 4 average pool, a sigmoid and a sum over channels and positions, fp32: Conv2d(8 -> 64, 3 x 3,
padding 1) on [64, 8, 128, 128] (output [64, 64, 128, 128], 268 MB; pooled [64, 64, 32, 32]).

Written (2026-12-07, seventeenth session) after window-through-conv was written and before any GPU ran it, and not
edited afterwards: a KernelBench level-2 style chain (a convolution, an average pool, an activation, a sum) at
sizes no CPU fixture has, for the transform's first measurement on a GPU."""
import torch
from torch import nn

BATCH = 64
IN_CHANNELS, OUT_CHANNELS = 8, 64
SIZE = 128
POOL = 4


class Model(nn.Module):
    def __init__(self, in_channels: int = IN_CHANNELS, out_channels: int = OUT_CHANNELS, pool: int = POOL):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.pool = nn.AvgPool2d(pool)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.pool(self.conv(x))).sum(dim=(1, 2, 3))


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, POOL]
