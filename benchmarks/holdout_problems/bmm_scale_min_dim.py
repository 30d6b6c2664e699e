"""Level-2 chain: a batched matmul [4, 31, 40] x [4, 40, 27], a learned per-column scale, then the minimum over the
middle dim (values only), [4, 27]. Trainable: min's backward scatters the gradient to the arg-min rows."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, columns: int):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(columns) + 0.5)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return (torch.bmm(a, b) * self.scale).min(dim=1).values


def get_inputs():
    return [torch.randn(4, 31, 40), torch.randn(4, 40, 27)]


def get_init_inputs():
    return [27]
