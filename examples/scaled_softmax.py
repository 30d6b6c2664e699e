"""A plain KernelBench problem: a softmax with a scale inside, over rows of 4,096 fp32 values.

The KernelBench convention and nothing more: `class Model`, `get_inputs()`, `get_init_inputs()` and
module-level sizes. A file like this has one size, its own, and `kernelopt optimize` runs it at that
size (4 MB of input, small enough for the Triton interpreter on a machine without a GPU).
"""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x * self.scale, dim=-1)


batch_size = 256
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [0.125]
