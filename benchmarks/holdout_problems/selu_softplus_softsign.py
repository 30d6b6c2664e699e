"""Activations: SELU, Softplus and Softsign of one [23, 1531] input, three outputs."""
import torch
from torch import nn

batch_size = 23
dim = 1531


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor):
        return torch.selu(x), torch.nn.functional.softplus(x), torch.nn.functional.softsign(x)


def get_inputs():
    return [torch.randn(batch_size, dim) * 4]


def get_init_inputs():
    return []
