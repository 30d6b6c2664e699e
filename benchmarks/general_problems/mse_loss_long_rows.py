"""Loss: mean squared error of [64, 1048576] predictions against targets (KernelBench 94_MSELoss style)."""
import torch
from torch import nn

batch_size = 64
dim = 1048576


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.mse_loss(predictions, targets)


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
