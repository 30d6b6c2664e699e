"""A 3-D nn.Linear (a [8, 512, 4096] activation times W [6144, 4096]), an average pool over windows of 8 output
features, a sigmoid and the sum of each row, fp32.

Not written beside a fixture: the window-through-gemm transform's generality check (a batched activation that
Inductor flattens into one addmm, a window of 8 rather than 16, a sum rather than a max after a sigmoid)."""
import torch
from torch import nn

BATCH = 8
TOKENS = 512
IN_FEATURES = 4096
OUT_FEATURES = 6144
POOL = 8


class Model(nn.Module):
    def __init__(self, in_features: int = IN_FEATURES, out_features: int = OUT_FEATURES, pool: int = POOL):
        super().__init__()
        self.proj = nn.Linear(in_features, out_features)
        self.pool = pool

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.proj(x)
        y = torch.nn.functional.avg_pool1d(y.flatten(0, 1).unsqueeze(1), self.pool).squeeze(1)
        return torch.sigmoid(y).sum(dim=-1).view(x.shape[0], x.shape[1])


def get_inputs():
    return [torch.randn(BATCH, TOKENS, IN_FEATURES)]


def get_init_inputs():
    return []
