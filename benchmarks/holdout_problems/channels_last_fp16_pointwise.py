"""Structure: a channels_last float16 input [2, 6, 13, 17] and a float16 per-channel weight; returns
x * sigmoid(x) * w in fp16 (channels_last like its input) and the float32 mean over H and W [2, 6]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.weight = nn.Parameter((torch.rand(1, channels, 1, 1) + 0.5).half())

    def forward(self, x: torch.Tensor):
        gated = x * torch.sigmoid(x) * self.weight
        return gated, gated.float().mean(dim=(2, 3))


def get_inputs():
    return [torch.randn(2, 6, 13, 17).half().to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [6]
