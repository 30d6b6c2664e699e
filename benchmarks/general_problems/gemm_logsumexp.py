"""Chain: Linear(4096 -> 16384) then logsumexp over the features, [128, 4096] -> [128] (level 2 Gemm + reduction)."""
import torch
from torch import nn

batch_size = 128
in_features = 4096
out_features = 16384


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.logsumexp(self.linear(x), dim=1)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
