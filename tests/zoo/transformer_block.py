"""Pre-LN transformer block: causal SDPA attention + 4x GELU MLP, residuals, bf16 (the fixture `block`)."""
import torch
from torch import nn

SIZES = {
    "small": {"batch": 2, "seq": 32, "dim": 64, "heads": 4},
    "large": {"batch": 8, "seq": 1024, "dim": 1024, "heads": 16},
}


class Model(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)
        self.to(torch.bfloat16)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attn = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(attn.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(nn.functional.gelu(self.fc1(self.ln2(x))))


def get_init_inputs(size="small"):
    s = SIZES[size]
    return [s["dim"], s["heads"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randn(s["batch"], s["seq"], s["dim"], dtype=torch.bfloat16)]
