"""A transposed convolution, a global average pool, a bias, a logsumexp over channels, a sum and a scaling, fp32:
ConvTranspose2d(64 -> 128, 4 x 4, stride 2, padding 1) on [32, 64, 64, 64] (output [32, 128, 128, 128]).

Inductor calls the library transposed convolution (32 x 128 x 128^2 x 64 x 16 multiply-adds, a 268 MB output) and
a reduction averaging each (n, c) plane of its output; each plane's sum is the input's box sums per tap contracted
with the weights: the sum-through-conv transform's transposed case, written KernelBench-style (the layers of
KernelBench level 2's ConvTranspose2d_GlobalAvgPool_BiasAdd_LogSumExp_Sum_Multiply, with a stride of 2)."""
import torch
from torch import nn

BATCH = 32
IN_CHANNELS, OUT_CHANNELS = 64, 128
SIZE = 64


class Model(nn.Module):
    def __init__(self, in_channels: int = IN_CHANNELS, out_channels: int = OUT_CHANNELS):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, 4, stride=2, padding=1)
        self.bias = nn.Parameter(torch.randn(1, out_channels, 1, 1) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.deconv(x)
        x = torch.mean(x, dim=(2, 3), keepdim=True) + self.bias
        x = torch.logsumexp(x, dim=1, keepdim=True)
        return torch.sum(x, dim=(2, 3)) * 10.0


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]
