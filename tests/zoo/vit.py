"""Small ViT: conv patch embedding, class token, positional embedding, pre-LN blocks (SDPA), head; bf16."""
import torch
from torch import nn

SIZES = {
    "small": {"batch": 2, "image": 32, "patch": 8, "dim": 64, "heads": 4, "depth": 2, "classes": 10},
    "large": {"batch": 32, "image": 224, "patch": 16, "dim": 768, "heads": 12, "depth": 2, "classes": 1000},
}


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim, eps=1e-6)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim, eps=1e-6)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        x = x + self.proj(nn.functional.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(nn.functional.gelu(self.fc1(self.ln2(x))))


class Model(nn.Module):
    def __init__(self, image, patch, dim, heads, depth, classes):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, dim))
        self.pos = nn.Parameter(0.02 * torch.randn(1, (image // patch) ** 2 + 1, dim))
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.head = nn.Linear(dim, classes)
        self.to(torch.bfloat16)

    def forward(self, images):
        x = self.embed(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x[:, 0]))


def get_init_inputs(size="small"):
    s = SIZES[size]
    return [s["image"], s["patch"], s["dim"], s["heads"], s["depth"], s["classes"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["batch"], 3, s["image"], s["image"], dtype=torch.bfloat16)]
