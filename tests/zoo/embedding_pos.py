"""Token embedding * sqrt(d) + learned positional embedding, then LayerNorm, bf16; token ids int64."""
import math

import torch
from torch import nn

SIZES = {
    "small": {"batch": 2, "seq": 32, "vocab": 1000, "dim": 64},
    "large": {"batch": 8, "seq": 2048, "vocab": 50257, "dim": 1024},
}


def get_input_ranges(size="small"):
    return {0: (0, SIZES[size]["vocab"])}


class Model(nn.Module):
    def __init__(self, vocab, seq, dim):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(seq, dim)
        self.norm = nn.LayerNorm(dim)
        self.scale = math.sqrt(dim)
        self.to(torch.bfloat16)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1], device=ids.device)
        return self.norm(self.tok(ids) * self.scale + self.pos(positions)[None])


def get_init_inputs(size="small"):
    s = SIZES[size]
    return [s["vocab"], s["seq"], s["dim"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randint(0, s["vocab"], (s["batch"], s["seq"]))]
