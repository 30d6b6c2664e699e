"""Loss: cross-entropy with label smoothing 0.1 on bf16 logits [4096, 32000] (a 32K vocabulary)."""
import torch
from torch import nn

tokens = 4096
vocab = 32000


class Model(nn.Module):
    def __init__(self, label_smoothing: float):
        super().__init__()
        self.label_smoothing = label_smoothing

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.cross_entropy(logits, targets, label_smoothing=self.label_smoothing)


def get_inputs():
    return [torch.randn(tokens, vocab, dtype=torch.bfloat16), torch.randint(0, vocab, (tokens,))]


def get_init_inputs():
    return [0.1]
