"""What each op reads and writes, and the data-flow graph built from that.

Effects are stated on *storage*: a view or a reuse shares its source's storage, so a write through
`%v = ko.view %buf3` is a write to `%buf3`'s storage. `storage_root` follows those chains.

Launch effects come from the kernel's parameter names, which Inductor chooses systematically:
`in_ptr*` are read, `out_ptr*` written, `in_out_ptr*` both; names listed in the kernel's
`mutated_arg_names` are read and written too. A launch may override this with an explicit
`writes = [i, ...]` attribute (argument positions). Library calls write their `out=` argument and the
positions listed in a `mutates` attribute; anything we cannot see into (`ko.generic`) is assumed to
read and write all its tensor operands.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from .core import Module, Op, Value

_SAME_STORAGE = {"ko.view", "ko.reuse"}


def storage_root(value: Value) -> Value:
    """The value that owns the storage `value` lives in (follows views and reuses)."""
    seen = 0
    while value.owner is not None and value.owner.name in _SAME_STORAGE and value.owner.args:
        source = value.owner.args[0].value
        if not isinstance(source, Value) or seen > 10_000:
            break
        value, seen = source, seen + 1
    return value


def launch_params(kernel: Op) -> list[str] | None:
    """Parameter names a launch passes positionally, or None when the kernel has no signature.

    Inductor's `.run(...)` passes every signature entry except the autotuned block sizes: those are
    the `constexpr` entries not fixed in `constants`.
    """
    signature = kernel.attrs.get("signature")
    if not isinstance(signature, dict):
        return None
    constants = kernel.attrs.get("constants") or {}
    return [name for name, ty in signature.items() if ty != "constexpr" or name in constants]


@dataclass
class Effects:
    reads: list[Value]
    writes: list[Value]


def _launch_effects(op: Op, module: Module) -> Effects:
    values = [a.value for a in op.args if isinstance(a.value, Value)]
    explicit = op.attrs.get("writes")
    if isinstance(explicit, list):
        written = {i for i in explicit if isinstance(i, int)}
        writes = [a.value for i, a in enumerate(op.args) if i in written and isinstance(a.value, Value)]
        reads = [a.value for i, a in enumerate(op.args)
                 if isinstance(a.value, Value) and (i not in written or _param_reads(op, module, i))]
        return Effects(reads, writes)
    kernel = module.kernel(op.symbol or "")
    params = launch_params(kernel) if kernel is not None else None
    if params is None:
        return Effects(values, values)  # unknown kernel: assume the worst
    mutated = set(kernel.attrs.get("mutated_arg_names") or [])
    reads, writes = [], []
    for index, arg in enumerate(op.args):
        if not isinstance(arg.value, Value):
            continue
        name = params[index] if index < len(params) else ""
        is_write = name.startswith(("out_ptr", "in_out_ptr")) or name in mutated
        is_read = not name.startswith("out_ptr") or name in mutated
        if is_read:
            reads.append(arg.value)
        if is_write:
            writes.append(arg.value)
    return Effects(reads, writes)


def _param_reads(op: Op, module: Module, index: int) -> bool:
    kernel = module.kernel(op.symbol or "")
    params = launch_params(kernel) if kernel is not None else None
    return bool(params) and index < len(params) and not params[index].startswith("out_ptr")


def effects(op: Op, module: Module) -> Effects:
    values = [a.value for a in op.args if isinstance(a.value, Value)]
    if op.name == "ko.launch":
        return _launch_effects(op, module)
    if op.name in ("ko.extern", "ko.call"):
        out = op.keyword("out")
        mutated = set(op.attrs.get("mutates") or [])
        writes = [out] if isinstance(out, Value) else []
        writes += [a.value for i, a in enumerate(op.args) if i in mutated and isinstance(a.value, Value)]
        reads = [v for a in op.args if isinstance(v := a.value, Value) and a.keyword != "out"]
        return Effects(reads, writes)
    if op.name == "ko.copy":
        dst, src = (a.value for a in op.args[:2])
        return Effects([src] if isinstance(src, Value) else [], [dst] if isinstance(dst, Value) else [])
    if op.name == "ko.zero":
        return Effects([], values)
    if op.name == "ko.generic":
        return Effects(values, values)
    if op.name in ("ko.free", "ko.view", "ko.reuse", "ko.alloc", "ko.arg"):
        return Effects([], [])
    return Effects(values, [])  # return, asserts, getitem: reads only


def dataflow_graph(module: Module) -> nx.DiGraph:
    """A DiGraph over body ops (node = op index in `module.body`, with `op` as node data).

    Edges carry `kind`: `raw` (a read of what an earlier op wrote), `war`, `waw` (orderings a
    rewrite must keep), and `ssa` (a value's definition to its use), and `storage`: the storage
    root's name.
    """
    graph = nx.DiGraph()
    last_writer: dict[int, int] = {}          # id(storage root) -> op index
    readers_since: dict[int, list[int]] = {}  # id(storage root) -> op indices read since last write
    index_of = {id(op): i for i, op in enumerate(module.body)}
    for i, op in enumerate(module.body):
        graph.add_node(i, op=op)
        for value in op.operands():
            if value.owner is not None and id(value.owner) in index_of:
                _add_edge(graph, index_of[id(value.owner)], i, "ssa", value)
        eff = effects(op, module)
        for value in eff.reads:
            root = storage_root(value)
            if id(root) in last_writer:
                _add_edge(graph, last_writer[id(root)], i, "raw", root)
            readers_since.setdefault(id(root), []).append(i)
        for value in eff.writes:
            root = storage_root(value)
            for reader in readers_since.get(id(root), []):
                if reader != i:
                    _add_edge(graph, reader, i, "war", root)
            if id(root) in last_writer and last_writer[id(root)] != i:
                _add_edge(graph, last_writer[id(root)], i, "waw", root)
            last_writer[id(root)] = i
            readers_since[id(root)] = []
    return graph


def _add_edge(graph: nx.DiGraph, src: int, dst: int, kind: str, value: Value) -> None:
    if src == dst:
        return
    if graph.has_edge(src, dst):
        kinds = graph.edges[src, dst]["kinds"]
        kinds.add(kind)
        return
    graph.add_edge(src, dst, kind=kind, kinds={kind}, storage=value.name)


def mutated_arguments(module: Module) -> tuple[int, ...]:
    """Positions of call()'s arguments whose storage some op writes (ir/effects: launches by parameter
    names and `writes`, `out=` and `mutates` of library calls; a ko.generic writes all it touches)."""
    positions = {}
    for op in module.ops_named("ko.arg"):
        positions[op.result] = int(op.args[0].value)
    written = set()
    for op in module.body:
        if op.name in ("ko.arg", "ko.return"):
            continue
        for value in effects(op, module).writes:
            root = storage_root(value) if isinstance(value, Value) else None
            if root in positions:
                written.add(positions[root])
    return tuple(sorted(written))
