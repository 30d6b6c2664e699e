"""Chain: Linear(8192 -> 4096) then L2 normalisation of each row, [128, 8192] -> [128, 4096] (an embedding head)."""
import torch
from torch import nn

batch_size = 128
in_features = 8192
out_features = 4096


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.normalize(self.linear(x), p=2.0, dim=1)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
