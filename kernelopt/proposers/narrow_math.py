"""narrow-math: a kernel whose every store writes a 16-bit float, with cheaper exponentials, max and min.

A bf16 softmax reads and writes 4 bytes per element: on an H200 that leaves about 28 issued instructions
per element before the schedulers, not the memory, set the time. Inductor's persistent bf16 softmax over
rows of 256 (the zoo's) takes about 42 SASS instructions per element, most of them in CUDA's precise expf
(`libdevice.exp`, nine) and its NaN-aware max (two compares and a select per element). This proposer runs
the kernel's own schedule with

- every `libdevice.exp` a flushed `exp2(x * log2 e)` (`exp_forms.with_fast_exp`: about 2 ulp, far inside
  the half ulp of the 16-bit value stored; only where every store is 16-bit, so fp32 outputs stay precise);
- max and min on the NaN-propagating instruction (`hardware_minmax`: the same numbers);

which leaves about 28 instructions per element on that softmax (`benchmarks/ptx_census.py`). Found from
the kernel's code and its launch's dtypes (16-bit stores, a precise exponential), whatever it fuses or is
named; offered at the recorded launch configuration (or retune's spread without one). The legality gate
compares against its float64 reference; the search's timings say whether it is faster.
Row-on-chip offers the same exponentials inside its single pass (`+fast-exp`).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterable

from .base import Attempt, Candidate, RewriteTarget
from .exp_forms import wide_store, with_fast_exp
from .hardware_minmax import with_hardware_minmax
from .retune import own_schedule_candidates

UNRECORDED_CONFIGS = 3          # without a recorded launch configuration: this many from retune's space


class NarrowMathDeclined(Exception):
    """The kernel is not one this transform rewrites (the message says why)."""


@dataclass(frozen=True)
class NarrowMathPlan:
    module: ast.Module
    description: str


def plan_narrow_math(target: RewriteTarget) -> NarrowMathPlan:
    if len(target.kernels) != 1 or target.group_args or not target.launches:
        raise NarrowMathDeclined("not a single kernel")
    kernel = target.kernels[0]
    module = ast.parse(kernel.source)
    function = next((n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == kernel.name), None)
    if function is None:
        raise NarrowMathDeclined(f"no function named {kernel.name} in the kernel source")
    why = wide_store(function, {a.name: a.dtype for a in target.launches[0].args if a.is_tensor})
    if why:
        raise NarrowMathDeclined(why)
    exps = with_fast_exp(function)
    if not exps:
        raise NarrowMathDeclined("no precise exponential to make fast")
    minmax = with_hardware_minmax(module, {kernel.name})
    return NarrowMathPlan(module, f"{kernel.name}: {exps} precise exponential(s) made flushed ex2 and {minmax} "
                                  "max/min the NaN-propagating instruction (every store is 16-bit)")


@dataclass
class NarrowMathProposer:
    name: str = "narrow-math"
    summary: str = ("Where every store of a kernel is 16-bit: its precise exponentials made fast ones and its "
                    "max/min the hardware's NaN-propagating instruction, at the kernel's own schedule")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_narrow_math(target)
        except NarrowMathDeclined:
            return
        yield from own_schedule_candidates(self.name, self.name, ast.unparse(plan.module), target,
                                           {a.candidate.strategy for a in history}, plan.description,
                                           UNRECORDED_CONFIGS)

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """'' always: a kernel with a wide store or no precise exponential is not this transform's kind, and
        saying so for every fp32 kernel would bury the remarks that matter."""
        return ""


__all__ = ["NarrowMathDeclined", "NarrowMathProposer", "plan_narrow_math"]
