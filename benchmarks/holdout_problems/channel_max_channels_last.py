"""Reduction: per-channel max over H and W of a channels-last [2, 24, 17, 19] input (keepdim)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.amax(x, dim=(2, 3), keepdim=True)


def get_inputs():
    return [torch.randn(2, 24, 17, 19).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
