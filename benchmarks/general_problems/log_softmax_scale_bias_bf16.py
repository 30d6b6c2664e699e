"""Softmax: log-softmax of x * scale + bias over the last dim of a bf16 [32, 256, 8192]."""
import torch
from torch import nn

batch_size = 32
rows = 256
dim = 8192


class Model(nn.Module):
    def __init__(self, dim: int, scale: float):
        super().__init__()
        self.scale = scale
        self.bias = nn.Parameter(torch.randn(dim))
        self.to(torch.bfloat16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x * self.scale + self.bias, dim=-1)


def get_inputs():
    return [torch.randn(batch_size, rows, dim, dtype=torch.bfloat16)]


def get_init_inputs():
    return [dim, 0.5]
