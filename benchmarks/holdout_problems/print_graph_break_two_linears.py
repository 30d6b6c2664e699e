"""Structure: a print() between two Linear + activation stages (Dynamo breaks the graph at the print),
[17, 64] -> [17, 48]; the second stage sees the first stage's output and a row layer norm. Trainable."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, hidden: int, out_features: int):
        super().__init__()
        self.first = nn.Linear(in_features, hidden)
        self.second = nn.Linear(hidden, out_features)
        self.norm = nn.LayerNorm(out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.nn.functional.silu(self.first(x))
        print("stage one done", tuple(h.shape))
        return self.norm(torch.tanh(self.second(h)) + h[:, : self.second.out_features])


def get_inputs():
    return [torch.randn(17, 64)]


def get_init_inputs():
    return [64, 72, 48]
