"""The job's device-memory bound (issue 18) and what it rules out at real sizes.

A job may hold at most MEMORY_BOUND_FACTOR x the memory of the Inductor module it starts from (its
arguments and outputs), or MEMORY_BOUND_FLOOR for a small module, and never more than the device's memory
less the gate's headroom. Read through NVML over all of the job's processes (runtime/device_memory.py).
The floor: the gate's float64 reference of a scan (its output and its intermediate in float64, beside
the fp32 input) needs about 5x the input, so at 3x a 134 MB cumulative sum (peak 0.25 GiB) was judged
with no reference and no run-to-run spread, and its correct candidates were rejected for reassociation
(H100 run, 2026-12-05). The bound exists for real sizes, where 3x of a multi-GB module is the limit.

Inductor's max-autotune benchmarks its kernel configurations on copies of the arguments at compile time:
compiling a 7.5 GB instance norm in `max-autotune-no-cudagraphs` took 99 GiB of device memory, 7x the
module's own 14 GiB (H200, torch 2.11). Where AUTOTUNE_COMPILE_FACTOR x the module's memory is over the
bound and large in absolute terms, the job compiles no max-autotune mode: `--base best` captures
`default` only, and the report times the modes it can. A small model's autotuning fits any GPU.
"""
from __future__ import annotations

from kernelopt.legality.memory_budget import HEADROOM

MEMORY_BOUND_FACTOR = 3
MEMORY_BOUND_FLOOR = 2 << 30
AUTOTUNE_COMPILE_FACTOR = 8
AUTOTUNE_COMPILE_FLOOR = 16 << 30


def job_memory_bound(module_bytes: int, device_bytes: int) -> int:
    return min(max(MEMORY_BOUND_FACTOR * module_bytes, MEMORY_BOUND_FLOOR), device_bytes - HEADROOM)


def autotune_over_bound(module_bytes: int, device_bytes: int) -> tuple[bool, int, int]:
    """(whether compiling a max-autotune mode of a module holding `module_bytes` is left out on a device of
    `device_bytes`, the memory that compilation is expected to need, the job's bound)."""
    bound = job_memory_bound(module_bytes, device_bytes)
    needs = AUTOTUNE_COMPILE_FACTOR * module_bytes
    return needs > bound and needs > AUTOTUNE_COMPILE_FLOOR, needs, bound
