# Input: x [112, 64, 512, 512] fp32 = 7.52 GB (7.00 GiB); output the same (the model holds ~15 GB).
# Issue 18's first failure: the gate's float64 reference ran the H200 out of memory at this size.
"""Instance normalisation over [112, 64, 512, 512] (KernelBench level 1, 34_InstanceNorm, at its real size)."""
import torch
from torch import nn

batch_size = 112
features = 64
dim1 = 512
dim2 = 512


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inorm(x)


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [features]
