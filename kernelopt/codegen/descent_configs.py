"""The configs a kernel's coordinate descent would try next, for launch sites that autotune at run time.

Under `max-autotune` Inductor marks its kernels `coordinate_descent_tuning`: after timing the heuristic
configs, its runtime walks from the fastest one, doubling and halving one field at a time (block sizes,
num_warps) while that helps. An emitted module that timed only the heuristic list would miss what the
walk finds and run slower than the module it came from (measured on the H200: up to 1.25x on a
layer norm + GELU). So each listed config carries its one-step neighbours, computed here at emit time
(their grids are static, like every launch site's), and the emitter adds the neighbours of those too
(standalone_module.DESCENT_RINGS rings): at run time the emitted module times the list, then walks from
its fastest config to the fastest neighbour while that is faster, within those sites
(templates/module/autotune.py.j2; it stops where Inductor's walk would go on past them).

A neighbour is only emitted when it is as safe as the listed configs: a block that no longer divides an
extent whose mask Inductor dropped is left out (it would run past the tensor), a persistent reduction
keeps its whole-row R0_BLOCK, and no block grows past the next power of two of its size hint (more would
only add masked-off lanes).
"""
from __future__ import annotations

import math

from kernelopt.codegen.configs import LaunchConfig, next_pow2
from kernelopt.codegen.grid import inductor_meta
from kernelopt.inductor_source import unmasked_block_overrun
from kernelopt.ir.core import Op

# Block parameter -> (its size-hint key, the largest value Inductor launches it with).
_BLOCK_LIMITS = {"XBLOCK": ("x", 4096), "YBLOCK": ("y", 1024), "ZBLOCK": ("z", 1024), "R0_BLOCK": ("r0_", 4096)}
_WARPS = (1, 32)
_MAX_TILE = 1 << 16          # elements per program: beyond it a config spills registers on any GPU
_DESCENT_KINDS = ("pointwise", "reduction", "persistent_reduction")


def wants_descent(kernel: Op, heuristic: str | None) -> bool:
    """Whether Inductor's runtime would walk from this kernel's best heuristic config."""
    return heuristic in _DESCENT_KINDS and bool(inductor_meta(kernel).get("coordinate_descent_tuning"))


def descent_neighbours(kernel: Op, heuristic: str, config: LaunchConfig) -> list[LaunchConfig]:
    """`config` with one field doubled or halved, each safe to launch (see the module doc)."""
    source = str(kernel.attrs.get("source", ""))
    hints = _size_hints(kernel)
    blocks = {k: v for k, v in config.kwargs if k in _BLOCK_LIMITS and isinstance(v, int)}
    found: list[LaunchConfig] = []
    for name, value in blocks.items():
        if name == "R0_BLOCK" and heuristic == "persistent_reduction":
            continue                       # the whole row is on chip: its block is the row
        hint_key, cap = _BLOCK_LIMITS[name]
        cap = min(cap, next_pow2(hints.get(hint_key, cap)))
        for step in (value * 2, value // 2):
            if not 1 <= step <= cap:
                continue
            changed = {**blocks, name: step}
            if math.prod(changed.values()) > _MAX_TILE or unmasked_block_overrun(source, changed):
                continue
            found.append(LaunchConfig(tuple((k, changed.get(k, v)) for k, v in config.kwargs),
                                      config.num_warps, config.num_stages, config.extra))
    warps = config.num_warps or 4
    for step in (warps * 2, warps // 2):
        if _WARPS[0] <= step <= _WARPS[1]:
            found.append(LaunchConfig(config.kwargs, step, config.num_stages, config.extra))
    return found


def _size_hints(kernel: Op) -> dict:
    """The kernel's size hints, as the lifter kept them ({x = 1024, r0_ = 4096})."""
    hints = kernel.attrs.get("size_hints")
    return {str(k): int(v) for k, v in hints.items() if isinstance(v, int)} if isinstance(hints, dict) else {}
