"""align-split: a split reduction whose chunk Inductor left unaligned, its chunk rounded up to an aligned one.

Inductor runs a reduction over few, long rows as S programs per row (x0 = xindex % S picks a program's chunk)
and a combine. Each program reads the row positions `r + C*x0` of its chunk, C = ceil(L / S), guarded by
`r + C*x0 < L`. When C is not a multiple of the vector width (L = 2,097,152 in 17 chunks: C = 123,362),
no chunk but the first starts on a 16-byte boundary, Triton cannot prove any load aligned, and every element
is a 4-byte load of its own instead of a quarter of a 16-byte one. On an H100 the partial kernels of three
such norms (chunks 123,362, 116,509 and 52,429) ran at 72-76 % of their bandwidth floor, while the same
kernels at chunks that are powers of two (65,536, 131,072) ran at 100 %.

This transform rounds C up to C' = the next multiple of A, where A is the largest power of two (at most 128)
that divides every other term of the loads' offsets (the row stride, a modulus): aligning the chunk aligns
the loads only where the rows start aligned. It rewrites the literal C only where it is the chunk (the
kernel's `r0_numel = C`, and each `C*x0`): chunk x0 then covers [C'*x0, C'*x0 + C') and the kernel's own
`< L` guard still ends the row, so the same S programs cover each row once. The launch, the partial buffers
and the combine are unchanged; only where each chunk ends moves, a reorder of the sums that the legality
gate's tolerance allows (and checks). Declined, with the reason, when C already is a multiple of A, when the
last chunk would be empty ((S-1)*C' >= L), when no `< L` guard ends the row (S*C == L: nothing to pad), when a
load at a chunk offset is not masked by that guard, and when C appears anywhere but in the chunk offset.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterable

from .base import Attempt, Candidate, KernelSpec, RewriteTarget
from .candidate_source import NotRetunable
from .group_launches import PartialsEscape, group_candidate, launch_configs, partials_merged, with_original_kernels

MAX_ALIGNMENT = 128             # elements: 512 bytes of fp32, past every vector width
MIN_ALIGNMENT = 4               # fewer than 4 elements (16 bytes of fp32) would not widen a load


class AlignSplitDeclined(Exception):
    """A split reduction this transform does not re-chunk (the message says why: a remark)."""


class NotASplit(AlignSplitDeclined):
    """The kernel is not a split reduction at all: not this transform's kind, and no remark."""


@dataclass(frozen=True)
class AlignedKernel:
    source: str                 # the kernel source with the chunk rewritten
    splits: int                 # S: programs per row
    chunk: int                  # C: Inductor's chunk
    aligned: int                # C': the new chunk
    row: int                    # L: the row length the guard ends at
    alignment: int              # A

    def describe(self, kernel: str) -> str:
        return (f"{kernel}: {self.splits} chunks of {self.chunk} per row of {self.row} -> chunks of {self.aligned} "
                f"(a multiple of {self.alignment}): every chunk starts aligned, its partials merged in the group")


@dataclass(frozen=True)
class AlignPlan:
    aligned: dict               # kernel name -> AlignedKernel
    configs: dict               # launch index -> tuple[LaunchConfig, ...] (first: the recorded one)


def _int(node: ast.AST) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _name(node: ast.AST) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _assignments(function: ast.FunctionDef) -> dict[str, ast.AST]:
    """name -> value of every single-target assignment in the kernel, the r-loop's included (later wins)."""
    out = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out[node.targets[0].id] = node.value
    return out


def _chunk_variable(function: ast.FunctionDef, assigned: dict[str, ast.AST], chunk: int,
                    xnumel: int) -> tuple[str, int] | None:
    """(x0, S): the name multiplied by the chunk, when it is `xindex % S`, or `xindex` itself where the launch
    is S programs in all (a reduction of the whole tensor into S partials)."""
    for node in ast.walk(function):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
            continue
        sides = (node.left, node.right)
        if chunk not in [_int(side) for side in sides]:
            continue
        name = next((_name(side) for side in sides if _name(side)), None)
        value = assigned.get(name)
        if (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mod) and _name(value.left) == "xindex"
                and _int(value.right)):
            return name, _int(value.right)
        if value is not None and _name(value) == "xindex":
            return name, xnumel
    return None


def _is_chunk_offset(node: ast.AST, chunk: int, x0: str) -> bool:
    return (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
            and {_int(node.left), _name(node.left)} | {_int(node.right), _name(node.right)} >= {chunk, x0})


def _parents(function: ast.FunctionDef) -> dict[int, ast.AST]:
    return {id(child): parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)}


def _unwrap_cast(node: ast.AST) -> ast.AST:
    """`(expr).to(tl.int32)` -> expr (torch 2.13 casts the guarded position)."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to"
            and len(node.args) == 1):
        return node.func.value
    return node


def _row_guard(function: ast.FunctionDef, assigned: dict[str, ast.AST], chunk: int,
               x0: str) -> tuple[int, str] | None:
    """(L, the guard's name) of `tmp = r + C*x0 < L` (the position named or cast first, L a literal or
    `tl.full(.., L, ..)`)."""
    for name, node in assigned.items():
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Lt)):
            continue
        left = node.left
        left = _unwrap_cast(assigned.get(_name(left), left) if _name(left) else left)
        if not (isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add)
                and any(_is_chunk_offset(side, chunk, x0) for side in (left.left, left.right))):
            continue
        right = node.comparators[0]
        right = assigned.get(_name(right), right) if _name(right) else right
        if _int(right):
            return _int(right), name
        if (isinstance(right, ast.Call) and isinstance(right.func, ast.Attribute) and right.func.attr == "full"
                and len(right.args) >= 2 and _int(right.args[1])):
            return _int(right.args[1]), name
    return None


def _loads_at_chunk_offsets(function: ast.FunctionDef, chunk: int, x0: str) -> list[ast.Call]:
    return [node for node in ast.walk(function)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "load"
            and node.args and any(_is_chunk_offset(n, chunk, x0) for n in ast.walk(node.args[0]))]


def _check_guarded(function: ast.FunctionDef, chunk: int, x0: str, guard: str) -> None:
    """Every load at a chunk offset is masked by the row guard: a longer chunk then reads nothing past the row."""
    for load in _loads_at_chunk_offsets(function, chunk, x0):
        mask = load.args[1] if len(load.args) > 1 else next((k.value for k in load.keywords if k.arg == "mask"), None)
        if mask is None or guard not in {_name(n) for n in ast.walk(mask)}:
            raise AlignSplitDeclined(f"line {load.lineno}: a load at a chunk offset is not masked by the row guard "
                                     f"`{guard}`")


def _power_of_two_part(value: int) -> int:
    return value & -value if value else MAX_ALIGNMENT


def _load_alignment(function: ast.FunctionDef, chunk: int, x0: str) -> int:
    """The largest power of two (at most MAX_ALIGNMENT) dividing every integer in the offsets of the loads
    that read at a chunk offset, the chunk's own C aside: what an aligned chunk leaves the loads aligned to."""
    alignment = MAX_ALIGNMENT
    for load in _loads_at_chunk_offsets(function, chunk, x0):
        offsets = load.args[0]
        skip = {id(side) for n in ast.walk(offsets) if _is_chunk_offset(n, chunk, x0)
                for side in (n.left, n.right) if _int(side) == chunk}
        for n in ast.walk(offsets):
            if _int(n) is not None and id(n) not in skip:
                alignment = min(alignment, _power_of_two_part(_int(n)))
    return alignment


def _check_uses(function: ast.FunctionDef, chunk: int, x0: str) -> None:
    """C appears only as the kernel's r0_numel and in `C*x0`; every chunk offset is inside a load's offsets or
    the guarded position (a use elsewhere could mean the chunk's size, which this transform would change)."""
    parents = _parents(function)
    for node in ast.walk(function):
        if _int(node) != chunk:
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Assign) and [_name(t) for t in parent.targets] == ["r0_numel"]:
            continue
        if parent is not None and _is_chunk_offset(parent, chunk, x0):
            continue
        raise AlignSplitDeclined(f"line {node.lineno}: {chunk} appears outside the chunk offset `{chunk}*{x0}`")


def align_kernel(kernel: KernelSpec) -> AlignedKernel:
    """The kernel with its chunk aligned, or AlignSplitDeclined saying why it is not an unaligned split."""
    if kernel.kind != "reduction":
        raise NotASplit(f"{kernel.name} is a {kernel.kind} kernel, not a looped split reduction")
    module = ast.parse(kernel.source)
    function = next((n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == kernel.name), None)
    if function is None:
        raise NotASplit(f"no function named {kernel.name} in the kernel source")
    assigned = _assignments(function)
    chunk, xnumel = _int(assigned.get("r0_numel", ast.Name("r0_numel"))), _int(assigned.get("xnumel", ast.Name("x")))
    if not chunk or not xnumel:
        raise NotASplit(f"{kernel.name}: its sizes are not literals (a dynamic shape)")
    found = _chunk_variable(function, assigned, chunk, xnumel)
    if found is None:
        raise NotASplit(f"{kernel.name}: no program index picks a chunk (`x0 = xindex % S`)")
    x0, splits = found
    found_guard = _row_guard(function, assigned, chunk, x0)
    if found_guard is None:
        raise NotASplit(f"{kernel.name}: no `r + {chunk}*{x0} < L` guard ends the row (its chunks tile "
                                 "it exactly, or it is not a split of one row)")
    row, guard = found_guard
    if not (splits >= 2 and (splits - 1) * chunk < row <= splits * chunk):
        raise NotASplit(f"{kernel.name}: {splits} chunks of {chunk} do not split rows of {row}")
    _check_uses(function, chunk, x0)
    _check_guarded(function, chunk, x0, guard)
    alignment = _load_alignment(function, chunk, x0)
    while alignment >= MIN_ALIGNMENT and (splits - 1) * (-(-chunk // alignment) * alignment) >= row:
        alignment //= 2                         # a chunk that large would leave the last one empty
    if alignment < MIN_ALIGNMENT:
        raise AlignSplitDeclined(f"{kernel.name}: its rows do not start on a {MIN_ALIGNMENT}-element boundary, "
                                 "so an aligned chunk would not align the loads")
    if chunk % alignment == 0:
        raise AlignSplitDeclined(f"{kernel.name}: its chunk of {chunk} already is a multiple of {alignment}")
    aligned = -(-chunk // alignment) * alignment
    _rewrite_chunk(function, chunk, aligned, x0)
    return AlignedKernel(ast.unparse(module), splits, chunk, aligned, row, alignment)


def plan_align_split(target: RewriteTarget) -> AlignPlan:
    """Every unaligned split reduction of the target aligned, where its fusion group merges its partials."""
    aligned, reasons = {}, []
    for kernel in target.kernels:
        try:
            found = align_kernel(kernel)
        except NotASplit:
            continue
        except AlignSplitDeclined as why:
            reasons.append(str(why))
            continue
        try:
            partials_merged(target, kernel.name)
        except PartialsEscape as why:
            reasons.append(f"{kernel.name}: {why}")
            continue
        aligned[kernel.name] = found
    if not aligned:
        raise AlignSplitDeclined("; ".join(reasons)) if reasons else NotASplit("no split reduction")
    configs = {}
    for i, spec in enumerate(target.launches):
        kernel = next(k for k in target.kernels if k.name == spec.kernel)
        configs[i] = launch_configs(kernel, spec.config or {}, more=spec.kernel in aligned)
        if not configs[i]:
            raise AlignSplitDeclined(f"{spec.kernel} has no launch configuration to run it at")
    return AlignPlan(aligned, configs)


def _rewrite_chunk(function: ast.FunctionDef, chunk: int, aligned: int, x0: str) -> None:
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and [_name(t) for t in node.targets] == ["r0_numel"]:
            node.value = ast.Constant(aligned)
        elif _is_chunk_offset(node, chunk, x0):
            node.left, node.right = ast.Constant(aligned), ast.Name(x0, ast.Load())


def with_original_chunks(target: RewriteTarget, source: str) -> str:
    """An align-split candidate's module with Inductor's chunks put back (ptx_census.py compares the two)."""
    return with_original_kernels(target, source, {name: found.source
                                                  for name, found in plan_align_split(target).aligned.items()})


@dataclass
class AlignSplitProposer:
    name: str = "align-split"
    summary: str = ("Inductor's split reductions whose chunk is not a multiple of the vector width: the chunk "
                    "rounded up so that every program's loads start aligned (same programs, buffers and combine)")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_align_split(target)
        except AlignSplitDeclined:
            return
        tried = {a.candidate.strategy for a in history}
        varied = [i for i, spec in enumerate(target.launches) if spec.kernel in plan.aligned]
        chunks = " ".join(f"chunk={found.aligned}" for found in plan.aligned.values())
        notes = "; ".join(found.describe(name) for name, found in plan.aligned.items())
        for n in range(max(len(plan.configs[i]) for i in varied)):
            chosen = {i: configs[min(n, len(configs) - 1)] for i, configs in plan.configs.items()}
            label = f"{self.name} {chunks} " + "; ".join(f"{target.launches[i].kernel} {chosen[i].label()}"
                                                       for i in varied)
            if label in tried:
                continue
            tried.add(label)
            try:
                source = group_candidate(target, {name: found.source for name, found in plan.aligned.items()},
                                         chosen, f"align-split: {notes}")
            except NotRetunable:
                return
            yield Candidate(source, self.name, label, notes=notes)

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a split reduction of the target is left as it is; '' where one is aligned, and for a target with
        no split reduction (saying so for every other kernel would bury the remarks that matter)."""
        try:
            plan_align_split(target)
        except NotASplit:
            return ""
        except AlignSplitDeclined as why:
            return str(why)
        return ""


__all__ = ["AlignPlan", "AlignSplitDeclined", "AlignSplitProposer", "AlignedKernel", "NotASplit", "align_kernel",
           "plan_align_split", "with_original_chunks"]
