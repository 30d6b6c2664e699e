"""Loss: KL divergence (batchmean) of log_softmax over channels (dim 1) of [32, 64, 128, 128] against target probabilities."""
import torch
from torch import nn

batch_size = 32
classes = 64
height = 128
width = 128


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        log_probs = torch.log_softmax(logits, dim=1)
        return torch.nn.functional.kl_div(log_probs, targets, reduction="batchmean")


def get_inputs():
    logits = torch.randn(batch_size, classes, height, width)
    targets = torch.randn(batch_size, classes, height, width).softmax(dim=1)
    return [logits, targets]


def get_init_inputs():
    return []
