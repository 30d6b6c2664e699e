"""Reduction: product over dim 1 of [64, 1024, 1024], values near 1 (KernelBench 50_Product_reduction style)."""
import torch
from torch import nn

batch_size = 64
dim1 = 1024
dim2 = 1024


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.prod(x, dim=self.dim)


def get_inputs():
    # 1 + 0.01 * N(0, 1): a product of 1024 such values stays near 1 (log-variance ~0.1), where a
    # product of standard normals would underflow to 0 and test nothing.
    return [1 + 0.01 * torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [1]
