"""Chain: Conv3d 3x3x3 (16 -> 32) then BatchNorm3d (eval) then the sum over D, H, W of [16, 16, 32, 64, 64]."""
import torch
from torch import nn

batch_size = 16
in_channels = 16
out_channels = 32
depth = 32
height = 64
width = 64
kernel_size = 3


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)
        self.bn = nn.BatchNorm3d(out_channels)
        # Running statistics away from 0 and 1, so eval mode's normalisation does work.
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.1, 0.1)
            self.bn.running_var.uniform_(0.5, 2.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(self.conv(x)).sum(dim=(2, 3, 4))


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
