"""LayerNorm variant: GELU(LayerNorm(x + r)) * 0.5 + r, bf16 (the fixture `ln_gelu`)."""
import torch
from torch import nn

SIZES = {"small": {"rows": 64, "dim": 128}, "large": {"rows": 8192, "dim": 4096}}


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.to(torch.bfloat16)

    def forward(self, x, r):
        return nn.functional.gelu(self.norm(x + r)) * 0.5 + r


def get_init_inputs(size="small"):
    return [SIZES[size]["dim"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["rows"], s["dim"], dtype=torch.bfloat16) for _ in range(2)]
