"""Chain: Conv2d (3 -> 13, 3x3) on [2, 3, 17, 19], BatchNorm2d (eval), ReLU, then the max over channels (keepdim)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bn = nn.BatchNorm2d(out_channels)
        with torch.no_grad():  # non-trivial running statistics, so eval-mode BN is not the identity
            self.bn.running_mean.normal_(0, 0.1)
            self.bn.running_var.uniform_(0.5, 1.5)
            self.bn.weight.normal_(1, 0.1)
            self.bn.bias.normal_(0, 0.1)
        self.eval()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.amax(torch.relu(self.bn(self.conv(x))), dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(2, 3, 17, 19)]


def get_init_inputs():
    return [3, 13, 3]
