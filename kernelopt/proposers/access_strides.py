"""How a Triton kernel's loads walk memory: the element stride of each load along x (rows) and r (the
reduction index), read from the kernel's own index arithmetic.

Inductor spells an address as `in_ptr0 + (x0 + 8192*r0_2 + 4194304*x1)` with `x0 = xindex % 8192`,
`x1 = xindex // 8192`, `r0_2 = r0_index`. Whether a tile is read along contiguous memory depends on
which of x and r has stride 1, and that decides the tile shape that reads memory at full width: a
reduction over the last dimension wants long R0_BLOCK runs, one over a non-last dimension (a softmax
over channels, a mean over dim 1) wants wide XBLOCK runs and a short R0_BLOCK.

The strides are found by evaluating the kernel's integer assignments (only `+ - * // %` and
parentheses over names and integer constants) at neighbouring index values: the difference of the
address at x+1 and x is the x stride there. Probing at several points (0, and points inside the
range) keeps a `% 8192` wrap from being mistaken for the stride. A probe where the load's own mask is
off is skipped: a split reduction over a channels-last tensor wraps its positions, `24*((r0_3 + 108*x1) % 323)`,
exactly where its mask (`r0_3 + 108*x1 < 323`) stops the load, so the address there is never read. A
`tl.broadcast_to(e, shape)` in an address is read as `e` (it changes the shape, not the values: a per-row bias
read inside an r-loop has r stride 0). Anything else in an address (a loaded index, a `tl.where`) makes that
load's strides unknown (None), never guessed.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from kernelopt.inductor_source import access_mask, dotted_name, hardcoded_numel, strip_heuristics

from .index_values import IndexEvaluator, index_env, single_assignments

X_NAMES = ("xindex",)
R_NAMES = ("r0_index", "rindex")
COALESCED_BYTES = 128            # an outer-layout tile reads at least this many contiguous bytes per r step
SECTOR_BYTES = 32                # the unit DRAM is read in: a narrower contiguous read wastes the rest of it
_DTYPE_BYTES = {"fp64": 8, "fp32": 4, "i64": 8, "i32": 4, "fp16": 2, "bf16": 2, "i16": 2, "i8": 1, "u8": 1,
                "i1": 1, "fp8e4nv": 1, "fp8e5": 1}
_OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b}


RUN_PROBE = 256                  # r steps a contiguous run along r is followed for (from r = 0, row 0)


@dataclass(frozen=True)
class LoadStride:
    """One `tl.load` of a pointer parameter: its element strides along x and r (None: not affine there,
    or not known), and whether its address moves with r at all. `r_run`: for an r stride of 1, how many
    elements from r = 0 (in row 0) lie at consecutive addresses before the first jump (None when there is no jump
    within RUN_PROBE steps or the row, or it is not known): a channels-last group norm reads runs of a group's channels,
    `r0_2 + 4*x0 + 64*r0_3` with r0_2 = r % 4, r0_3 = r // 4, so runs of 4, each continued by the next row."""

    param: str
    line: int
    x_stride: int | None
    r_stride: int | None
    r_run: int | None = None


class _Unknown(Exception):
    pass


def load_strides(source: str, kernel_name: str, x_numel: int | None = None,
                 r_numel: int | None = None) -> list[LoadStride]:
    """The strides of every `tl.load` in the kernel whose address is `param + (integer expression)`."""
    function = _function(source, kernel_name)
    if function is None:
        return []
    params = {a.arg for a in function.args.args}
    assignments = single_assignments(function)
    points = _probe_points(x_numel), _probe_points(r_numel)
    out = []
    for node in ast.walk(function):
        if not (isinstance(node, ast.Call) and dotted_name(node.func) == "tl.load" and node.args):
            continue
        pointer = node.args[0]
        if not (isinstance(pointer, ast.BinOp) and isinstance(pointer.op, ast.Add)
                and isinstance(pointer.left, ast.Name) and pointer.left.id in params):
            continue
        live = _mask_reader(access_mask(node), assignments, x_numel, r_numel)
        r_stride = _stride(pointer.right, assignments, "r", points, live)
        out.append(LoadStride(pointer.left.id, node.lineno, _stride(pointer.right, assignments, "x", points, live),
                              r_stride, _run(pointer.right, assignments, r_numel) if r_stride == 1 else None))
    return out


def _run(expr: ast.expr, assignments: dict[str, ast.expr], r_numel: int | None) -> int | None:
    """Consecutive addresses from r = 0 in row 0 before the first jump; None without a jump within RUN_PROBE steps
    (or the row: a short row read whole is one run, not a run the next row continues)."""
    steps = min(RUN_PROBE, r_numel) if r_numel else RUN_PROBE
    try:
        previous = _evaluate(expr, assignments, 0, 0, set())
        for r in range(1, steps):           # up to the first jump only
            address = _evaluate(expr, assignments, 0, r, set())
            if address - previous != 1:
                return r
            previous = address
    except (_Unknown, ZeroDivisionError, RecursionError):
        return None
    return None


def interleaved_rows(strides: list[LoadStride], element: int, width: int = COALESCED_BYTES) -> int:
    """Rows (XBLOCK, a power of two) one program must take so that loads reading short runs along r, each
    continued by the next row's run (x stride == run length), read `width` contiguous bytes together; 1 when
    no load is read that way. The runs must be shorter than `width` and a sector or less apart from nothing
    else: a row reading 16 bytes of every 256 wastes half of each 32-byte sector, eight rows read 128."""
    rows = 1
    for stride in strides:
        run = stride.r_run
        if stride.r_stride == 1 and run and stride.x_stride == run and run * element < width:
            rows = max(rows, 1 << ((width // (run * element)).bit_length() - 1))
    return rows


def kernel_load_strides(source: str, kernel_name: str) -> list[LoadStride]:
    """`load_strides`, probed within the extents the kernel hard-codes (xnumel, r0_numel)."""
    return load_strides(source, kernel_name, hardcoded_numel(source, "xnumel"), hardcoded_numel(source, "r0_numel"))


def outer_layout(strides: list[LoadStride]) -> bool:
    """True when the row loads read along x: every load that moves with r has r stride > 1 and x stride 1
    (a reduction over a non-last dimension), or x stride 0 (one value per r step that every row of a tile
    shares: the [batch, seq] mask or weight of a masked mean over the sequence of [batch, seq, features],
    read once per r step whatever the tile's width); there is at least one load of the first kind."""
    moving = [s for s in strides if s.r_stride != 0]
    shared = [s for s in moving if s.x_stride == 0 and s.r_stride is not None]
    return bool(coalescing_params(strides)) and all(_along_x(s) for s in moving if s not in shared)


def coalescing_params(strides: list[LoadStride]) -> set[str]:
    """The pointers whose loads read neighbouring rows at neighbouring addresses (x stride 1, r stride > 1):
    those a wide-x tile reads in contiguous runs, and whose element size sets how wide a run must be."""
    return {s.param for s in strides if _along_x(s)}


def _along_x(stride: LoadStride) -> bool:
    return stride.x_stride == 1 and stride.r_stride not in (None, 0, 1)


def element_bytes(signature: dict, params=None) -> int:
    """The narrowest element among the kernel's pointer arguments, or among `params` (the row loads):
    what one contiguous read is made of."""
    sizes = [_DTYPE_BYTES.get(str(t).lstrip("*"), 4) for p, t in signature.items()
             if isinstance(t, str) and t.startswith("*") and (params is None or p in params)]
    return min(sizes) if sizes else 4


def coalesced_rows(source: str, kernel_name: str, signature: dict, x_numel: int | None,
                   r_numel: int | None, width: int = COALESCED_BYTES) -> int:
    """Rows (XBLOCK) one program must take for a coalesced read: `width` bytes of the narrowest element
    for an outer-layout reduction, 1 for any other kernel."""
    strides = load_strides(source, kernel_name, x_numel, r_numel)
    if not outer_layout(strides):
        return 1
    return max(1, width // element_bytes(signature, coalescing_params(strides)))


def kernel_interleaved_rows(source: str, kernel_name: str, signature: dict, width: int = COALESCED_BYTES) -> int:
    """interleaved_rows of a kernel's own loads, probed within its hard-coded extents, its narrowest element."""
    return interleaved_rows(kernel_load_strides(source, kernel_name), element_bytes(signature), width)


def _function(source: str, kernel_name: str) -> ast.FunctionDef | None:
    try:
        module = ast.parse(strip_heuristics(source))
    except SyntaxError:
        return None
    return next((n for n in ast.walk(module) if isinstance(n, ast.FunctionDef) and n.name == kernel_name), None)


def _probe_points(numel: int | None) -> tuple[int, ...]:
    if not numel or numel < 3:
        return (0,)
    return tuple(sorted({0, numel // 3, numel // 2 + 1, numel - 2}))


def _mask_reader(mask: ast.expr | None, assignments: dict[str, ast.expr], x_numel: int | None,
                 r_numel: int | None):
    """live(x, r): whether the load's mask lets it read at (x, r). True wherever that is not known (no mask,
    extents not hard-coded, a mask reading a loaded value): such a probe counts, as every probe did before."""
    if mask is None or x_numel is None or r_numel is None:
        return lambda x, r: True
    evaluator = IndexEvaluator(assignments, _Unknown, what="access_strides")

    def live(x: int, r: int) -> bool:
        try:
            return bool(np.all(evaluator.value(mask, index_env(np.int64(x), np.int64(r), x_numel, r_numel))))
        except (_Unknown, ArithmeticError, RecursionError):
            return True
    return live


def _stride(expr: ast.expr, assignments: dict[str, ast.expr], axis: str,
            points: tuple[tuple[int, ...], tuple[int, ...]], live=lambda x, r: True) -> int | None:
    """The address difference for one step along `axis`, if the same at every probe point where the load
    reads at both ends (`live`); else None."""
    seen = set()
    xs, rs = points
    for x in xs:
        for r in rs:
            step_x, step_r = x + (axis == "x"), r + (axis == "r")
            if not (live(x, r) and live(step_x, step_r)):
                continue                  # a masked-off end: the address there is never read
            try:
                here = _evaluate(expr, assignments, x, r, set())
                step = _evaluate(expr, assignments, step_x, step_r, set())
            except (_Unknown, ZeroDivisionError, RecursionError):
                return None
            seen.add(step - here)
    # A wrap (x0 = xindex % N at x = N-1) shows as a different step at one point; the most common
    # step over the probe points is the stride, but only a unanimous one is trusted (and none when the
    # mask leaves no probe).
    return seen.pop() if len(seen) == 1 else None


def _evaluate(expr: ast.expr, assignments: dict[str, ast.expr], x: int, r: int, active: set[str]) -> int:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return expr.value
    if isinstance(expr, ast.Name):
        if expr.id in X_NAMES:
            return x
        if expr.id in R_NAMES:
            return r
        if expr.id in active or expr.id not in assignments:
            raise _Unknown(expr.id)
        return _evaluate(assignments[expr.id], assignments, x, r, active | {expr.id})
    if isinstance(expr, ast.BinOp) and type(expr.op) in _OPERATORS:
        return _OPERATORS[type(expr.op)](_evaluate(expr.left, assignments, x, r, active),
                                         _evaluate(expr.right, assignments, x, r, active))
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return -_evaluate(expr.operand, assignments, x, r, active)
    if isinstance(expr, ast.Call) and dotted_name(expr.func) == "tl.broadcast_to" and expr.args:
        return _evaluate(expr.args[0], assignments, x, r, active)     # a new shape, the same values
    raise _Unknown(ast.dump(expr)[:40])

