"""nn.Linear, an average pool over windows of 16 features, a GELU, a scaling and the max of each row, fp32 (the layers
of KernelBench level 2's Matmul_AvgPool_GELU_Scaling_Max): x [1024, 8192], W [8192, 8192].

Inductor calls a 1024 x 8192 x 8192 addmm and a persistent reduction that loads each window's 16 elements, averages
them, and takes the max of each row's 512 pooled values; the window sums are x times W's window sums, a GEMM 16 times
narrower: the window-through-gemm transform's case, written KernelBench-style."""
import torch
from torch import nn

BATCH = 1024
IN_FEATURES = 8192
OUT_FEATURES = 8192
POOL = 16


class Model(nn.Module):
    def __init__(self, in_features: int = IN_FEATURES, out_features: int = OUT_FEATURES, pool: int = POOL,
                 scale_factor: float = 2.0):
        super().__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.avg_pool = nn.AvgPool1d(kernel_size=pool)
        self.scale_factor = scale_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.avg_pool(self.matmul(x).unsqueeze(1)).squeeze(1)
        x = torch.nn.functional.gelu(x) * self.scale_factor
        return torch.max(x, dim=1).values


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return []
