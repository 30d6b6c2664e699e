"""Structure: a graph break. The largest |x| is read with .item() (Dynamo breaks the graph there) and the rest of
the forward divides a Linear's output by it and takes a row softmax, [21, 96] -> [21, 80]. Trainable: the
gradient crosses both graphs."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.linear(x)) + 0.25
        peak = h.abs().amax().item()          # a Python float: the graph breaks here
        return torch.softmax(h / peak, dim=-1)


def get_inputs():
    return [torch.randn(21, 96)]


def get_init_inputs():
    return [96, 80]
