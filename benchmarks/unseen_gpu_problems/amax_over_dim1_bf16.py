"""Reduction: amax over dim 1 (not the last) of a bf16 [32, 4096, 512]."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.amax(dim=1)


def get_inputs():
    return [torch.randn(32, 4096, 512, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
