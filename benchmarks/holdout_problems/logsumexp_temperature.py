"""Reduction: logsumexp of x / T over dim 1 of [4, 1000, 24] (temperature 0.7), a middle-dim reduction."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, temperature: float):
        super().__init__()
        self.temperature = temperature

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.logsumexp(x / self.temperature, dim=1)


def get_inputs():
    return [torch.randn(4, 1000, 24)]


def get_init_inputs():
    return [0.7]
