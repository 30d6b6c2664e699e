"""Which elements each row of a reduction kernel reads, and where it stores its result: evaluated from the
kernel's index arithmetic over every row and r index (numpy), for kernels small enough to enumerate.

memory-order uses it to prove, rather than infer from buffer sizes, that the launches after a split
reduction merge each outer key's (or each part's) partial results whole and never mix two of them.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from kernelopt.inductor_source import access_mask, dotted_name, hardcoded_numel

from .index_values import ROOTS, IndexEvaluator, index_env, parse_kernel, single_assignments

MAX_ENUMERATED = 1 << 22         # rows x r indices evaluated per kernel (a few int64 arrays this long)


class RowAccessUnknown(Exception):
    """The kernel's accesses could not be enumerated (the message says why)."""


@dataclass(frozen=True)
class RowAccess:
    reads: dict          # pointer parameter -> (rows, offsets): every masked-in element each row loads
    stores: dict         # pointer parameter -> offset each row stores to (-1 where the row is masked out)


def row_access(source: str, name: str, rows: int | None = None, loads: bool = True) -> RowAccess:
    """The accesses of rows 0..rows-1 (all rows by default); `loads=False` evaluates only the stores."""
    _, function = parse_kernel(source, name, RowAccessUnknown)
    x_numel, r_numel = hardcoded_numel(source, "xnumel"), hardcoded_numel(source, "r0_numel") or 1
    if not x_numel:
        raise RowAccessUnknown(f"{name}'s extents are not constants")
    x_count = min(x_numel, rows or x_numel)
    if loads and x_count * r_numel > MAX_ENUMERATED:
        raise RowAccessUnknown(f"{name} has more than {MAX_ENUMERATED} row and r indices to enumerate")
    values = IndexEvaluator(single_assignments(function), RowAccessUnknown, ROOTS, "memory-order")
    xs = np.arange(x_count, dtype=np.int64).reshape(-1, 1)

    def evaluate(expr, r):
        return np.broadcast_to(np.asarray(values.value(expr, index_env(xs, r, x_numel, r_numel))), (x_count, r.shape[1]))

    reads, stores = {}, {}
    for node in ast.walk(function):
        kind = dotted_name(node.func) if isinstance(node, ast.Call) else ""
        if kind not in ("tl.load", "tl.store") or not node.args or (kind == "tl.load" and not loads):
            continue
        pointer = node.args[0]
        if not (isinstance(pointer, ast.BinOp) and isinstance(pointer.op, ast.Add) and isinstance(pointer.left, ast.Name)):
            raise RowAccessUnknown(f"line {node.lineno}: an address is not `pointer + offset`")
        mask = access_mask(node)
        # a load is read at every r index; a store (after the reduction) once per row: at r index 0
        r = np.arange(r_numel, dtype=np.int64).reshape(1, -1) if kind == "tl.load" else np.zeros((1, 1), np.int64)
        live = np.ones((x_count, r.shape[1]), bool) if mask is None or (
            isinstance(mask, ast.Constant) and mask.value is None) else evaluate(mask, r).astype(bool)
        offsets = evaluate(pointer.right, r)
        if kind == "tl.load":
            row, _ = np.nonzero(live)
            reads.setdefault(pointer.left.id, []).append((row, offsets[live]))
        else:
            stores[pointer.left.id] = np.where(live[:, 0], offsets[:, 0], -1)
    merged = {p: (np.concatenate([r for r, _ in parts]), np.concatenate([o for _, o in parts]))
              for p, parts in reads.items()}
    return RowAccess(merged, stores)
