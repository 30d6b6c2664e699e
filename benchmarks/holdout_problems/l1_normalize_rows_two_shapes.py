"""Structure: a recompile. Rows divided by their L1 norm (eps 1e-6) times a learned gain, then a residual;
get_inputs gives [23, 301], and the seventh pass also calls the compiled model with [9, 517] (a second static
graph, the same forward)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.tensor(1.3))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        norm = x.abs().sum(dim=-1, keepdim=True).clamp_min(1e-6)
        return x + self.gain * x / norm


def get_inputs():
    return [torch.randn(23, 301)]


def get_init_inputs():
    return []
