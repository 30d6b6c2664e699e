"""Which dimensions of a library op's output a reduction sums whole, and the reduction rewritten to read the sums.

A reduction kernel proven to read a tensor `y` only through sums (`linear_reads`) can read, in place of `y`, a
tensor of those sums alone, once it is known which elements each of its rows sums. `summed_dims` evaluates every
load's address and mask at every (x, r) lane a launch can have (numpy, `IndexEvaluator`) and finds the dimensions
of `y` that each row reads whole, each element once, with the other dimensions fixed: a GEMM's row sums read
dimension 1 of `y` [M, N], a convolution's spatial sums dimensions 2.. of `y` [N, C, D, H, W], in any dense layout
(channels-last included). `read_sums` rewrites the kernel: each load of `y` reads instead, in the first element of
its summed block (every summed coordinate 0), the block's sum from a dense tensor over the kept dimensions, and 0
elsewhere; where the proof found each row's block at the row's own index, first in lane r = 0 (Inductor's usual
form), the sums are read at xindex in lane 0, with no integer division per element; where each lane of a window
kernel reads one window and each of its loads the same element of its window at every lane (an average pool), the
window's index and flag are found once per lane, and only the first element's load reads the sum. A flagged block
(one the sums cannot stand for: a non-finite sum, say) reads `y` as written; the caller fills those blocks of `y`
and the flags.
`prove_summed` runs the whole proof on a library group. Used by sum-through-gemm, sum-through-conv,
window-through-gemm and window-through-conv.
"""
from __future__ import annotations

import ast
import dataclasses
import itertools
import math
from dataclasses import dataclass

import numpy as np

from kernelopt.codegen.configs import next_pow2
from kernelopt.inductor_source import hardcoded_numel

from .base import KernelSpec, LaunchSpec, RewriteTarget
from .candidate_source import LaunchConfig, NotRetunable, config_overruns
from .group_launches import group_candidate, launch_configs
from .index_values import R_ROOTS, IndexEvaluator, index_env, parse_kernel, single_assignments
from .linear_reads import LinearRead, NotLinear, linear_reads
from .row_loops import is_constexpr
from .window_reads import window_loads, window_reads

MAX_LANES = 1 << 28              # (x, r) lanes the proof evaluates (about 40 ns each)
CHUNK_LANES = 1 << 21            # lanes per numpy evaluation (bounds the proof's memory)
X_PAST_END = 256                 # rows past xnumel evaluated too, where XBLOCK is not known (a last block's rows)
R_PAST_END = 4096                # r lanes past r0_numel evaluated too, where R0_BLOCK is not known
SUMS, FLAGS = "ko_sums", "ko_flags"     # the parameters the rewritten reduction gains


class NotSummed(Exception):
    """The reduction's rows do not read whole blocks of the tensor (the message says where)."""


def dense_layout(sizes: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """Every element at one offset of 0 .. numel-1: the strides are a permutation of a contiguous layout."""
    order = sorted((s, n) for s, n in zip(strides, sizes) if n > 1)
    expected = 1
    for stride, size in order:
        if stride != expected:
            return False
        expected *= size
    return True


@dataclass(frozen=True)
class SummedLayout:
    """What every row of the reduction reads of `y`: the dimensions it sums whole (`dims`), and whether its block is
    the one at the row's own index over the kept dimensions with its first element in lane r = 0 (`by_row`: the
    rewritten loads then index the sums by xindex, with no division per element).

    The dimensions are those of `y` viewed as `sizes` and `strides`: `y`'s own, or, where each row sums one chunk
    of some dimensions (the first half of a split reduction: rows of 512 of a column of 16,384; an average pool's
    2 x 2 windows), each such dimension split in two, chunks then positions within a chunk (`splits`: the
    dimensions of `y`, ascending, and their chunks' lengths; `split`: the first of them, None where there is none).
    """

    dims: tuple[int, ...]
    by_row: bool
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    splits: tuple[tuple[int, int], ...] = ()
    # window layouts: per load, whether it reads its window's first element at every lane (True), another
    # element at every lane (False), or either (None)
    firsts: tuple[bool | None, ...] = ()
    # Where each row reads one block, first in lane 0, but the rows enumerate the blocks in another order than the
    # view's (a channels-last output's rows run channel fastest): the kept dimensions in the rows' order, slowest
    # first. A candidate that puts its sums in this order (`SummedReduction.rewritten_by_row`) reads them by row.
    row_order: tuple[int, ...] | None = None

    @property
    def split(self) -> tuple[int, int] | None:
        return self.splits[0] if self.splits else None

    def view_dim(self, dim: int) -> int:
        """Dimension `dim` of `y` in the view (a split one: its chunks' index; its positions come next)."""
        return dim + sum(1 for split, _ in self.splits if split < dim)


class _Chunked(Exception):
    """Every row reads one whole chunk of each of some dimensions (`chunks`: (dim, length) pairs, ascending), and
    whole blocks otherwise."""

    def __init__(self, chunks: list[tuple[int, int]]):
        super().__init__(chunks)
        self.chunks = tuple(chunks)


def split_view(sizes: tuple[int, ...], strides: tuple[int, ...], dim: int, length: int):
    """`sizes` and `strides` with dimension `dim` split into (chunks, `length`): its whole chunks (elements past the
    last one are in no chunk)."""
    return (sizes[:dim] + (sizes[dim] // length, length) + sizes[dim + 1:],
            strides[:dim] + (strides[dim] * length, strides[dim]) + strides[dim + 1:])


def _outer_moduli(sizes, strides) -> list[list[int]]:
    """Each dimension's moduli: the larger strides among those of the other dimensions of size > 1, from the
    largest, less each one a smaller one divides (x % a % b is x % b where b divides a)."""
    found = []
    for stride in strides:
        chain: list[int] = []
        for larger in sorted({t for z, t in zip(sizes, strides) if z > 1 and t > stride}, reverse=True):
            if chain and chain[-1] % larger == 0:
                chain[-1] = larger
            else:
                chain.append(larger)
        found.append(chain)
    return found


def view_coords(offsets: np.ndarray, sizes, strides) -> list[np.ndarray]:
    """Each dimension's coordinate of the elements at `offsets` in a view whose dimensions nest (each one's extent
    within the next larger stride): the offset's remainder by every larger stride, outermost first, over its own
    stride. For a dense view that is (offset // stride) % size; it also holds where a dimension is longer than its
    chunks cover (split_view of a width the chunk does not divide), where a larger stride need not be a multiple
    of the next smaller one (a plane of 5 x 6 x 6 in 2 x 2 x 2 windows: 180 against 72). A dimension of size 1 has
    coordinate 0."""
    found = []
    for size, stride, moduli in zip(sizes, strides, _outer_moduli(sizes, strides)):
        if size == 1:
            found.append(np.zeros_like(offsets))
            continue
        rest = offsets
        for modulus in moduli:
            rest = rest % modulus
        found.append(rest // stride)
    return found


def coord_text(offset: str, sizes, strides) -> dict[int, str]:
    """view_coords as Triton source for the dimensions of size > 1: `(offset // stride) % size` where the view is
    dense there, the remainders then the division where it is not."""
    found = {}
    for d, (size, stride, moduli) in enumerate(zip(sizes, strides, _outer_moduli(sizes, strides))):
        if size == 1:
            continue
        if not moduli or moduli == [size * stride]:
            found[d] = f"({offset} // {stride}) % {size}"
        else:
            found[d] = f"({offset}{''.join(f' % {m}' for m in moduli)}) // {stride}"
    return found


def summed_dims(function: ast.FunctionDef, reads: list[LinearRead], launch: LaunchSpec, sizes: tuple[int, ...],
                strides: tuple[int, ...], blocks: dict | None = None, tail: bool = False) -> SummedLayout:
    """The dimensions of `y` (dense, `sizes` and `strides`) that every row of the launch reads whole, in every load
    of it, or of `y` with one dimension split in chunks where each row reads one chunk whole (see SummedLayout);
    NotSummed otherwise. Dimensions of size 1 count as kept. `blocks`: the XBLOCK and R0_BLOCK the launch runs
    with, which say which rows and r lanes exist (a row past xnumel that no program has may read anything: Inductor
    drops the x mask where XBLOCK divides xnumel); where one is not known, X_PAST_END rows and R_PAST_END lanes past
    the end are evaluated as well. `tail`: chunks may leave the last elements of their dimension unread (see _layout).
    """
    return _in_chunks(lambda view_sizes, view_strides: _summed_dims(function, reads, launch, view_sizes, view_strides,
                                                                     blocks or {}, tail),
                      sizes, strides, "reduction's rows")


def _in_chunks(layout_in, sizes: tuple[int, ...], strides: tuple[int, ...], rows: str) -> SummedLayout:
    """layout_in(sizes, strides), or, where each row reads one chunk of some dimensions, layout_in of the view with
    those dimensions split in chunks (with the splits recorded)."""
    try:
        return layout_in(sizes, strides)
    except _Chunked as chunked:
        view = (sizes, strides)
        for dim, length in reversed(chunked.chunks):    # the last first: the others keep their index
            view = split_view(*view, dim, length)
        try:
            layout = layout_in(*view)
        except _Chunked:
            raise NotSummed(f"the {rows} read chunks of the tensor that are no box of whole chunks") from None
        return dataclasses.replace(layout, splits=chunked.chunks)


def _summed_dims(function: ast.FunctionDef, reads: list[LinearRead], launch: LaunchSpec, sizes: tuple[int, ...],
                 strides: tuple[int, ...], blocks: dict, tail: bool = False) -> SummedLayout:
    x_numel, r_numel = _extents(launch, "r0_numel")
    r_lanes = _r_lanes(r_numel, blocks)
    rows = _rows(x_numel, blocks)
    if rows * r_lanes > MAX_LANES:
        raise NotSummed(f"{rows} x {r_lanes} lanes: the proof evaluates at most {MAX_LANES}")
    evaluator = IndexEvaluator(single_assignments(function), NotSummed, refused=("xindex",), what="the sums' proof")
    rs = np.arange(r_lanes, dtype=np.int64)[None, :]

    def lanes(xs):                  # each load's lanes: its r lanes
        env = index_env(xs[:, None], rs, x_numel, r_numel)
        for read in reads:
            yield _evaluated(evaluator, read, env, (xs.size, r_lanes))
    return _layout(lanes, rows, max(1, CHUNK_LANES // r_lanes), sizes, strides, tail=tail)


def window_layout(function: ast.FunctionDef, reads: list[LinearRead], launch: LaunchSpec, sizes: tuple[int, ...],
                  strides: tuple[int, ...], blocks: dict | None = None) -> SummedLayout:
    """summed_dims for a kernel whose lanes each read a window of `y` with one load per element (window_reads): a
    pointwise kernel's x lanes (its (y, x) lanes where it tiles two dimensions), or a reduction's (x, r) lanes,
    each a row of the proof with its loads as its lanes. Never `by_row`: the rewritten loads find a window's sum
    from their own address."""
    blocks = blocks or {}
    reduction = any(a.name in ("r0_numel", "rnumel") for a in launch.args)
    tiled = not reduction and any(a.name == "ynumel" for a in launch.args)
    if tiled:                       # y lanes as the proof's rows, x lanes as each row's lanes
        x_numel, r_numel = _extents(launch, "xnumel", "ynumel")
        r_lanes = _r_lanes(r_numel, {"R0_BLOCK": blocks.get("XBLOCK")})
        rows = _rows(x_numel, {"XBLOCK": blocks.get("YBLOCK")})
    else:
        x_numel, r_numel = _extents(launch, "r0_numel" if reduction else None)
        r_lanes = _r_lanes(r_numel, blocks) if reduction else 1
        rows = _rows(x_numel, blocks)
    if rows * r_lanes * len(reads) > MAX_LANES:
        raise NotSummed(f"{rows * r_lanes} x {len(reads)} lanes: the proof evaluates at most {MAX_LANES}")
    roots = ("xindex", "yindex") if tiled else ("xindex",)
    evaluator = IndexEvaluator(single_assignments(function), NotSummed, refused=roots, what="the windows' proof")
    rs = np.arange(r_lanes, dtype=np.int64)[None, :]

    def lanes(xs):                  # one (offsets, active) pair: each (x, r) lane a row, its loads side by side
        if tiled:
            env = {"yindex": xs[:, None], "xindex": rs, "ynumel": np.int64(x_numel), "xnumel": np.int64(r_numel)}
        else:
            env = index_env(xs[:, None], rs, x_numel, r_numel)
        pairs = [_evaluated(evaluator, read, env, (xs.size, r_lanes)) for read in reads]
        yield (np.stack([o for o, _ in pairs], axis=2).reshape(-1, len(reads)),
               np.stack([a for _, a in pairs], axis=2).reshape(-1, len(reads)))

    step = max(1, CHUNK_LANES // (r_lanes * len(reads)))
    found = _in_chunks(lambda view_sizes, view_strides: _layout(lanes, rows, step, view_sizes, view_strides,
                                                                "lane {} of the kernel", r_lanes, tail=True,
                                                                loads=True),
                       sizes, strides, "kernel's lanes")
    return dataclasses.replace(found, by_row=False)


def _extents(launch: LaunchSpec, r_name: str | None, x_name: str = "xnumel") -> tuple[int, int]:
    values = {a.name: a.value for a in launch.args if not a.is_tensor}
    x_numel = values.get(x_name)
    r_numel = 1 if r_name is None else values.get(r_name, values.get("rnumel"))
    if not isinstance(x_numel, int) or not isinstance(r_numel, int) or x_numel < 1 or r_numel < 1:
        raise NotSummed("the kernel's xnumel and r0_numel are not plain integers")
    return x_numel, r_numel


def _r_lanes(r_numel: int, blocks: dict) -> int:
    """The r lanes a launch has: R0_BLOCK's multiples past r0_numel, or R_PAST_END more where it is not known."""
    r_block = blocks.get("R0_BLOCK", blocks.get("RBLOCK"))
    return max(next_pow2(r_numel), -(-r_numel // r_block) * r_block if isinstance(r_block, int) and r_block > 0
               else r_numel + R_PAST_END)


def _rows(x_numel: int, blocks: dict) -> int:
    x_block = blocks.get("XBLOCK")
    return -(-x_numel // x_block) * x_block if isinstance(x_block, int) and x_block > 0 else x_numel + X_PAST_END


def _evaluated(evaluator: IndexEvaluator, read: LinearRead, env: dict, shape: tuple[int, int]):
    """A load's offsets and active lanes, as `shape` arrays."""
    if read.offset is None:
        raise NotSummed("a load of the summed tensor has no offset")
    offsets = np.broadcast_to(np.asarray(evaluator.value(read.offset, env), np.int64), shape)
    active = np.ones(shape, bool) if read.mask is None else \
        np.broadcast_to(np.asarray(evaluator.value(read.mask, env), bool), shape)
    return offsets, active


def _layout(lanes, rows: int, step: int, sizes: tuple[int, ...], strides: tuple[int, ...],
            row: str = "row {} of the reduction", per_row: int = 1, tail: bool = False,
            loads: bool = False) -> SummedLayout:
    """What every row of `rows` reads of `y`, from `lanes(xs)`: (offsets, active) pairs of each batch of rows (each
    x `per_row` rows of the proof: a persistent reduction's windows, one per (x, r) lane). `tail`: chunks may leave
    the last elements of their dimension unread (an average pool of a width its window does not divide). `loads`:
    the pairs' columns are the kernel's loads (a window layout), whose SummedLayout.firsts are found too."""
    xs_all = np.arange(rows, dtype=np.int64)
    found, firsts, orders = set(), None, set()
    for start in range(0, rows, step):
        xs = xs_all[start:start + step]
        numbers = xs if per_row == 1 else np.arange(xs[0] * per_row, (xs[-1] + 1) * per_row, dtype=np.int64)
        for offsets, active in lanes(xs):
            kind = _blocks_read(offsets, active, sizes, strides, numbers, row, tail)
            if kind is not None:
                found.add(kind[0])
                orders.add(kind[2])
                if loads:
                    column = _first_columns(kind[1], active, kind[0])
                    firsts = column if firsts is None else (firsts[0] & column[0], firsts[1] & column[1])
    if len(found) != 1:
        raise NotSummed("the reduction reads no element of the tensor" if not found else
                        "the reduction's loads sum different dimensions of the tensor")
    always, never = firsts if firsts is not None else ((), ())
    summed = found.pop()
    # the order every batch of rows takes the blocks in: the view's own (by_row), another, or none
    order = orders.pop() if len(orders) == 1 else None
    by_row = order is not None and list(order) == _kept(sizes, summed)
    return SummedLayout(summed, by_row, tuple(sizes), tuple(strides),
                        firsts=tuple(bool(a) if a != b else None for a, b in zip(always, never)),
                        row_order=None if by_row or loads else order)


def _kept(sizes, summed) -> list[int]:
    """The dimensions of more than one element a row does not sum, in the view's order."""
    return [d for d, size in enumerate(sizes) if size > 1 and d not in summed]


def _first_columns(coords: list[np.ndarray], active: np.ndarray, summed: tuple[int, ...]):
    """Per column (a window layout's load): whether every active row reads its block's first element there, and
    whether none does (both, vacuously, where no row is active)."""
    first = np.logical_and.reduce([coords[d] == 0 for d in summed])
    return (first | ~active).all(axis=0), (~first | ~active).all(axis=0)


def _blocks_read(offsets: np.ndarray, active: np.ndarray, sizes, strides, xs: np.ndarray,
                 row: str = "row {} of the reduction", tail: bool = False):
    """The dimensions every row with an active lane reads whole, the lanes' coordinates, and the order of the kept
    dimensions in which each such row's block is at the row's own index with its first element in lane 0, if one
    is (None: no row has an active lane). `row` names a row in reasons; `tail`: see _layout."""
    first_x = int(xs[0])
    counts = active.sum(axis=1)
    used = counts > 0
    if not used.any():
        return None
    extent = 1 + sum((size - 1) * stride for size, stride in zip(sizes, strides))
    safe = np.where(active, offsets, 0)
    coords = view_coords(safe, sizes, strides)
    inside = (offsets >= 0) & (offsets < extent)
    for coord, size in zip(coords, sizes):
        inside &= coord < size          # past the last chunk of a row (an element no window has) is outside too
    inside = np.where(active, inside, True).all(axis=1)
    if not inside[used].all():
        raise NotSummed(f"{row.format(first_x + int(np.argmax(used & ~inside)))} reads outside the tensor")
    # a coordinate is fixed along a row when every active lane has the one its first active lane has
    lanes_first = np.argmax(active, axis=1)[:, None]
    fixed = [bool(((c == np.take_along_axis(c, lanes_first, axis=1)) | ~active).all(axis=1)[used].all())
             for c in coords]
    summed = tuple(d for d, size in enumerate(sizes) if size > 1 and not fixed[d])
    block = math.prod(sizes[d] for d in summed)
    whole = counts == block
    if block <= offsets.shape[1]:
        flat = np.zeros_like(safe)
        for d in summed:
            flat = flat * sizes[d] + coords[d]
        # block active lanes read each element of the block once when each of its block places is marked (a
        # scatter: sorting every row cost most of the proof's time on a 3-D convolution's planes)
        marked = np.zeros((offsets.shape[0], block), bool)
        rows_at, lanes_at = np.nonzero(active)
        marked[rows_at, flat[rows_at, lanes_at]] = True
        whole &= marked.all(axis=1)
    else:
        whole &= False
    if not summed or not whole[used].all():
        _chunking(coords, active, used, sizes, summed, tail)
        bad = first_x + int(np.argmax(used & ~whole)) if summed else first_x
        raise NotSummed(f"{row.format(bad)} does not read whole blocks of the tensor, each element once")
    first_lane = active[:, 0] & np.logical_and.reduce([coords[d][:, 0] == 0 for d in summed])
    order = None
    if first_lane[used].all():
        for candidate in itertools.permutations(_kept(sizes, summed)):
            kept = np.zeros_like(safe)
            for d in candidate:
                kept = kept * sizes[d] + coords[d]
            if (np.where(active, kept, -1).max(axis=1)[used] == xs[used]).all():
                order = candidate
                break
    return summed, coords, order


def _chunking(coords, active, used, sizes, summed, tail: bool = False) -> None:
    """Raise _Chunked where every used row spans, along each of some summed dimensions, the same length, fewer than its
    size, a whole number of times over it (or, with `tail`, ending before the elements past its last whole chunk),
    starting at a multiple of that length, and the whole of the other summed dimensions: rows that may each read
    one chunk of each (summed_dims then checks it in the split view)."""
    top, bottom = np.iinfo(np.int64).max, -1
    short = []
    for d in summed:
        low = np.where(active, coords[d], top).min(axis=1)[used]
        high = np.where(active, coords[d], bottom).max(axis=1)[used]
        lengths = high - low + 1
        length = int(lengths[0])
        if length == sizes[d]:
            continue
        covered = sizes[d] - sizes[d] % length if tail else sizes[d]
        if not (lengths == length).all() or covered % length or (low % length).any() or (high >= covered).any():
            return
        short.append((d, length))
    if short:
        raise _Chunked(short)


def _sums_index(offset: str, layout: SummedLayout) -> str:
    """The index, in the sums dense over the kept dimensions of the layout's view, of the block holding the element at
    `offset` (Triton source)."""
    coord = coord_text(offset, layout.sizes, layout.strides)
    at = "0"
    for d in (d for d in coord if d not in layout.dims):
        at = f"({at}) * {layout.sizes[d]} + {coord[d]}"
    return at


def _read_lanes(read: LinearRead) -> tuple[str, str]:
    """A load's mask as a load's mask argument ("None" where it has none), and as a prefix to `&` another."""
    lanes = "None" if read.mask is None else f"({ast.unparse(read.mask)})"
    return lanes, ("" if read.mask is None else f"{lanes} & ")


def _flagged_or(read: LinearRead, flagged: str, sums: str) -> ast.expr:
    """A load of y rewritten: y as written where `flagged` (a block the sums cannot stand for), `sums` elsewhere."""
    _, mask = _read_lanes(read)
    return ast.parse(f"tl.where({flagged}, tl.load({ast.unparse(read.call.args[0])}, {mask}{flagged}, other=0.0), "
                     f"{sums})", mode="eval").body


class _ReadSums(ast.NodeTransformer):
    def __init__(self, reads: list[LinearRead], layout: SummedLayout, r_root: str):
        self.calls = {id(r.call): r for r in reads}
        self.layout = layout
        self.r_root = r_root

    def visit_Call(self, node: ast.Call) -> ast.AST:
        read = self.calls.get(id(node))
        if read is None:
            return self.generic_visit(node)
        offset = f"({ast.unparse(read.offset)})"
        if self.layout.by_row:      # proven: the row's block is the row's own, first in lane 0 (no division)
            at, first = "xindex", f"({self.r_root} == 0)"
        else:
            coord = coord_text(offset, self.layout.sizes, self.layout.strides)
            at = _sums_index(offset, self.layout)
            first = " & ".join(f"({coord[d]} == 0)" for d in self.layout.dims)
        lanes, mask = _read_lanes(read)
        # the block's sum in its first element, 0 elsewhere
        return _flagged_or(read, f"(tl.load({FLAGS} + ({at}), {lanes}, other=0) != 0)",
                           f"tl.load({SUMS} + ({at}), {mask}{first}, other=0.0)")


WINDOW_AT, WINDOW_FLAGGED = "ko_window_at", "ko_window_flagged"


class _ReadWindowSums(ast.NodeTransformer):
    """A window kernel's loads of y, where each lane's loads read one window each and every load reads the same
    element of its window at every lane (SummedLayout.firsts), under one mask: the window's index and flag once per
    lane (WINDOW_AT, WINDOW_FLAGGED, computed before the first load), then the first element's load reads the sum
    and the others 0, with no index arithmetic each."""

    def __init__(self, reads: list[LinearRead], firsts: tuple[bool, ...]):
        self.reads = {id(r.call): (r, first) for r, first in zip(reads, firsts)}

    def visit_Call(self, node: ast.Call) -> ast.AST:
        found = self.reads.get(id(node))
        if found is None:
            return self.generic_visit(node)
        read, first = found
        lanes, _ = _read_lanes(read)
        return _flagged_or(read, WINDOW_FLAGGED, f"tl.load({SUMS} + {WINDOW_AT}, {lanes}, other=0.0)" if first
                           else "0.0")


def _first_reading(body: list[ast.stmt], calls: set[int]) -> tuple[list[ast.stmt], int] | None:
    """The statement list and index of the first statement (in program order, inside loops) holding a load in
    `calls`."""
    for index, stmt in enumerate(body):
        if not any(id(node) in calls for node in ast.walk(stmt)):
            continue
        inner = getattr(stmt, "body", None)
        if isinstance(stmt, (ast.For, ast.While, ast.If)) and inner:
            return _first_reading(inner, calls)
        return body, index
    return None


def _read_window_sums(function: ast.FunctionDef, reads: list[LinearRead], layout: SummedLayout) -> bool:
    """Rewrite the loads as _ReadWindowSums does, where it applies (False: it does not, nothing changed)."""
    firsts = layout.firsts
    if layout.by_row or len(firsts) != len(reads) or None in firsts or firsts.count(True) != 1 \
            or len({None if r.mask is None else ast.unparse(r.mask) for r in reads}) != 1:
        return False
    first = reads[firsts.index(True)]
    where = _first_reading(function.body, {id(r.call) for r in reads})
    if where is None or not any(node is first.call for node in ast.walk(where[0][where[1]])):
        return False                # the first element's load is not the first load: its index may not exist yet
    body, index = where
    lanes, _ = _read_lanes(first)
    at = _sums_index(f"({ast.unparse(first.offset)})", layout)
    _ReadWindowSums(reads, firsts).visit(function)
    body[index:index] = ast.parse(f"{WINDOW_AT} = {at}\n"
                                  f"{WINDOW_FLAGGED} = tl.load({FLAGS} + {WINDOW_AT}, {lanes}, other=0) != 0").body
    return True


def read_sums(tree: ast.Module, function: ast.FunctionDef, reads: list[LinearRead], layout: SummedLayout) -> str:
    """The kernel's source (the parsed `tree`, changed in place) with its loads of `y` reading the sums (or `y`, in
    a flagged block), which it takes, with the flags, as two more parameters before its constexprs: both dense over
    the kept dimensions of `y` as the layout views it, in their order."""
    assigned = single_assignments(function)
    r_root = next((name for name in R_ROOTS if name in assigned), R_ROOTS[0])
    if not _read_window_sums(function, reads, layout):
        _ReadSums(reads, layout, r_root).visit(function)
    args = function.args.args
    first_constexpr = next((i for i, a in enumerate(args) if is_constexpr(a.annotation)), len(args))
    args[first_constexpr:first_constexpr] = [ast.arg(arg=SUMS), ast.arg(arg=FLAGS)]
    return ast.unparse(ast.fix_missing_locations(tree))


REDUCTIONS = ("reduction", "persistent_reduction")


def group_reader(target: RewriteTarget, kinds: tuple[str, ...]) -> KernelSpec | None:
    """The Triton kernel a library group's second launch runs, where its kind is one of `kinds` (None otherwise)."""
    if len(target.launches) != 2:
        return None
    kernel = next((k for k in target.kernels if k.name == target.launches[1].kernel and k.kind != "vendor"), None)
    return kernel if kernel is not None and kernel.kind in kinds else None


def group_reduction(target: RewriteTarget) -> KernelSpec | None:
    """The Triton reduction kernel a reduction-epilogue group's second launch runs (None: not a reduction)."""
    return group_reader(target, REDUCTIONS)


def windowed_reader(target: RewriteTarget, out: int | None = None) -> KernelSpec | None:
    """The group's Triton kernel (pointwise or reduction) after its library op, where it loads the op's output (or
    the tensor in slot `out`) more than once per lane (a window's elements, one load each, as Inductor writes an
    average pool); None otherwise: the usual epilogue (a bias, an activation) loads it once per lane."""
    kernel = group_reader(target, ("pointwise", *REDUCTIONS))
    if out is None and kernel is not None:
        out = next((slot for arg, slot in zip(target.launches[0].args, target.group_positions[0])
                    if arg.name == "out"), None)
    if kernel is None or out is None:
        return None
    try:
        _, function = parse_kernel(kernel.source, kernel.name, NotSummed)
    except NotSummed:
        return None
    return kernel if any(window_loads(function, arg.name) > 1 for arg in reader_args(target, out)) else None


def reader_args(target: RewriteTarget, out_slot: int) -> list:
    """The second launch's arguments that address the library op's output (slot `out_slot`): its storage."""
    storage = target.storage_slots or tuple(range(len(target.group_args)))
    return [a for a, slot in zip(target.launches[1].args, target.group_positions[1])
            if storage[slot] == storage[out_slot]]


@dataclass
class SummedReduction:
    """A group's reduction proven to read the library op's output `y` only through sums of whole blocks of it."""

    layout: SummedLayout
    tree: ast.Module
    function: ast.FunctionDef
    reads: list[LinearRead]

    def rewritten(self) -> str:
        """The reduction's source reading the sums (read_sums) in the order the candidate forms them: the library
        op's kept dimensions, dense in the view's order."""
        return read_sums(self.tree, self.function, self.reads, self.layout)

    def rewritten_by_row(self) -> tuple[str, tuple[str, ...]]:
        """(source, reordering): the reduction's source reading each row's sum by the row's own index, with no
        division per element (the layout's row_order), and the Python lines that put SUMS and FLAGS (dense over
        the kept dimensions in the view's order) in the rows' order first. One call, so that a source never runs
        on sums in the other order; where the two orders are the same, rewritten() with no lines."""
        order = self.layout.row_order
        if order is None:
            return self.rewritten(), ()
        layout = dataclasses.replace(self.layout, by_row=True)
        sizes = self.layout.sizes
        kept = _kept(sizes, self.layout.dims)
        shape, permutation = [sizes[d] for d in kept], [kept.index(d) for d in order]
        lines = tuple(f"{name} = {name}.reshape({shape}).permute({permutation}).contiguous().reshape(-1)"
                      for name in (SUMS, FLAGS))
        return read_sums(self.tree, self.function, self.reads, layout), lines


def prove_summed(target: RewriteTarget, kernel: KernelSpec, out_slot: int, what: str,
                 windows: bool = False, tail: bool = False) -> SummedReduction:
    """That the group's reduction (`kernel`) takes `y` (slot `out_slot`, called `what` in the reasons) as one input
    it only reads, reads it linearly (linear_reads) and sums whole blocks of it (summed_dims); NotSummed (why).
    With `windows`, `kernel` is a pointwise kernel or a reduction whose lanes each sum one window of `y` with a load
    per element (window_reads, window_layout), which may leave the last elements of a row in no window. `tail`: the
    reduction's rows may sum chunks that leave the last elements of their dimension unread too."""
    out = target.group_args[out_slot]
    sizes, strides = tuple(out.sizes), tuple(out.strides)
    reads_y = reader_args(target, out_slot)
    if len(reads_y) != 1 or reads_y[0].written:
        raise NotSummed(f"the reduction does not take the {what} as exactly one input it only reads")
    tree, function = parse_kernel(kernel.source, kernel.name, NotSummed)
    # the rows and lanes the candidate's reduction launches are the ones to prove
    config = _reduction_config(kernel, target.launches[1], one_step=not windows)
    blocks = dict(config.blocks) if config is not None else {}
    try:
        if windows:
            reads = window_reads(function, reads_y[0].name)
            layout = window_layout(function, reads, target.launches[1], sizes, strides, blocks)
        else:
            reads = linear_reads(function, reads_y[0].name)
            layout = summed_dims(function, reads, target.launches[1], sizes, strides, blocks, tail)
    except (NotLinear, NotSummed) as why:
        raise NotSummed(f"{kernel.name}: {why}") from None
    return SummedReduction(layout, tree, function, reads)


def _reduction_config(kernel: KernelSpec, reduction: LaunchSpec, one_step: bool):
    """The configuration the rewritten reduction runs at: its recorded one (else the first of retune's; None: none),
    with each row's lanes taken in one step of its r-loop where they fit (`one_step`: one_step_rows)."""
    configs = launch_configs(kernel, reduction.config or {}, more=False)
    if not configs:
        return None
    return one_step_rows(kernel, configs[0]) if one_step else configs[0]


# The rewritten reduction's lanes read 0 in place of y but for one per block, so every lane adds the same value: the
# linear form's intercept (a bias, a shift). Identical addends round alike, so a lane that adds one k times, or a
# thread that adds its lanes in sequence, errs by the same amount as every other lane and thread, and the sum of the
# lanes multiplies that error instead of letting varied elements' roundings average out. On an H100 the gate
# measured a column sum of (0.5 * (b + y) - shift) over 16,384 rows in 32 chunks of 512 at 1.58e-6 relative error
# against the original's 8.5e-8 and rejected it. A float32 emulation of both orders (benchmarks/identical_addends.py:
# each chunk's lanes over its r-loop steps, each thread's lanes in sequence, then a tree) gives the candidate 11x the
# original's error at 64 steps of 8 lanes, 1.8x at 8 steps and 1.1x in one step with at most 4 lanes per thread
# (1.75x at 8 per thread): a tree that sums identical values is exact. So each row's lanes go in one step, 4 per
# thread at most. Not for a window reader (window-through-*): its lanes are windows, each with its own sum, whose
# values the reduction then combines like the original's.
SUMMED_MAX_R0 = 4096            # lanes per step (a longer row takes a few steps)
SUMMED_LANES_PER_THREAD = 4
SUMMED_MAX_WARPS = 32            # a program's warps, at most (1,024 threads)


def one_step_rows(kernel: KernelSpec, config: LaunchConfig) -> LaunchConfig:
    """`config` with R0_BLOCK widened to each row's length (a power of two, at most SUMMED_MAX_R0) and XBLOCK narrowed
    so that no thread holds more than SUMMED_LANES_PER_THREAD values at the recorded warps (more warps only where
    one row needs them): for a looped reduction whose r0_numel its source fixes. Any other kernel, or a
    configuration that would then run past the tensors (an unmasked block), keeps its own."""
    blocks = dict(config.blocks)
    r_numel = hardcoded_numel(kernel.source, "r0_numel")
    if "R0_BLOCK" not in blocks or r_numel is None or kernel.kind != "reduction":
        return config
    blocks["R0_BLOCK"] = max(blocks["R0_BLOCK"], min(next_pow2(r_numel), SUMMED_MAX_R0))
    if "XBLOCK" in blocks:
        held = SUMMED_LANES_PER_THREAD * 32 * config.num_warps
        blocks["XBLOCK"] = max(1, min(blocks["XBLOCK"], held // blocks["R0_BLOCK"]))
    tile = blocks.get("XBLOCK", 1) * blocks["R0_BLOCK"]
    warps = max(config.num_warps, min(SUMMED_MAX_WARPS, next_pow2(-(-tile // (32 * SUMMED_LANES_PER_THREAD)))))
    widened = dataclasses.replace(config, blocks=tuple(blocks.items()), num_warps=warps)
    return config if config_overruns(kernel.source, widened) else widened


def reduction_reading_sums(target: RewriteTarget, kernel: KernelSpec, rewritten: str, header: str,
                           prelude: tuple[str, ...], helpers: str, windows: bool = False) -> str:
    """A reduction-epilogue group's candidate: `prelude` (which forms SUMS and FLAGS, with `helpers` defined before
    `run`), then the group's reduction alone, from its `rewritten` source, at the configuration prove_summed proved
    (the same `windows`): its recorded one, each row in one step for sums of blocks (one_step_rows)."""
    reduction = target.launches[1]
    alone = dataclasses.replace(target, kernels=(kernel,), launches=(reduction,),
                                group_positions=(target.group_positions[1],))
    config = _reduction_config(kernel, reduction, one_step=not windows)
    if config is None:
        raise NotRetunable(f"no launch configuration for {kernel.name}")
    return group_candidate(alone, {kernel.name: rewritten}, {0: config}, header, prelude=prelude,
                           extra_args={0: f"{SUMS}, {FLAGS}"}, helpers=helpers)


__all__ = ["FLAGS", "NotSummed", "SUMS", "SummedLayout", "SummedReduction", "dense_layout", "group_reader",
           "group_reduction", "prove_summed", "reader_args", "read_sums", "reduction_reading_sums", "summed_dims",
           "window_layout", "windowed_reader"]
