"""MobileNet/ConvNeXt unit: depthwise conv7x7 (groups=C) + bias -> channels-last LayerNorm -> GELU, fp32."""
import torch
from torch import nn

SIZES = {
    "small": {"batch": 2, "channels": 16, "hw": 16},
    "large": {"batch": 32, "channels": 256, "hw": 56},
}


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.dw = nn.Conv2d(channels, channels, 7, padding=3, groups=channels)
        self.norm = nn.LayerNorm(channels, eps=1e-6)

    def forward(self, x):
        y = self.dw(x).permute(0, 2, 3, 1)
        return nn.functional.gelu(self.norm(y)).permute(0, 3, 1, 2)


def get_init_inputs(size="small"):
    return [SIZES[size]["channels"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["batch"], s["channels"], s["hw"], s["hw"])]
