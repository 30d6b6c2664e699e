"""The CUDA-graph part of an emitted module (`--cuda-graphs auto|on|off`, `--outputs fresh|static`).

The runtime is kernelopt/runtime/graph_capture.py and graph_replay.py, inlined (an emitted module needs
only torch and triton); this file says whether a module gets it, with which settings, and which of
`call()`'s arguments the module writes (the copy path copies those back).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from kernelopt.errors import InputError
from kernelopt.cuda_graph_options import check_graph_options
from kernelopt.ir.core import Module
from kernelopt.ir.effects import mutated_arguments
from kernelopt.ir.types import TensorType

GRAPH_RUNTIME_MARKER = "cuda_graphs = GraphReplay("    # the wiring line: a module with a graph path has it
_RUNTIME_FILES = ("graph_capture.py", "graph_replay.py")     # in this order: replay uses capture's names
_RUNTIME_DIR = Path(__file__).resolve().parent.parent / "runtime"


@dataclass(frozen=True)
class GraphSettings:
    mode: str                  # "on" or "auto" (an "off" module has no graph runtime)
    outputs: str
    max_graphs: int
    device_index: int | None   # None: a CPU module (the runtime says graphs cannot run, and runs plain)
    mutated: tuple[int, ...] | None


def cuda_device_index(module: Module) -> int:
    """The index of the module's `device` attribute ('cuda' or 'cuda:N'); a located error for anything else."""
    device = str(module.attrs.get("device", "cuda:0"))
    text = device.split(":", 1)[1] if ":" in device else "0"
    if not (text.isdigit() and len(text) <= 4):
        where = module.loc or module.attrs.get("file") or "the module"
        raise InputError(f"{where}: device attribute {device[:40]!r} is not a CUDA device such as 'cuda:0': "
                         "fix the `device` attribute of ko.module")
    return int(text)


def graph_settings(module: Module, cuda_graphs: str, outputs: str, max_graphs: int) -> GraphSettings | None:
    """How the module's call() uses graphs, or None for the plain module. `auto` on a CPU module is off
    (no graphs there to measure), and so on a module with over 1 GiB of arguments (see
    AUTO_MAX_ARGUMENT_BYTES); on any other GPU module the emitted module measures and decides at run time."""
    check_graph_options(cuda_graphs, outputs, max_graphs)
    device = str(module.attrs.get("device", "cuda:0"))
    on_gpu = device.startswith("cuda")
    if cuda_graphs == "off" or (cuda_graphs == "auto" and not on_gpu):
        return None
    if cuda_graphs == "auto" and argument_bytes(module) > AUTO_MAX_ARGUMENT_BYTES:
        return None
    index = cuda_device_index(module) if on_gpu else None
    return GraphSettings(cuda_graphs, outputs, max_graphs, index, mutated_arguments(module))


# `auto` leaves graphs off for modules whose arguments exceed this: a call then moves at least this much
# (about 0.25 ms on an H200), so the host's launches run ahead of the GPU and a graph saves nothing, while
# its copy path would hold another copy of the inputs against the job's memory bound (issue 18).
AUTO_MAX_ARGUMENT_BYTES = 1 << 30


def argument_bytes(module: Module) -> int:
    """Bytes of call()'s tensor arguments, from their IR types."""
    return sum(op.result.type.nbytes for op in module.ops_named("ko.arg")
               if isinstance(getattr(op.result, "type", None), TensorType))


def runtime_source() -> str:
    """graph_capture.py and graph_replay.py as one block of module-level code (replay's import of
    capture's names dropped: they are defined just above it)."""
    parts = []
    for name in _RUNTIME_FILES:
        text = (_RUNTIME_DIR / name).read_text()
        lines = text.splitlines()
        for node in reversed(ast.parse(text).body):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kernelopt."):
                del lines[node.lineno - 1:node.end_lineno]
        parts.append("\n".join(lines).strip("\n"))
    return "\n\n\n".join(parts)


def runtime_names() -> set[str]:
    """The top-level names the inlined runtime defines (they must not clash with the module's own)."""
    names = set()
    for node in ast.parse(runtime_source()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def wiring_lines(settings: GraphSettings, name: str) -> list[str]:
    """The module-level lines after `def call` that route call() through the runtime."""
    mutated = "None" if settings.mutated is None else repr(tuple(settings.mutated))
    return [
        "call_plain = call",
        f"cuda_graphs = GraphReplay(call_plain, mode={settings.mode!r}, outputs={settings.outputs!r}, "
        f"max_graphs={settings.max_graphs}, mutated={mutated}, device_index={settings.device_index!r}, "
        f"name={name!r})",
        "call = cuda_graphs.run",
        "# graphs off for good (auto measured them slower, or they cannot run here): call() is the plain launches",
        "cuda_graphs.add_rebinder(lambda plain: globals().__setitem__(\"call\", plain))",
    ]
