"""fuse: run a vertical detect-fusion group of pointwise Triton launches as one launch.

What is handled (and proven before anything is proposed):
- every launch is an Inductor `pointwise` kernel with the `Grid1D` grid, `XBLOCK` its only constexpr,
  the canonical prologue (`xnumel = N`, `xoffset = tl.program_id(0) * XBLOCK`,
  `xindex = xoffset + tl.arange(0, XBLOCK)[:]`, `xmask = xindex < xnumel` or all-true) and the same
  literal `xnumel` N; straight-line bodies (single assignments, `tl.load`/`tl.store` on
  `param + (index)` pointers, no other use of a pointer parameter);
- every group argument that one launch writes and another launch touches (RAW, WAR and WAW alike)
  is accessed in *every* launch only at offset `xindex` (after inlining the index locals) under the
  canonical mask. Program p of each launch then owns exactly elements [p*XBLOCK, (p+1)*XBLOCK) of
  that buffer, so running the launches' bodies one after another inside one program, separated by
  `tl.debug_barrier()` (which orders the CTA's global-memory accesses), computes what the separate
  launches computed. Intermediates are still stored (they may escape the group).

The fused kernel's parameters are the group's argument slots (`a0, a1, ...`, `group_args` order);
each launch's locals get a `_<launch>` suffix; the prologue is written once. Two variants: `barrier`
(the consumer reloads the intermediate after the barrier) and `forward` (a load of an intermediate
the fused body just stored is replaced by the stored value cast to the buffer's dtype, saving the
read; only for floating-point buffers and stored values that are plain names).

Arguments that are distinct slots but share storage at run time (`buf1 = buf0  # reuse`) cannot be
seen in the target; the candidate checks for such aliasing on every call and, unless both slots are
owned (accessed only at `xindex`) and start at the same address, launches the original kernels one
after the other instead.

What is declined: groups with a reduction, template or other non-pointwise kernel (a reduction's
rows are owned by programs over a different index space, so a per-row consumer cannot be proven to
see only what its own program wrote); different `xnumel`s (e.g. a pooling consumer reading a window
of the producer's output); any shared buffer accessed at another offset than `xindex` (broadcasts,
transposes, windows); kernels with loops, branches, Grid2D tiling, or pointer arithmetic outside
`tl.load`/`tl.store`.
"""
from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field
from typing import Iterable

from kernelopt.codegen.configs import next_pow2
from kernelopt.inductor_source import access_mask, expression_excerpt, pointer_base, strip_heuristics

from kernelopt.ir.rewrite_record import GROUP

from .base import Attempt, Candidate, RewriteTarget
from .candidate_source import TL_DTYPES, NotRetunable

CONFIGS = ((1024, 4), (512, 4), (2048, 8), (256, 2), (1024, 8), (128, 4), (4096, 8), (64, 1))
MAX_CANDIDATES = 8
_PROLOGUE_OFFSET = "xoffset = tl.program_id(0) * XBLOCK"
_PROLOGUE_INDEX = ("xindex = xoffset + tl.arange(0, XBLOCK)[:]", "xindex = xoffset + tl.arange(0, XBLOCK)")
_MASK_LT = "xmask = xindex < xnumel"
_MASK_ALL = ("xmask = tl.full([XBLOCK], True, tl.int1)[:]", "xmask = tl.full([XBLOCK], True, tl.int1)")
_SHARED_NAMES = ("xnumel", "xoffset", "xindex", "XBLOCK")
_FLOAT_DTYPES = {name: spelled for name, spelled in TL_DTYPES.items() if name.startswith(("float", "bfloat"))}


class Decline(Exception):
    """The group cannot be proven fusable; the message says why."""


@dataclass
class Access:
    store: bool
    param: str
    index: str          # normalised offset expression ("xindex" when the program owns it)
    mask: str           # "lt" (xindex < xnumel), "all" (no mask / all true) or the normalised text
    node: ast.Call


@dataclass
class ParsedKernel:
    name: str
    params: list[str]               # runtime parameters (XBLOCK excluded), in `.run(...)` order
    tensor_params: set[str]
    xnumel: int
    masked: bool                    # xmask is `xindex < xnumel` (else all-true: XBLOCK must divide N)
    body: list[ast.stmt]            # the statements after the prologue, xmask's definition first
    accesses: list[Access]
    header: list[str]               # module-level import lines of the kernel source
    function: str                   # the plain @triton.jit source (for the unfused fallback)
    locals: set[str] = field(default_factory=set)


def parse_pointwise(spec) -> ParsedKernel:
    """Check one kernel against the shape this proposer can prove things about (see the docstring)."""
    if spec.kind != "pointwise":
        raise Decline(f"{spec.name} is a {spec.kind or 'unknown'} kernel, not pointwise")
    grid = re.search(r"'grid_type':\s*'(\w+)'", spec.source)
    if grid and grid.group(1) != "Grid1D":
        raise Decline(f"{spec.name} uses the {grid.group(1)} grid")
    constexprs = [p for p, t in spec.signature.items() if t == "constexpr"]
    if constexprs != ["XBLOCK"]:
        raise Decline(f"{spec.name} has constexpr parameters {constexprs}, expected only XBLOCK")
    try:
        plain = strip_heuristics(spec.source, spec.name, missing=NotRetunable)
    except NotRetunable as err:
        raise Decline(str(err)) from None
    tree = ast.parse(plain)
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == spec.name)
    header = [ast.unparse(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    params = [a.arg for a in func.args.args if a.arg != "XBLOCK"]
    tensor_params = {p for p in params if spec.signature.get(p, "").startswith("*")}
    stmts = list(func.body)
    if stmts and isinstance(stmts[0], ast.Expr) and isinstance(stmts[0].value, ast.Constant):
        stmts = stmts[1:]
    if len(stmts) < 4:
        raise Decline(f"{spec.name}: no Inductor pointwise prologue")
    xnumel_stmt, offset_stmt, index_stmt, mask_stmt = stmts[:4]
    xnumel = _literal_assignment(xnumel_stmt, "xnumel")
    if xnumel is None:
        raise Decline(f"{spec.name}: xnumel is not a literal (dynamic shapes are not handled)")
    if ast.unparse(offset_stmt) != _PROLOGUE_OFFSET or ast.unparse(index_stmt) not in _PROLOGUE_INDEX:
        raise Decline(f"{spec.name}: the program does not own an XBLOCK slice of xindex")
    mask_text = ast.unparse(mask_stmt)
    if mask_text != _MASK_LT and mask_text not in _MASK_ALL:
        raise Decline(f"{spec.name}: unexpected mask `{mask_text}`")
    body = [mask_stmt] + stmts[4:]
    defs = _single_assignments(spec.name, body, params)
    accesses = _accesses(spec.name, body, defs, tensor_params)
    locals_ = set(defs)
    return ParsedKernel(spec.name, params, tensor_params, xnumel, mask_text == _MASK_LT, body, accesses,
                        header, ast.unparse(func), locals_)


def _literal_assignment(stmt: ast.stmt, name: str) -> int | None:
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == name and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, int)):
        return stmt.value.value
    return None


def _single_assignments(kernel: str, body: list[ast.stmt], params: list[str]) -> dict[str, ast.expr]:
    """name -> defining expression; straight-line code with each local assigned once, else Decline."""
    defs: dict[str, ast.expr] = {}
    for stmt in body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            if ast.unparse(stmt.value.func) != "tl.store":
                raise Decline(f"{kernel}: a statement the proposer does not follow: `{expression_excerpt(stmt, 60)}`")
            continue
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            raise Decline(f"{kernel}: not straight-line single assignments: `{expression_excerpt(stmt, 60)}`")
        name = stmt.targets[0].id
        if name in defs or name in params or name in _SHARED_NAMES:
            raise Decline(f"{kernel}: `{name}` is assigned more than once")
        defs[name] = stmt.value
    return defs


class _Inline(ast.NodeTransformer):
    def __init__(self, defs: dict[str, ast.expr]):
        self.defs = defs

    def visit_Name(self, node: ast.Name):
        if node.id in self.defs:
            return self.visit(copy.deepcopy(self.defs[node.id]))
        return node


def normalise(expr: ast.expr | None, defs: dict[str, ast.expr]) -> str:
    if expr is None:
        return ""
    return ast.unparse(_Inline(defs).visit(copy.deepcopy(expr)))


def _mask_class(text: str) -> str:
    if text in ("", "None", "tl.full([XBLOCK], True, tl.int1)[:]", "tl.full([XBLOCK], True, tl.int1)"):
        return "all"
    if text == "xindex < xnumel":
        return "lt"
    return text


def _accesses(kernel: str, body: list[ast.stmt], defs: dict, tensor_params: set[str]) -> list[Access]:
    accesses = []
    pointer_uses = 0
    for stmt in body:
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func) in ("tl.load", "tl.store")):
                continue
            store = ast.unparse(node.func) == "tl.store"
            pointer = node.args[0] if node.args else None
            based = pointer_base(pointer)
            if based is None:
                raise Decline(f"{kernel}: pointer `{ast.unparse(pointer) if pointer else '?'}` is not param + offset")
            param, offset = based
            if param not in tensor_params:
                raise Decline(f"{kernel}: `{param}` is not a pointer parameter")
            mask = access_mask(node)
            inline_defs = dict(defs)
            accesses.append(Access(store, param, normalise(offset, inline_defs),
                                   _mask_class(normalise(mask, inline_defs)), node))
            pointer_uses += 1
    names = sum(1 for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id in tensor_params)
    if names != pointer_uses:
        raise Decline(f"{kernel}: a pointer parameter is used outside tl.load/tl.store")
    return accesses


# ---------------------------------------------------------------------------------------------------
# The group-level proof

@dataclass
class FusionPlan:
    kernels: list[ParsedKernel]          # one per launch, program order
    positions: list[tuple[int, ...]]
    xnumel: int
    owned: set[int]                      # slots accessed only at xindex under the canonical mask
    written: set[int]                    # slots some launch stores to
    dtypes: dict[int, str]


def plan_fusion(target: RewriteTarget) -> FusionPlan:
    """Prove the group fusable (see the module docstring) or raise Decline."""
    if len(target.launches) < 2 or not target.group_args or len(target.group_positions) != len(target.launches):
        raise Decline("not a group of two or more launches")
    specs = {k.name: k for k in target.kernels}
    parsed: dict[str, ParsedKernel] = {}
    kernels = []
    for launch in target.launches:
        if launch.kernel not in specs:
            raise Decline(f"no source for {launch.kernel}")
        if launch.kernel not in parsed:
            parsed[launch.kernel] = parse_pointwise(specs[launch.kernel])
        kernels.append(parsed[launch.kernel])
    xnumels = {k.xnumel for k in kernels}
    if len(xnumels) != 1:
        raise Decline(f"the launches cover different xnumel {sorted(xnumels)}")
    xnumel = xnumels.pop()
    positions = [tuple(p) for p in target.group_positions]
    touched: dict[int, list[tuple[int, Access]]] = {}
    for number, (kernel, where) in enumerate(zip(kernels, positions)):
        if len(where) != len(kernel.params):
            raise Decline(f"{kernel.name} is launched with {len(where)} arguments for {len(kernel.params)} parameters")
        for param, slot in zip(kernel.params, where):
            arg = target.group_args[slot]
            if param == "xnumel" and not arg.is_tensor and isinstance(arg.value, int) and arg.value != xnumel:
                raise Decline(f"{kernel.name} is launched with xnumel={arg.value}, its body says {xnumel}")
        slot_of = dict(zip(kernel.params, where))
        for access in kernel.accesses:
            touched.setdefault(slot_of[access.param], []).append((number, access))
    written = {slot for slot, uses in touched.items() if any(a.store for _, a in uses)}
    owned = {slot for slot, uses in touched.items()
             if all(a.index == "xindex" and a.mask in ("lt", "all") for _, a in uses)}
    for slot in written:
        launches = {number for number, _ in touched[slot]}
        if len(launches) > 1 and slot not in owned:
            bad = next(a for _, a in touched[slot] if a.index != "xindex" or a.mask not in ("lt", "all"))
            raise Decline(f"group argument {slot} ({target.group_args[slot].name}) passes between launches but "
                          f"is {'stored' if bad.store else 'loaded'} at `{bad.index}` mask `{bad.mask}`, "
                          "not at the program's own xindex")
    dtypes = {i: a.dtype for i, a in enumerate(target.group_args) if a.is_tensor}
    return FusionPlan(kernels, positions, xnumel, owned, written, dtypes)


# ---------------------------------------------------------------------------------------------------
# Code generation

class _Rename(ast.NodeTransformer):
    def __init__(self, mapping: dict[str, str]):
        self.mapping = mapping

    def visit_Name(self, node: ast.Name):
        if node.id in self.mapping:
            return ast.copy_location(ast.Name(self.mapping[node.id], node.ctx), node)
        return node


def fused_kernel_source(plan: FusionPlan, name: str, forward: bool) -> str:
    """The @triton.jit function doing the group's launches in one program (see the module docstring)."""
    slots = 1 + max(s for where in plan.positions for s in where)
    params = ", ".join(f"a{i}" for i in range(slots))
    lines = ["@triton.jit", f"def {name}({params}, XBLOCK: tl.constexpr):",
             f"    xnumel = {plan.xnumel}", f"    {_PROLOGUE_OFFSET}", f"    {_PROLOGUE_INDEX[0]}"]
    stored: dict[int, str] = {}     # owned floating slot -> fused-body name of the value last stored there
    for number, (kernel, where) in enumerate(zip(plan.kernels, plan.positions)):
        mapping = {p: f"a{s}" for p, s in zip(kernel.params, where) if p != "xnumel"}
        mapping.update({local: f"{local}_{number}" for local in kernel.locals | {"xmask"}})
        slot_of = dict(zip(kernel.params, where))
        if number:
            lines.append("    tl.debug_barrier()")
        lines.append(f"    # {kernel.name}")
        forwarding = _ForwardLoads(slot_of, stored if forward else {}, plan.dtypes)
        for stmt in kernel.body:
            stmt = forwarding.visit(copy.deepcopy(stmt))
            lines.append("    " + ast.unparse(_Rename(mapping).visit(stmt)).replace(_KEEP, ""))
        for access in kernel.accesses:
            if not access.store:
                continue
            slot = slot_of[access.param]
            value = access.node.args[1] if len(access.node.args) > 1 else None
            if (isinstance(value, ast.Name) and value.id in kernel.locals and slot in plan.owned
                    and plan.dtypes.get(slot) in _FLOAT_DTYPES):
                stored[slot] = mapping[value.id]
            else:
                stored.pop(slot, None)
    return "\n".join(lines) + "\n"


class _ForwardLoads(ast.NodeTransformer):
    """Loads of a slot an earlier launch of the fused body stored become that value, cast to the
    buffer's dtype (what the load would have read: the store rounds to the buffer's dtype)."""

    def __init__(self, slot_of: dict[str, int], stored: dict[int, str], dtypes: dict[int, str]):
        self.slot_of, self.stored, self.dtypes = slot_of, stored, dtypes

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        if ast.unparse(node.func) != "tl.load" or not node.args:
            return node
        pointer = node.args[0]
        param = pointer.left.id if isinstance(pointer, ast.BinOp) else getattr(pointer, "id", None)
        slot = self.slot_of.get(param)
        if slot not in self.stored:
            return node
        # the stored value's name is already the fused body's name: keep _Rename off it
        value = ast.Name(f"{_KEEP}{self.stored[slot]}", ast.Load())
        return ast.Call(ast.Attribute(value, "to", ast.Load()),
                        [ast.parse(_FLOAT_DTYPES[self.dtypes[slot]], mode="eval").body], [])


_KEEP = "__kernelopt_keep__"


def candidate_source(plan: FusionPlan, block: int, num_warps: int, forward: bool) -> str:
    """Candidate format: `run(*group_args)` launches the fused kernel (or, when two distinct slots
    share storage in a way the proof does not cover, the original kernels one after the other)."""
    name = "kernelopt_fused_" + "_".join(str(i) for i in range(len(plan.kernels)))
    header = []
    for kernel in plan.kernels:
        header += [line for line in kernel.header if line not in header]
    originals = []
    for kernel in plan.kernels:
        if kernel.function not in originals:
            originals.append(kernel.function)
    tensors = sorted(plan.dtypes)
    pairs = [(i, j) for x, i in enumerate(tensors) for j in tensors[x + 1:] if i in plan.written or j in plan.written]
    separate = "\n".join(f"        {k.name}[grid](*[args[i] for i in {list(where)}], XBLOCK={block}, "
                         f"num_warps={num_warps})" for k, where in zip(plan.kernels, plan.positions))
    names = " + ".join(k.name for k in plan.kernels)
    return (
        f"# fuse: {names} in one launch ({'forwarded intermediates' if forward else 'barrier'}), "
        f"XBLOCK={block} num_warps={num_warps}\n"
        "import torch\n" + "\n".join(header) + "\n\n\n"
        + "\n\n\n".join(originals) + "\n\n\n" + fused_kernel_source(plan, name, forward) + "\n\n"
        f"_OWNED = {sorted(plan.owned)!r}\n"
        f"_PAIRS = {pairs!r}  # tensor slots of which at least one is written\n\n\n"
        "def _unproven_aliasing(args):\n"
        "    # distinct slots on one storage: safe only when both are owned and start at the same address\n"
        "    for i, j in _PAIRS:\n"
        "        a, b = args[i], args[j]\n"
        "        if a is b or a.untyped_storage().data_ptr() != b.untyped_storage().data_ptr():\n"
        "            continue\n"
        "        if i in _OWNED and j in _OWNED and a.data_ptr() == b.data_ptr() and a.dtype == b.dtype:\n"
        "            continue\n"
        "        return True\n"
        "    return False\n\n\n"
        "def run(*args):\n"
        f"    grid = (triton.cdiv({plan.xnumel}, {block}), 1, 1)\n"
        "    if _unproven_aliasing(args):\n"
        f"{separate}\n"
        "        return\n"
        f"    {name}[grid](*args, XBLOCK={block}, num_warps={num_warps})\n"
    )


def block_configs(plan: FusionPlan) -> list[tuple[int, int]]:
    """(XBLOCK, num_warps) variants; unmasked kernels (all-true xmask) need XBLOCK to divide xnumel."""
    unmasked = any(not k.masked for k in plan.kernels)
    out = []
    for block, warps in CONFIGS:
        if block > max(64, next_pow2(plan.xnumel)) or (unmasked and plan.xnumel % block):
            continue
        out.append((block, warps))
    return out


@dataclass
class FuseProposer:
    name: str = "fuse"
    summary: str = "Fuse a vertical group of pointwise Triton launches into one launch (proven element ownership)"
    max_candidates: int = MAX_CANDIDATES

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_fusion(target)
        except Decline:
            return
        tried = {a.candidate.strategy for a in history if a.candidate.proposer == self.name}
        count = len(plan.kernels)
        made = 0
        forward_differs = fused_kernel_source(plan, "k", True) != fused_kernel_source(plan, "k", False)
        for block, warps in block_configs(plan):
            variants = [(True, "forward ")] if forward_differs else []
            variants.append((False, ""))
            for forward, word in variants:
                label = f"fuse {count} kernels {word}XBLOCK={block} num_warps={warps}"
                if label in tried or made >= self.max_candidates:
                    continue
                made += 1
                yield Candidate(candidate_source(plan, block, warps, forward), self.name, label,
                                notes="one program runs every launch's body over its own XBLOCK slice")

    @staticmethod
    def explain(target: RewriteTarget) -> str:
        """Why the group is (or is not) fused: "" when it is."""
        try:
            plan_fusion(target)
        except Decline as why:
            return str(why)
        return ""

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """The reason agentic-rewrite's remarks and the census show (the protocol's name for `explain`), for the
        targets fuse is made for: fusion groups of Triton launches. A kernel target or a vendor GEMM's
        epilogue group is not fuse's kind, and saying "not a group" on every kernel would only be noise."""
        if target.kind != GROUP or any(k.kind == "vendor" for k in target.kernels):
            return ""
        return FuseProposer.explain(target)
