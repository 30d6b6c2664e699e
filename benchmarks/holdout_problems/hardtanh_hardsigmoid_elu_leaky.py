"""Activations with init arguments: HardTanh(-0.7, 1.3), HardSigmoid, ELU(alpha) and LeakyReLU(negative_slope)
of one [19, 1777] input, four outputs."""
import torch
from torch import nn
import torch.nn.functional as F

batch_size = 19
dim = 1777
alpha = 1.7
negative_slope = 0.13


class Model(nn.Module):
    def __init__(self, alpha: float, negative_slope: float):
        super().__init__()
        self.alpha = alpha
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor):
        return (
            F.hardtanh(x, min_val=-0.7, max_val=1.3),
            F.hardsigmoid(x),
            F.elu(x, alpha=self.alpha),
            F.leaky_relu(x, negative_slope=self.negative_slope),
        )


def get_inputs():
    return [torch.randn(batch_size, dim) * 3]


def get_init_inputs():
    return [alpha, negative_slope]
