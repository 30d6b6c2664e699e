"""Chain: Linear(8192 -> 8192) then LayerNorm(8192) on [128, 8192] (KernelBench level 2 Gemm + norm style)."""
import torch
from torch import nn

batch_size = 128
in_features = 8192
out_features = 8192


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.ln = nn.LayerNorm(out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(self.linear(x))


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
