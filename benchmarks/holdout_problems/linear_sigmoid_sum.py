"""Chain: Linear(300 -> 170) on [41, 300], sigmoid, then the sum over the 170 features (keepdim)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.linear(x)).sum(dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(41, 300)]


def get_init_inputs():
    return [300, 170]
