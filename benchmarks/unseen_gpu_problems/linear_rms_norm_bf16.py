"""Chain: a bf16 Linear(2048 -> 4096) on [2048, 2048], then an RMS norm of each row with a learned weight."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, dtype=torch.bfloat16)
        self.weight = nn.Parameter(torch.ones(out_features, dtype=torch.bfloat16))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        return y * torch.rsqrt(y.float().pow(2).mean(-1, keepdim=True) + 1e-6).to(y.dtype) * self.weight


def get_inputs():
    return [torch.randn(2048, 2048, dtype=torch.bfloat16)]


def get_init_inputs():
    return [2048, 4096]
