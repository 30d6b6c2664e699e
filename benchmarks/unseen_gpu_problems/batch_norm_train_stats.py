"""Norm: BatchNorm2d in training mode (batch statistics over N, H, W per channel) of [64, 128, 56, 56]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)


def get_inputs():
    return [torch.randn(64, 128, 56, 56)]


def get_init_inputs():
    return [128]
