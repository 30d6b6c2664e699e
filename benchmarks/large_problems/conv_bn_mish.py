# Input: x [64, 64, 512, 512] fp32 = 4.29 GB (4.00 GiB); the conv's activation [64, 64, 512, 512] is
# another 4.29 GB, the output the same (eval mode: the batch norm folds into an elementwise epilogue).
"""Conv2d 3x3 (64 -> 64) -> BatchNorm2d (eval) -> Mish on [64, 64, 512, 512]: a multi-GB activation chain."""
import torch
from torch import nn

batch_size = 64
in_channels = 64
out_channels = 64
height = 512
width = 512
kernel_size = 3


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.mish(self.bn(self.conv(x)))


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
