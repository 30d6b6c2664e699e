"""Norm: layer norm without affine over the middle dim (900) of [3, 900, 5], via permute -> layer_norm -> permute."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = nn.functional.layer_norm(x.permute(0, 2, 1), (self.dim,))
        return y.permute(0, 2, 1)


def get_inputs():
    return [torch.randn(3, 900, 5) * 2 + 0.5]


def get_init_inputs():
    return [900]
