"""A 3-D transposed convolution, a global average pool, a sigmoid and a scaling, fp32: ConvTranspose3d(16 -> 32,
3 x 3 x 3, stride 2, padding 1, output padding 1) on [16, 16, 16, 32, 32] (output [16, 32, 32, 64, 64], 268 MB).

Written (2026-12-07, seventeenth session) before sum-through-conv took split or row-wise plane sums, and not edited
afterwards: a KernelBench level-2 style chain, with no fixture of it on the CPU."""
import torch
from torch import nn

BATCH = 16
IN_CHANNELS, OUT_CHANNELS = 16, 32
DEPTH, SIZE = 16, 32


class Model(nn.Module):
    def __init__(self, in_channels: int = IN_CHANNELS, out_channels: int = OUT_CHANNELS):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.deconv(x).mean(dim=(2, 3, 4))
        return torch.sigmoid(x) * 2.0


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, DEPTH, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]
