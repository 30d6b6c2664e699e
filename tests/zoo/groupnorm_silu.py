"""Diffusion U-Net unit: GroupNorm -> SiLU, fp32."""
import torch
from torch import nn

SIZES = {
    "small": {"batch": 2, "channels": 32, "groups": 8, "hw": 8},
    "large": {"batch": 16, "channels": 512, "groups": 32, "hw": 64},
}


class Model(nn.Module):
    def __init__(self, channels, groups):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels)
        with torch.no_grad():
            self.norm.weight.normal_(1, 0.1)
            self.norm.bias.normal_(0, 0.1)

    def forward(self, x):
        return nn.functional.silu(self.norm(x))


def get_init_inputs(size="small"):
    s = SIZES[size]
    return [s["channels"], s["groups"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["batch"], s["channels"], s["hw"], s["hw"])]
