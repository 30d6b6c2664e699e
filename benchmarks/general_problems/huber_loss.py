"""Loss: Huber (smooth L1) loss with delta 0.5 over [128, 262144] (KernelBench 96_HuberLoss style)."""
import torch
from torch import nn

batch_size = 128
dim = 262144


class Model(nn.Module):
    def __init__(self, delta: float):
        super().__init__()
        self.delta = delta

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.huber_loss(predictions, targets, delta=self.delta)


def get_inputs():
    # Differences N(0, 2): about 80% of them fall in the linear branch, 20% in the quadratic one.
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return [0.5]
