"""The job's device-memory bound (issue 18) and what it rules out at real sizes.

A job may hold at most MEMORY_BOUND_FACTOR x the memory of the Inductor module it starts from (its
arguments and outputs), and never more than the device's memory less the gate's headroom. A small module
gets more: SMALL_MODULE_FACTOR x its memory up to SMALL_MODULE_CAP, and MEMORY_BOUND_FLOOR at least. Read
through NVML over all of the job's processes (runtime/device_memory.py). The bound exists for real sizes,
where 3x of a multi-GB module is the limit; below that, the gate's float64 reference decides whether a
candidate that only reorders a sum is accepted, and it needs many times the module:
- a scan alone (its output and intermediate in float64, beside the fp32 input): about 5x its input; at 3x
  a 134 MB cumulative sum (peak 0.25 GiB) was judged with no reference, and its correct candidates were
  rejected for reassociation (H100, 2026-12-05): hence the 2 GiB floor;
- a fusion group (the scan and the copy after it: input, intermediate and output, each doubled for the
  sandbox's copy, plus their float64 copies): 4.1 GB for the same 134 MB input, over the 2 GiB floor, and
  store-remap's reordered scans of exclusive_cumsum were rejected as mismatches with no reference (H100,
  2026-12-06). 20x a 0.25 GiB module holds it.

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
SMALL_MODULE_FACTOR = 20
SMALL_MODULE_CAP = 8 << 30      # where 20x stops: 3x a module past 2.7 GiB is larger anyway
AUTOTUNE_COMPILE_FACTOR = 8
AUTOTUNE_COMPILE_FLOOR = 16 << 30


def job_memory_bound(module_bytes: int, device_bytes: int) -> int:
    small = min(SMALL_MODULE_FACTOR * module_bytes, SMALL_MODULE_CAP)
    return min(max(MEMORY_BOUND_FACTOR * module_bytes, small, MEMORY_BOUND_FLOOR), device_bytes - HEADROOM)


def autotune_over_bound(module_bytes: int, device_bytes: int) -> tuple[bool, int, int]:
    """(whether compiling a max-autotune mode of a module holding `module_bytes` is left out on a device of
    `device_bytes`, the memory that compilation is expected to need, the job's bound)."""
    bound = job_memory_bound(module_bytes, device_bytes)
    needs = AUTOTUNE_COMPILE_FACTOR * module_bytes
    return needs > bound and needs > AUTOTUNE_COMPILE_FLOOR, needs, bound
