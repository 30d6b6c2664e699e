"""Time every launch and library call of an output module on its device, one at a time.

The module runs once with hooks: each Triton launch (through the loader's `launch_hook`) and each
library call (`extern_kernels.*`, `torch.ops.*`, through stand-ins for those globals) is timed on its
own with `timing.device_time`: many calls back to back, captured into one CUDA graph when capture works
(else issued back to back), on rotated copies of its tensor arguments (so inputs are not found in L2),
then run once for real so that the rest of the module sees correct data. This is the GPU's time for the
op, without the host's launch latency; the host's cost to issue the op is recorded beside it. The whole
module is timed separately, without hooks, on rotated inputs, twice: called back to back as it is
written (host launch costs included wherever the host is slower than the GPU) and replayed from one CUDA
graph (its device time, the figure the per-op device times add up to). Events come back in execution
order, which is the IR body's order of `ko.launch` / `ko.extern` / `ko.call` ops.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import torch

from kernelopt.runtime import timing
from kernelopt.runtime.loader import _is_bare_jit, load_output_module

LIBRARY_GLOBALS = ("extern_kernels", "aten")
# Part of every cache key: a new measuring method must not reuse times measured by an older one
# (version 1 timed single calls between events, host launch latency included).
METHOD_VERSION = 2


@dataclass
class Event:
    kind: str          # "launch" | "library"
    name: str          # kernel name or callee
    time_us: float
    args: tuple = ()
    method: str = ""                  # timing.DeviceTime.method
    launch_us: float | None = None    # host time to issue the op once
    fallback: str = ""                # why no CUDA graph was used


@dataclass
class ModuleTimes:
    events: list[Event] = field(default_factory=list)
    module_us: float | None = None        # back-to-back calls as written ("batched"; "host" on the CPU)
    module_graph_us: float | None = None  # replayed from one CUDA graph; None when capture failed
    module_fallback: str = ""             # why the module could not be captured
    device: str = "cuda"


def _clone_args(args) -> list:
    """Copies of `args` laid out exactly as they are: each distinct storage copied once, every tensor viewed
    on its copy with its own sizes, strides and offset. (`Tensor.clone()` would turn an expanded bias, stride
    0, into a full matrix, so that Inductor's `bias_addmm` takes cuBLAS's slower path for a 2-D bias; and
    views of one buffer keep aliasing each other, as they do in the module.)"""
    storages: dict[tuple[int, int], torch.UntypedStorage] = {}
    copies = []
    for value in args:
        if not isinstance(value, torch.Tensor):
            copies.append(value)
            continue
        storage = value.untyped_storage()
        key = (storage.data_ptr(), storage.nbytes())
        if key not in storages:
            storages[key] = storage.clone()
        view = torch.empty(0, dtype=value.dtype, device=value.device)
        view.set_(storages[key], value.storage_offset(), value.size(), value.stride())
        copies.append(view)
    return copies


def _rotating(fn_of_args: Callable[[list], Any], sets: list[list]) -> Callable[[], Any]:
    """A zero-argument callable that calls `fn_of_args` on each of `sets` in turn."""
    position = [0]

    def call() -> Any:
        chosen = sets[position[0] % len(sets)]
        position[0] += 1
        return fn_of_args(list(chosen))

    return call


def time_callable(fn_of_args: Callable[[list], Any], args, device: str, rounds: int, min_time_ms: float,
                  graph: bool = True) -> timing.DeviceTime:
    """Device time per call of `fn_of_args(args)` on rotated copies of `args` (originals untouched)."""
    has_tensors = any(isinstance(a, torch.Tensor) for a in args)
    copies = timing.rotation_copies(args) if has_tensors else 1
    call = _rotating(fn_of_args, [_clone_args(args) for _ in range(copies)])
    return timing.device_time(call, device=device, rounds=rounds, min_time_ms=min_time_ms, copies=copies,
                              graph=graph)


def _event(kind: str, name: str, measured: timing.DeviceTime, args: tuple) -> Event:
    launch_us = measured.host_ms * 1e3 if measured.host_ms is not None else None
    return Event(kind, name, measured.ms * 1e3, args, measured.method, launch_us, measured.fallback)


class _TimedCallable:
    def __init__(self, target, name: str, recorder: "_Recorder") -> None:
        self._target, self._name, self._recorder = target, name, recorder

    def __call__(self, *args, **kwargs):
        return self._recorder.library_call(self._name, self._target, args, kwargs)

    def __getattr__(self, attr: str):
        return _wrap(getattr(self._target, attr), f"{self._name}.{attr}", self._recorder)


class _Namespace:
    """Stands in for `extern_kernels`, `aten`, `torch.ops`, `torch`: attribute chains end in timed calls."""

    def __init__(self, target, name: str, recorder: "_Recorder", only: tuple[str, ...] | None = None) -> None:
        self._target, self._name, self._recorder, self._only = target, name, recorder, only

    def __getattr__(self, attr: str):
        value = getattr(self._target, attr)
        if self._only is not None and attr not in self._only:
            return value
        return _wrap(value, f"{self._name}.{attr}", self._recorder)


def _wrap(value, name: str, recorder: "_Recorder"):
    if isinstance(value, (int, float, str, bool, type(None), torch.dtype)):
        return value
    if callable(value):
        return _TimedCallable(value, name, recorder)
    return _Namespace(value, name, recorder)


class _Recorder:
    def __init__(self, loaded, device: str, rounds: int, min_time_ms: float) -> None:
        self.loaded, self.device, self.rounds, self.min_time_ms = loaded, device, rounds, min_time_ms
        self.events: list[Event] = []
        self.depth = 0   # library calls made by library calls are not separate events

    def launch(self, kernel_name: str, index: int, args: tuple, run_original: Callable[[], None]) -> None:
        handle = self.loaded.kernels[kernel_name]
        if _is_bare_jit(handle.target):
            # A bare `kernel[grid](...)` launch: its grid and keywords live in run_original only, so it is
            # timed as written, on its own buffers (no rotation).
            measured = time_callable(lambda _: run_original(), [], self.device, self.rounds, self.min_time_ms)
        else:
            measured = time_callable(lambda a: handle.run(*a), args, self.device, self.rounds, self.min_time_ms)
        self.events.append(_event("launch", kernel_name, measured, args))
        run_original()

    def library_call(self, name: str, target, args: tuple, kwargs: dict):
        if self.depth:
            return target(*args, **kwargs)
        self.depth += 1
        try:
            out = kwargs.get("out")
            flat = list(args) + [v for k, v in kwargs.items() if k != "out"]

            def run_on(values):
                call_args = values[:len(args)]
                call_kwargs = dict(zip([k for k in kwargs if k != "out"], values[len(args):]))
                if out is not None:
                    call_kwargs["out"] = out
                target(*call_args, **call_kwargs)

            measured = time_callable(run_on, flat, self.device, self.rounds, self.min_time_ms)
            self.events.append(_event("library", name, measured, tuple(flat)))
            return target(*args, **kwargs)
        finally:
            self.depth -= 1


def _install_library_hooks(namespace: dict, recorder: _Recorder) -> dict:
    saved = {}
    for name in LIBRARY_GLOBALS:
        if name in namespace:
            saved[name] = namespace[name]
            namespace[name] = _Namespace(namespace[name], name, recorder)
    if "torch" in namespace:
        saved["torch"] = namespace["torch"]
        namespace["torch"] = _Namespace(namespace["torch"], "torch", recorder, only=("ops",))
    return saved


def measure_module(path: str, args: list | None = None, *, device: str = "cuda", rounds: int = 3,
                   min_time_ms: float = 30.0) -> ModuleTimes:
    """Per-op and whole-module times of the output module at `path` (the module's get_args() by default)."""
    loaded = load_output_module(path, device)
    inputs = list(args) if args is not None else loaded.get_args()
    result = ModuleTimes(device=device)
    _time_whole_module(result, loaded, inputs, device, rounds, min_time_ms)
    recorder = _Recorder(loaded, device, rounds, min_time_ms)
    saved = _install_library_hooks(loaded.namespace, recorder)
    loaded.launch_hook = recorder.launch
    try:
        loaded.call(_clone_args(inputs))
    finally:
        loaded.launch_hook = None
        loaded.namespace.update(saved)
    result.events = recorder.events
    return result


def _time_whole_module(result: ModuleTimes, loaded, inputs: list, device: str, rounds: int,
                       min_time_ms: float) -> None:
    as_written = time_callable(lambda a: loaded.call(a), inputs, device, rounds, min_time_ms, graph=False)
    result.module_us = as_written.ms * 1e3
    if device != "cuda":
        return
    replayed = time_callable(lambda a: loaded.call(a), inputs, device, rounds, min_time_ms, graph=True)
    if replayed.method == "graph":
        result.module_graph_us = replayed.ms * 1e3
    else:
        result.module_fallback = replayed.fallback


def environment() -> dict[str, str]:
    """What a measured time depends on besides the op: GPU name, torch and triton versions."""
    try:
        # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
        import triton
        triton_version = triton.__version__
    except ImportError:  # pragma: no cover
        triton_version = "none"
    gpu = torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu"
    return {"gpu": gpu, "torch": torch.__version__, "triton": triton_version}
