"""Chain, bf16: SiLU(Linear(300 -> 170)(x)) * Linear(300 -> 170)(x) on [29, 300] (a SwiGLU without the down proj)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, hidden: int):
        super().__init__()
        self.gate = nn.Linear(in_features, hidden)
        self.up = nn.Linear(in_features, hidden)
        self.to(torch.bfloat16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.silu(self.gate(x)) * self.up(x)


def get_inputs():
    return [torch.randn(29, 300).bfloat16()]


def get_init_inputs():
    return [300, 170]
