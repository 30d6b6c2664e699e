"""What a re-indexing copy does: a pointwise kernel that loads one buffer and stores it at another place,
unchanged or through elementwise math of the loaded value alone (a scale, a cast, an activation).

Inductor writes `torch.flip`, `F.pad`, a slice, `torch.roll` by a constant or a transpose made contiguous
as such a kernel when it cannot fold the re-indexing into the kernel that made its input (after a scan,
say): `out[xindex] = tl.load(src + (index(xindex)), mask(xindex), other=c)`. `read_copy` reads that
kernel's code and returns the copy as a `CopyMap`: over the output's coordinates `i`, the load is live
on a box `lo <= i < hi` and reads `src` at `base + sum(coeff[k] * (i[k] - lo[k]))`; outside the box the
output is `other`; the stored value is the loaded one through the copy's `epilogue` statements, which may
read nothing but the loaded value, constants and Triton's math (no index, no mask, no second load).

The facts are established by evaluating the kernel's own index arithmetic (vectorised, with Triton's
truncating integer division) on the launch's sizes, never guessed from names: the mask must be exactly
a box (checked along every output dimension at every coordinate, and at sampled points of the whole
space), and the address exactly affine on it (likewise). Anything else in the kernel (a second load,
math that depends on the position, a loop, a call the evaluator does not know) is a `NotACopy` with the reason.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from kernelopt.inductor_source import access_mask, dotted_name, strip_heuristics

from .index_values import IndexEvaluator, pointer_of, straight_line

SAMPLES = 4096               # random points of the whole output space checked on top of every axis line
_PROLOGUE = ("xoffset", "xindex")


class NotACopy(Exception):
    """The kernel is not a pure re-indexing copy (or this module cannot prove it is); says why."""


@dataclass(frozen=True)
class CopyMap:
    source_param: str                 # the parameter the copy loads
    output_param: str                 # the parameter it stores to, at xindex
    sizes: tuple[int, ...]            # the output's sizes (contiguous)
    lo: tuple[int, ...]               # the live box, per output dimension
    hi: tuple[int, ...]
    base: int                         # the source offset read at the box's lower corner
    coeff: tuple[int, ...]            # source elements per output coordinate step, per dimension
    other: float | None               # the value outside the box (None: the box is the whole output)
    # The elementwise math the copy applies to the loaded value before storing it (a scale, a cast, an
    # activation): its statements in order, reading `loaded` and constants only, and the stored expression.
    loaded: str = ""                  # the name the load assigns
    epilogue: tuple[ast.stmt, ...] = ()
    stored: ast.expr | None = None

    @property
    def padded(self) -> bool:
        return any(lo > 0 or hi < n for lo, hi, n in zip(self.lo, self.hi, self.sizes))


def read_copy(source: str, name: str, sizes: tuple[int, ...]) -> CopyMap:
    """The copy kernel `name` of `source` as a CopyMap, for an output of `sizes` (contiguous)."""
    function = _function(source, name)
    assigns, load_name, load, store = _straight_line(function)
    src, load_offset = _pointer(load.args[0], "load")
    out, store_offset = _pointer(store.args[0], "store")
    value = store.args[1] if len(store.args) > 1 else None
    if value is None:
        raise NotACopy("the store has no value")
    epilogue = _epilogue(function, assigns, load_name, value)
    mask = access_mask(load)
    other = _keyword(load, "other")
    numel = int(np.prod(sizes)) if sizes else 1
    evaluator = IndexEvaluator(assigns, NotACopy, _PROLOGUE)
    if "xnumel" in assigns and int(evaluator.value(assigns["xnumel"], {})) != numel:
        raise NotACopy(f"the kernel runs over {ast.unparse(assigns['xnumel'])} elements, not the output's {numel}")

    def at(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(load offset, load mask, store offset) at flat output positions `points`."""
        env = {"xindex": points} if "xnumel" in assigns else {"xindex": points, "xnumel": np.int64(numel)}
        offset = np.broadcast_to(evaluator.value(load_offset, env), points.shape)
        live = np.ones(points.shape, bool) if is_none(mask) else np.broadcast_to(
            evaluator.value(mask, env).astype(bool), points.shape)
        where = np.broadcast_to(evaluator.value(store_offset, env), points.shape)
        return offset.astype(np.int64), live, where.astype(np.int64)

    strides = contiguous_strides(sizes)
    center = _live_point(at, sizes, strides, numel)
    lo, hi, coeff = [], [], []
    base_offset, _, _ = at(np.array([_flat(center, strides)]))
    for k, n in enumerate(sizes):
        line = _flat(center, strides) + (np.arange(n, dtype=np.int64) - center[k]) * strides[k]
        offset, live, where = at(line)
        if not np.array_equal(where, line):
            raise NotACopy("the store does not write the output at xindex")
        alive = np.flatnonzero(live)
        first, last = int(alive[0]), int(alive[-1]) + 1
        if len(alive) != last - first:
            raise NotACopy(f"the load's mask along output dimension {k} is not one interval")
        step = int(offset[first + 1] - offset[first]) if last - first > 1 else 0
        expected = offset[center[k]] + step * (np.arange(first, last) - center[k])
        if not np.array_equal(offset[first:last], expected):
            raise NotACopy(f"the load's address is not affine along output dimension {k}")
        lo.append(first), hi.append(last), coeff.append(step)
    box_lo = tuple(lo)
    base = int(base_offset[0]) + sum(c * (l - m) for c, l, m in zip(coeff, lo, center))
    _check_samples(at, sizes, strides, box_lo, tuple(hi), base, tuple(coeff), numel)
    padded = any(l > 0 or h < n for l, h, n in zip(lo, hi, sizes))
    fill = _constant(other) if padded else None
    if padded and fill is None:
        raise NotACopy("the load is masked but gives no constant `other` value for the masked positions")
    return CopyMap(src, out, tuple(sizes), box_lo, tuple(hi), base, tuple(coeff), fill, load_name, epilogue, value)


def _live_point(at, sizes, strides, numel) -> tuple[int, ...]:
    """Coordinates where the load is live: the centre of the output, else the first live sampled point
    (a pad wider than half the output)."""
    center = tuple(n // 2 for n in sizes)
    rng = np.random.default_rng(1)
    points = np.concatenate([[_flat(center, strides)], rng.integers(0, numel, SAMPLES), np.arange(min(numel, SAMPLES))])
    _, live, _ = at(points)
    found = np.flatnonzero(live)
    if not len(found):
        raise NotACopy("the load is masked off everywhere it was sampled")
    point = int(points[found[0]])
    return tuple(int((point // s) % n) for s, n in zip(strides, sizes))


def _check_samples(at, sizes, strides, lo, hi, base, coeff, numel) -> None:
    """The box and the affine address hold at random points of the whole output (the axis lines through
    the centre cannot see a mask or an address that couples two dimensions)."""
    rng = np.random.default_rng(0)
    points = np.unique(np.concatenate([rng.integers(0, numel, SAMPLES), [0, numel - 1]]))
    coords = [(points // s) % n for s, n in zip(strides, sizes)]
    inside = np.ones(points.shape, bool)
    for c, l, h in zip(coords, lo, hi):
        inside &= (c >= l) & (c < h)
    offset, live, where = at(points)
    if not np.array_equal(where, points):
        raise NotACopy("the store does not write the output at xindex")
    if not np.array_equal(live, inside):
        raise NotACopy("the load's mask is not a box of the output's coordinates")
    expected = base + sum(k * (c - l) for k, c, l in zip(coeff, coords, lo))
    if not np.array_equal(offset[inside], np.asarray(expected)[inside]):
        raise NotACopy("the load's address is not affine in the output's coordinates")


# ---------------------------------------------------------------------------------- reading the kernel

def _function(source: str, name: str) -> ast.FunctionDef:
    try:
        tree = ast.parse(strip_heuristics(source, name, missing=NotACopy))
    except SyntaxError as err:
        raise NotACopy(f"the kernel source does not parse: {err.msg}") from None
    function = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if function is None:
        raise NotACopy(f"no function named {name}")
    return function


def _straight_line(function: ast.FunctionDef):
    """(assignments, the loaded name, the load, the store) of a body with one load and one store."""
    assigns, loaded, stores = straight_line(function, NotACopy)
    loads = list(loaded.items())
    calls = [n for n in ast.walk(function) if isinstance(n, ast.Call) and dotted_name(n.func) in ("tl.load", "tl.store")]
    if len(loads) != 1 or len(stores) != 1 or len(calls) != 2:
        # every tl.load counts, not only a bare `name = tl.load(...)`: Inductor casts each bf16/fp16 load as it
        # reads it (`tl.load(...).to(tl.float32)`), and such a load must not vanish from the reason
        count = sum(1 for n in calls if dotted_name(n.func) == "tl.load")
        if count == 1 and len(stores) == 1 and len(calls) == 2:
            raise NotACopy("its one load is cast or computed on (`.to(...)`) before it is stored, and only a bare "
                           "`name = tl.load(...)` is read as a copy")
        raise NotACopy(f"{count} loads and {len(stores)} stores (a copy has one of each)")
    return assigns, loads[0][0], loads[0][1], stores[0]


# Module names an Inductor kernel's value math may use (its header imports them in every kernel).
_MODULES = ("tl", "libdevice", "tl_math", "triton_helpers", "math")


def _epilogue(function: ast.FunctionDef, assigns: dict[str, ast.expr], loaded: str, value: ast.expr):
    """The statements computing the stored value from the loaded one, in program order. Only the loaded
    value, constants and Triton's math may feed it: a term that depends on the position (an index, the
    mask) or on another load would change meaning once the value is stored elsewhere."""
    needed: set[str] = set()

    def visit(node: ast.expr) -> None:
        for name in (n.id for n in ast.walk(node) if isinstance(n, ast.Name)):
            if name == loaded or name in _MODULES or name in needed:
                continue
            if name not in assigns or name in _PROLOGUE or name in ("xmask", "xnumel"):
                raise NotACopy(f"the stored value depends on `{name}`, not only on the loaded value")
            needed.add(name)
            visit(assigns[name])

    visit(value)
    return tuple(s for s in function.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                 and _target_name(s) in needed)


def _target_name(statement: ast.stmt) -> str:
    target = statement.targets[0] if isinstance(statement, ast.Assign) else statement.target
    return target.id if isinstance(target, ast.Name) else ""


def _pointer(node: ast.expr, what: str) -> tuple[str, ast.expr]:
    return pointer_of(node, what, NotACopy)


def _constant(node) -> float | None:
    """A literal number (`0.0`, `-1.5`, `float("-inf")`), else None."""
    if node is None:
        return None
    try:
        value = ast.literal_eval(node)
    except ValueError:
        text = ast.unparse(node).replace('"', "'")
        return {"float('inf')": float("inf"), "float('-inf')": float("-inf"), "-float('inf')": float("-inf"),
                "float('nan')": float("nan")}.get(text)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _keyword(call: ast.Call, name: str):
    return next((k.value for k in call.keywords if k.arg == name), None)


def is_none(node) -> bool:
    """A missing argument, or a literal None (`tl.store(ptr, v, None)`)."""
    return node is None or isinstance(node, ast.Constant) and node.value is None


def contiguous_strides(sizes: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for n in reversed(sizes):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _flat(coords, strides) -> int:
    return sum(c * s for c, s in zip(coords, strides))

