"""A scalar loss with reduction='sum': Huber (delta 0.7) between a Linear(129, 37) of x [64, 129] and a target, plus
0.01 times the sum of squared logits."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        prediction = self.linear(x)
        loss = torch.nn.functional.huber_loss(prediction, target, reduction="sum", delta=0.7)
        return loss + 0.01 * prediction.pow(2).sum()


def get_inputs():
    return [torch.randn(64, 129), torch.randn(64, 37)]


def get_init_inputs():
    return [129, 37]
