"""Norm: BatchNorm2d(256) in eval mode (running statistics) on a channels-last [64, 256, 56, 56] input."""
import torch
from torch import nn

batch_size = 64
channels = 256
height = 56
width = 56


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        # Fresh running statistics are 0 and 1 (an identity up to eps); these make eval mode do work.
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.5, 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [channels]
