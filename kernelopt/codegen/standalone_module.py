"""The standalone emitter: an IR module -> a Python module that needs only torch and triton on a GPU.

The emitted module keeps the input's contract: `call(args)` with the same argument order, the same
outputs, the same in-place writes, `args.clear()`; plus `get_args()` and a `__main__` benchmark.
Kernels are plain `@triton.jit` functions (see `plain_jit`), launched through `_Launch` objects
that pin grid, block sizes, num_warps and num_stages (see `configs` and `grid`).
"""
from __future__ import annotations

import ast
import datetime
import keyword
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

from kernelopt.codegen import configs as cfg
from kernelopt.codegen.descent_configs import descent_neighbours, wants_descent
from kernelopt.codegen.graph_runtime import GraphSettings, cuda_device_index, graph_settings, runtime_source, wiring_lines
from kernelopt.codegen.grid import inductor_meta, launch_grid, positional_names
from kernelopt.codegen.helpers import MissingHelper, helpers_source, used_helpers
from kernelopt.codegen.plain_jit import KernelCode, provided_import, standalone_kernel, without_driver_switches
from kernelopt.codegen.render import render
from kernelopt.cuda_graph_options import DEFAULT_MAX_GRAPHS
from kernelopt.errors import InputError
from kernelopt.ir.attributes import DType, SymbolRef, TypeAttr
from kernelopt.ir.core import Module, Op, Value
from kernelopt.ir.types import TensorType

KERNELOPT_VERSION = "0.1.0"
_BASE_IMPORTS = ("import torch", "import triton", "import triton.language as tl", "import os", "import types")
RemarkFn = Callable[[Op | None, str], None]

# extern_kernels.<name> the emitted module provides (as the same torch ops); others are refused.
EXTERN_SUPPORTED = ("mm", "addmm", "bias_addmm", "bmm", "baddbmm", "convolution", "_int_mm")


@dataclass
class EmitOptions:
    config_policy: str = "auto"           # for launches without a recorded config (see configs.py)
    retime_recorded: bool = True          # under `autotune`: a capture's recorded config is timed again at the
                                          # first launch beside Inductor's list (configs.py); False launches it
    gpu: str | None = None                # the GPU the configs were tuned on (default: module attrs)
    date: str | None = None               # header date (tests pin it)
    cuda_graphs: str = "auto"             # call() through CUDA graphs: auto | on | off (graph_runtime.py)
    outputs: str = "fresh"                # with graphs: fresh | static outputs
    max_graphs: int = DEFAULT_MAX_GRAPHS  # graphs held per module (least recently used first out)


@dataclass
class _State:
    module: Module
    options: EmitOptions
    remark: RemarkFn
    config_cache: dict = field(default_factory=dict)
    codes: dict[str, KernelCode] = field(default_factory=dict)
    candidates: dict[str, str] = field(default_factory=dict)   # kernel symbol -> candidate `run` name
    candidate_texts: list[str] = field(default_factory=list)   # their code, for the helpers they call
    launch_names: list[str] = field(default_factory=list)
    decorators: list[tuple[str, str]] = field(default_factory=list)   # (kernel, its Inductor decorator), as reprs
    launch_defs: list[str] = field(default_factory=list)
    autotuned: bool = False               # some launch picks its config at run time (autotune.py.j2)
    config_sources: dict[str, int] = field(default_factory=dict)


@contextmanager
def _located(op: Op):
    """An error about one op or kernel names its place in the input (file:line:col), whichever helper
    (plain_jit, configs, grid) raised it: those know the kernel, not where the user wrote it."""
    try:
        yield
    except InputError as err:
        message = str(err)
        if op.loc is None or message.startswith(f"{op.loc.file}:"):
            raise
        raise InputError(f"{op.loc}: {message}") from None


# --------------------------------------------------------------------------------------------
# names and literals
# --------------------------------------------------------------------------------------------

def py_name(value: Value) -> str:
    name = re.sub(r"\W", "_", value.name)
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        name = "v_" + name
    return name


def py_literal(value: Any) -> str:
    """Python source for an IR argument (values by name, attributes as literals)."""
    if isinstance(value, Value):
        return py_name(value)
    if isinstance(value, DType):
        return f"torch.{value.name}"
    if isinstance(value, SymbolRef):
        return value.name
    if isinstance(value, TypeAttr):
        return repr(str(value))
    if isinstance(value, float):
        if value != value:
            return 'float("nan")'
        if value in (float("inf"), float("-inf")):
            return f'float("{value}")'
        return repr(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(py_literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {py_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _shape(values) -> str:
    if not _all_ints(values):  # symbolic ("s77") or damaged: the emitter writes static shapes only
        raise InputError(f"expected a list of integer sizes or strides, found {values!r}; emit writes "
                         "static-shape modules only")
    values = tuple(values)
    return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"


def _dtype(name: str) -> str:
    return f"torch.{name}"


def _comment(text: str, indent: str = "") -> list[str]:
    return [f"{indent}# {line}".rstrip() for line in str(text).splitlines()]


# --------------------------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------------------------

def accepted_rewrite(op: Op) -> dict | None:
    """The op's rewrite record when the legality gate accepted it (or no status is recorded)."""
    rewrite = op.attrs.get("rewrite")
    if not isinstance(rewrite, dict) or rewrite.get("status", "accepted") != "accepted":
        return None
    return rewrite


def retuned_config(kernel: Op) -> dict | None:
    """The launch configuration of an accepted retune: the rewrite is the original kernel's code under
    that configuration (what the gate checked), so the original kernel is emitted and launched with it."""
    rewrite = accepted_rewrite(kernel)
    if rewrite is None or kernel.name != "ko.kernel" or rewrite.get("replaces"):
        return None
    config = rewrite.get("launch_config")
    if not isinstance(config, dict) or not config:
        return None
    # Only where the grid follows from the block sizes alone, as the candidate's run() computed it; a
    # precomputed or fixed grid belongs to the original configuration (then the candidate is emitted).
    return dict(config) if inductor_meta(kernel).get("grid_type") in RETUNABLE_GRIDS else None


RETUNABLE_GRIDS = ("Grid1D", "Grid2D", "Grid3D")


def candidate_source(kernel: Op) -> str | None:
    """The candidate-format source (`run(*args)` with the original launch arguments) that replaces
    this kernel: an accepted single-kernel rewrite keeps it in `rewrite.source`; a fused group's new
    kernel (check-legality's commit) has it as its own `source`."""
    rewrite = accepted_rewrite(kernel)
    if rewrite is not None and isinstance(rewrite.get("source"), str) and rewrite["source"]:
        return rewrite["source"]
    text = kernel.attrs.get("source", "")
    if isinstance(text, str) and re.search(r"^def run\(", text, re.M) and not re.search(
            rf"^def {re.escape(kernel.symbol or '')}\(", text, re.M):
        return text
    return None


_IMPORT_LINE = re.compile(r"\s*(import |from \S+ import )")


def prefix_top_level_names(source: str, prefix: str) -> tuple[str, list[str], dict[str, str]]:
    """Give every top-level definition of a candidate a private prefix (no clashes between candidates
    or with the module). Returns (body without imports, its import lines, old -> new names)."""
    tree = ast.parse(source)
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    renamed = {n: f"{prefix}{n}" for n in names}
    lines, imports = [], []
    for line in source.splitlines():
        if _IMPORT_LINE.match(line) and not line.startswith((" ", "\t")):
            imports.append(line.strip())
            continue
        for old, new in renamed.items():
            line = re.sub(rf"(?<![\w.]){re.escape(old)}\b", new, line)
        lines.append(line)
    return "\n".join(lines).strip("\n") + "\n", imports, renamed


def launched_kernels(text: str, renamed: dict[str, str]) -> list[str]:
    """The candidate's top-level names it launches (`name[grid](...)`) and never calls (`name(...)`, as a kernel
    calls a @triton.jit helper): the emitted module wraps them in `_FastJIT`, which a kernel calling them could
    not compile against."""
    def found(pattern: str) -> bool:
        return re.search(pattern, text, re.M) is not None

    return [new for new in renamed.values()
            if found(rf"^def {re.escape(new)}\(") and found(rf"(?<![\w.]){re.escape(new)}\[")
            and not found(rf"(?<![\w.])(?<!def ){re.escape(new)}\(")]


def _rewrite_comment(kernel_or_launch: Op) -> list[str]:
    rewrite = accepted_rewrite(kernel_or_launch)
    if rewrite is None:
        return []
    lines = ["# REWRITTEN by KernelOPT:"]
    for key, value in rewrite_evidence(rewrite).items():
        lines.append(f"#   {key}: {value}")
    return lines


EVIDENCE_KEYS = ("proposer", "strategy", "speedup", "time_us", "baseline_us", "timed_by", "evidence", "recheck",
                 "replaces", "precision")


def rewrite_evidence(rewrite: dict) -> dict:
    """What the header says about an accepted rewrite: who proposed it, how fast, why it is legal."""
    found = {k: rewrite[k] for k in EVIDENCE_KEYS if k in rewrite}
    recheck = found.get("recheck")
    if isinstance(recheck, dict) and "verdict" in recheck:
        found["recheck"] = recheck["verdict"]
    return found


def _kernel_blocks(state: _State) -> tuple[list[dict], list[dict], list[str]]:
    kernels, candidates, extra_imports = [], [], []
    launched = {op.symbol for op in state.module.launches()}
    for kernel in state.module.kernels:
        name = kernel.symbol or ""
        if name not in launched:
            continue
        with _located(kernel):
            retuned = retuned_config(kernel) is not None     # then _launch_object launches the original with it
            candidate = None if retuned else candidate_source(kernel)
            if candidate is None and not retuned and isinstance(kernel.attrs.get("rewrite"), dict):
                state.remark(kernel, f"@{name}: rewrite not accepted by check-legality "
                                     f"(status {kernel.attrs['rewrite'].get('status')}); the original is emitted")
            if candidate is not None:
                prefix = f"_rw_{name}_"
                text, imports, renamed = prefix_top_level_names(candidate, prefix)
                # a candidate made from Inductor's kernel source keeps its header: what the module provides
                # itself (its own triton_helpers, libdevice, tl_math) is not imported from torch._inductor
                text = without_driver_switches(text)
                state.candidate_texts.append(text)
                extra_imports += [i for i in imports if i not in extra_imports and i not in _BASE_IMPORTS
                                  and not provided_import(i)]
                if "run" not in renamed:
                    raise InputError(f"kernel @{name}: its rewrite defines no run(*args)")
                state.candidates[name] = renamed["run"]
                comment = "\n".join([f"# ---- rewrite of {name} (candidate format: run(*args) with the original "
                                     f"launch arguments) ----"] + _rewrite_comment(kernel))
                candidates.append({"comment": comment, "text": text, "launched": launched_kernels(text, renamed)})
                continue
            source = kernel.attrs.get("source")
            if not isinstance(source, str):
                raise InputError(f"kernel @{name}: no source attribute")
            code = standalone_kernel(name, source)
            state.codes[name] = code
            extra_imports += [i for i in code.extra_imports if i not in extra_imports]
            if code.heuristic_source:
                state.decorators.append((repr(name), repr(code.heuristic_source.strip())))
            lines = [f"# ---- {name} ({kernel.attrs.get('kind', code.heuristic or 'jit')}) ----"]
            lines += _rewrite_comment(kernel)
            kernels.append({"comment": "\n".join(lines), "text": code.text.rstrip("\n")})
    return kernels, candidates, extra_imports


# --------------------------------------------------------------------------------------------
# launches
# --------------------------------------------------------------------------------------------

def _launch_object(state: _State, launch: Op, index: int) -> tuple[str, bool, list[str]]:
    """Define the `_Launch` (or `_Autotuned`) for `launch`; returns (name, static grid?, positional args)."""
    kernel = state.module.kernel(launch.symbol or "")
    code = state.codes[launch.symbol]
    retuned = retuned_config(kernel)
    if retuned is not None:
        selection = cfg.Selection(cfg.LaunchConfig.from_dict(retuned), "retune")
    else:
        selection = cfg.select_config(state.module, launch, state.options.config_policy, state.config_cache,
                                      state.options.retime_recorded)
    candidates = _autotune_candidates(kernel, launch, code, selection)
    if selection.candidates and candidates is None and selection.recorded:
        selection = cfg.Selection(selection.config, "capture")       # configs that cannot share a site
    elif selection.candidates and candidates is None:
        selection = cfg.Selection(selection.candidates[0], "heuristic", f"no recorded launch config for "
                                  f"@{kernel.symbol}: Inductor's first heuristic config (its configs cannot share one "
                                  f"launch site: a grid that is not static, or different constexprs)")
    config = selection.config
    state.config_sources[selection.source] = state.config_sources.get(selection.source, 0) + 1
    if selection.remark:
        state.remark(launch, selection.remark)
    exprs = {}
    grid = launch_grid(kernel, launch, config, code.params, exprs)
    static = all(isinstance(g, int) for g in grid)
    if candidates:  # nothing pinned: the emitted module picks at run time
        launch.attrs["config_candidates"] = [c.as_attr(g) for c, g in candidates]
        listed = len(candidates)
        candidates, neighbours = _with_descent(kernel, launch, code, candidates)
        if len(candidates) > listed:
            launch.attrs["descent_configs"] = len(candidates) - listed
    else:
        launch.attrs["config"] = config.as_attr(grid if static else None)
    launch.attrs["config_source"] = selection.source
    meta = inductor_meta(kernel)
    names = positional_names(code.params, config, meta)[:len(launch.positional())]
    extra = set(meta.get("extra_launcher_args") or ())
    args = [py_literal(a) for n, a in zip(names, launch.positional()) if n not in extra]
    tensors = [i for i, (n, a) in enumerate(zip(names, launch.positional()))
               if n not in extra and isinstance(a, Value) and isinstance(a.type, TensorType)]
    base = f"launch_{launch.symbol}"
    name = base if base not in state.launch_names else f"{base}_{index}"
    state.launch_names.append(name)
    if candidates:
        state.autotuned = True
        restore, zero = cfg.trial_buffers(kernel)
        sites = "".join(f"    {_launch_text(launch.symbol, c, g, code, tensors)},\n" for c, g in candidates)
        untimed = next(i for i, (c, _) in enumerate(candidates) if c == config)
        descent = f", listed={listed}, neighbours=({''.join(_shape(g) + ', ' for g in neighbours)})" if len(candidates) > listed else ""
        definition = (f"_Autotuned((\n{sites}), restore={_shape([i for i in tensors if names[i] in restore])}, "
                      f"zero={_shape([i for i in tensors if names[i] in zero])}, untimed={untimed}{descent})")
    else:
        definition = _launch_text(launch.symbol, config, grid if static else None, code, tensors)
    state.launch_defs.append(f"{name} = {definition}  # config: {selection.source}")
    if not static:
        args = [f"({', '.join(str(g) for g in grid)})"] + args
    return name, static, args


def _launch_text(symbol: str, config: cfg.LaunchConfig, grid: list | None, code: KernelCode,
                 tensors: list[int]) -> str:
    jit_positional = [p for p in code.params if p not in config.meta]
    # Constexprs passed in parameter order, after every positional parameter: then the launch's fast
    # paths can append them to the positional arguments (Triton's launcher takes all of them in order).
    meta_kwargs = {p: config.meta[p] for p in code.params if p in config.meta}
    order_ok = code.params == jit_positional + list(meta_kwargs)
    grid_text = _shape(grid) if grid is not None else "None"
    return (f"_Launch({symbol!r}, grid={grid_text}, meta={py_literal(dict(meta_kwargs))}, "
            f"options={py_literal(config.options())}, tensors={_shape(tensors) if tensors else '()'}, "
            f"direct={order_ok})")


def _autotune_candidates(kernel: Op, launch: Op, code: KernelCode,
                         selection: cfg.Selection) -> list[tuple[cfg.LaunchConfig, list[int]]] | None:
    """(config, grid) of each config the emitted module will time, or None when they cannot share one
    launch site: a grid that is not static, or configs that set different parameters."""
    if not selection.candidates:
        return None
    meta = inductor_meta(kernel)
    names = positional_names(code.params, selection.config, meta)
    found = []
    for config in selection.candidates:
        grid = launch_grid(kernel, launch, config, code.params)
        if not all(isinstance(g, int) for g in grid) or positional_names(code.params, config, meta) != names:
            return None
        found.append((config, grid))
    return found


# Rings of coordinate-descent neighbours emitted around the listed configs (see _with_descent).
DESCENT_RINGS = 2


def _with_descent(kernel: Op, launch: Op, code: KernelCode, candidates: list[tuple[cfg.LaunchConfig, list[int]]]):
    """`candidates` followed by DESCENT_RINGS rings of the neighbours Inductor's coordinate descent would try
    around them (descent_configs.py), and for every site the indices of its neighbours among the sites.
    The walk goes on from a neighbour (Inductor's own walk went past one step on the H200's layer norm +
    GELU, and one ring left it 1.08x slower), then stays within the sites, at a bounded module size. Sites
    compile only when timed."""
    if not wants_descent(kernel, code.heuristic):
        return candidates, ()
    meta = inductor_meta(kernel)
    names = positional_names(code.params, candidates[0][0], meta)
    index = {config: i for i, (config, _) in enumerate(candidates)}
    sites = list(candidates)
    near: dict = {}       # config -> its neighbours (asked once per site)

    def neighbours(config) -> list:
        if config not in near:
            near[config] = descent_neighbours(kernel, code.heuristic, config)
        return near[config]

    ring = range(len(sites))
    for _ in range(DESCENT_RINGS):
        start = len(sites)
        for i in ring:
            for neighbour in neighbours(sites[i][0]):
                if neighbour in index:
                    continue
                grid = launch_grid(kernel, launch, neighbour, code.params)
                if all(isinstance(g, int) for g in grid) and positional_names(code.params, neighbour, meta) == names:
                    index[neighbour] = len(sites)       # a static launch site like every other
                    sites.append((neighbour, grid))
        ring = range(start, len(sites))
    return sites, tuple(tuple(index[n] for n in neighbours(config) if n in index) for config, _ in sites)


def _stream_name(launch: Op) -> str:
    return f"stream{int(launch.attrs.get('stream', 0) or 0)}"


# --------------------------------------------------------------------------------------------
# call() body
# --------------------------------------------------------------------------------------------

def _alloc(op: Op) -> str:
    ty = op.result.type
    if not isinstance(ty, TensorType):
        raise InputError(f"{op.loc or op.name}: ko.alloc without a tensor type")
    if op.args and isinstance(op.args[0].value, Value):
        pool = py_name(op.args[0].value)
        offset = int(op.attrs.get("pool_offset", 0))
        return (f"{py_name(op.result)} = alloc_from_pool({pool}, {offset}, {_dtype(ty.dtype)}, "
                f"{_shape(ty.sizes)}, {_shape(ty.strides)})")
    return f"{py_name(op.result)} = empty_strided({_shape(ty.sizes)}, {_shape(ty.strides)}, {_dtype(ty.dtype)})"


def _call_args(op: Op) -> str:
    parts = []
    for arg in op.args:
        text = py_literal(arg.value)
        parts.append(f"{arg.keyword}={text}" if arg.keyword else text)
    return ", ".join(parts)


def _extern(op: Op) -> str:
    callee = op.callee or ""
    short = callee.split(".", 1)[1] if callee.startswith("extern_kernels.") else None
    if short is None or short not in EXTERN_SUPPORTED:
        if callee.startswith(("torch.", "aten.")):
            target = callee if callee.startswith("torch.") else f"torch.ops.{callee}"
        else:
            raise InputError(f"{op.loc or ''}: extern call {callee} has no torch equivalent in the emitter "
                             f"(supported: {', '.join('extern_kernels.' + s for s in EXTERN_SUPPORTED)})")
    else:
        target = callee
    text = f"{target}({_call_args(op)})"
    return f"{py_name(op.results[0])} = {text}" if op.results else text


def _library_call(op: Op) -> str:
    callee = op.callee or ""
    target = callee if callee.startswith("torch.") else (f"torch.ops.{callee}" if callee.startswith(("aten.", "prims.")) else callee)
    if target.startswith("torch._inductor") or target.startswith("extern_kernels."):
        return _extern(op)
    text = f"{target}({_call_args(op)})"
    if not op.results:
        return text
    return f"{', '.join(py_name(r) for r in op.results)} = {text}"


def _layout_of(ty, attrs: dict) -> tuple:
    """(sizes, strides, offset) of a value: from its tensor type, or, untyped (its dtype is unknown), from the
    attributes the lifter keeps on the op that made it."""
    if isinstance(ty, TensorType):
        return ty.sizes, ty.strides, ty.offset
    return attrs.get("sizes"), attrs.get("strides"), attrs.get("offset", 0)


def _static_layout(ty, attrs: dict) -> tuple | None:
    sizes, strides, offset = _layout_of(ty, attrs)
    if _all_ints(sizes) and _all_ints(strides) and _all_ints([offset]):
        return tuple(sizes), tuple(strides), int(offset)
    return None


def _view(op: Op) -> str:
    source = op.args[0].value
    layout = _static_layout(op.result.type, op.attrs)
    if layout is None:
        sizes, strides, offset = _layout_of(op.result.type, op.attrs)
        raise InputError(f"ko.view %{op.result.name} has no static layout (sizes {sizes}, strides {strides}, "
                         f"offset {offset}): give it a tensor type, e.g. `: tensor<4x8xf32, [8, 1]>`")
    sizes, strides, offset = layout
    return (f"{py_name(op.result)} = reinterpret_tensor({py_literal(source)}, {_shape(sizes)}, "
            f"{_shape(strides)}, {offset})")


def _all_ints(values) -> bool:
    return isinstance(values, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _reuse(op: Op) -> str:
    """`new = old  # reuse`, or a reinterpretation of old's storage unless the two layouts are known equal. A
    reused buffer whose own layout is unknown (an element of a library call's tuple, say) is reinterpreted
    too: written as a plain alias, a later `mm(..., out=new)` ran on the old shape or resized it."""
    source = op.args[0].value
    new = _static_layout(op.result.type, op.attrs)
    owner = getattr(source, "owner", None)
    old = _static_layout(getattr(source, "type", None), owner.attrs if owner is not None else {})
    if new is not None and new != old:
        sizes, strides, offset = new
        return (f"{py_name(op.result)} = reinterpret_tensor({py_literal(source)}, {_shape(sizes)}, "
                f"{_shape(strides)}, {offset})  # reuse")
    return f"{py_name(op.result)} = {py_literal(source)}  # reuse"


def _body_lines(state: _State) -> tuple[list[str], list[str]]:
    """Lines of call(): (prologue outside the device guard, lines inside it)."""
    module = state.module
    arg_ops = sorted(module.ops_named("ko.arg"), key=lambda op: int(op.args[0].value))
    num_args = int(module.attrs.get("num_args", len(arg_ops)))
    names = ["_" for _ in range(num_args)]
    for op in arg_ops:
        names[int(op.args[0].value)] = py_name(op.result)
    prologue = []
    if names:
        prologue.append(f"{', '.join(names)}{',' if len(names) == 1 else ''} = args")
    prologue.append("args.clear()")
    body: list[str] = []
    streams_seen: set[str] = set()
    launch_index = 0
    for op in module.body:
        with _located(op):
            kind = op.name
            if kind == "ko.arg":
                continue
            if kind == "ko.assert_size_stride":
                target = prologue if op.args and isinstance(op.args[0].value, Value) and op.args[0].value.owner \
                    and op.args[0].value.owner.name == "ko.arg" else body
                target.append(f"assert_size_stride({py_literal(op.args[0].value)}, {_shape(op.attrs['sizes'])}, "
                              f"{_shape(op.attrs['strides'])})")
            elif kind == "ko.assert_alignment":
                body.append(f"assert_alignment({py_literal(op.args[0].value)}, {int(op.attrs['alignment'])})")
            elif kind == "ko.alloc":
                body.append(_alloc(op))
            elif kind == "ko.reuse":
                body.append(_reuse(op))
            elif kind == "ko.view":
                body.append(_view(op))
            elif kind == "ko.free":
                body.append(f"del {py_literal(op.args[0].value)}")
            elif kind == "ko.copy":
                body.append(f"{py_literal(op.args[0].value)}.copy_({py_literal(op.args[1].value)})")
            elif kind == "ko.zero":
                body.append(f"{py_literal(op.args[0].value)}.zero_()")
            elif kind == "ko.getitem":
                body.append(f"{py_name(op.result)} = {py_literal(op.args[0].value)}[{py_literal(op.args[1].value)}]")
            elif kind == "ko.extern":
                body += _comment(op.attrs["provenance"]) if op.attrs.get("provenance") else []
                body.append(_extern(op))
            elif kind == "ko.call":
                body += _comment(op.attrs["provenance"]) if op.attrs.get("provenance") else []
                body.append(_library_call(op))
            elif kind == "ko.launch":
                body += _comment(op.attrs["provenance"]) if op.attrs.get("provenance") else []
                stream = _stream_name(op)
                if stream not in streams_seen:
                    body.append(f"{stream} = get_raw_stream({stream[6:]})")
                    streams_seen.add(stream)
                body += _rewrite_comment(op)
                if op.symbol in state.candidates:
                    args = ", ".join(py_literal(a) for a in op.positional())
                    body.append(f"{state.candidates[op.symbol]}({args})")
                else:
                    name, static, args = _launch_object(state, op, launch_index)
                    call = name if static else f"{name}.with_grid"
                    body.append(f"{call}({', '.join([stream] + args)})")
                launch_index += 1
            elif kind == "ko.return":
                values = [py_literal(a.value) for a in op.args]
                body.append(f"return ({', '.join(values)}{', ' if values else ''})")
            elif kind == "ko.generic":
                state.remark(op, "ko.generic kept verbatim in the emitted module")
                body.append("# kept verbatim (not modelled by the IR):")
                body += str(op.attrs.get("source", "")).splitlines()
            else:
                raise InputError(f"{op.loc or op.name}: the emitter does not handle {op.name}")
    return prologue, body


def _call_body(state: _State) -> list[str]:
    prologue, body = _body_lines(state)
    device = str(state.module.attrs.get("device", "cuda:0"))
    if not device.startswith("cuda"):
        return prologue + body
    index = cuda_device_index(state.module)
    returns = [line for line in body if line.startswith("return ")]
    inner = [line for line in body if not line.startswith("return ")]
    # torch.cuda.set_device's own C call: its Python wrapper re-parses the index on every call (~1 us)
    lines = prologue + [f"with torch.cuda._DeviceGuard({index}):", f"    torch._C._cuda_setDevice({index})"]
    lines += ["    " + line for line in inner] + returns
    return lines


def _get_args_body(module: Module) -> list[str]:
    lines, names = [], []
    for op in sorted(module.ops_named("ko.arg"), key=lambda op: int(op.args[0].value)):
        name = py_name(op.result)
        ty = op.result.type
        if isinstance(ty, TensorType):
            lines.append(f"{name} = rand_strided({_shape(ty.sizes)}, {_shape(ty.strides)}, {_dtype(ty.dtype)})")
        else:
            value = op.attrs.get("value", op.attrs.get("hint", 1))
            lines.append(f"{name} = {py_literal(value)}")
        names.append(name)
    lines.append(f"return [{', '.join(names)}]")
    return lines


# --------------------------------------------------------------------------------------------
# header
# --------------------------------------------------------------------------------------------

def _header(state: _State, graphs: GraphSettings | None) -> str:
    # lazy: the patched emitter shares this module and needs no torch; triton must follow the CPU shims
    import torch
    import triton

    module = state.module
    attrs = module.attrs
    gpu = (state.options.gpu or attrs.get("gpu")
           or (torch.cuda.get_device_name() if torch.cuda.is_available() else None)  # emitted where it was tuned
           or "unknown (no GPU recorded in the IR)")
    date = state.options.date or datetime.date.today().isoformat()
    lines = [
        f'"""{module.name}: emitted by KernelOPT {KERNELOPT_VERSION} (emit-python, style standalone).',
        "",
        f"Source: {attrs.get('file', '<unknown>')} ({attrs.get('source', 'inductor')} output module, "
        f"captured with torch {attrs.get('torch', '?')}, device {attrs.get('device', '?')})",
        f"Emitted with: torch {torch.__version__}, triton {triton.__version__}, on {date}",
        f"Launch configs tuned on: {gpu}",
        "Launch config sources: " + (", ".join(f"{k} x{v}" for k, v in sorted(state.config_sources.items())) or "none"),
    ]
    if state.autotuned:
        lines.append(f"Autotuned launch sites: {state.config_sources['autotune']} (Inductor's heuristic configs, "
                     "after a capture's recorded one where there is one, are timed at the first launch on the GPU "
                     "the module runs on, the choice cached under $KERNELOPT_CACHE_DIR/autotune)")
    lines += [
        f"Precision policy: {attrs.get('precision', 'strict')}"
        + (" (fp32 math stays fp32: no TF32 or bf16 dots)" if attrs.get("precision", "strict") == "strict" else ""),
        "Needs at run time: torch and triton only on a GPU (no torch._inductor).",
        _graphs_line(graphs),
    ]
    rewritten = [op for op in module.kernels + module.launches() if accepted_rewrite(op) is not None]
    lines.append("")
    if rewritten:
        lines.append("Rewritten kernels (accepted by the legality gate):")
        for op in rewritten:
            what = f"@{op.symbol}" + (" (launch)" if op.name == "ko.launch" else "")
            lines.append(f"  {what}:")
            lines += [f"    {k}: {v}" for k, v in rewrite_evidence(op.attrs["rewrite"]).items()]
    else:
        lines.append("Rewritten kernels: none (every kernel is Inductor's, with its launch config pinned).")
    lines.append('"""')
    return "\n".join(lines)


def _graphs_line(graphs: GraphSettings | None) -> str:
    if graphs is None:
        return ("CUDA graphs: off (call() launches every kernel from the host; `auto` leaves them off on the "
                "CPU and for arguments over 1 GiB, where a graph saves no time).")
    rule = ("on" if graphs.mode == "on" else
            "auto (kept only where timed faster than plain launches at the first calls)")
    outputs = ("fresh tensors" if graphs.outputs == "fresh"
               else "static: views into graph memory, overwritten by the next call")
    return (f"CUDA graphs: {rule}; at most {graphs.max_graphs} per module; outputs {outputs}; "
            "`cuda_graphs.stats()` says what ran and the memory graphs hold, `call_plain(args)` skips them.")


# --------------------------------------------------------------------------------------------
# entry point
# --------------------------------------------------------------------------------------------

def _writer_torch(module: Module) -> str:
    """The torch version that wrote the module's kernels: the capture's record, else the installed torch
    (a module is usually emitted where it was compiled). Picks the era of the device helpers."""
    recorded = module.attrs.get("torch")
    if isinstance(recorded, str):
        return recorded
    # lazy: the patched emitter shares this module and needs no torch
    import torch

    return torch.__version__


def emit_standalone(module: Module, options: EmitOptions | None = None,
                    remark: RemarkFn | None = None) -> str:
    """The standalone Python module for `module` (launch `config`/`config_source` attrs are filled in)."""
    options = options or EmitOptions()
    state = _State(module, options, remark or (lambda op, message: None))
    kernels, candidates, extra_imports = _kernel_blocks(state)
    try:
        helpers = helpers_source(used_helpers([state.codes[k].text for k in state.codes] + state.candidate_texts),
                                 _writer_torch(module))
    except MissingHelper as err:
        users = [module.kernel(name) for name, code in state.codes.items() if f"triton_helpers.{err}" in code.text]
        where = f"{users[0].loc}: kernel @{users[0].symbol}" if users and users[0].loc else "a kernel"
        raise InputError(f"{where} calls triton_helpers.{err}, which the emitter does not provide") from None
    call_body = _call_body(state)
    device = str(module.attrs.get("device", "cuda:0"))
    graphs = graph_settings(module, options.cuda_graphs, options.outputs, options.max_graphs)
    return render("standalone.py.j2", {
        "header": _header(state, graphs),
        "cpu_shims": render("cpu_shims.py.j2", {}),
        "extra_imports": extra_imports,
        "precision": str(module.attrs.get("precision", "strict")),
        "runtime": render("runtime.py.j2", {}),
        "support": render("support.py.j2", {"device": device}),
        "autotune": render("autotune.py.j2", {}) if state.autotuned else "",
        "helpers": helpers.rstrip("\n"),
        "kernels": kernels,
        "candidates": candidates,
        "launches": state.launch_defs,
        "inductor_decorators": state.decorators,
        "call_body": call_body,
        "get_args_body": _get_args_body(module),
        "graphs": None if graphs is None else {"runtime": runtime_source(), "wiring": wiring_lines(graphs, module.name),
                                               "mode": graphs.mode, "outputs": graphs.outputs},
    })
