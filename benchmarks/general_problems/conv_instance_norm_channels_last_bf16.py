"""Chain: Conv2d 3x3 (64 -> 128) then InstanceNorm2d in bf16 on a channels-last [32, 64, 128, 128] input."""
import torch
from torch import nn

batch_size = 32
in_channels = 64
out_channels = 128
height = 128
width = 128
kernel_size = 3


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.inorm = nn.InstanceNorm2d(out_channels)
        self.to(dtype=torch.bfloat16, memory_format=torch.channels_last)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inorm(self.conv(x))


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width, dtype=torch.bfloat16)
    return [x.to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
