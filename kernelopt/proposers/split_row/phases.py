"""Write a split-row candidate: the kernel's rows cut into chunks, one program per (row, chunk).

A kernel with row loops L0..L(K-1) and straight code S0..SK between them (structure.py) becomes up
to K+1 kernels, all generated from its own statements:
- phase p (grid rows x chunks) runs S0..Sp and loop Lp over its chunk only (`range(start, end,
  R0_BLOCK)`, the first-iteration test `roffset == 0` becoming `roffset == start`); the loops before
  it are replaced by their *combine*: each accumulator is loaded as a tile of the row's per-chunk
  partials (masked lanes holding the accumulator's own identity value) and the original reduction
  statement folds the tile, in a fixed order, so every program sees the same bits. After its chunk
  loop it runs Lp's reduction statements and stores the results as this chunk's partials. The
  stores of Sp run in phase p, by the chunk-0 program only; stores inside Lp run for the chunk's
  elements (structure.py proved each chunk owns them).
- the final phase (grid rows) combines every loop and runs SK's stores (the epilogue of the last
  reduction); it is launched only when SK stores something.
A loop with no accumulator (a normalize pass) is a phase of its own and runs in parallel over chunks
too. Partials live in one small scratch tensor per accumulator, [rows, chunks] row-major, allocated
by `run()` on the arguments' device.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from .structure import BLOCK_NAMES, LOOP_OFFSETS, RowKernel, RowLoop, store_call

CHUNK_AXIS_LIMIT = 65535      # CUDA's grid y dimension


@dataclass(frozen=True)
class Split:
    chunks: int          # programs per row
    chunk: int           # row elements per program: a multiple of r0_block
    r0_block: int
    num_warps: int = 8
    num_stages: int = 1
    x_block: int = 1     # rows per program: several where neighbouring rows read neighbouring runs of memory

    def label(self) -> str:
        rows = f" XBLOCK={self.x_block}" if self.x_block > 1 else ""
        return (f"chunks={self.chunks} chunk={self.chunk} R0_BLOCK={self.r0_block}{rows} num_warps={self.num_warps} "
                f"num_stages={self.num_stages}")


def split_for(row_length: int, chunks: int, r0_block: int, num_warps: int = 8, num_stages: int = 1,
              x_block: int = 1) -> Split:
    """At most `chunks` chunks of whole R0_BLOCKs covering the row (fewer when the row is short)."""
    blocks = -(-row_length // r0_block)
    chunk = -(-blocks // max(1, chunks)) * r0_block
    return Split(-(-row_length // chunk), chunk, r0_block, num_warps, num_stages, x_block)


@dataclass(frozen=True)
class Phase:
    loop: int | None     # the loop this phase runs over chunks; None: the final, one program per row
    name: str


def phases(kernel: RowKernel) -> list[Phase]:
    out = []
    for number, loop in enumerate(kernel.loops):
        if loop.accumulators or loop.stores or kernel.segment_stores(number):
            out.append(Phase(number, f"{kernel.name}_ko_split{number}"))
    if kernel.segment_stores(len(kernel.loops)):
        out.append(Phase(None, f"{kernel.name}_ko_combine"))
    return out


def partial_buffers(kernel: RowKernel) -> list[tuple[int, str, str]]:
    """(loop, accumulator, torch dtype) of every scratch buffer, in parameter order."""
    return [(number, acc.name, acc.dtype) for number, loop in enumerate(kernel.loops) for acc in loop.accumulators]


def phase_source(kernel: RowKernel, phase: Phase) -> str:
    buffers = partial_buffers(kernel)
    part_of = {(loop, name): f"ko_part{i}" for i, (loop, name, _) in enumerate(buffers)}
    final = phase.loop is None
    current = len(kernel.loops) if final else phase.loop
    body: list[str] = [] if final else ["ko_chunk = tl.program_id(1)"]
    for number, segment in enumerate(kernel.segments):
        if number > current:
            break
        inits = {acc.init for acc in kernel.loops[number].accumulators} if number < len(kernel.loops) else set()
        combined_next = number < current
        for stmt in segment:
            store = store_call(stmt)
            if store is not None:
                if number == current:
                    body.append(ast.unparse(stmt if final else _first_chunk_only(stmt)))
                continue
            if stmt in inits and combined_next:
                stmt = _with_lanes(stmt, "KO_CHUNKS_P2")
            body.append(ast.unparse(stmt))
        if number == len(kernel.loops):
            break
        loop = kernel.loops[number]
        if number < current:
            body += _combine(loop, number, part_of)
        elif number == current:
            body += _chunk_loop(loop, number, part_of)
    params = ", ".join(kernel.params + [f"ko_part{i}" for i in range(len(buffers))])
    lines = ["@triton.jit",
             f"def {phase.name}({params}, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr, KO_CHUNK: tl.constexpr, "
             "KO_CHUNKS: tl.constexpr, KO_CHUNKS_P2: tl.constexpr):"]
    for text in body:
        lines += ["    " + line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def _combine(loop: RowLoop, number: int, part_of: dict) -> list[str]:
    """The loop's accumulators as tiles of the row's partials, then its reduction statements as written."""
    if not loop.accumulators:
        return []
    out = [f"# row loop {number}: the chunks' partials, folded in a fixed order by the loop's own reductions",
           "ko_lanes = tl.arange(0, KO_CHUNKS_P2)[None, :]",
           "ko_lanes_mask = (ko_lanes < KO_CHUNKS) & (xindex < xnumel)"]
    for acc in loop.accumulators:
        out.append(f"{acc.name} = tl.where(ko_lanes_mask, tl.load({part_of[(number, acc.name)]} + "
                   f"(KO_CHUNKS * xindex + ko_lanes), ko_lanes_mask), {acc.name})")
    return out


def _chunk_loop(loop: RowLoop, number: int, part_of: dict) -> list[str]:
    node = copy.deepcopy(loop.node)
    node.iter.args[0] = ast.Name("ko_r0_start", ast.Load())
    node.iter.args[1] = ast.Name("ko_r0_end", ast.Load())
    node = _FirstIteration().visit(node)
    out = ["ko_r0_start = ko_chunk * KO_CHUNK",
           "ko_r0_end = tl.minimum(ko_r0_start + KO_CHUNK, r0_numel)",
           ast.unparse(ast.fix_missing_locations(node))]
    for reduction in loop.reductions:
        out += [ast.unparse(cast) for cast in reduction.casts]
        out.append(ast.unparse(reduction.stmt))
        for acc, value in zip(reduction.state, reduction.outputs):
            column = value if reduction.two_d else f"{value}[:, None]"
            out.append(f"tl.store({part_of[(number, acc)]} + (KO_CHUNKS * xindex + ko_chunk), {column}, "
                       "xindex < xnumel)")
    return out


class _FirstIteration(ast.NodeTransformer):
    """`roffset == 0` (the loop's first iteration, welford_reduce's flag) -> `roffset == ko_r0_start`."""

    def visit_Compare(self, node: ast.Compare):
        names = [node.left, *node.comparators]
        if any(isinstance(n, ast.Name) and n.id in LOOP_OFFSETS for n in names):
            node.left = self._start(node.left)
            node.comparators = [self._start(n) for n in node.comparators]
        return node

    @staticmethod
    def _start(node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Constant) and node.value == 0:
            return ast.Name("ko_r0_start", ast.Load())
        return node


def _with_lanes(stmt: ast.stmt, lanes: str) -> ast.stmt:
    """An accumulator's initialisation with one lane per chunk instead of per R0_BLOCK element."""
    stmt = copy.deepcopy(stmt)
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id in BLOCK_NAMES:
            node.id = lanes
    return stmt


def _first_chunk_only(stmt: ast.Expr) -> ast.Expr:
    """A straight-code store done once per row: by the chunk-0 program. The condition is a tensor the
    shape of xindex, not a scalar: the interpreter rejects a mask combining a block with a scalar."""
    stmt = copy.deepcopy(stmt)
    call = stmt.value
    first = ast.parse("(tl.zeros_like(xindex) + ko_chunk) == 0", mode="eval").body
    mask = next((k for k in call.keywords if k.arg == "mask"), None)
    current = mask.value if mask is not None else call.args[2] if len(call.args) > 2 else None
    if current is None or (isinstance(current, ast.Constant) and current.value is None):
        new = first
    else:
        new = ast.BinOp(current, ast.BitAnd(), first)
    if mask is not None:
        mask.value = new
    elif len(call.args) > 2:
        call.args[2] = new
    else:
        call.args.append(new)
    return ast.fix_missing_locations(stmt)


def candidate_source(kernel: RowKernel, split: Split, tensor_position: int) -> str:
    """Candidate format: the phase kernels and `run(*args)` (the original `.run` arguments) launching
    them in order on scratch partials. `tensor_position`: an argument whose device the scratch uses."""
    # one chunk is legal too (the proposer never offers it; tests run rows of length 1 through it)
    if split.chunk % split.r0_block or not 1 <= split.chunks <= CHUNK_AXIS_LIMIT or kernel.rows % split.x_block:
        raise ValueError(f"bad split {split.label()}")
    plan = phases(kernel)
    buffers = partial_buffers(kernel)
    lanes = 1 << max(0, (split.chunks - 1).bit_length())
    meta = (f"XBLOCK={split.x_block}, R0_BLOCK={split.r0_block}, KO_CHUNK={split.chunk}, KO_CHUNKS={split.chunks}, "
            f"KO_CHUNKS_P2={lanes}")
    launches = []
    programs = kernel.rows // split.x_block
    for phase in plan:
        grid = f"({programs}, 1, 1)" if phase.loop is None else f"({programs}, {split.chunks}, 1)"
        warps = min(split.num_warps, 4) if phase.loop is None else split.num_warps
        launches.append(f"    {phase.name}[{grid}](*args, *parts, {meta}, num_warps={warps}, "
                        f"num_stages={split.num_stages})")
    allocations = ", ".join(f"torch.empty({kernel.rows * split.chunks}, dtype=torch.{dtype}, device=device)"
                            for _, _, dtype in buffers)
    reductions = ", ".join(dict.fromkeys(kernel.reductions))
    return (
        f"# split-row: {kernel.name}, {kernel.rows} rows of {kernel.row_length} split into {split.chunks} chunks "
        f"of {split.chunk} ({reductions}); {len(plan)} launches, {split.label()}\n"
        + "\n".join(kernel.header) + "\nimport torch\n\n\n"
        + "\n\n".join(phase_source(kernel, phase) for phase in plan) + "\n\n"
        "def run(*args):\n"
        f"    device = args[{tensor_position}].device\n"
        "    # per-chunk partial states of each accumulator, [rows, chunks] row-major; every element is\n"
        "    # written by its chunk's program before any program reads it\n"
        f"    parts = ({allocations}{',' if len(buffers) == 1 else ''})\n"
        + "\n".join(launches) + "\n"
    )

