"""Structure: integer and bool inputs, outputs of four dtypes. x [19, 211] float32, counts [19, 211] int32 and a
bool keep-mask [19, 211]; returns a float32 weighted sum per row, an fp16 copy of the masked values, the int64
row-wise count of kept positions and a bool flag of rows whose weighted sum is positive."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, counts: torch.Tensor, keep: torch.Tensor):
        weighted = torch.where(keep, x * counts.to(x.dtype), torch.zeros_like(x))
        total = weighted.sum(dim=1)
        kept = keep.sum(dim=1)                        # int64
        return total, weighted.half(), kept, total > 0


def get_inputs():
    return [torch.randn(19, 211), torch.randint(-3, 4, (19, 211), dtype=torch.int32), torch.rand(19, 211) > 0.3]


def get_init_inputs():
    return []
