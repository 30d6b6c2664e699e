"""Softmax of x * 0.0625 over the last dim of a bf16 [512, 8192]."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x * 0.0625, dim=-1)


def get_inputs():
    return [torch.randn(512, 8192, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
