"""Structure: length-1 dims everywhere. x [37, 1, 129] times a [1, 1, 1] gain plus a [1, 129] bias, summed over its
size-1 dim (a no-op reduction), and the log-sum-exp of y [1, 1]; outputs [37, 129] and [1]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.full((1, 1, 1), 1.3))
        self.bias = nn.Parameter(torch.randn(1, 129) * 0.1)

    def forward(self, x: torch.Tensor, y: torch.Tensor):
        out = (x * self.gain + self.bias).sum(dim=1)
        return out, torch.logsumexp(y, dim=1)


def get_inputs():
    return [torch.randn(37, 1, 129), torch.randn(1, 1)]


def get_init_inputs():
    return []
