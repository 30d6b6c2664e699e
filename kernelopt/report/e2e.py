"""End-to-end timing of one model, every variant side by side in one process, as a user calls it.

Variants: eager, Inductor `default`, `max-autotune-no-cudagraphs`, `max-autotune` (with CUDA graphs)
and the KernelOPT module. Each call gets fresh input tensors (rotated among several copies), because
max-autotune's CUDA graphs copy non-static inputs on every call and timing on one reused buffer would
hide that cost.

Two figures per variant, both medians over interleaved rounds:
  per call   calls issued back to back (as a model runs in a loop), CUDA events around a batch of
             calls: host work overlaps the previous call's GPU work, as it does for a user. Headline.
  latency    one call with the GPU idle before it, synchronized after it: host overhead (guards,
             wrappers, launches) adds in full. Reported beside it.
"""
from __future__ import annotations

import os

import torch

import kernelopt
from kernelopt.errors import UsageError
from kernelopt.capture.models import load_model
from kernelopt.memory_bound import autotune_over_bound
from kernelopt.runtime.device_memory import gib
from kernelopt.runtime.timing import back_to_back_ms, median_time_ms

MODES = ("default", "max-autotune-no-cudagraphs", "max-autotune")
# A quick look (benchmarks/general_probe.py) times against fewer modes: compiling max-autotune alone
# takes a minute or more per model. The report names the modes it timed, so nothing is hidden.
MODES_VARIABLE = "KERNELOPT_E2E_MODES"


def timed_modes() -> tuple[str, ...]:
    """The Inductor modes the report times: $KERNELOPT_E2E_MODES (comma-separated), else all three."""
    chosen = tuple(m.strip() for m in os.environ.get(MODES_VARIABLE, "").split(",") if m.strip())
    unknown = [m for m in chosen if m not in MODES]
    if unknown:
        raise UsageError(f"{MODES_VARIABLE}: unknown Inductor mode(s) {', '.join(unknown)}; "
                         f"choose among {', '.join(MODES)}")
    return chosen or MODES


# Inputs above this size rotate between two sets (the inputs and one copy) instead of four copies:
# alternating buffers already defeats any reuse of a buffer between calls, and four copies of a
# 7.5 GB input alone would exceed the job's memory bound (issue 18).
FEW_SETS_ABOVE_BYTES = 1 << 30


def _fresh_input_sets(inputs: list, copies: int = 4) -> list[list]:
    size = sum(x.numel() * x.element_size() for x in inputs if isinstance(x, torch.Tensor))
    if size > FEW_SETS_ABOVE_BYTES:
        return [list(inputs), [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]]
    return [[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs] for _ in range(copies)]


def _timer(fn, input_sets):
    position = [0]

    def call():
        args = input_sets[position[0] % len(input_sets)]
        position[0] += 1
        return fn(*args)

    return call


def modes_within_bound(module_bytes: int | None, device_bytes: int) -> tuple[tuple[str, ...], str]:
    """(the modes timed, why others are not): at real sizes compiling a max-autotune mode would break
    the job's memory bound (kernelopt/memory_bound.py)."""
    modes = timed_modes()
    if not module_bytes:
        return modes, ""
    over, needs, bound = autotune_over_bound(module_bytes, device_bytes)
    if not over:
        return modes, ""
    kept = tuple(m for m in modes if not m.startswith("max-autotune"))
    left = [m for m in modes if m not in kept]
    return kept, (f"{', '.join(left)} not timed: compiling with autotuning would need about {gib(needs)} of device "
                  f"memory, over the job's bound of {gib(bound)}" if left else "")


def end_to_end(model_spec, options, optimized_path: str, rounds: int = 5,
               module_bytes: int | None = None) -> dict[str, dict[str, float]]:
    """{"per_call": {variant: ms}, "latency": {variant: ms}, "note": why a mode was not timed} (see the module
    docstring). `module_bytes`: the Inductor module's memory (arguments and outputs), for the memory bound."""
    model, inputs, _ = load_model(model_spec, entry=options.entry, device="cuda", seed=options.seed,
                                  size=options.size)
    sets = _fresh_input_sets(inputs)
    variants = {"eager": model}
    modes, note = modes_within_bound(module_bytes, torch.cuda.get_device_properties(
        torch.cuda.current_device()).total_memory)
    for mode in modes:
        torch._dynamo.reset()
        compiled = torch.compile(model, mode=mode)
        with torch.no_grad():
            compiled(*inputs)  # compile and autotune outside the timed region
        variants[f"inductor {mode}"] = compiled
    variants["kernelopt"] = kernelopt.load(optimized_path, model, device="cuda")
    per_call: dict[str, list[float]] = {name: [] for name in variants}
    latency: dict[str, list[float]] = {name: [] for name in variants}
    with torch.no_grad():
        for _ in range(rounds):  # interleaved rounds: drift hits every variant alike
            for name, fn in variants.items():
                per_call[name].append(back_to_back_ms(_timer(fn, sets)))
                latency[name].append(median_time_ms(_timer(fn, sets), device="cuda", min_time_ms=30.0))
    return {"per_call": _medians(per_call), "latency": _medians(latency), "note": note}


def _medians(samples: dict[str, list[float]]) -> dict[str, float]:
    return {name: round(sorted(ts)[len(ts) // 2], 4) for name, ts in samples.items()}
