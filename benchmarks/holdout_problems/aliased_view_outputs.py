"""Structure: outputs that alias the inputs. The input itself transposed, a narrowed view of the second input,
a computed row-scaled product and a view (unsqueeze + expand) of it, [29, 47] and [29, 53]."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features))

    def forward(self, x: torch.Tensor, y: torch.Tensor):
        scaled = x * self.weight * torch.sigmoid(y[:, :47])    # [29, 47]
        return x.t(), y.narrow(1, 3, 40), scaled, scaled.unsqueeze(0).expand(2, 29, 47)


def get_inputs():
    return [torch.randn(29, 47), torch.randn(29, 53)]


def get_init_inputs():
    return [47]
