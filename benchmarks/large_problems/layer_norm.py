# Input: x [256, 64, 256, 256] fp32 = 4.29 GB (4.00 GiB); output the same; weight and bias 16.8 MB each.
"""Layer norm over rows of 4M elements: [256, 64, 256, 256] normalised over the last three dims."""
import torch
from torch import nn

batch_size = 256
features = 64
dim1 = 256
dim2 = 256


class Model(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [(features, dim1, dim2)]
