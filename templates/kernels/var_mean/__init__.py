"""Welford variance and mean of each row.

Rendered and tested, but no matcher yet: this folder defines no `KernelTemplate`, so the registry
leaves it out and the `templates` proposer never offers it until one is written."""
from __future__ import annotations

from kernelopt.templates.kernel_template import render_kernel


def var_mean_source(roles: dict, block: int, correction: int = 1, rows: int = 1, num_warps: int = 4,
                    row_on_chip: bool = False) -> str:
    return render_kernel("var_mean", roles=roles, block=block, correction=correction, rows=rows, num_warps=num_warps,
                         row_on_chip=row_on_chip)
