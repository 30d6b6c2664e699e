"""ResNet basic unit, eval mode, fp32: max_pool2d(relu(BN(conv3x3(x)) + x)) (the fixture `conv`)."""
import torch
from torch import nn

SIZES = {
    "small": {"batch": 2, "channels": 8, "hw": 16},
    "large": {"batch": 32, "channels": 64, "hw": 56},
}


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():  # non-trivial running statistics, so eval-mode BN is not the identity
            self.bn.running_mean.normal_(0, 0.1)
            self.bn.running_var.uniform_(0.5, 1.5)
            self.bn.weight.normal_(1, 0.1)
            self.bn.bias.normal_(0, 0.1)

    def forward(self, x):
        return nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x)) + x), 2)


def get_init_inputs(size="small"):
    return [SIZES[size]["channels"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["batch"], s["channels"], s["hw"], s["hw"])]
