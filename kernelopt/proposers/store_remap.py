"""The `store-remap` proposer: a kernel whose result the next launch only re-indexes stores it there.

`torch.cumsum(x.flip(1), 1).flip(1)` (a reverse cumulative sum) or `F.pad(torch.cumsum(x, 1)[:, :-1], (1, 0))`
(an exclusive one) compile to a scan kernel followed by a pointwise kernel that copies the scan's result
flipped, or shifted by one with a zero in front: Inductor folds such re-indexing into the *loads* of the
kernel after it, but not into the *stores* of a scan (nor of a reduction whose result is transposed).
The copy reads and writes the whole result again, half of the pair's memory traffic.

The transform: the producer's own code, with its one store into the intermediate rewritten to store
each value at the output position the copy would have moved it to; the positions the copy fills with
its pad value are filled directly (a few border slabs); the copy kernel is not launched. The
intermediate is left unwritten, so it must be dead after the pair (a scratch slot of the target:
module-allocated, never read again).

When it applies (read from the kernels' code and the launch's sizes; copy_map.py proves the copy):
- a vertical fusion group of two launches: a producer, and a `Grid1D` pointwise copy (one load, stored at
  `xindex` of a contiguous output, unchanged or through elementwise math of the loaded value alone, in any
  dtype) of a buffer the producer writes; the math then runs in the producer on the value cast to the
  buffer's dtype, as the copy would have loaded it back, so the result is the same bits;
- the producer has one `tl.store` into that buffer and never loads it, and does not touch the output;
- the buffer is contiguous, and every output dimension the copy walks moves one of the buffer's
  dimensions by one element (forwards or backwards): the copy is a bijection between a box of the
  output and a box of the buffer (flip, pad, shift, slice, transpose); broadcasts and gathers decline.
The producer is launched with its recorded configuration (the capture's autotuner choice) and grid rule;
without one, with a few configurations from retune's space.
"""
from __future__ import annotations

import ast
import copy as copy_module
import math
import re
from dataclasses import dataclass

from kernelopt.inductor_source import access_mask, dotted_name, pointer_base

from .base import Candidate, RewriteTarget
from .candidate_source import (TL_DTYPES, LaunchConfig, NotRetunable, block_params_of, candidate_source,
                               config_overruns, grid_type_of, recorded_config)
from .copy_map import CopyMap, NotACopy, contiguous_strides, is_none, read_copy
from .retune import RetuneProposer

# Configurations for a producer without a recorded one, per kernel kind (retune's space covers the others).
UNRECORDED_CONFIGS = 4


class StoreRemapDeclined(Exception):
    """Why store-remap does not apply to a group (the message goes to the remarks)."""


@dataclass(frozen=True)
class _Plan:
    producer: object                 # KernelSpec
    copy: CopyMap
    source: str                      # the producer's source with its store remapped
    output_slot: int
    producer_slots: tuple[int, ...]  # group slots of the producer's launch arguments, the buffer's replaced
    configs: tuple[LaunchConfig, ...]
    grid_type: str


@dataclass
class StoreRemapProposer:
    name: str = "store-remap"
    summary: str = ("A kernel whose result the next launch only re-indexes (flip, pad, shift, slice, transpose) "
                    "stores it there, and the copy goes")

    def propose(self, target: RewriteTarget, history):
        try:
            plan = _plan(target)
        except StoreRemapDeclined:
            return
        tried = {a.candidate.strategy for a in history if a.candidate.proposer == self.name}
        for config in plan.configs:
            label = f"{self.name} {plan.producer.name} {config.label()}"
            if label in tried:
                continue
            try:
                yield Candidate(_candidate(plan, config, target), self.name, label)
            except NotRetunable:
                return

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a producer + pointwise pair gets no candidate ('' when it gets some, or is no such pair)."""
        if not _is_pair(target):
            return ""
        try:
            _plan(target)
        except StoreRemapDeclined as why:
            return str(why)
        return ""


def _is_pair(target: RewriteTarget) -> bool:
    kinds = {k.name: k.kind for k in target.kernels}
    return bool(target.group_args) and len(target.launches) == 2 and kinds.get(target.launches[1].kernel) == "pointwise"


def _plan(target: RewriteTarget) -> _Plan:
    if not _is_pair(target):
        raise StoreRemapDeclined("store-remap rewrites a group of a producer and one pointwise copy")
    kernels = {k.name: k for k in target.kernels}
    producer, consumer = kernels[target.launches[0].kernel], kernels[target.launches[1].kernel]
    if producer.name == consumer.name or grid_type_of(consumer) != "Grid1D":
        raise StoreRemapDeclined(f"{consumer.name} is not a one-dimensional pointwise launch of another kernel")
    consumer_args = target.launches[1].args
    names = [a.name for a in consumer_args]
    stored = next((a for a in consumer_args if a.written and a.is_tensor), None)
    if stored is None:
        raise StoreRemapDeclined(f"{consumer.name} writes no tensor")
    if stored.strides != contiguous_strides(stored.sizes):
        raise StoreRemapDeclined(f"{consumer.name}'s output is not contiguous")
    launched = next((a.value for a in consumer_args if a.name == "xnumel" and not a.is_tensor), None)
    if launched != math.prod(stored.sizes):
        # a copy over part of its output leaves the rest as it was; the remapped store would not
        raise StoreRemapDeclined(f"{consumer.name} runs over {launched} elements of an output of "
                                 f"{math.prod(stored.sizes)}")
    try:
        copy = read_copy(consumer.source, consumer.name, stored.sizes)
    except NotACopy as why:
        raise StoreRemapDeclined(f"{consumer.name} is not a re-indexing copy: {why}") from None
    if copy.output_param != stored.name or copy.source_param not in names:
        raise StoreRemapDeclined(f"{consumer.name} stores to another parameter than its output")
    consumer_slots = target.group_positions[1]
    buffer_slot = consumer_slots[names.index(copy.source_param)]
    output_slot = consumer_slots[names.index(copy.output_param)]
    others = [a.name for a, s in zip(consumer_args, consumer_slots) if a.is_tensor and s not in (buffer_slot, output_slot)]
    if others:
        raise StoreRemapDeclined(f"{consumer.name} reads more than the copied buffer ({', '.join(others)})")
    producer_slots = target.group_positions[0]
    if producer_slots.count(buffer_slot) != 1 or output_slot in producer_slots:
        raise StoreRemapDeclined(f"{producer.name} does not write the copied buffer through one argument, or "
                                 "touches the copy's output")
    if buffer_slot not in target.scratch_args:
        raise StoreRemapDeclined("the copied buffer is read after the group (or is not the module's own): "
                                 "it must still be written")
    buffer = target.group_args[buffer_slot]
    if buffer.strides != contiguous_strides(buffer.sizes):
        raise StoreRemapDeclined("the copied buffer is not contiguous")
    buffer_param = target.launches[0].args[producer_slots.index(buffer_slot)].name
    source = _remapped_source(producer, buffer_param, copy, buffer, stored)
    launch = target.launches[0]
    return _Plan(producer, copy, source, output_slot,
                 tuple(output_slot if s == buffer_slot else s for s in producer_slots),
                 _configs(producer, launch.config), grid_type_of(producer))


# ---------------------------------------------------------------------------------- the remapped store

def _remapped_source(producer, buffer_param: str, copy: CopyMap, buffer, stored) -> str:
    """The producer's source with its store into `buffer_param` moved to the copy's output positions, the
    copy's own math (if any) applied to the value on the way, after the cast to the buffer's dtype that
    storing it there would have made."""
    tree = ast.parse(producer.source)
    function = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == producer.name), None)
    if function is None:
        raise StoreRemapDeclined(f"no function named {producer.name} in its source")
    stores, loads = [], 0
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and dotted_name(node.func) in ("tl.store", "tl.load") and node.args:
            base = pointer_base(node.args[0])
            if base is None:
                if buffer_param in {n.id for n in ast.walk(node.args[0]) if isinstance(n, ast.Name)}:
                    raise StoreRemapDeclined(f"{producer.name} addresses the buffer other than `param + offset`")
                continue
            if base[0] == buffer_param:
                if dotted_name(node.func) == "tl.load":
                    loads += 1
                else:
                    stores.append((node, base[1]))
    if loads or len(stores) != 1:
        raise StoreRemapDeclined(f"{producer.name} stores the buffer {len(stores)} times and loads it {loads} times "
                                 "(store-remap moves exactly one store of a buffer the producer never reads)")
    store, offset = stores[0]
    statement = next(s for s in ast.walk(function) if isinstance(s, ast.Expr) and s.value is store)
    digits, keep, destination = _index_map(copy, buffer.sizes, stored.strides)
    lines = producer.source.splitlines()
    indent = re.match(r"\s*", lines[statement.lineno - 1]).group(0)
    value = ast.unparse(store.args[1])
    mask = access_mask(store)
    masks = [] if is_none(mask) else [f"({ast.unparse(mask)})"]
    masks += ["_remap_keep"] if keep else []
    new = [f"{indent}# store-remap: this value goes where {copy.output_param} of the copy held it",
           f"{indent}_remap_offset = {ast.unparse(offset)}"]
    new += [f"{indent}{name} = {expression}" for name, expression in digits]
    if keep:
        new.append(f"{indent}_remap_keep = {' & '.join(keep)}")
    if copy.epilogue or buffer.dtype != stored.dtype:
        new += [indent + line for line in _copy_math(copy, value, buffer.dtype)]
        value = ast.unparse(_renamed(copy.stored, _copy_names(copy)))
    new.append(f"{indent}tl.store({buffer_param} + ({destination}), {value}, {' & '.join(masks) or 'None'})")
    lines[statement.lineno - 1:statement.end_lineno] = new
    return "\n".join(lines) + "\n"


def _copy_math(copy: CopyMap, value: str, buffer_dtype: str) -> list[str]:
    """The copy's statements, run on the producer's value as the copy would have loaded it back."""
    if buffer_dtype not in TL_DTYPES:
        raise StoreRemapDeclined(f"the buffer's dtype {buffer_dtype} has no Triton name here")
    names = _copy_names(copy)
    lines = [f"{names[copy.loaded]} = ({value}).to({TL_DTYPES[buffer_dtype]})   # what the copy loaded"]
    return lines + [ast.unparse(_renamed(statement, names)) for statement in copy.epilogue]


def _copy_names(copy: CopyMap) -> dict[str, str]:
    """The copy's local names, prefixed so they cannot meet the producer's."""
    assigned = [copy.loaded] + [t.id for s in copy.epilogue for t in (s.targets if isinstance(s, ast.Assign)
                                                                       else [s.target]) if isinstance(t, ast.Name)]
    return {name: f"_remap_{name}" for name in assigned}


def _renamed(node, names: dict[str, str]):
    node = copy_module.deepcopy(node)
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and child.id in names:
            child.id = names[child.id]
    return node


def _index_map(copy: CopyMap, buffer_sizes, out_strides):
    """(buffer digit assignments, keep conditions, destination offset) of the inverse of the copy.

    The copy reads buffer offset base + sum(coeff[k] * (i[k] - lo[k])) for output coordinates i in the
    box; with the buffer contiguous, each walked output dimension k must move one buffer dimension j by
    +-1 (coeff[k] = +-stride[j]). Inverting: i[k] = lo[k] + sign * (d[j] - d0[j]), where d are the
    buffer coordinates of the stored offset and d0 those of `base`."""
    strides = contiguous_strides(buffer_sizes)
    walked = {j for j, n in enumerate(buffer_sizes) if n > 1}
    base_digits = [(copy.base // s) % n if n > 1 else 0 for s, n in zip(strides, buffer_sizes)]
    if not 0 <= copy.base < math.prod(buffer_sizes):
        raise StoreRemapDeclined("the copy reads outside the buffer")
    matched: dict[int, tuple[int, int]] = {}     # buffer dim -> (output dim, sign)
    for k, (step, lo, hi) in enumerate(zip(copy.coeff, copy.lo, copy.hi)):
        if hi - lo <= 1:
            continue
        if step == 0:
            raise StoreRemapDeclined(f"the copy reads one element into many outputs along output dimension {k} "
                                     "(a broadcast)")
        dims = [j for j in walked if strides[j] == abs(step) and j not in matched]
        if not dims:
            raise StoreRemapDeclined(f"output dimension {k} moves the buffer by {step} elements, no single "
                                     "buffer dimension")
        matched[dims[0]] = (k, 1 if step > 0 else -1)
    digits, keep, terms = [], [], []
    constant = sum(s * lo for s, lo in zip(out_strides, copy.lo))
    for j in sorted(walked):
        name = f"_remap_d{j}"
        divided = "_remap_offset" if strides[j] == 1 else f"(_remap_offset // {strides[j]})"
        digits.append((name, divided if j == 0 else f"{divided} % {buffer_sizes[j]}"))
        if j not in matched:
            keep.append(f"({name} == {base_digits[j]})")
            continue
        k, sign = matched[j]
        extent = copy.hi[k] - copy.lo[k]
        first = base_digits[j] if sign > 0 else base_digits[j] - extent + 1
        if first < 0 or first + extent > buffer_sizes[j]:
            raise StoreRemapDeclined("the copy reads outside the buffer")
        if first > 0:
            keep.append(f"({name} >= {first})")
        if first + extent < buffer_sizes[j]:
            keep.append(f"({name} < {first + extent})")
        coefficient = sign * out_strides[k]
        constant -= coefficient * base_digits[j]
        terms.append(f"{coefficient} * {name}")
    # with no walked dimension the offset is still a block of the value's shape (a constant would be one pointer)
    destination = " + ".join(terms + [str(constant)]) if terms else f"0 * _remap_offset + {constant}"
    return digits, keep, destination.replace("+ -", "- ")


# ---------------------------------------------------------------------------------- the candidate

def _candidate(plan: _Plan, config: LaunchConfig, target: RewriteTarget) -> str:
    producer_params = [a.name for a in target.launches[0].args]
    module = candidate_source(plan.source, plan.producer.name, producer_params, plan.producer.signature,
                              plan.grid_type, config, header="store-remap")
    module = module.replace("\ndef run(*args):", "\ndef _producer_run(*args):", 1)
    copy = plan.copy
    output = target.group_args[plan.output_slot]
    fill = _literal(copy.other, output.dtype) if copy.padded else ""
    lines = ["", "", "def run(*args):"] + ([f"    out = args[{plan.output_slot}]"] if copy.padded else [])
    for k, (lo, hi, n) in enumerate(zip(copy.lo, copy.hi, copy.sizes)):
        if lo > 0:         # the copy's pad value before the box, then after it
            lines.append(f"    out.narrow({k}, 0, {lo}).fill_({fill})")
        if hi < n:
            lines.append(f"    out.narrow({k}, {hi}, {n - hi}).fill_({fill})")
    lines.append(f"    _producer_run({', '.join(f'args[{s}]' for s in plan.producer_slots)})")
    return module + "\n".join(lines) + "\n"


def _literal(value: float | None, dtype: str) -> str:
    if value is None:
        return "0"
    if dtype.startswith(("float", "bfloat")) or dtype.startswith("complex"):
        return f"float('{value!r}')" if math.isinf(value) or math.isnan(value) else repr(float(value))
    if dtype == "bool":
        return repr(bool(value))
    return repr(int(value))


def _configs(producer, recorded: dict) -> tuple[LaunchConfig, ...]:
    """The recorded configuration of the producer's launch first, then a few more from retune's space (a
    split scan's recorded pick comes from a noisy benchmark, and may not be its fastest)."""
    config = recorded_config(producer, recorded)
    first = () if config is None else (config,)
    if first and producer.kind != "split_scan":
        return first
    space = RetuneProposer().space(producer.kind, block_params_of(producer), producer.size_hints)
    space = [c for c in space if not config_overruns(producer.source, c) and c not in first]
    return first + tuple(RetuneProposer(first_round=UNRECORDED_CONFIGS).order(space, []))   # retune's even spread

