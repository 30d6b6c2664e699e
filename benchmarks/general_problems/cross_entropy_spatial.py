"""Loss: per-pixel cross-entropy over 32 classes (dim 1) of [16, 32, 256, 256] logits, segmentation style."""
import torch
from torch import nn

batch_size = 16
classes = 32
height = 256
width = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.cross_entropy(logits, targets)


def get_inputs():
    return [torch.randn(batch_size, classes, height, width), torch.randint(0, classes, (batch_size, height, width))]


def get_init_inputs():
    return []
