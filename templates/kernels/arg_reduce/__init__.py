"""argmax / argmin of each row.

Rendered and tested, but no matcher yet: this folder defines no `KernelTemplate`, so the registry
leaves it out and the `templates` proposer never offers it until one is written."""
from __future__ import annotations

from kernelopt.templates.kernel_template import render_kernel


def arg_reduce_source(op: str, roles: dict, block: int, rows: int = 1, num_warps: int = 4) -> str:
    return render_kernel("arg_reduce", roles=roles, op=op, block=block, rows=rows, num_warps=num_warps)
