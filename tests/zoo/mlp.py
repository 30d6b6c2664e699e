"""MLP: Linear(d, 4d) -> GELU(tanh) -> Linear(4d, d), bf16."""
import torch
from torch import nn

SIZES = {"small": {"tokens": 64, "dim": 64}, "large": {"tokens": 4096, "dim": 1024}}


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.up = nn.Linear(dim, 4 * dim)
        self.down = nn.Linear(4 * dim, dim)
        self.to(torch.bfloat16)

    def forward(self, x):
        return self.down(nn.functional.gelu(self.up(x), approximate="tanh"))


def get_init_inputs(size="small"):
    return [SIZES[size]["dim"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["tokens"], s["dim"], dtype=torch.bfloat16)]
