"""GPT-2 LM (transformers GPT2LMHeadModel from a GPT2Config), random init, fp32, eval; logits out."""
import torch
from torch import nn

REQUIRES = ("transformers",)
SIZES = {
    "small": {"batch": 2, "seq": 32, "vocab": 1000, "positions": 64, "dim": 64, "heads": 4, "layers": 2},
    "large": {"batch": 8, "seq": 512, "vocab": 50257, "positions": 1024, "dim": 768, "heads": 12, "layers": 2},
}


def get_input_ranges(size="small"):
    return {0: (0, SIZES[size]["vocab"])}


class Model(nn.Module):
    def __init__(self, vocab, positions, dim, heads, layers):
        super().__init__()
        from transformers import GPT2Config, GPT2LMHeadModel

        config = GPT2Config(
            vocab_size=vocab, n_positions=positions, n_embd=dim, n_head=heads, n_layer=layers,
            resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
        )
        self.lm = GPT2LMHeadModel(config)

    def forward(self, ids):
        return self.lm(input_ids=ids, use_cache=False).logits


def get_init_inputs(size="small"):
    s = SIZES[size]
    return [s["vocab"], s["positions"], s["dim"], s["heads"], s["layers"]]


def get_inputs(size="small"):
    s = SIZES[size]
    return [torch.randint(0, s["vocab"], (s["batch"], s["seq"]))]
