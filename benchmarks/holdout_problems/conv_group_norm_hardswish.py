"""Chain: Conv2d (3 -> 12, 3x3) on [2, 3, 21, 23] -> [2, 12, 19, 21], GroupNorm(4, 12, affine), then HardSwish."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, groups: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.gn = nn.GroupNorm(groups, out_channels)
        with torch.no_grad():
            self.gn.weight.normal_(1, 0.1)
            self.gn.bias.normal_(0, 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.hardswish(self.gn(self.conv(x)))


def get_inputs():
    return [torch.randn(2, 3, 21, 23)]


def get_init_inputs():
    return [3, 12, 3, 4]
