"""Loss: smooth L1 (beta 0.5) between two bf16 [128, 65536], mean over all elements."""
import torch
from torch import nn
from torch.nn import functional as F


class Model(nn.Module):
    def forward(self, prediction: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return F.smooth_l1_loss(prediction, target, beta=0.5)


def get_inputs():
    return [torch.randn(128, 65536, dtype=torch.bfloat16), torch.randn(128, 65536, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
