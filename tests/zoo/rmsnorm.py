"""RMSNorm (Llama style): statistics in fp32, weight applied in bf16."""
import torch
from torch import nn

SIZES = {"small": {"rows": 64, "dim": 128}, "large": {"rows": 8192, "dim": 4096}}


class Model(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(1 + 0.1 * torch.randn(dim, dtype=torch.bfloat16))
        self.eps = eps

    def forward(self, x):
        xf = x.float()
        normed = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * normed.to(x.dtype)


def get_init_inputs(size="small"):
    return [SIZES[size]["dim"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["rows"], s["dim"], dtype=torch.bfloat16)]
