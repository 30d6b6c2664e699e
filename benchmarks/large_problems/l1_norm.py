# Input: x [32768, 65535] fp32 = 8.59 GB (8.00 GiB); output the same (the model holds ~17 GB).
"""L1 row normalisation x / mean(|x|) over [32768, 65535] (KernelBench level 1, 38_L1Norm_, its size)."""
import torch
from torch import nn

batch_size = 32768
dim = 65535


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.mean(torch.abs(x), dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
