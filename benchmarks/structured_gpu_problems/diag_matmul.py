"""A diagonal matrix times a matrix, fp32: torch.diag(a) @ b with a [4096] and b [4096, 4096].

Inductor builds the 4096 x 4096 diagonal matrix and calls a GEMM on it (2 x 4096^3 flops for 4096^2
products): the diagonal-operand transform's case, written KernelBench-style."""
import torch
from torch import nn

N = 4096
M = 4096


class Model(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.diag(a) @ b


def get_inputs():
    return [torch.randn(N), torch.randn(N, M)]


def get_init_inputs():
    return []
