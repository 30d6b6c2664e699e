"""End-to-end timing of one model, every variant side by side in one process, as a user calls it.

Variants: eager, Inductor `default`, `max-autotune-no-cudagraphs`, `max-autotune` (with CUDA graphs)
and the KernelOPT module. Each call gets fresh input tensors (rotated among several copies), because
max-autotune's CUDA graphs copy non-static inputs on every call and timing on one reused buffer would
hide that cost.
"""
from __future__ import annotations

from typing import Any

MODES = ("default", "max-autotune-no-cudagraphs", "max-autotune")


def _fresh_input_sets(inputs: list, copies: int = 4) -> list[list]:
    import torch

    return [[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs] for _ in range(copies)]


def _timer(fn, input_sets):
    position = [0]

    def call():
        args = input_sets[position[0] % len(input_sets)]
        position[0] += 1
        return fn(*args)

    return call


def end_to_end(model_spec, options, optimized_path: str, rounds: int = 5) -> dict[str, Any]:
    import torch

    import kernelopt
    from kernelopt.capture.models import load_model
    from kernelopt.runtime.timing import median_time_ms

    model, inputs, _ = load_model(model_spec, entry=options.entry, device="cuda", seed=options.seed,
                                  size=options.size)
    sets = _fresh_input_sets(inputs)
    variants = {"eager": model}
    for mode in MODES:
        torch._dynamo.reset()
        compiled = torch.compile(model, mode=mode)
        with torch.no_grad():
            compiled(*inputs)  # compile and autotune outside the timed region
        variants[f"inductor {mode}"] = compiled
    variants["kernelopt"] = kernelopt.load(optimized_path, model, device="cuda")
    times: dict[str, list[float]] = {name: [] for name in variants}
    with torch.no_grad():
        for _ in range(rounds):  # interleaved rounds: drift hits every variant alike
            for name, fn in variants.items():
                times[name].append(median_time_ms(_timer(fn, sets), device="cuda", min_time_ms=50.0))
    return {name: round(sorted(ts)[len(ts) // 2], 4) for name, ts in times.items()}
