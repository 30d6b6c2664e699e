"""nn.Linear, a scaling and a per-feature shift, summed over the batch, fp32: x [16384, 4096], W [4096, 4096].

Inductor calls a 16384 x 4096 x 4096 addmm and sums each column of its output; the sum of a column is x's column
sums times W's row plus the bias times the batch: the column case of the sum-through-gemm transform (a per-column
shift inside the sum, a bias in the GEMM), written KernelBench-style."""
import torch
from torch import nn

BATCH = 16384
IN_FEATURES = 4096
OUT_FEATURES = 4096


class Model(nn.Module):
    def __init__(self, in_features: int = IN_FEATURES, out_features: int = OUT_FEATURES):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.shift = nn.Parameter(torch.randn(out_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (self.linear(x) * 0.5 - self.shift).sum(dim=0)


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return []
