"""Reduction: masked mean per row of [6, 1500], sum(x * mask) / sum(mask) with a 0/1 float mask."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return (x * mask).sum(dim=-1) / mask.sum(dim=-1).clamp_min(1.0)


def get_inputs():
    x = torch.randn(6, 1500)
    mask = (torch.rand(6, 1500) < 0.7).float()
    return [x, mask]


def get_init_inputs():
    return []
