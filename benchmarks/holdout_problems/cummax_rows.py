"""Scan: cummax (values and indices) over the last dim of [4, 700]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor):
        values, indices = torch.cummax(x, dim=-1)
        return values, indices


def get_inputs():
    return [torch.randn(4, 700)]


def get_init_inputs():
    return []
