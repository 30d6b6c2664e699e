"""Norm: L1 row normalisation x / sum(|x|) over [128, 262144]: 128 rows of 256K elements."""
import torch
from torch import nn

batch_size = 128
dim = 262144


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.sum(torch.abs(x), dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
