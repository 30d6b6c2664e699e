"""Norm: LayerNorm without affine parameters over the last two dims of [32, 1024, 2048]: 32 rows of 2M elements."""
import torch
from torch import nn

batch_size = 32
dim1 = 1024
dim2 = 2048


class Model(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape, elementwise_affine=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [(dim1, dim2)]
