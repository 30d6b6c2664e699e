"""Attention-score softmax with a boolean causal mask given as an input: [16, 8, 1024, 1024] fp32."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return scores.masked_fill(mask, float("-inf")).softmax(dim=-1)


def get_inputs():
    n = 1024
    mask = torch.ones(n, n, dtype=torch.bool).triu(1)
    return [torch.randn(16, 8, n, n), mask]


def get_init_inputs():
    return []
