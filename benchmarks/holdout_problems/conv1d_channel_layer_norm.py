"""Conv1d 16 -> 24 (kernel 5, padding 2) over x [8, 16, 129], then a layer norm over the channel dim (permute to
channels last, LayerNorm(24), permute back) and GELU."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size=5, padding=2)
        self.norm = nn.LayerNorm(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        y = self.norm(y.transpose(1, 2)).transpose(1, 2)
        return torch.nn.functional.gelu(y)


def get_inputs():
    return [torch.randn(8, 16, 129)]


def get_init_inputs():
    return [16, 24]
