"""Norm: LayerNorm(4096) in bf16 over [32, 2048, 4096]: 65536 rows of 4096 elements."""
import torch
from torch import nn

batch_size = 32
seq_len = 2048
hidden = 4096


class Model(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.ln = nn.LayerNorm(hidden)
        self.to(torch.bfloat16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return [hidden]
