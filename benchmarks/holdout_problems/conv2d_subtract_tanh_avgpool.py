"""Level-2 chain: Conv2d 3 -> 8 (3x3), subtract a constant, tanh, subtract a second constant, AvgPool2d(2),
[2, 3, 18, 22] -> [2, 8, 8, 10]. Trainable."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, subtract1: float, subtract2: float,
                 pool: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.subtract1 = subtract1
        self.subtract2 = subtract2
        self.pool = nn.AvgPool2d(pool)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.tanh(self.conv(x) - self.subtract1) - self.subtract2
        return self.pool(y)


def get_inputs():
    return [torch.randn(2, 3, 18, 22)]


def get_init_inputs():
    return [3, 8, 3, 0.3, 0.2, 2]
