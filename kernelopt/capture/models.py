"""Load a model to capture: a KernelBench-style file or a `module:factory` entry point.

Model-file conventions (tests/zoo/README.md has the long form):
- KernelBench style: the file defines `class Model(nn.Module)`, `get_init_inputs()` (constructor
  arguments) and `get_inputs()` (forward arguments).
- Sizes: an optional module-level `SIZES = {"small": {...}, "large": {...}}`; when present,
  `get_init_inputs(size)` and `get_inputs(size)` take the size name. "small" runs on the CPU through
  the Triton interpreter in seconds, "large" is a realistic GPU shape. A file without `SIZES` (a plain
  KernelBench file) has exactly one size, its own: every requested size builds it, and the meta
  records `size=None`. `input_bytes` says how big its inputs are without allocating them, so a
  caller on a CPU can decide not to build a multi-GB file at all.
- Integer inputs: `INPUT_RANGES = {position: (low, high)}` (high exclusive), or, when the range
  depends on the size, `get_input_ranges(size) -> {position: (low, high)}`. Generated inputs stay
  valid (token ids below the vocabulary size, class targets below the class count).
- Entry point: `pkg.module:factory` (or `path/to/file.py:factory`) naming a callable that returns
  `(model, example_inputs)`; it receives whichever of `size`, `seed`, `device` it declares.

Everything is built on the CPU under a fixed seed and then moved to the device, so the same seed
gives the same weights and inputs on every machine.
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import os
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import torch

from kernelopt.errors import InputError

SIZE_NAMES = ("small", "large")


@dataclass
class ModelMeta:
    """What a capture records about where a model came from and how to rebuild it."""

    name: str
    source: str  # the file path or the `module:factory` entry
    size: str | None  # None: the file has one size only (no SIZES)
    size_params: dict[str, Any] = field(default_factory=dict)
    input_ranges: dict[int, tuple[int, int]] = field(default_factory=dict)
    seed: int = 0
    device: str = "cpu"
    description: str = ""
    # layers the model as built had in training mode that compute otherwise in eval mode, where it is captured
    training_layers: list[str] = field(default_factory=list)
    # the plain values the model's layers hold (module_settings): compiled into the module as constants
    settings: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "size": self.size,
            "size_params": self.size_params,
            "input_ranges": {str(k): list(v) for k, v in self.input_ranges.items()},
            "seed": self.seed,
            "device": self.device,
            "description": self.description,
            "training_layers": self.training_layers,
            "settings": self.settings,
        }


def load_model(
    spec: str | None,
    *,
    entry: str | None = None,
    device: str,
    seed: int,
    size: str = "small",
) -> tuple[Any, list[Any], ModelMeta]:
    """Build `(model, example_inputs, meta)` from a model file or an entry point.

    `spec` is a KernelBench-style file; `entry` is `pkg.module:factory`, `file.py:factory`, or a bare
    `factory` name looked up in `spec`. The model is in eval mode and on `device`, as are the inputs.
    """
    if size not in SIZE_NAMES:
        raise InputError(f"unknown size {size!r}: expected one of {', '.join(SIZE_NAMES)}")
    if not spec and not entry:
        raise InputError("nothing to load: give a model file or --entry pkg.module:factory")
    if entry:
        module, factory_name, source = _resolve_entry(spec, entry)
        factory = _require(module, factory_name, source, "a factory returning (model, example_inputs)")
        torch.manual_seed(seed)
        module_file = getattr(module, "__file__", None)
        named_file = source.rpartition(":")[0]     # file.py:factory as typed; pkg.module:factory has its __file__
        with _user_code(named_file if named_file.endswith(".py") else module_file or source,
                        f"the factory {factory_name}()", module_file):
            built = _call_with_declared(factory, size=size, seed=seed, device="cpu")
        model, inputs = _unpack_factory_result(built, source)
        name = getattr(module, "NAME", None) or factory_name
    else:
        path = Path(spec)
        module = _import_file(path)
        _check_requirements(module, str(spec))
        source = str(spec)
        name = getattr(module, "NAME", None) or path.stem
        model, inputs = _build_kernelbench(module, source, size, seed)

    sizes = getattr(module, "SIZES", None)
    size_used = size if isinstance(sizes, dict) else None  # no SIZES: the file's own size, whatever was asked
    meta = ModelMeta(
        name=name,
        source=source,
        size=size_used,
        size_params=dict(sizes.get(size, {})) if isinstance(sizes, dict) else {},
        input_ranges=_input_ranges(module, size, source),
        seed=seed,
        device=device,
        description=(module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else "",
    )
    _check_ranges(inputs, meta.input_ranges, source)
    meta.training_layers = [name for name, layer in mode_dependent_layers(model) if layer.training]
    meta.settings = module_settings(model)
    model = _to_device(model, device)
    inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs]
    return model, inputs, meta


# Above this many bytes of inputs, a machine without a GPU runs only the steps that need no
# full-size tensors (issue 18): building and interpreting multi-GB tensors on a CPU takes minutes.
CPU_INPUT_LIMIT_BYTES = 256 * 2**20


def input_bytes(spec: str, size: str = "large") -> int | None:
    """The total bytes of a model file's forward inputs, found without allocating them.

    `get_inputs()` runs under `torch.device("meta")`, so `torch.randn(...)` and friends make shape-only
    tensors. None when that cannot tell (the file builds inputs from data, calls `.item()`, moves them to
    a device itself, ...): the caller then treats the size as unknown. Errors in the file itself (no
    such file, missing names) are InputErrors as for `load_model`.
    """
    module = _import_file(Path(spec))
    get_inputs = _require(module, "get_inputs", spec, "get_inputs() returning the forward arguments")
    sizes = getattr(module, "SIZES", None)
    if isinstance(sizes, dict) and size not in sizes:
        raise InputError(f"{spec}: SIZES has no entry {size!r} (it has {', '.join(sizes)})")
    size_args = (size,) if isinstance(sizes, dict) else ()
    try:
        with torch.device("meta"):
            inputs = get_inputs(*size_args)
    except Exception:  # noqa: BLE001 - anything the meta device cannot do means "unknown", not an error
        return None
    return _tensor_bytes(inputs)


def _tensor_bytes(value: Any) -> int:
    """Bytes held by the tensors in a (nested) list/tuple/dict; a view counts its whole storage."""
    if isinstance(value, torch.Tensor):
        return value.untyped_storage().nbytes()
    if isinstance(value, (list, tuple)):
        return sum(_tensor_bytes(v) for v in value)
    if isinstance(value, dict):
        return sum(_tensor_bytes(v) for v in value.values())
    return 0


class ModelUnavailable(InputError):
    """The model file needs a package this machine lacks (its `REQUIRES`); callers may skip it."""


def missing_requirements(module: ModuleType) -> list[str]:
    """The names in the module's optional `REQUIRES` tuple that cannot be imported here."""
    return [name for name in getattr(module, "REQUIRES", ()) if importlib.util.find_spec(name) is None]


def _check_requirements(module: ModuleType, source: str) -> None:
    missing = missing_requirements(module)
    if missing:
        raise ModelUnavailable(f"{source}: needs {', '.join(missing)}, not installed here (pip install {' '.join(missing)})")


def _build_kernelbench(module: ModuleType, source: str, size: str, seed: int):
    model_cls = _require(module, "Model", source, "class Model(nn.Module)")
    get_init_inputs = _require(module, "get_init_inputs", source, "get_init_inputs() returning constructor arguments")
    get_inputs = _require(module, "get_inputs", source, "get_inputs() returning the forward arguments")
    has_sizes = isinstance(getattr(module, "SIZES", None), dict)
    if has_sizes and size not in module.SIZES:
        raise InputError(f"{source}: SIZES has no entry {size!r} (it has {', '.join(module.SIZES)})")
    size_args = (size,) if has_sizes else ()
    torch.manual_seed(seed)
    with _user_code(source, "get_init_inputs()", source):
        init_args = list(get_init_inputs(*size_args) or [])
    with _user_code(source, "Model(*get_init_inputs())", source):
        model = model_cls(*init_args)
    if not isinstance(model, torch.nn.Module):
        raise InputError(f"{source}: Model(...) is a {type(model).__name__}, not a torch.nn.Module")
    torch.manual_seed(seed + 1)  # inputs do not depend on how many random numbers __init__ drew
    with _user_code(source, "get_inputs()", source):
        inputs = get_inputs(*size_args)
    if not isinstance(inputs, (list, tuple)):
        raise InputError(f"{source}: get_inputs() must return a list of forward arguments, got {type(inputs).__name__}")
    return model, list(inputs)


def _resolve_entry(spec: str | None, entry: str) -> tuple[ModuleType, str, str]:
    if ":" not in entry:
        if not spec:
            raise InputError(f"--entry {entry!r} names no module: use pkg.module:factory, or give the model file")
        return _import_file(Path(spec)), entry, f"{spec}:{entry}"
    module_part, _, factory_name = entry.rpartition(":")
    if not module_part or not factory_name:
        raise InputError(f"--entry {entry!r}: expected pkg.module:factory")
    if module_part.endswith(".py") or os.sep in module_part:
        return _import_file(Path(module_part)), factory_name, entry
    try:
        module = importlib.import_module(module_part)
    except ImportError as err:
        raise InputError(f"--entry {entry!r}: cannot import {module_part}: {err}") from None
    return module, factory_name, entry


def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise InputError(f"{path}: no such model file")
    module_name = f"kernelopt_model_{path.stem}_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look modules up by name
    try:
        spec.loader.exec_module(module)
    except SyntaxError as err:
        raise InputError(f"{path}:{err.lineno}: syntax error: {err.msg}") from None
    except ImportError as err:
        raise InputError(f"{path}: import failed: {err}") from None
    except Exception as err:  # noqa: BLE001 - the file's own top-level code: where it failed, not our traceback
        raise InputError(f"{failed_at(err, str(path), str(path))}: running the file failed: "
                         f"{_error_text(err)}") from None
    return module


@contextlib.contextmanager
def _user_code(source: str, what: str, file: str | None):
    """The model file's own code (get_inputs(), Model(...), a factory): an error it raises is the user's to fix,
    said as `FILE:LINE: get_inputs() failed: RuntimeError: ...` at its innermost line in the file, with no
    traceback through KernelOPT's loader."""
    try:
        yield
    except InputError:
        raise
    except Exception as err:  # noqa: BLE001 - any error of the user's code: named with its line
        raise InputError(f"{failed_at(err, source, file)}: {what} failed: {_error_text(err)}") from None


def failed_at(err: BaseException, source: str, file: str | None) -> str:
    """`source:LINE` of the innermost frame of `err` in `file`, or `source` when none is there."""
    if file is None:
        return source
    target = os.path.realpath(file)
    lines = [frame.lineno for frame in traceback.extract_tb(err.__traceback__)
             if os.path.realpath(frame.filename) == target]
    if not lines and isinstance(err, SyntaxError) and err.filename and os.path.realpath(err.filename) == target:
        lines = [err.lineno]
    return f"{source}:{lines[-1]}" if lines else source


def _error_text(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0] if text else ''}"


def _require(module: ModuleType, attr: str, source: str, what: str) -> Any:
    value = getattr(module, attr, None)
    if value is None:
        raise InputError(f"{source}: missing {attr}: a model file needs {what}")
    return value


def _call_with_declared(fn: Callable, **available: Any) -> Any:
    params = inspect.signature(fn).parameters
    takes_all = any(p.kind is p.VAR_KEYWORD for p in params.values())
    kwargs = {k: v for k, v in available.items() if takes_all or k in params}
    return fn(**kwargs)


def _unpack_factory_result(built: Any, source: str):
    if not (isinstance(built, (tuple, list)) and len(built) == 2):
        raise InputError(f"{source}: the factory must return (model, example_inputs)")
    model, inputs = built
    if not isinstance(model, torch.nn.Module):
        raise InputError(f"{source}: the factory's model is a {type(model).__name__}, not a torch.nn.Module")
    if not isinstance(inputs, (list, tuple)):
        raise InputError(f"{source}: the factory's example_inputs must be a list or tuple")
    return model, list(inputs)


def _input_ranges(module: ModuleType, size: str, source: str) -> dict[int, tuple[int, int]]:
    getter = getattr(module, "get_input_ranges", None)
    raw = getter(size) if callable(getter) else getattr(module, "INPUT_RANGES", None) or {}
    if not isinstance(raw, dict):
        raise InputError(f"{source}: INPUT_RANGES must be a dict {{position: (low, high)}}")
    ranges = {}
    for key, value in raw.items():
        try:
            low, high = value
            ranges[int(key)] = (int(low), int(high))
        except (TypeError, ValueError):
            raise InputError(f"{source}: INPUT_RANGES[{key!r}] must be (low, high), got {value!r}") from None
        if ranges[int(key)][0] >= ranges[int(key)][1]:
            raise InputError(f"{source}: INPUT_RANGES[{key!r}] is empty: {value!r} (high is exclusive)")
    return ranges


def _check_ranges(inputs: list[Any], ranges: dict[int, tuple[int, int]], source: str) -> None:
    for position, (low, high) in ranges.items():
        if position >= len(inputs):
            raise InputError(f"{source}: INPUT_RANGES names input {position}, but get_inputs() returns {len(inputs)}")
        value = inputs[position]
        if not isinstance(value, torch.Tensor) or value.is_floating_point():
            raise InputError(f"{source}: INPUT_RANGES names input {position}, which is not an integer tensor")
        if value.numel() and (int(value.min()) < low or int(value.max()) >= high):
            raise InputError(
                f"{source}: input {position} has values in [{int(value.min())}, {int(value.max())}], "
                f"outside its declared range [{low}, {high})"
            )


def module_settings(model) -> dict[str, str]:
    """The plain Python values (numbers, strings, booleans, None, tuples of them) that each layer of `model`
    holds besides its tensors, by dotted name, as repr: an ELU's `alpha`, a pool's `kernel_size`, a model's
    own `self.negative_slope`. `torch.compile` reads them as constants, so a module optimized for one model
    computes that model's values whatever model it is later called for. `training` is left out (the
    mode is checked on its own: mode_dependent_layers)."""
    if not isinstance(model, torch.nn.Module):
        return {}
    found = {}
    for name, layer in model.named_modules():
        for attr, value in vars(layer).items():
            if not attr.startswith("_") and attr != "training" and _plain_value(value):
                found[f"{name}.{attr}" if name else attr] = repr(value)
    return found


def _plain_value(value) -> bool:
    if isinstance(value, (tuple, list)):
        return all(_plain_value(v) for v in value)
    return isinstance(value, (bool, int, float, str, type(None)))


def mode_dependent_layers(model) -> list[tuple[str, torch.nn.Module]]:
    """The layers whose forward computes otherwise in training mode than in eval mode: batch norms (batch
    statistics, running stats updated), instance norms that track running stats, dropout with p > 0, RReLU,
    attention with dropout. A model's own `if self.training:` cannot be seen from here."""
    if not isinstance(model, torch.nn.Module):
        return []
    found = []
    for name, layer in model.named_modules():
        if (isinstance(layer, torch.nn.modules.batchnorm._BatchNorm)
                or (isinstance(layer, torch.nn.modules.instancenorm._InstanceNorm) and layer.track_running_stats)
                or (isinstance(layer, torch.nn.modules.dropout._DropoutNd) and layer.p > 0)
                or isinstance(layer, torch.nn.RReLU)
                or (isinstance(layer, torch.nn.MultiheadAttention) and layer.dropout > 0)):
            found.append((name or type(layer).__name__, layer))
    return found


def training_layers_text(names: list[str]) -> str:
    """`bn, drop compute otherwise in training mode (batch statistics, dropout)`, for a warning or the report."""
    return (f"{', '.join(names[:3])}{' and more' if len(names) > 3 else ''} compute otherwise in training mode "
            "(batch statistics, dropout)")


def _to_device(model: Any, device: str) -> Any:
    model = model.to(device)
    model.eval()
    return model
