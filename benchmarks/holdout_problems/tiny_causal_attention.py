"""Level-3 style: a causal self-attention block without SDPA, on [2, 19, 48] with 3 heads: a fused QKV Linear, q @ k^T
scaled, masked_fill of the upper triangle with -inf, softmax, @ v, an output Linear and a residual."""
import math

import torch
from torch import nn

BATCH = 2
SEQ = 19
DIM = 48
HEADS = 3


class Model(nn.Module):
    def __init__(self, dim: int, heads: int, seq: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("mask", torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        h = self.heads
        q, k, v = self.qkv(x).split(c, dim=-1)
        q = q.view(b, t, h, c // h).transpose(1, 2)
        k = k.view(b, t, h, c // h).transpose(1, 2)
        v = v.view(b, t, h, c // h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(c // h)
        att = att.masked_fill(self.mask[:t, :t], float("-inf"))
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, c)
        return x + self.proj(y)


def get_inputs():
    return [torch.randn(BATCH, SEQ, DIM)]


def get_init_inputs():
    return [DIM, HEADS, SEQ]
