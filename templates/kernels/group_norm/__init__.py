"""GroupNorm over (C / G) * HxW groups, optionally affine.

Rendered and tested, but no matcher yet: this folder defines no `KernelTemplate`, so the registry
leaves it out and the `templates` proposer never offers it until one is written."""
from __future__ import annotations

from kernelopt.templates.kernel_template import next_pow2, render_kernel


def group_norm_source(roles: dict, groups: int, group_len: int, eps: float, num_warps: int = 4,
                      groups_equal_channels: bool = False) -> str:
    full = {"x": None, "weight": None, "bias": None, "out": None, "mean": None, "rstd": None}
    full.update(roles)
    return render_kernel("group_norm", roles=full, groups=groups, eps=repr(float(eps)), block=next_pow2(group_len),
                         num_warps=num_warps, has_affine=full["weight"] is not None,
                         groups_equal_channels=groups_equal_channels)
