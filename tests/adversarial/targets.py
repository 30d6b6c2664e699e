"""Real captured kernels (tests/fixtures/inductor-2.11-h200), shrunk for the CPU interpreter, as
targets for the adversarial suite: each target gives the original launcher, its float64 reference,
realistic launches, and which arguments are outputs.

Shrinking replaces the hard-coded sizes (`xnumel = 4096`, `32000*x0`, ...) by small ones; on a GPU
(`--device cuda`) the same small shapes run, which keeps the suite quick there too.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

import torch

from kernelopt import inductor_source
from kernelopt.legality import LaunchInputs
from kernelopt.legality.kernel_launcher import StandaloneKernel

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "inductor-2.11-h200")
ROWS, VOCAB = 6, 300


@dataclass
class Target:
    name: str
    fixture: str
    kernel: str
    sizes: dict
    meta: dict
    make_launches: Callable[[str, "Target"], list]
    launches_cache: dict = field(default_factory=dict)

    @property
    def path(self) -> str:
        return os.path.join(FIXTURES, self.fixture)

    def text(self) -> str:
        with open(self.path) as handle:
            return handle.read()

    def original(self) -> StandaloneKernel:
        return StandaloneKernel.from_module_text(self.text(), self.kernel, sizes=self.sizes, meta=self.meta)

    def reference(self) -> StandaloneKernel:
        return StandaloneKernel.from_module_text(self.text(), self.kernel, sizes=self.sizes, meta=self.meta,
                                                 float64=True)

    def source(self) -> str:
        return inductor_source.kernel_source(self.text(), self.kernel)

    def params(self) -> list[str]:
        return inductor_source.kernel_params(self.source(), self.kernel)

    def output_args(self) -> set[int]:
        return inductor_source.written_param_indices(self.source(), self.kernel)

    def launches(self, device: str = "cpu") -> list[LaunchInputs]:
        if device not in self.launches_cache:
            self.launches_cache[device] = self.make_launches(device, self)
        return self.launches_cache[device]


def _rows_buffer(device):
    return torch.empty_strided((ROWS, 1), (1, ROWS), dtype=torch.float32, device=device)


def _ce_logits(device, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return (torch.randn(ROWS, VOCAB, generator=generator) * 3).to(torch.bfloat16).to(device)


def _ce_stats_launches(device, target):
    return [LaunchInputs((_ce_logits(device), _rows_buffer(device), _rows_buffer(device), ROWS, VOCAB),
                         label="ce kernel 0, launch 0")]


def _ce_nll_launches(device, target):
    logits = _ce_logits(device)
    stats = CE_STATS.original()
    row_max, row_sum = _rows_buffer(device), _rows_buffer(device)
    stats(logits, row_max, row_sum, ROWS, VOCAB)
    targets = torch.tensor([3, 299, -100, 0, 150, 42], dtype=torch.int64, device=device)
    loss = torch.empty((), dtype=torch.float32, device=device)
    return [LaunchInputs((loss, targets, logits, row_max, row_sum, 1, ROWS), label="ce kernel 1, launch 0")]


def _layernorm_launches(device, target):
    generator = torch.Generator().manual_seed(1)

    def randn(*shape):
        return torch.randn(*shape, generator=generator).to(device)
    hidden = 96
    args = (randn(ROWS, hidden), randn(hidden), randn(ROWS, hidden), randn(hidden), randn(hidden),
            torch.empty(ROWS, hidden, device=device), ROWS, hidden)
    return [LaunchInputs(args, label="gpt2 layer-norm 6, layer 0")]


def _silu_launches(device, target):
    generator = torch.Generator().manual_seed(2)
    numel = 1024
    gate = torch.randn(numel // 64, 64, generator=generator).to(torch.bfloat16).to(device)
    up = torch.randn(numel // 64, 64, generator=generator).to(torch.bfloat16).to(device)
    return [LaunchInputs((gate, up, numel), label="rms_swiglu silu*mul, launch 0")]


CE_STATS = Target("ce_softmax_stats", "ce.default.0.py", "triton_red_fused__to_copy_prepare_softmax_online_0",
                  {4096: ROWS, 32000: VOCAB}, {"XBLOCK": 1, "R0_BLOCK": 128}, _ce_stats_launches)
CE_NLL = Target("ce_nll", "ce.default.0.py", "triton_red_fused__log_softmax__to_copy_nll_loss_forward_sub_1",
                {4096: ROWS, 32000: VOCAB}, {"XBLOCK": 1, "R0_BLOCK": 4}, _ce_nll_launches)
LAYERNORM = Target("gpt2_layernorm", "gpt2_2l.default.0.py", "triton_per_fused_add_addmm_native_layer_norm_view_6",
                   {4096: ROWS, 768: 96, 1024: 128}, {"XBLOCK": 2}, _layernorm_launches)
SILU_MUL = Target("silu_mul", "rms_swiglu.default.0.py", "triton_poi_fused_mul_silu_1",
                  {23068672: 1024}, {"XBLOCK": 128}, _silu_launches)

TARGETS = {t.name: t for t in (CE_STATS, CE_NLL, LAYERNORM, SILU_MUL)}
