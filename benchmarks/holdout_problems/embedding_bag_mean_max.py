"""Structure: nn.EmbeddingBag(53, 37) in mean and max mode over 1-D int64 indices [41] with int64 offsets [6]
(bags of unequal length, one of length 1), outputs [6, 37] twice."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, num_embeddings: int, embedding_dim: int):
        super().__init__()
        self.bag_mean = nn.EmbeddingBag(num_embeddings, embedding_dim, mode="mean")
        self.bag_max = nn.EmbeddingBag(num_embeddings, embedding_dim, mode="max")

    def forward(self, indices: torch.Tensor, offsets: torch.Tensor):
        return self.bag_mean(indices, offsets), self.bag_max(indices, offsets)


def get_inputs():
    return [torch.randint(0, 53, (41,)), torch.tensor([0, 5, 6, 17, 30, 33])]


def get_init_inputs():
    return [53, 37]
