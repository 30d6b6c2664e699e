"""Softmax over the last dim of [16, 1000] of (x + mask) / T: an additive float mask (0 or -1e4) and temperature 1.5."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, temperature: float):
        super().__init__()
        self.temperature = temperature

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.softmax((x + mask) / self.temperature, dim=-1)


def get_inputs():
    x = torch.randn(16, 1000)
    mask = torch.where(torch.rand(16, 1000) < 0.2, torch.tensor(-1e4), torch.tensor(0.0))
    return [x, mask]


def get_init_inputs():
    return [1.5]
