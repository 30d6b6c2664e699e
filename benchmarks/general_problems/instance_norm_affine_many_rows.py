"""Norm: InstanceNorm2d(256, affine) on [64, 256, 64, 64]: 16384 rows of 4096 elements."""
import torch
from torch import nn

batch_size = 64
channels = 256
height = 64
width = 64


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(channels, affine=True)
        # Non-trivial affine parameters, so a kernel that ignores them is caught.
        with torch.no_grad():
            self.inorm.weight.uniform_(0.5, 1.5)
            self.inorm.bias.uniform_(-0.5, 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inorm(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
