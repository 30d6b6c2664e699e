"""Structure: int64 indices into rows. index_select of 23 rows (with repeats) of x [37, 129], a tanh, then
scatter_add of those rows into 11 buckets (bucket [23] int64) and a per-bucket count."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, num_buckets: int):
        super().__init__()
        self.num_buckets = num_buckets

    def forward(self, x: torch.Tensor, rows: torch.Tensor, bucket: torch.Tensor):
        picked = torch.tanh(x.index_select(0, rows))
        sums = torch.zeros(self.num_buckets, x.shape[1], dtype=x.dtype, device=x.device)
        sums = sums.scatter_add(0, bucket[:, None].expand_as(picked), picked)
        counts = torch.zeros(self.num_buckets, dtype=torch.int64, device=x.device)
        counts = counts.scatter_add(0, bucket, torch.ones_like(bucket))
        return sums, counts


def get_inputs():
    return [torch.randn(37, 129), torch.randint(0, 37, (23,)), torch.randint(0, 11, (23,))]


def get_init_inputs():
    return [11]
