"""Chain: Linear(300 -> 170) on [23, 300], LayerNorm(170, affine), then Swish (x * sigmoid(x))."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.ln = nn.LayerNorm(out_features)
        with torch.no_grad():
            self.ln.weight.normal_(1, 0.1)
            self.ln.bias.normal_(0, 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.ln(self.linear(x))
        return y * torch.sigmoid(y)


def get_inputs():
    return [torch.randn(23, 300)]


def get_init_inputs():
    return [300, 170]
