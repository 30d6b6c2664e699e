"""Running mean along each row: cumsum over the last dim divided by the position, fp32 [128, 16384]."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.shape[-1]
        positions = torch.arange(1, n + 1, device=x.device, dtype=x.dtype)
        return x.cumsum(dim=-1) / positions


def get_inputs():
    return [torch.randn(128, 16384)]


def get_init_inputs():
    return []
