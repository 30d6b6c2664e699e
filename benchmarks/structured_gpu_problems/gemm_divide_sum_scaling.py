"""A GEMM, a division, a sum over its output features and a scaling, fp32: x [1024, 8192] @ W.T, W [8192, 8192].

Inductor calls a 1024 x 8192 x 8192 GEMM (2 x 1024 x 8192^2 flops) and sums each row of its output; the sum of a
row is x's row times W's column sums (a matrix-vector product): the sum-through-gemm transform's case, written
KernelBench-style (the same layers as KernelBench level 2's Gemm_Divide_Sum_Scaling at its current sizes)."""
import torch
from torch import nn

BATCH = 1024
IN_FEATURES = 8192
HIDDEN = 8192


class Model(nn.Module):
    def __init__(self, input_size: int = IN_FEATURES, hidden_size: int = HIDDEN, scaling_factor: float = 1.5):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.matmul(x, self.weight.T)
        x = x / 2
        x = torch.sum(x, dim=1, keepdim=True)
        return x * self.scaling_factor


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return []
