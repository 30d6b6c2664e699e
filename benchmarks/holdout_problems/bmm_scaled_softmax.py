"""Chain: torch.bmm of [3, 37, 45] and [3, 45, 29], times 0.125, then softmax over the last dim (29)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.softmax(torch.bmm(a, b) * self.scale, dim=-1)


def get_inputs():
    return [torch.randn(3, 37, 45), torch.randn(3, 45, 29)]


def get_init_inputs():
    return [0.125]
