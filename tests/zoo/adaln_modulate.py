"""LayerNorm variant: affine-free LayerNorm modulated per sample, x_n * (1 + scale) + shift (DiT adaLN), fp32."""
import torch
from torch import nn

SIZES = {"small": {"batch": 4, "tokens": 32, "dim": 64}, "large": {"batch": 16, "tokens": 1024, "dim": 1152}}


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.ada = nn.Linear(dim, 2 * dim)

    def forward(self, x, cond):
        shift, scale = self.ada(nn.functional.silu(cond)).chunk(2, dim=-1)
        return self.norm(x) * (1 + scale[:, None, :]) + shift[:, None, :]


def get_init_inputs(size="small"):
    return [SIZES[size]["dim"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["batch"], s["tokens"], s["dim"]), torch.randn(s["batch"], s["dim"])]
