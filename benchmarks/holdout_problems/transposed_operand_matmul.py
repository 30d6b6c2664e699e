"""Structure: matmuls of transposed and permuted operands. x [129, 37] is used as x.t() @ w ([37, 129] x [129, 45]),
then a bias and ReLU; a [4, 37, 23] tensor permuted to [4, 23, 37] is bmm'd with b [4, 37, 19] and scaled."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.1)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)

    def forward(self, x: torch.Tensor, a: torch.Tensor, b: torch.Tensor):
        projected = torch.relu(x.t() @ self.weight + self.bias)
        batched = torch.bmm(a.permute(0, 2, 1), b) * 0.5
        return projected, batched


def get_inputs():
    return [torch.randn(129, 37), torch.randn(4, 37, 23), torch.randn(4, 37, 19)]


def get_init_inputs():
    return [129, 45]
