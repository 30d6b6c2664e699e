"""Measured times for the IR ops of a lifted module: cache first, then one measuring run.

Every profiled op has a cache key (its kernel source hash or callee, its arguments' types and literal
values, the GPU, torch and triton versions, the measuring method's version); the whole module has one
too (its file's contents). When every key is cached nothing runs. Otherwise the output module runs once
under `measure.measure_module` and its events, in execution order, are matched to the IR's ops in body
order.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from kernelopt.ir.core import Module, Op, Value

from .timing_cache import TimeCache, make_key, source_hash
from .measure import METHOD_VERSION, environment, measure_module


@dataclass
class OpTime:
    time_us: float                 # device time per call
    method: str                    # "graph" | "batched" (CUDA) | "host" (CPU)
    launch_us: float | None = None  # host time to issue the op once
    fallback: str = ""             # why no CUDA graph was used (capture failed), when one was not


@dataclass
class ProfileTimes:
    ops: dict[int, OpTime] = field(default_factory=dict)   # id(op) -> its time, for the ops that were timed
    module_us: float | None = None        # the whole module called back to back, as written
    module_graph_us: float | None = None  # the whole module replayed from one CUDA graph (None: not captured)
    module_fallback: str = ""             # why the module could not be captured

    @property
    def module_device_us(self) -> float | None:
        """The whole module's device time, what per-op device times add up to: the graph replay when the
        module could be captured, else its back-to-back calls (host launch costs included)."""
        return self.module_graph_us if self.module_graph_us is not None else self.module_us


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
                     "rounds": rounds, "method_version": METHOD_VERSION, **env})


def timed_ops(module: Module, ops: list[Op], path: str, *, rounds: int = 3, cache_dir: str | None = None,
              use_cache: bool = True, device: str = "cuda", min_time_ms: float = 30.0,
              remark: Callable[[Op | None, str], None] = lambda op, text: None) -> ProfileTimes:
    """The measured times of the ops that could be timed and of the whole module."""
    cache = TimeCache(cache_dir, enabled=use_cache)
    env = {**environment(), "device": device}
    keys = {id(op): op_key(op, module, env, rounds) for op in ops}
    module_key = make_key({"module": source_hash(Path(path).read_text()), "rounds": rounds,
                           "method_version": METHOD_VERSION, **env})
    cached = {id(op): cache.get(keys[id(op)]) for op in ops}
    cached_module = cache.get(module_key)
    if cached_module is not None and all(record is not None for record in cached.values()):
        times = ProfileTimes({k: _op_time(record) for k, record in cached.items()}, cached_module["module_us"],
                             cached_module.get("module_graph_us"), cached_module.get("module_fallback", ""))
    else:
        times = _measure(path, ops, device, rounds, min_time_ms, remark)
        for op in ops:
            if id(op) in times.ops:
                cache.put(keys[id(op)], {**asdict(times.ops[id(op)]), "op": op.symbol or op.callee, **env})
        if times.module_us is not None:
            cache.put(module_key, {"module_us": times.module_us, "module_graph_us": times.module_graph_us,
                                   "module_fallback": times.module_fallback, "file": path, **env})
    _remark_fallbacks(ops, times, remark)
    return times


def _measure(path: str, ops: list[Op], device: str, rounds: int, min_time_ms: float, remark) -> ProfileTimes:
    measured = measure_module(path, device=device, rounds=rounds, min_time_ms=min_time_ms)
    return ProfileTimes(_match(ops, measured.events, remark), measured.module_us, measured.module_graph_us,
                        measured.module_fallback)


def _remark_fallbacks(ops: list[Op], times: ProfileTimes, remark) -> None:
    for op in ops:
        timed = times.ops.get(id(op))
        if timed is not None and timed.fallback:
            remark(op, f"timed in back-to-back batches, not a CUDA graph (capture failed: {timed.fallback}); "
                       f"an op shorter on the GPU than its launch on the host is over-counted")
    if times.module_fallback:
        remark(None, f"the whole module could not be captured into a CUDA graph ({times.module_fallback}): "
                     f"shares are of its back-to-back time, host launch costs included")


def _op_time(record: dict) -> OpTime:
    return OpTime(record["time_us"], record["method"], record.get("launch_us"), record.get("fallback", ""))


def _match(ops: list[Op], events, remark) -> dict[int, OpTime]:
    """Pair launches with launch events (by kernel name, in order) and library calls with library events."""
    paired: list[tuple[Op, object]] = []
    launches = [op for op in ops if op.name == "ko.launch"]
    launch_events = [e for e in events if e.kind == "launch"]
    if [op.symbol for op in launches] == [e.name for e in launch_events]:
        paired += zip(launches, launch_events)
    else:
        remark(None, f"launches do not match the run ({len(launches)} in the IR, {len(launch_events)} "
                     f"executed): launch times not recorded")
    calls = [op for op in ops if op.name != "ko.launch"]
    call_events = [e for e in events if e.kind == "library"]
    if len(calls) == len(call_events):
        paired += zip(calls, call_events)
    else:
        remark(None, f"library calls do not match the run ({len(calls)} in the IR, {len(call_events)} "
                     f"executed): library call times not recorded")
    return {id(op): OpTime(e.time_us, e.method, e.launch_us, e.fallback) for op, e in paired}
