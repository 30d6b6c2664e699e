"""Scan: cumulative product along rows of [128, 131072], values near 1 (KernelBench 90_cumprod style)."""
import torch
from torch import nn

batch_size = 128
dim = 131072


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=self.dim)


def get_inputs():
    # 1 + 0.001 * N(0, 1): the running product stays within a few e-folds of 1 over 131072 steps
    # (log-variance ~0.13), so every prefix is a meaningful fp32 number rather than 0 or inf.
    return [1 + 0.001 * torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1]
