# Input: predictions [32768, 50257] fp32 = 6.59 GB (6.14 GiB) and targets [32768] int64 (262 KB);
# output a scalar.
"""Cross-entropy loss over a GPT-2-sized vocabulary: [32768, 50257] logits (KernelBench 95_CrossEntropyLoss style)."""
import torch
from torch import nn

batch_size = 32768
num_classes = 50257


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.cross_entropy(predictions, targets)


def get_inputs():
    return [torch.randn(batch_size, num_classes), torch.randint(0, num_classes, (batch_size,))]


def get_init_inputs():
    return []
