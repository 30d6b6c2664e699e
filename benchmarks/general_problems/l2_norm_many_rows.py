"""Norm: L2 normalisation x / ||x||_2 over the last dim of [32, 1024, 4096]: 32768 rows of 4096."""
import torch
from torch import nn

batch_size = 32
rows = 1024
dim = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.norm(x, p=2, dim=-1, keepdim=True)


def get_inputs():
    return [torch.randn(batch_size, rows, dim)]


def get_init_inputs():
    return []
