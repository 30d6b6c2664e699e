"""Activation: minGPT's "new GELU", 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), of [37, 1013]."""
import math

import torch
from torch import nn

batch_size = 37
dim = 1013


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
