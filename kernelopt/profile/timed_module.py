"""Measured times for the IR ops of a lifted module: cache first, then one measuring run.

Every profiled op has a cache key (its kernel source hash or callee, its arguments' types and literal
values, the GPU, torch and triton versions); the whole module has one too (its file's contents). When
every key is cached nothing runs. Otherwise the output module runs once under `measure.measure_module`
and its events, in execution order, are matched to the IR's ops in body order.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from kernelopt.ir.core import Module, Op, Value

from .cache import TimeCache, make_key, source_hash
from .measure import environment, measure_module


def _arg_signature(op: Op) -> list[str]:
    parts = []
    for arg in op.args:
        value = arg.value
        text = str(value.type) if isinstance(value, Value) else repr(value)
        parts.append(f"{arg.keyword}={text}" if arg.keyword else text)
    return parts


def op_key(op: Op, module: Module, env: dict, rounds: int) -> str:
    if op.name == "ko.launch":
        kernel = module.kernel(op.symbol or "")
        what = source_hash(str(kernel.attrs.get("source", ""))) if kernel is not None else op.symbol
    else:
        what = op.callee
    return make_key({"op": what, "args": _arg_signature(op), "config": op.attrs.get("config"),
                     "rounds": rounds, **env})


def timed_ops(module: Module, ops: list[Op], path: str, *, rounds: int = 3, cache_dir: str | None = None,
              use_cache: bool = True, device: str = "cuda", min_time_ms: float = 30.0, remark: Callable[[Op | None, str], None] = lambda op, text: None) -> dict:
    """{id(op): time_us} for the ops that could be timed, plus {None: whole-module time_us}."""
    cache = TimeCache(cache_dir, enabled=use_cache)
    env = {**environment(), "device": device}
    keys = {id(op): op_key(op, module, env, rounds) for op in ops}
    module_key = make_key({"module": source_hash(Path(path).read_text()), "rounds": rounds, **env})
    cached = {id(op): cache.get(keys[id(op)]) for op in ops}
    cached_module = cache.get(module_key)
    if cached_module is not None and all(record is not None for record in cached.values()):
        times = {k: v["time_us"] for k, v in cached.items()}
        times[None] = cached_module["time_us"]
        return times
    measured = measure_module(path, device=device, rounds=rounds, min_time_ms=min_time_ms)
    times = _match(ops, measured.events, remark)
    for op in ops:
        if id(op) in times:
            cache.put(keys[id(op)], {"time_us": times[id(op)], "op": op.symbol or op.callee, **env})
    if measured.module_us is not None:
        times[None] = measured.module_us
        cache.put(module_key, {"time_us": measured.module_us, "file": path, **env})
    return times


def _match(ops: list[Op], events, remark) -> dict:
    """Pair launches with launch events (by kernel name, in order) and library calls with library events."""
    times: dict = {}
    launches = [op for op in ops if op.name == "ko.launch"]
    launch_events = [e for e in events if e.kind == "launch"]
    if [op.symbol for op in launches] == [e.name for e in launch_events]:
        times.update({id(op): e.time_us for op, e in zip(launches, launch_events)})
    else:
        remark(None, f"launches do not match the run ({len(launches)} in the IR, {len(launch_events)} "
                     f"executed): launch times not recorded")
    calls = [op for op in ops if op.name != "ko.launch"]
    call_events = [e for e in events if e.kind == "library"]
    if len(calls) == len(call_events):
        times.update({id(op): e.time_us for op, e in zip(calls, call_events)})
    else:
        remark(None, f"library calls do not match the run ({len(calls)} in the IR, {len(call_events)} "
                     f"executed): library call times not recorded")
    return times
