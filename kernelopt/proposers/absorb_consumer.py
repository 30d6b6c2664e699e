"""absorb-consumer: a pointwise kernel that consumes a persistent reduction's results runs inside it.

A softmax over the channels of a channels-last convolution output, whose result must be contiguous (NCHW),
compiles to two launches: a persistent reduction over each pixel's channels that stores exp(x - max) in place
and each pixel's sum, then a pointwise kernel, tiled in two dimensions, that reads both, divides (and scales),
and writes the output transposed. The pair moves the tensor four times (read, write exp, read exp, write
out); the reduction already holds every value the pointwise kernel reads. The transform: the pointwise code
runs at the end of the reduction, on the values the reduction stores (cast to the buffer's dtype, as the
pointwise kernel would have loaded them back), and stores each result where the pointwise kernel would
have: the pointwise kernel is not launched, and stores nothing a later launch reads are dropped (scratch).

What is proven, from the two kernels' code evaluated on every element of the launch (else
`AbsorbDeclined` says why):
- the group is [persistent reduction P, pointwise Q]; both straight-line code;
- P stores one buffer B element-wise, every element of its launch exactly once (its store address is a
  bijection onto B's memory), and any others once per row;
- Q reads B at a bijection of its elements onto B's memory, any per-row buffer of P at the row of the B
  element it reads, and other tensors not written by the pair; it stores one output, not a buffer P touches
  (nor one sharing storage with one); its value is computed from its loads alone (no index in the math);
- Q's store address and every other tensor's address, as functions of B's memory position, are fitted as
  sums of that position's mixed-radix digits (box_digits), exactly at every position.
The stored values are the same bits (same operations on the same values); the legality gate compares them.
"""
from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from kernelopt.inductor_source import access_mask, dotted_name, pointer_base, strip_heuristics

from .base import Attempt, Candidate, RewriteTarget
from .box_digits import NotABox, box_digits, fit_address, fit_text
from .candidate_source import TL_DTYPES, NotRetunable, grid_text, grid_type_of
from .group_launches import launch_configs
from .index_values import IndexEvaluator, parse_kernel, single_assignments
from .loop_state import assigned_name
from .row_loops import is_constexpr

MAX_ELEMENTS = 1 << 26            # elements whose addresses are evaluated, at most (memory: a few arrays of them)
OUT = "ko_absorbed_out"           # P's new parameter: Q's output; Q's other inputs are ko_absorbed_in<k>


class AbsorbDeclined(Exception):
    """Why the pointwise consumer is not absorbed into the reduction (the message goes to the remarks)."""


class NotAPair(AbsorbDeclined):
    """The group is not a persistent reduction followed by a pointwise kernel: nothing to say."""


@dataclass(frozen=True)
class _Store:
    call: ast.Call
    param: str
    offset: ast.expr
    value: ast.expr
    mask: ast.expr | None


@dataclass(frozen=True)
class AbsorbPlan:
    source: str                        # P with Q's code at its end
    slots: tuple[int, ...]             # group slots of the rewritten P's runtime parameters, in order
    description: str


# The last target planned and its plan or decline. The proof evaluates every address of the launch (seconds at
# GPU sizes); the search asks for the same target's plan in each of its rounds and again for the remarks.
_LAST: list[tuple[RewriteTarget, object]] = []


def plan_absorb(target: RewriteTarget) -> AbsorbPlan:
    if not (_LAST and _LAST[0][0] is target):
        try:
            outcome: object = _plan(target)
        except AbsorbDeclined as why:
            outcome = why
        except (IndexError, KeyError, TypeError, ValueError, StopIteration) as err:
            # a construct the evaluation has no rule for (a form Inductor may write one day): declined, and said
            outcome = AbsorbDeclined(f"kernel code the analysis does not read ({type(err).__name__}: {err})")
        _LAST[:] = [(target, outcome)]
    outcome = _LAST[0][1]
    if isinstance(outcome, AbsorbDeclined):
        raise outcome
    return outcome


def _plan(target: RewriteTarget) -> AbsorbPlan:
    if len(target.launches) != 2 or not target.group_args:
        raise NotAPair("absorb-consumer rewrites a group of two launches")
    kernels = {k.name: k for k in target.kernels}
    producer, consumer = (kernels[s.kernel] for s in target.launches)
    if producer.kind != "persistent_reduction" or consumer.kind != "pointwise":
        raise NotAPair("not a persistent reduction followed by a pointwise kernel")
    p_slots = dict(zip((a.name for a in target.launches[0].args), target.group_positions[0]))
    q_slots = dict(zip((a.name for a in target.launches[1].args), target.group_positions[1]))
    storage = target.storage_slots or tuple(range(len(target.group_args)))
    _, p_function = parse_kernel(producer.source, producer.name, AbsorbDeclined)
    _, q_function = parse_kernel(consumer.source, consumer.name, AbsorbDeclined)
    for function in (p_function, q_function):
        if any(isinstance(s, (ast.For, ast.While, ast.If)) for s in function.body):
            raise AbsorbDeclined(f"{function.name} has control flow")
    p_assigns, q_assigns = single_assignments(p_function), single_assignments(q_function)
    p_stores, q_stores = _stores(p_function), _stores(q_function)
    if len(q_stores) != 1:
        raise AbsorbDeclined(f"{consumer.name} stores {len(q_stores)} times")
    out = q_stores[0]
    x_numel, r_numel = _literal(p_assigns, "xnumel"), _literal(p_assigns, "r0_numel")
    elements = x_numel * r_numel
    if x_numel < 1 or r_numel < 1:
        raise AbsorbDeclined(f"{producer.name} runs over {x_numel} x {r_numel} elements")
    if elements > MAX_ELEMENTS:
        raise AbsorbDeclined(f"{producer.name} covers {elements} elements, more than this proof evaluates")
    p_eval = IndexEvaluator(p_assigns, AbsorbDeclined, ("xindex", "r0_index", "rindex"), "absorb-consumer")
    xs = np.arange(x_numel, dtype=np.int64)[:, None]
    rs = np.arange(r_numel, dtype=np.int64)[None, :]
    p_env = {"xindex": xs, "r0_index": rs, "rindex": rs, "xnumel": np.int64(x_numel), "r0_numel": np.int64(r_numel)}
    element, rows = None, {}
    for store in p_stores:
        address = np.broadcast_to(p_eval.value(store.offset, dict(p_env)), (x_numel, r_numel))
        if (address == address[:, :1]).all():
            rows[store.param] = (store, address[:, 0])
        elif element is None:
            element = (store, address.reshape(-1))
        else:
            raise AbsorbDeclined(f"{producer.name} stores two buffers element by element")
        _all_live(p_eval, store.mask, dict(p_env), f"{producer.name}'s store to {store.param}")
    if element is None:
        raise AbsorbDeclined(f"{producer.name} stores no buffer element by element")
    b_store, b_address = element
    base = int(b_address.min())
    position = b_address - base
    if not _each_once(position, elements):
        raise AbsorbDeclined(f"{producer.name} does not write each element of {b_store.param} once")
    producer_at = np.empty(elements, dtype=np.int64)
    producer_at[position] = np.arange(elements)
    q_env, q_count = _consumer_space(q_assigns, grid_type_of(consumer))
    if q_count != elements:
        raise AbsorbDeclined(f"{consumer.name} covers {q_count} elements, {producer.name} {elements}")
    q_eval = IndexEvaluator(q_assigns, AbsorbDeclined, ("xindex", "yindex"), "absorb-consumer")
    loads = _loads(q_function)
    b_slot = p_slots[b_store.param]
    row_slots = {p_slots[param]: param for param in rows}
    written = {storage[s] for arg, s in zip(target.launches[0].args, target.group_positions[0]) if arg.written}
    if storage[q_slots[out.param]] in written | {storage[s] for s in p_slots.values()}:
        raise AbsorbDeclined(f"{consumer.name} stores into memory {producer.name} uses")
    walk = None
    replacements: dict[str, tuple[str, object]] = {}   # Q's load name -> ("element"|"row", P's store) or ("input", k)
    row_reads: dict[str, np.ndarray] = {}               # Q's load name -> the addresses it reads a row result at
    inputs: list[tuple[int, np.ndarray]] = []           # (slot, addresses) of the other tensors Q reads
    for name, call in loads:
        param, offset = _pointer(call)
        _all_live(q_eval, access_mask(call), dict(q_env), f"{consumer.name}'s load of {param}")
        address = np.broadcast_to(q_eval.value(offset, dict(q_env)), q_env["shape"]).reshape(-1)
        slot = q_slots[param]
        if slot == b_slot:
            read = address - base
            if walk is not None and not np.array_equal(read, walk):
                raise AbsorbDeclined(f"{consumer.name} reads {param} at two different positions")
            if not _each_once(read, elements):
                raise AbsorbDeclined(f"{consumer.name} does not read each element of {param} once")
            walk = read
            replacements[name] = ("element", b_store)
        elif slot in row_slots:
            replacements[name] = ("row", rows[row_slots[slot]][0])
            row_reads[name] = address
        elif storage[slot] in written:
            raise AbsorbDeclined(f"{consumer.name} reads {param}, which {producer.name} writes other than as its "
                                 "element or row results")
        else:
            replacements[name] = ("input", len(inputs))
            inputs.append((slot, address))
    if walk is None:
        raise NotAPair(f"{consumer.name} does not read {producer.name}'s element results")
    row_of = producer_at[walk] // r_numel                 # per Q element: the producer row it belongs to
    for name, address in row_reads.items():
        store = replacements[name][1]
        if not np.array_equal(address, rows[store.param][1][row_of]):
            raise AbsorbDeclined(f"{consumer.name} reads {store.param} at another row than its element's")
    try:
        digits = box_digits(walk)
    except NotABox as why:
        raise AbsorbDeclined(f"{consumer.name}'s walk over {b_store.param}: {why}") from None
    consumer_at = np.empty(elements, dtype=np.int64)
    consumer_at[walk] = np.arange(elements)               # per B memory position: the Q element reading it
    constants = {int(c) for c in re.findall(r"(?<![\w.])\d+(?![\w.])", consumer.source) if 1 < int(c) < elements}
    out_address = np.broadcast_to(q_eval.value(out.offset, dict(q_env)), q_env["shape"]).reshape(-1)
    _all_live(q_eval, out.mask, dict(q_env), f"{consumer.name}'s store")
    fitted = {}
    for key, address in [("out", out_address)] + [(k, a) for k, (_, a) in enumerate(inputs)]:
        by_position = address[consumer_at]
        fit = fit_address(by_position - by_position[0], digits, constants)
        if fit is None:
            raise AbsorbDeclined(f"{consumer.name}'s address of {'its output' if key == 'out' else 'an input'} is "
                                 f"not a sum of digits of {b_store.param}'s memory position")
        fitted[key] = f"{int(by_position[0])} + {fit_text(fit, '_ko_position')}"
    needed = _value_closure(q_function, q_assigns, out.value, {name for name, _ in loads})
    dtypes = {s: target.group_args[s].dtype for s in set(p_slots.values())}
    source = _absorbed(producer, b_store, base, replacements, fitted, q_function, needed, out, len(inputs), dtypes,
                       p_slots, set(target.scratch_args))
    slots = (tuple(p_slots[p] for p in _runtime_params(p_function)) + (q_slots[out.param],)
             + tuple(slot for slot, _ in inputs))
    description = (f"{consumer.name}'s code runs at the end of {producer.name} on the values it stores, and stores "
                   f"its {elements} results where {consumer.name} did; {consumer.name} is not launched")
    return AbsorbPlan(source, slots, description)


# ---------------------------------------------------------------------------------------------------
# Reading the kernels

def _stores(function: ast.FunctionDef) -> list[_Store]:
    found = []
    for stmt in function.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and dotted_name(stmt.value.func) == "tl.store":
            call = stmt.value
            param, offset = _pointer(call)
            if len(call.args) < 2:
                raise AbsorbDeclined(f"line {call.lineno}: a store without a value")
            found.append(_Store(call, param, offset, call.args[1], access_mask(call)))
    return found


def _loads(function: ast.FunctionDef) -> list[tuple[str, ast.Call]]:
    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and dotted_name(node.func) == "tl.load":
            parent = next((s for s in function.body if assigned_name(s) and s.value is node), None)
            if parent is None:
                raise AbsorbDeclined(f"line {node.lineno}: a load that is not a statement of its own")
            found.append((assigned_name(parent), node))
    return found


def _pointer(call: ast.Call) -> tuple[str, ast.expr]:
    found = pointer_base(call.args[0] if call.args else None)
    if found is None:
        raise AbsorbDeclined(f"line {call.lineno}: an address that is not a parameter plus an offset")
    return found


def _literal(assigns: dict, name: str) -> int:
    value = assigns.get(name)
    if not (isinstance(value, ast.Constant) and isinstance(value.value, int)):
        raise AbsorbDeclined(f"its {name} is not a literal (a dynamic shape)")
    return value.value


def _consumer_space(assigns: dict, grid: str) -> tuple[dict, int]:
    """The pointwise kernel's indices over all its elements, y-major for a 2-D grid."""
    x_numel = _literal(assigns, "xnumel")
    if grid == "Grid1D" and "ynumel" not in assigns:
        xs = np.arange(x_numel, dtype=np.int64)
        return {"xindex": xs, "xnumel": np.int64(x_numel), "shape": xs.shape}, x_numel
    if grid != "Grid2D":
        raise AbsorbDeclined(f"a pointwise kernel launched on a {grid} grid")
    y_numel = _literal(assigns, "ynumel")
    ys, xs = np.arange(y_numel, dtype=np.int64)[:, None], np.arange(x_numel, dtype=np.int64)[None, :]
    return ({"xindex": xs, "yindex": ys, "xnumel": np.int64(x_numel), "ynumel": np.int64(y_numel),
             "shape": (y_numel, x_numel)}, x_numel * y_numel)


def _each_once(positions: np.ndarray, count: int) -> bool:
    """Whether `positions` holds each of 0..count-1 exactly once."""
    if positions.size != count or not count or positions.min() < 0 or positions.max() >= count:
        return False
    return bool((np.bincount(positions, minlength=count) == 1).all())


def _all_live(evaluator: IndexEvaluator, mask: ast.expr | None, env: dict, what: str) -> None:
    if mask is None or (isinstance(mask, ast.Constant) and mask.value is None):
        return
    if not np.asarray(evaluator.value(mask, env)).all():
        raise AbsorbDeclined(f"{what} is masked inside the launch's elements")


def _value_closure(function: ast.FunctionDef, assigns: dict, value: ast.expr, loads: set[str]) -> set[str]:
    """The names the stored value is computed from (through `assigns`, stopping at loads); it must read loads,
    constants and Triton math only: no index, so that it may run elsewhere."""
    found, pending = set(), [value]
    while pending:
        for name in (n.id for n in ast.walk(pending.pop()) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)):
            if name in found or name in ("tl", "libdevice", "tl_math", "triton_helpers", "math"):
                continue
            if name not in assigns or name in ("xindex", "yindex", "xmask", "ymask", "xoffset", "yoffset"):
                raise AbsorbDeclined(f"{function.name}'s stored value depends on `{name}`, not only on its loads")
            found.add(name)
            if name in loads:
                continue
            definition = assigns[name]
            if any(isinstance(n, ast.Name) and n.id in ("xindex", "yindex") for n in ast.walk(definition)):
                raise AbsorbDeclined(f"{function.name}'s stored value depends on its index (`{name}`)")
            pending.append(definition)
    return found


def _runtime_params(function: ast.FunctionDef) -> list[str]:
    return [a.arg for a in function.args.args if not is_constexpr(a.annotation)]


# ---------------------------------------------------------------------------------------------------
# Writing the absorbed kernel

def _absorbed(producer, b_store: _Store, base: int, replacements: dict, fitted: dict, q_function: ast.FunctionDef,
              needed: set[str], out: _Store, inputs: int, dtypes: dict, p_slots: dict, scratch: set[int]) -> str:
    """P's source with Q's statements appended: B's and the row buffers' loads replaced by the values P stores,
    the other loads and Q's store re-addressed by B's memory position; P's stores to dead buffers dropped."""
    module = ast.parse(producer.source)
    function = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == producer.name)
    runtime = _runtime_params(function)
    at = max(i for i, a in enumerate(function.args.args) if a.arg in runtime) + 1
    added = [OUT] + [f"ko_absorbed_in{k}" for k in range(inputs)]
    function.args.args[at:at] = [ast.arg(name) for name in added]
    mask = ast.unparse(b_store.mask) if b_store.mask is not None else "None"
    body = [f"_ko_position = ({ast.unparse(b_store.offset)}) - {base}"]
    names = {}
    for stmt in q_function.body:                       # Q's order: each value after what it reads
        name = assigned_name(stmt)
        if name in replacements:
            kind, what = replacements[name]
            if kind == "input":
                value = f"tl.load(ko_absorbed_in{what} + ({fitted[what]}), {mask})"
            else:
                dtype = TL_DTYPES.get(dtypes.get(p_slots[what.param], ""), "")
                if not dtype:
                    raise AbsorbDeclined(f"{what.param} holds {dtypes.get(p_slots[what.param])}")
                value = f"({ast.unparse(what.value)}).to({dtype})"
        elif name in needed:
            value = ast.unparse(_renamed(stmt.value, names))
        else:
            continue
        names[name] = f"_ko_q_{name}"
        body.append(f"_ko_q_{name} = {value}")
    body.append(f"tl.store({OUT} + ({fitted['out']}), {ast.unparse(_renamed(out.value, names))}, {mask})")
    dead = {p for p, s in p_slots.items() if s in scratch}
    kept = [s for s in function.body if not _is_store_to(s, dead)]
    function.body = kept + ast.parse("\n".join(body)).body
    ast.fix_missing_locations(module)
    return strip_heuristics(ast.unparse(module), producer.name, missing=NotRetunable)


def _renamed(expr: ast.expr, names: dict[str, str]) -> ast.expr:
    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.Name(names.get(node.id, node.id), node.ctx)

    return Rename().visit(copy.deepcopy(expr))


def _is_store_to(stmt: ast.stmt, params: set[str]) -> bool:
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and dotted_name(stmt.value.func) == "tl.store"):
        return False
    found = pointer_base(stmt.value.args[0] if stmt.value.args else None)
    return found is not None and found[0] in params


# ---------------------------------------------------------------------------------------------------
# The proposer

@dataclass
class AbsorbConsumerProposer:
    name: str = "absorb-consumer"
    summary: str = ("Run a pointwise kernel that consumes a persistent reduction's stored results inside the "
                    "reduction, storing where it stored (a transposed softmax output): one pass over the tensor "
                    "fewer, and none where the reduction's buffer is dead after")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_absorb(target)
        except AbsorbDeclined:
            return
        producer_spec = target.launches[0]
        kernel = next(k for k in target.kernels if k.name == producer_spec.kernel)
        tried = {a.candidate.strategy for a in history}
        params = [a.name for a in producer_spec.args]
        for config in launch_configs(kernel, producer_spec.config or {}, more=True):
            label = f"{self.name} {kernel.name} {config.label()}"
            if label in tried:
                continue
            tried.add(label)
            try:
                grid = grid_text(params, kernel.signature, grid_type_of(kernel), config)
            except NotRetunable:
                return
            blocks = "".join(f"{k}={v}, " for k, v in config.blocks)
            launch = ", ".join(f"args[{s}]" for s in plan.slots)
            source = (f"# absorb-consumer: {plan.description}\n{plan.source}\n\n"
                      f"def run(*args):\n    launch = ({launch},)\n    grid = {grid.replace('args[', 'launch[')}\n"
                      f"    {kernel.name}[grid](*launch, {blocks}num_warps={config.num_warps}, "
                      f"num_stages={config.num_stages})\n")
            yield Candidate(source, self.name, label, notes=plan.description)

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        try:
            plan_absorb(target)
        except NotAPair:
            return ""
        except AbsorbDeclined as why:
            return str(why)
        return ""


__all__ = ["AbsorbConsumerProposer", "AbsorbDeclined", "AbsorbPlan", "plan_absorb"]
