"""Structure: non-contiguous inputs (a transposed [53, 41] and a column-strided slice) and outputs that are views of
results (a transpose, and a permute of a reshaped product)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor):
        s = torch.tanh(a) * b                     # [53, 41]
        t = s.t()                                 # a view, [41, 53]
        p = (s + 1.0).reshape(53, 41, 1).permute(2, 1, 0)  # [1, 41, 53], a view
        return t, p, s.sum(dim=0)


def get_inputs():
    a = torch.randn(41, 53).t()                  # [53, 41], strides (1, 53)
    b = torch.randn(53, 83)[:, ::2][:, :41]      # [53, 41], strides (83, 2)
    return [a, b]


def get_init_inputs():
    return []
