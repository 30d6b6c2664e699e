"""Loss: hinge loss mean(clamp(1 - prediction * target, 0)) over [64, 1048576], targets +-1 (KernelBench 100_HingeLoss style)."""
import torch
from torch import nn

batch_size = 64
dim = 1048576


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


def get_inputs():
    targets = torch.randint(0, 2, (batch_size, dim)).float() * 2 - 1
    return [torch.randn(batch_size, dim), targets]


def get_init_inputs():
    return []
