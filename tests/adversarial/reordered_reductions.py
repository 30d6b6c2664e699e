"""Reorder-only retunes of fp32 reductions, simulated faithfully with torch: the candidates the legality
gate must accept. A Triton reduction kernel with R0_BLOCK lanes loads the row R0_BLOCK elements at a
time (masked lanes read 0), adds each load into a per-lane fp32 accumulator (a looped `triton_red`
kernel; a persistent `triton_per` kernel has one iteration), then sums the lanes with a tree. A
block-size retune changes exactly this order, and so the rounding, never the math; `blocked_sum`
performs those fp32 additions in that order. Welford's and the online softmax's looped forms (what
Inductor emits for looped layer norms and softmaxes) are here too.

Each op maps an fp32 input to its fp32 output given a block size (`None`: persistent, one block of
next_power_of_2(k) lanes); `reference` computes the same math in float64, as the gate's float64 run
of the original kernel does. `gate_case` packs one retune as the legality gate takes it (a kernel-like
launch with an output buffer and r0_numel, the original, the float64 reference and the candidate's
source), for check_candidate on any device.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch


def _next_power_of_2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def _lanes(k: int, block: int | None) -> int:
    return _next_power_of_2(k) if block is None else block


def _tree(acc: torch.Tensor) -> torch.Tensor:
    """Sum the lanes (last dim, a power of two) pairwise, as tl.sum's reduction tree does."""
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc[..., 0]


def _loads(x: torch.Tensor, lanes: int):
    """The row's successive loads of `lanes` elements, masked lanes 0 (the last load may be partial)."""
    k = x.shape[-1]
    for start in range(0, k, lanes):
        piece = x[..., start:start + lanes]
        if piece.shape[-1] < lanes:
            piece = torch.nn.functional.pad(piece, (0, lanes - piece.shape[-1]))
        yield piece


def blocked_sum(x: torch.Tensor, block: int | None) -> torch.Tensor:
    """Sum over the last dim in fp32, in a Triton reduction's order for R0_BLOCK = block."""
    acc = None
    for piece in _loads(x, _lanes(x.shape[-1], block)):
        acc = piece.clone() if acc is None else acc + piece
    return _tree(acc)


def welford_var_mean(x: torch.Tensor, block: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Inductor's looped layer-norm statistics: per-lane Welford updates over the loads, then a tree of
    Welford combines over the lanes. Returns (biased variance, mean) in fp32."""
    k = x.shape[-1]
    mean = torch.zeros(x.shape[:-1] + (block,), dtype=x.dtype, device=x.device)
    m2, count = torch.zeros_like(mean), torch.zeros_like(mean)
    for start in range(0, k, block):
        piece = x[..., start:start + block]
        width = piece.shape[-1]
        value = piece if width == block else torch.nn.functional.pad(piece, (0, block - width))
        live = torch.zeros(block, dtype=x.dtype, device=x.device)
        live[:width] = 1.0
        new_count = count + live
        delta = value - mean
        mean = mean + torch.where(live > 0, delta / new_count.clamp(min=1.0), torch.zeros_like(delta))
        m2 = m2 + live * delta * (value - mean)
        count = new_count
    while mean.shape[-1] > 1:
        half = mean.shape[-1] // 2
        ma, mb = mean[..., :half], mean[..., half:]
        qa, qb = m2[..., :half], m2[..., half:]
        na, nb = count[..., :half], count[..., half:]
        n = na + nb
        weight = torch.where(n > 0, nb / n.clamp(min=1.0), torch.zeros_like(n))
        delta = mb - ma
        mean = ma + delta * weight
        m2 = qa + qb + delta * delta * na * weight
        count = n
    return m2[..., 0] / k, mean[..., 0]


def layer_norm(x, weight, bias, block, eps=1e-5):
    """Persistent (block None): two-pass mean and variance, as Inductor's triton_per layer norms; looped:
    Welford, as its triton_red ones."""
    k = x.shape[-1]
    if block is None:
        mean = blocked_sum(x, None) / k
        centered = x - mean[..., None]
        var = blocked_sum(centered * centered, None) / k
    else:
        var, mean = welford_var_mean(x, block)
        centered = x - mean[..., None]
    return centered * torch.rsqrt(var + eps)[..., None] * weight + bias


def rms_norm(x, weight, block, eps=1e-6):
    ms = blocked_sum(x * x, block) / x.shape[-1]
    return x * torch.rsqrt(ms + eps)[..., None] * weight


def softmax(x, block):
    """Persistent: max, then the sum of exp(x - max). Looped: Inductor's online softmax, a running max and
    a rescaled running sum per lane, combined over the lanes by a tree."""
    if block is None:
        high = x.amax(-1)
        return _normalize(x, high, blocked_sum(torch.exp(x - high[..., None]), None))
    high = torch.full(x.shape[:-1] + (block,), float("-inf"), dtype=x.dtype, device=x.device)
    total = torch.zeros_like(high)
    for piece in _loads_masked(x, block):
        new_high = torch.maximum(high, piece)
        total = total * _exp_diff(high, new_high) + _exp_diff(piece, new_high)
        high = new_high
    while high.shape[-1] > 1:
        half = high.shape[-1] // 2
        new_high = torch.maximum(high[..., :half], high[..., half:])
        total = total[..., :half] * _exp_diff(high[..., :half], new_high) + \
            total[..., half:] * _exp_diff(high[..., half:], new_high)
        high = new_high
    return _normalize(x, high[..., 0], total[..., 0])


def _loads_masked(x, lanes):
    """Loads for a max-style reduction: masked lanes read -inf."""
    k = x.shape[-1]
    for start in range(0, k, lanes):
        piece = x[..., start:start + lanes]
        if piece.shape[-1] < lanes:
            piece = torch.nn.functional.pad(piece, (0, lanes - piece.shape[-1]), value=float("-inf"))
        yield piece


def _exp_diff(a, b):
    """exp(a - b), 0 where both are -inf (an empty lane), as Inductor's online softmax guards it."""
    return torch.where(a == float("-inf"), torch.zeros_like(a), torch.exp(a - b))


def _normalize(x, high, total):
    return torch.exp(x - high[..., None]) / total[..., None]


def cross_entropy_grad(x, target, block):
    """d loss / d logits of per-token cross-entropy (reduction none): softmax(x) - onehot(target). The
    target column cancels (p - 1), the rest are the probabilities."""
    grad = softmax(x, block)
    grad.scatter_add_(-1, target[..., None], -torch.ones_like(grad[..., :1]))
    return grad


def row_sum(x, block):
    return blocked_sum(x, block)


@dataclass(frozen=True)
class Retune:
    """One op's reorder-only retune: the original's and the candidate's R0_BLOCK (None: persistent), the
    reduction length, and how many rows give an output of `elements` elements."""
    op: str
    length: int
    original_block: int | None
    candidate_block: int | None

    def rows(self, elements: int) -> int:
        per_row = 1 if self.op == "row_sum" else self.length
        return max(1, -(-elements // per_row))


# Inductor's choices for such rows: a persistent kernel (one block of next_power_of_2(length) lanes) or a
# looped one; the retune switches between them or changes the looped kernel's R0_BLOCK. Lengths are not
# powers of two, so the last load of each row is masked.
RETUNES = {
    "layer_norm": Retune("layer_norm", 1000, None, 64),            # two-pass persistent -> Welford looped
    "rms_norm": Retune("rms_norm", 1000, None, 128),
    "softmax": Retune("softmax", 10007, 2048, 512),                 # online softmax, 5 -> 20 loads a row
    "cross_entropy_grad": Retune("cross_entropy_grad", 10007, 2048, None),  # looped online -> persistent
    "row_sum": Retune("row_sum", 5, None, 2),                       # a tree of 8 lanes -> 3 loads into 2
}

# Input kinds: the gate's own (cases.py: random, large magnitudes, negatives) and rows of very
# different offsets and spreads (values near -50 spread by 0.05 next to values near 0 spread by 5),
# where LayerNorm cancels and the rounding errors differ from row to row by orders of magnitude.
KINDS = ("random", "negative", "large", "rows")


def make_inputs(op: str, seed: int, elements: int, kind: str | None = None) -> tuple:
    """Fresh inputs for `op` whose output has at least `elements` elements; the kind cycles with the
    seed unless given."""
    retune = RETUNES[op]
    kind = kind or KINDS[seed % len(KINDS)]
    generator = torch.Generator().manual_seed(seed)
    rows, length = retune.rows(elements), retune.length
    z = torch.randn(rows, length, generator=generator)
    if kind == "negative":
        x = z.abs_().mul_(-30).sub_(1)
    elif kind == "large":
        x = z.mul_(1e4)
    elif kind == "rows":
        offset = torch.randn(rows, 1, generator=generator) * 30
        spread = torch.empty(rows, 1).uniform_(-3.0, 1.6, generator=generator).exp_()
        x = z.mul_(spread).add_(offset)
    elif kind == "random":
        x = z
    else:
        raise ValueError(f"unknown input kind {kind!r} (one of {', '.join(KINDS)})")
    if op == "layer_norm":
        return x, 1 + 0.1 * torch.randn(length, generator=generator), 0.1 * torch.randn(length, generator=generator)
    if op == "rms_norm":
        return x, 1 + 0.1 * torch.randn(length, generator=generator)
    if op == "cross_entropy_grad":
        return x, torch.randint(0, length, (rows,), generator=generator)
    return (x,)


def reference(op: str, args: tuple) -> torch.Tensor:
    """The op's exact math in float64 on the same (fp32) inputs."""
    x = args[0].double()
    if op == "layer_norm":
        weight, bias = args[1].double(), args[2].double()
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)
        return (x - mean) * torch.rsqrt(var + 1e-5) * weight + bias
    if op == "rms_norm":
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * args[1].double()
    if op == "softmax":
        return torch.softmax(x, -1)
    if op == "cross_entropy_grad":
        grad = torch.softmax(x, -1)
        grad.scatter_add_(-1, args[1][..., None], -torch.ones_like(grad[..., :1]))
        return grad
    if op == "row_sum":
        return x.sum(-1)
    raise ValueError(op)


def compute(op: str, args: tuple, block: int | None) -> torch.Tensor:
    """The op in fp32 with the given R0_BLOCK (None: persistent)."""
    if op == "layer_norm":
        return layer_norm(args[0], args[1], args[2], block)
    if op == "rms_norm":
        return rms_norm(args[0], args[1], block)
    if op == "softmax":
        return softmax(args[0], block)
    if op == "cross_entropy_grad":
        return cross_entropy_grad(args[0], args[1], block)
    if op == "row_sum":
        return row_sum(args[0], block)
    raise ValueError(op)


# ----------------------------------------------------------------------------- as the gate takes it

_INPUT_NAMES = {"layer_norm": ["in_ptr0", "in_ptr1", "in_ptr2"], "rms_norm": ["in_ptr0", "in_ptr1"],
                "cross_entropy_grad": ["in_ptr0", "in_ptr1"], "softmax": ["in_ptr0"], "row_sum": ["in_ptr0"]}


@dataclass
class GateCase:
    launch: object          # kernelopt.legality.LaunchInputs
    original: object        # callable(*args): writes out_ptr0
    reference: object       # the same in float64
    source: str             # the candidate: defines run(*args)
    arg_names: list
    output_args: set


def _kernel(op: str, block, float64: bool = False):
    inputs = len(_INPUT_NAMES[op])

    def launch(*args):
        values = args[:inputs]
        result = reference(op, values) if float64 else compute(op, values, block)
        args[inputs].copy_(result.reshape(args[inputs].shape))
    return launch


def gate_case(op: str, seed: int, elements: int, device: str = "cpu", one_element_off: float = 0.0) -> GateCase:
    """The retune of `op` as a kernel launch (inputs..., out_ptr0, xnumel, r0_numel) on `device`, its
    captured inputs of the kind of `seed`. `one_element_off`: the candidate then moves the output
    element of largest magnitude by that much, relative (the cheat that must be rejected)."""
    from kernelopt.legality import LaunchInputs

    retune = RETUNES[op]
    args = tuple(a.to(device) for a in make_inputs(op, seed, elements))
    rows = args[0].shape[0]
    out = torch.empty((rows,) if op == "row_sum" else tuple(args[0].shape), dtype=torch.float32, device=device)
    names = _INPUT_NAMES[op] + ["out_ptr0", "xnumel", "r0_numel"]
    launch = LaunchInputs(args + (out, rows, retune.length), label=f"{op} [{rows}, {retune.length}]",
                          int_bounds={1: (0, retune.length - 1)} if op == "cross_entropy_grad" else {})
    with open(__file__) as handle:
        source = handle.read()
    inputs = len(_INPUT_NAMES[op])
    source += (f"\n\ndef run(*args):\n    _kernel({op!r}, {retune.candidate_block!r})(*args)\n")
    if one_element_off:
        source += (f"    out = args[{inputs}].view(-1)\n    worst = int(out.abs().argmax())\n"
                   f"    out[worst] = out[worst] * (1 + {one_element_off!r})\n")
    return GateCase(launch, _kernel(op, retune.original_block), _kernel(op, None, float64=True), source,
                    names, {inputs})
