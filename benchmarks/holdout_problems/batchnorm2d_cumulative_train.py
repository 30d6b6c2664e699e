"""Structure: buffers mutated in forward. Conv2d 3 -> 6 then BatchNorm2d in train mode with momentum=None (a
cumulative average: the update divides by num_batches_tracked), then SiLU, [3, 3, 14, 15]. The model is put in
train mode in __init__, so capture and optimize see the buffer updates."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1, bias=False)
        self.norm = nn.BatchNorm2d(out_channels, momentum=None)
        self.train()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.silu(self.norm(self.conv(x)))


def get_inputs():
    return [torch.randn(3, 3, 14, 15)]


def get_init_inputs():
    return [3, 6]
