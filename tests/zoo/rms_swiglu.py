"""RMSNorm + SwiGLU MLP with residual: x + down(silu(gate(n)) * up(n)), n = rmsnorm(x), bf16."""
import torch
from torch import nn

SIZES = {"small": {"rows": 64, "dim": 64, "hidden": 160}, "large": {"rows": 4096, "dim": 2048, "hidden": 5632}}


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.norm = nn.RMSNorm(dim, eps=1e-6)
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)
        self.to(torch.bfloat16)

    def forward(self, x):
        n = self.norm(x)
        return x + self.down(nn.functional.silu(self.gate(n)) * self.up(n))


def get_init_inputs(size="small"):
    s = SIZES[size]
    return [s["dim"], s["hidden"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["rows"], s["dim"], dtype=torch.bfloat16)]
