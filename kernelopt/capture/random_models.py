"""Seeded random models: short mixes of linear layers, norms, activations, softmax, reductions and
residual adds over random (often non-power-of-two) shapes, in fp32 or bf16.

They widen what the capture and the lifter see beyond the hand-written zoo. Use them as an entry point:
    kernelopt capture --entry kernelopt.capture.random_models:factory --seed 7 -o DIR
The same seed always gives the same op list, shapes, dtype, weights and inputs.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import torch
from torch import nn

ACTIVATIONS = ("gelu", "silu", "relu", "tanh", "sigmoid")
NORMS = ("layernorm", "rmsnorm")
REDUCTIONS = ("softmax", "sub_mean", "sub_logsumexp", "div_absmax")
ROWS = (8, 16, 33, 64)
DIMS = (16, 32, 48, 64, 100)


@dataclass(frozen=True)
class RandomModelSpec:
    seed: int
    batch: tuple[int, ...]  # leading dims of the input, e.g. (33,) or (2, 16)
    dim: int
    dtype: str  # "float32" or "bfloat16"
    ops: tuple[tuple[str, int], ...] = field(default=())  # (op, width after it)
    final_sum: bool = False  # reduce the last dim away at the end

    @property
    def torch_dtype(self) -> torch.dtype:
        return getattr(torch, self.dtype)


def random_spec(seed: int, *, max_ops: int = 6) -> RandomModelSpec:
    """Draw an op mix: every model has at least one norm, one activation and one reduction."""
    rng = random.Random(seed)
    dim = rng.choice(DIMS)
    batch = (rng.choice(ROWS),) if rng.random() < 0.6 else (2, rng.choice(ROWS[:3]))
    kinds = ["norm", "activation", "reduction"] + rng.choices(
        ["linear", "norm", "activation", "reduction", "residual", "scale"], k=rng.randint(0, max_ops - 3))
    rng.shuffle(kinds)
    kinds.insert(0, "linear")
    ops, width = [], dim
    for kind in kinds:
        if kind == "linear":
            width = rng.choice(DIMS)
            ops.append(("linear", width))
        elif kind == "norm":
            ops.append((rng.choice(NORMS), width))
        elif kind == "activation":
            ops.append((rng.choice(ACTIVATIONS), width))
        elif kind == "reduction":
            ops.append((rng.choice(REDUCTIONS), width))
        else:
            ops.append((kind, width))
    return RandomModelSpec(seed=seed, batch=batch, dim=dim, dtype=rng.choice(["float32", "bfloat16"]),
                           ops=tuple(ops), final_sum=rng.random() < 0.3)


class RMSNorm(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.weight = nn.Parameter(1 + 0.1 * torch.randn(dim))

    def forward(self, x):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)).to(x.dtype) * self.weight.to(x.dtype)


class RandomModel(nn.Module):
    """Runs the spec's ops in order; `residual` adds the most recent earlier value of the same width."""

    def __init__(self, spec: RandomModelSpec):
        super().__init__()
        self.spec = spec
        self.layers = nn.ModuleDict()
        width = spec.dim
        for i, (op, out_width) in enumerate(spec.ops):
            if op == "linear":
                self.layers[str(i)] = nn.Linear(width, out_width, bias=bool(i % 2 == 0))
            elif op == "layernorm":
                self.layers[str(i)] = nn.LayerNorm(width)
            elif op == "rmsnorm":
                self.layers[str(i)] = RMSNorm(width)
            width = out_width
        self.to(spec.torch_dtype)

    def forward(self, x):
        history = [x]
        for i, (op, _) in enumerate(self.spec.ops):
            x = self._run_op(i, op, x, history)
            history.append(x)
        return x.float().sum(-1) if self.spec.final_sum else x

    def _run_op(self, i: int, op: str, x, history):
        if str(i) in self.layers:
            return self.layers[str(i)](x)
        if op in ACTIVATIONS:
            return getattr(nn.functional, op)(x) if op in ("gelu", "silu", "relu") else getattr(torch, op)(x)
        if op == "softmax":
            return torch.softmax(x.float(), dim=-1).to(x.dtype)
        if op == "sub_mean":
            return x - x.mean(-1, keepdim=True)
        if op == "sub_logsumexp":
            return (x.float() - torch.logsumexp(x.float(), dim=-1, keepdim=True)).to(x.dtype)
        if op == "div_absmax":
            return x / (x.abs().amax(-1, keepdim=True) + 1e-3)
        if op == "scale":
            return x * 0.5 + 0.25
        if op == "residual":
            earlier = next((h for h in reversed(history[:-1]) if h.shape == x.shape), None)
            return x if earlier is None else x + earlier
        raise ValueError(f"unknown random-model op {op!r}")


def build(seed: int) -> tuple[RandomModel, list[torch.Tensor]]:
    spec = random_spec(seed)
    generator = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model = RandomModel(spec).eval()
    x = torch.randn(*spec.batch, spec.dim, generator=generator).to(spec.torch_dtype)
    return model, [x]


def factory(seed: int = 0) -> tuple[RandomModel, list[torch.Tensor]]:
    """Entry point for `kernelopt capture --entry kernelopt.capture.random_models:factory --seed N`."""
    return build(seed)


def describe(seed: int) -> str:
    spec = random_spec(seed)
    ops = " -> ".join(f"{op}[{w}]" if op == "linear" else op for op, w in spec.ops)
    return f"seed {seed}: x{list(spec.batch) + [spec.dim]} {spec.dtype}: {ops}{' -> sum' if spec.final_sum else ''}"
