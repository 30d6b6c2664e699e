"""Serving a row re-read from the registers of its first read, and guarding that reuse at run time.

Two schedule transforms let a later r-loop's read of the row come from an earlier one's registers
(row-on-chip keeps the row for every later pass; fold-pass moves the last pass's sums into the earlier
loop). Both name the first read (`_ko_row0 = tl.load(...)`), replace the later reads by that name, and, when
a store to another pointer runs between the two reads, launch the original kernel instead for callers whose
buffers overlap. Loads are found by their source position (`node_position`): `row_loops` records each load
with its node, and a deep copy of the function keeps the positions.
"""
from __future__ import annotations

import ast


def node_position(node: ast.AST) -> tuple:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset


class LoadRegisters(ast.NodeTransformer):
    """Loads at `replace` positions become their register names; loads at `hoist` positions are assigned to
    their register first (the assignment goes to `hoisted`, to be placed before the statement) and become the
    name. With `evict_first`, a hoisted read is marked `evict_first`: the row now comes from memory once, so
    nothing should keep it in L2 for a later pass."""

    def __init__(self, hoist: dict[tuple, str], replace: dict[tuple, str], hoisted: list[ast.stmt],
                 evict_first: bool = False):
        self.hoist, self.replace, self.hoisted, self.evict_first = hoist, replace, hoisted, evict_first

    def visit_Call(self, node: ast.Call) -> ast.AST:
        position = node_position(node) if hasattr(node, "end_col_offset") else None
        if position in self.replace:
            return ast.copy_location(ast.Name(self.replace[position], ast.Load()), node)
        node = self.generic_visit(node)
        if position in self.hoist:
            register = self.hoist[position]
            if self.evict_first:
                for keyword in node.keywords:
                    if keyword.arg == "eviction_policy":
                        keyword.value = ast.Constant("evict_first")
            self.hoisted.append(ast.copy_location(ast.Assign(targets=[ast.Name(register, ast.Store())], value=node),
                                                  node))
            return ast.copy_location(ast.Name(register, ast.Load()), node)
        return node


def with_registers(stmt: ast.stmt, hoist: dict[tuple, str], replace: dict[tuple, str],
                   evict_first: bool = False) -> list[ast.stmt]:
    """`stmt` rewritten by LoadRegisters, preceded by the assignments of the reads it hoists."""
    hoisted: list[ast.stmt] = []
    rewritten = LoadRegisters(hoist, replace, hoisted, evict_first).visit(stmt)
    return hoisted + [rewritten]


def overlap_guarded_run(fast: str, fallback: str, checks: tuple[tuple[int, int], ...], launch: str,
                        why: str) -> list[str]:
    """The lines of `run(*args)` in a candidate-format module: it launches kernel `fast` (`launch` is the
    `[grid](...)` that follows the kernel's name), or `fallback` when a pair of arguments in `checks`
    overlaps in memory (a store between two passes would change a reused read); `why` is a comment line."""
    if not checks:
        return ["def run(*args):", f"    {fast}{launch}"]
    condition = " or ".join(f"_overlap(args[{a}], args[{b}])" for a, b in checks)
    return [
        "def _overlap(a, b):",
        f"    # {why}",
        "    def extent(t):",
        "        last = sum((s - 1) * abs(st) for s, st in zip(t.shape, t.stride())) if t.numel() else -1",
        "        return t.data_ptr(), t.data_ptr() + (last + 1) * t.element_size()",
        "    (a0, a1), (b0, b1) = extent(a), extent(b)",
        "    return a0 < b1 and b0 < a1",
        "",
        "",
        "def run(*args):",
        f"    kernel = {fallback} if {condition} else {fast}",
        f"    kernel{launch}",
    ]
