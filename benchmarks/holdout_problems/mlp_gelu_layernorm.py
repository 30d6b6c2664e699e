"""Level-3 style: Linear(61 -> 97) -> GELU -> LayerNorm(97, eps) -> Linear(97 -> 43) on [19, 61]; get_init_inputs
passes four arguments."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, hidden: int, out_features: int, eps: float):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.norm = nn.LayerNorm(hidden, eps=eps)
        self.fc2 = nn.Linear(hidden, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.norm(nn.functional.gelu(self.fc1(x))))


def get_inputs():
    return [torch.randn(19, 61)]


def get_init_inputs():
    return [61, 97, 43, 1e-5]
