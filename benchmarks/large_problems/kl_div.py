# Input: predictions and targets [32768, 16384] fp32, 2.15 GB each = 4.29 GB (4.00 GiB); output a scalar.
# (KernelBench's 98_KLDivLoss pair at [16384, 16384] is 2.15 GB in all; twice the rows reach 4 GB.)
"""KL divergence, reduction='batchmean', of softmax-normalised prediction/target pairs [32768, 16384]."""
import torch
from torch import nn

batch_size = 32768
dim = 16384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.kl_div(torch.log(predictions), targets, reduction="batchmean")


def get_inputs():
    return [torch.randn(batch_size, dim).softmax(dim=-1), torch.randn(batch_size, dim).softmax(dim=-1)]


def get_init_inputs():
    return []
