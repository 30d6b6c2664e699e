"""Level-2 chain: Linear(200 -> 150) with its bias, a division by a constant, GELU and a sum over the features,
[33, 200] -> [33, 1]. Trainable: the seventh pass also trains it through the kernelopt backend."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, divisor: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.divisor = divisor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x) / self.divisor
        return torch.nn.functional.gelu(y).sum(dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(33, 200)]


def get_init_inputs():
    return [200, 150, 1.7]
