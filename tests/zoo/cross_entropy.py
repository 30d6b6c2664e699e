"""Cross-entropy: cross_entropy(logits.float(), target), logits bf16, targets int64 (the fixture `ce`)."""
import torch
from torch import nn

SIZES = {"small": {"rows": 8, "classes": 512}, "large": {"rows": 4096, "classes": 32000}}


def get_input_ranges(size="small"):
    return {1: (0, SIZES[size]["classes"])}


class Model(nn.Module):
    def forward(self, logits, target):
        return nn.functional.cross_entropy(logits.float(), target)


def get_init_inputs(size="small"):
    return []


def get_inputs(size="small"):
    s = SIZES[size]
    logits = 2 * torch.randn(s["rows"], s["classes"], dtype=torch.bfloat16)
    return [logits, torch.randint(0, s["classes"], (s["rows"],))]
