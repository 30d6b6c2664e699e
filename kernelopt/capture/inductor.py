"""Compile a model with Inductor and keep what it wrote: output modules, call() arguments, kernel configs.

The call() arguments of an Inductor output module are Dynamo's graph placeholders, in order: the
lifted parameters and buffers and the user inputs, in the order the forward first touches them.
A recording backend (Inductor's own `compile_fx`, with the mode's options) sees each graph's
placeholders and the tensors passed to the compiled graph at run time; those tensors are then named
by identity against the forward inputs, parameters and buffers. The result is checked against the
shapes and dtypes that the module's own `get_args()` declares.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import torch

from kernelopt.errors import InputError
from kernelopt.tensor_layout import layout_copy


@dataclass
class GraphCapture:
    """One Dynamo graph and the output module Inductor wrote for it."""

    index: int
    sources: list[str]  # Dynamo's source expression for each placeholder (L['x'], L['self']...)
    runtime_args: list[Any] = field(default_factory=list)  # what the compiled graph was called with, first call
    arg_values: list[Any] = field(default_factory=list)  # copies of those, taken before the call could mutate them
    outputs: Any = None  # what the compiled graph (its output module's call()) returned on that call
    code: str = ""
    module: ModuleType | None = None
    recorded: bool = False  # the first call happened (its values may have been released since)

    def release_values(self) -> None:
        """Drop the tensors of the recorded call. Dynamo's cache keeps the compiled model's backend, and
        with it this record, for the life of the process: at real sizes the forward's input and output
        would stay on the device after the capture (28 GiB for two captures of a 7.5 GB instance norm)."""
        self.runtime_args, self.arg_values, self.outputs = [], [], None


class RecordingBackend:
    """A torch.compile backend: Inductor with the mode's options, recording each graph's arguments."""

    def __init__(self, mode: str):
        # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
        import torch._inductor

        self.options = dict(torch._inductor.list_mode_options(mode))
        self.graphs: list[GraphCapture] = []

    def __call__(self, gm, example_inputs):
        # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
        from torch._inductor.compile_fx import compile_fx

        record = GraphCapture(index=len(self.graphs), sources=_placeholder_sources(gm))
        self.graphs.append(record)
        compiled = compile_fx(gm, example_inputs, config_patches=self.options)
        return _record_first_call(compiled, record)


def _placeholder_sources(gm) -> list[str]:
    sources = []
    for node in gm.graph.nodes:
        if node.op != "placeholder":
            continue
        grapharg = node.meta.get("grapharg")
        source = getattr(grapharg, "source", None)
        sources.append(_source_name(source) or node.name)
    return sources


def _source_name(source) -> str | None:
    name = getattr(source, "name", None)  # a method in torch 2.11, a property in 2.13
    name = name() if callable(name) else name
    return name if isinstance(name, str) else None


def _record_first_call(compiled, record: GraphCapture):
    # Dynamo calls a backend's result with the flat placeholder values (compile_fx's result
    # unpacks them itself, even though it is marked `_boxed_call`).
    def run(*args):
        if record.recorded:
            return compiled(*args)
        record.recorded = True
        record.runtime_args = list(args)
        # with the arguments' own strides: a non-dense input (a column slice) must stay as the module asserts it
        record.arg_values = [layout_copy(a.detach()) if isinstance(a, torch.Tensor) else a for a in args]
        record.outputs = compiled(*args)
        return record.outputs

    return run


def compile_and_capture(model, inputs: list[Any], mode: str):
    """Run `torch.compile(model)(*inputs)` once; return (compiled callable, its result, graphs)."""
    # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
    import torch._inductor.config as inductor_config
    from torch._inductor.codecache import PyCodeCache
    from torch._inductor.utils import run_and_get_code

    backend = RecordingBackend(mode)
    compiled = torch.compile(model, backend=backend, dynamic=False)
    known = set(map(id, PyCodeCache.modules))
    # A graph-cache hit would skip code generation and with it the output module's text.
    with inductor_config.patch(fx_graph_cache=False), torch.no_grad():
        result, codes = run_and_get_code(compiled, *inputs)
    if len(codes) != len(backend.graphs):
        raise InputError(f"Inductor wrote {len(codes)} output modules for {len(backend.graphs)} graphs")
    fresh = [m for m in PyCodeCache.modules if id(m) not in known]
    for graph, code in zip(backend.graphs, codes):
        graph.code = code
        graph.module = _find_loaded_module(fresh, code)
    return compiled, result, backend.graphs


def _find_loaded_module(modules: list[ModuleType], code: str) -> ModuleType:
    """The module Inductor loaded from `code` (its kernels are the ones that ran and were tuned)."""
    for module in reversed(modules):
        path = getattr(module, "__file__", None)
        if path and hasattr(module, "call") and Path(path).read_text() == code:
            return module
    raise InputError("could not find the loaded Inductor output module in PyCodeCache")


def name_arguments(graph: GraphCapture, model, inputs: list[Any]) -> list[dict[str, Any]]:
    """Say which forward input, parameter or buffer each call() argument is."""
    named: list[tuple[torch.Tensor, dict[str, Any]]] = []
    for position, value in enumerate(inputs):
        if isinstance(value, torch.Tensor):
            named.append((value, {"kind": "input", "position": position}))
    for name, param in model.named_parameters(remove_duplicate=False):
        named.append((param, {"kind": "parameter", "name": name}))
    for name, buf in model.named_buffers(remove_duplicate=False):
        named.append((buf, {"kind": "buffer", "name": name}))

    mapping = []
    for index, arg in enumerate(graph.runtime_args):
        entry: dict[str, Any] = {"index": index, "source": graph.sources[index] if index < len(graph.sources) else None}
        if isinstance(arg, torch.Tensor):
            entry.update(_tensor_type(arg))
            match = next((label for tensor, label in named if _same_storage_view(tensor, arg)), None)
            entry.update(match or {"kind": "intermediate"})  # a tensor from an earlier graph of a split model
        else:
            entry.update({"kind": "scalar", "value": arg if isinstance(arg, (int, float, bool)) else repr(arg)})
        mapping.append(entry)
    return mapping


def _same_storage_view(a, b) -> bool:
    return (
        a is b
        or (a.device == b.device and a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride()
            and a.numel() > 0 and a.data_ptr() == b.data_ptr())
    )


def _tensor_type(t) -> dict[str, Any]:
    return {"shape": list(t.shape), "stride": list(t.stride()), "dtype": str(t.dtype).replace("torch.", "")}


def check_against_get_args(graph: GraphCapture) -> None:
    """The module's get_args() declares call()'s arguments; ours must have the same types."""
    get_args = getattr(graph.module, "get_args", None)
    if get_args is None:
        return

    declared = get_args()
    ours = graph.runtime_args
    if len(declared) != len(ours):
        raise InputError(f"graph {graph.index}: get_args() declares {len(declared)} arguments, recorded {len(ours)}")
    for i, (want, have) in enumerate(zip(declared, ours)):
        if isinstance(want, torch.Tensor) != isinstance(have, torch.Tensor):
            raise InputError(f"graph {graph.index}: argument {i} is a tensor in one list and not in the other")
        if isinstance(want, torch.Tensor) and (want.shape != have.shape or want.dtype != have.dtype):
            raise InputError(
                f"graph {graph.index}: argument {i}: get_args() says {tuple(want.shape)} {want.dtype}, "
                f"recorded {tuple(have.shape)} {have.dtype}"
            )


def kernel_configs(module: ModuleType) -> dict[str, dict[str, Any]]:
    """The launch configuration each Triton kernel of a run module settled on (after autotuning)."""
    # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    found = {}
    for name, value in vars(module).items():
        if isinstance(value, CachingAutotuner):
            found[name] = _autotuner_config(value)
    return dict(sorted(found.items()))


def _autotuner_config(kernel) -> dict[str, Any]:
    launchers = getattr(kernel, "launchers", None) or []
    config = getattr(launchers[0], "config", None) if launchers else None
    candidates = len(getattr(kernel, "configs", None) or [])
    if config is None and candidates == 1:
        config = kernel.configs[0]
    entry: dict[str, Any] = {"candidates": candidates, "launchers": len(launchers)}
    if config is None:  # the interpreter (CPU) never builds launchers: keep the candidates instead
        entry["chosen"] = None
        entry["configs"] = [_config_json(c) for c in getattr(kernel, "configs", None) or []]
        return entry
    entry["chosen"] = _config_json(config)
    return entry


def _config_json(config) -> dict[str, Any]:
    return {
        "kwargs": {k: _plain(v) for k, v in dict(config.kwargs).items()},
        "num_warps": getattr(config, "num_warps", None),
        "num_stages": getattr(config, "num_stages", None),
        "num_ctas": getattr(config, "num_ctas", None),
        "maxnreg": getattr(config, "maxnreg", None),
    }


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool, type(None))) else repr(value)
