"""Structure: an in-place op on an input (x.add_(1), then x.mul_(y)) and a sum over rows read after it, [11, 613]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        x.add_(1.0)
        x.mul_(y)
        return x.sum(dim=-1)


def get_inputs():
    return [torch.randn(11, 613), torch.randn(11, 613)]


def get_init_inputs():
    return []
