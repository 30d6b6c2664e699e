"""Chain, bf16: Linear(300 -> 1000) on [19, 300], then log_softmax over the 1000 features."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.to(torch.bfloat16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(self.linear(x), dim=-1)


def get_inputs():
    return [torch.randn(19, 300).bfloat16()]


def get_init_inputs():
    return [300, 1000]
