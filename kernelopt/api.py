"""The Python API: `kernelopt.optimize(model, example_inputs)` and `kernelopt.load(path, model)`.

`load` returns an `OptimizedModule`, and so does `optimize` for a model of one graph: called like the model's
forward, it maps the forward inputs and
the model's parameters and buffers onto the optimized module's `call(args)` (the capture recorded
which `call()` argument is which), checks the input shapes against the optimized ones, and falls back
to the model itself with a warning when they differ, when the model compiles to several graphs (a graph
break: the module `kernelopt optimize` wrote computes the first), when autograd would record the call (the
module computes no gradients), when a parameter or buffer assigned since (looked up again after any
assignment) no longer has the recorded shape, dtype or strides, when the model is in training mode with a layer
that computes otherwise there (the capture runs the model in eval mode), or when a plain value of its layers
(an init argument: an ELU's alpha, a pool's kernel size) differs from the one the module was optimized for,
then or later (set on the model after loading).

A model Dynamo splits into several graphs (a graph break: a `print`, an `.item()` the forward branches on, a
call Dynamo cannot trace) has no single module: `kernelopt.optimize` returns a BackendOptimizedModule, the model
compiled through the Dynamo backend (`torch.compile(model, backend="kernelopt")`) with the options given, every
graph the example inputs reach optimized at compile time and kept in the backend's cache, and says so in one line.
"""
from __future__ import annotations

import contextlib
import inspect
import json
import logging
import shutil
import sys
import tempfile
import warnings
import weakref
from pathlib import Path
from typing import Any, Callable, Iterable

import torch
import torch.utils._pytree as pytree
from torch.nn.modules.module import (register_module_buffer_registration_hook,
                                     register_module_module_registration_hook,
                                     register_module_parameter_registration_hook)

from kernelopt.backend.cache import cache_root
from kernelopt.backend.dynamo import GraphOutcome, recorded_graphs
from kernelopt.backend.options import KNOWN as BACKEND_OPTIONS
from kernelopt.capture.models import mode_dependent_layers, module_settings, training_layers_text
from kernelopt.errors import InputError
from kernelopt.optimize_job import SEVERAL_GRAPHS, OptimizeOptions, optimize_model
from kernelopt.runtime.graph_capture import graph_tensor_guard
from kernelopt.runtime.loader import load_output_module
from kernelopt.tensor_layout import layout_copy, strides_match


# Bumped whenever any module is assigned a parameter, a buffer or a submodule (torch's global registration
# hooks, installed by the first OptimizedModule): each one then looks its model's tensors up again, so a weight
# loaded by assignment or a replaced layer is what its module reads; between assignments a call pays no lookup.
_REGISTRATIONS = [0]
_COUNTING: list = []
_ABSENT = object()      # a watched plain value deleted from its layer
# Where a model of several graphs says what came of them: the backend's logger, beside its line per graph.
log = logging.getLogger("kernelopt.backend")
# Options of the job that shape a graph's search or module but that the backend takes no option for (it caches
# what it emits, and its outputs are AOTAutograd's): for a model of several graphs they are not applied.
_NOT_BACKEND_OPTIONS = ("no_cache", "outputs")


def _count_registration(*_args) -> None:
    _REGISTRATIONS[0] += 1      # returns None: torch registers the value unchanged


def _count_registrations() -> None:
    if not _COUNTING:
        _COUNTING.extend(register(_count_registration) for register in (
            register_module_parameter_registration_hook, register_module_buffer_registration_hook,
            register_module_module_registration_hook))


class OptimizedModule:
    def __init__(self, model, path: str, sidecar: dict, device: str):
        self.model = model
        self.path = path
        self.arguments = sidecar.get("arguments") or []
        self.forward_inputs = sidecar.get("forward_inputs") or []
        # the mode the capture ran the model in (modules written before the field: eval, as every capture did)
        captured_in_eval = sidecar.get("model_mode", "eval") == "eval"
        self._mode_dependent = mode_dependent_layers(model) if captured_in_eval else []
        self._loaded = load_output_module(path, device, hooks=False)  # run as written: no per-launch hook
        # A model built with other init arguments (an ELU's alpha, a pool's kernel size): the module computes
        # with the values it was optimized for, so such a model runs itself (a sidecar without them: no check).
        # the forward's result as it nests the module's outputs (a sidecar without it: a flat tuple, as before)
        structure = sidecar.get("output_structure") or {}
        self._output_spec = pytree.treespec_loads(structure["spec"]) if structure.get("spec") else None
        self._outputs_differ = structure.get("why")
        # outputs that are views of an input, a buffer or a parameter in the forward (capture.output_aliases):
        # made views of it again; the base is an input's position or a tensor's name
        self._output_aliases = [(a["output"], a.get("input", a.get("tensor")), tuple(a["shape"]),
                                 tuple(a["stride"]), a["offset"]) for a in structure.get("aliases") or ()]
        # the None, bool, int, float and str values the forward returns beside its tensors, by leaf position
        self._output_constants = {position: value for position, value in structure.get("constants") or ()}
        self._recorded_settings = (sidecar.get("model") or {}).get("settings")
        self._settings_at = None
        self._settings_mismatch: str | None = None
        self._settings_watch: list[tuple[dict, str, object, str]] = []
        # A graph break: the module computes the first of the model's graphs, whose outputs are not the model's.
        graphs = sidecar.get("graphs", 1)
        self._graph_break = (f"the model compiles to {graphs} graphs (a graph break) and {path} computes only the "
                             "first" if graphs > 1 else None)
        _count_registrations()
        self._named_at = None
        self._named: dict[str, torch.Tensor] = {}
        self._fast: _FastCall | None = None     # the checks of a call that passed them, for the next ones
        # (name, kind, shape, strides, dtype) of each parameter and buffer call() takes, as recorded
        self._tensor_layouts = [
            (entry["name"], entry["kind"], tuple(entry["shape"]),
             tuple(entry["stride"]) if "stride" in entry else None,
             getattr(torch, entry["dtype"], None) if "dtype" in entry else None)
            for entry in self.arguments if entry.get("kind") in ("parameter", "buffer") and "shape" in entry]

    def _settings_differ(self) -> str | None:
        """The first plain value of the model's layers that differs from the one the module was optimized for.
        All of them are compared when loaded and after any assignment of a layer (_REGISTRATIONS); between,
        each call compares the values it watches in their layers' __dict__ (`model.alpha = 2.0` is no
        assignment torch reports), a few dict lookups."""
        if self._recorded_settings is None:
            return None
        # while one differs the model runs, and a full comparison per call also sees it set back
        if self._settings_at != _REGISTRATIONS[0] or self._settings_mismatch is not None:
            self._settings_at = _REGISTRATIONS[0]
            self._settings_mismatch = _settings_mismatch(self._recorded_settings, self.model)
            if self._settings_mismatch is not None:
                return self._settings_mismatch
            layers = dict(self.model.named_modules())
            self._settings_watch = []
            for dotted in self._recorded_settings:
                owner, _, attr = dotted.rpartition(".")
                if owner in layers:
                    self._settings_watch.append((vars(layers[owner]), attr, vars(layers[owner]).get(attr), dotted))
        for namespace, attr, value, dotted in self._settings_watch:
            now = namespace.get(attr, _ABSENT)
            if now is not value and now != value:
                self._settings_mismatch = (f"the model's `{dotted}` is {'absent' if now is _ABSENT else repr(now)}, "
                                           f"optimized for {self._recorded_settings[dotted]} (compiled into the "
                                           "module as a constant)")
                return self._settings_mismatch
        return None

    def _current_tensors(self) -> dict[str, torch.Tensor]:
        """The model's parameters and buffers by name, looked up again after any assignment (see _REGISTRATIONS)."""
        if self._named_at != _REGISTRATIONS[0]:
            self._named_at = _REGISTRATIONS[0]
            self._named = dict(self.model.named_parameters(remove_duplicate=False))
            self._named.update(dict(self.model.named_buffers(remove_duplicate=False)))
        return self._named

    def _tensors_mismatch(self) -> str | None:
        """Why the module cannot read the model's parameters and buffers as they are now: one gone, or of another
        shape, dtype or strides (its call() asserts each argument's size and stride, its kernels read that
        dtype). Checked at each call: `.to(memory_format=...)` and `.data` swaps are no assignment torch reports."""
        named = self._current_tensors()
        for name, kind, shape, stride, dtype in self._tensor_layouts:
            tensor = named.get(name)
            if tensor is None:
                return f"the model has no {kind} `{name}` any more"
            if (tensor.shape != shape or (dtype is not None and tensor.dtype != dtype)
                    or (stride is not None and not strides_match(tensor, stride))):
                return (f"the model's `{name}` is {tuple(tensor.shape)} {tensor.dtype} with strides "
                        f"{tuple(tensor.stride())}, optimized for {shape} {str(dtype).replace('torch.', '')} with "
                        f"strides {stride}")
        return None

    def _shapes_match(self, inputs) -> str | None:
        tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
        expected = self.forward_inputs
        if len(inputs) != len(expected):
            return f"{len(inputs)} inputs, optimized for {len(expected)}"
        for i, (x, want) in enumerate(zip(inputs, expected)):
            # a Python number where a tensor was optimized (a 0-dim temperature): call() takes tensors only
            if not isinstance(x, torch.Tensor) and "shape" in want:
                return (f"input {i} is the {type(x).__name__} {x!r}, optimized for a {tuple(want['shape'])} "
                        f"{want.get('dtype')} tensor")
            if isinstance(x, torch.Tensor) and (list(x.shape) != list(want.get("shape", [])) or
                                                str(x.dtype).replace("torch.", "") != want.get("dtype")):
                return f"input {i} is {tuple(x.shape)} {x.dtype}, optimized for {tuple(want.get('shape', []))} {want.get('dtype')}"
            # The module's kernels index each input with the strides it was captured with (a transposed or
            # sliced input), and its call() asserts them: another layout of the same shape runs the model.
            if isinstance(x, torch.Tensor) and "stride" in want and not strides_match(x, want["stride"]):
                return (f"input {i} has strides {tuple(x.stride())}, optimized for {tuple(want['stride'])} "
                        f"(the same shape in another memory layout)")
            # A Python number (a scale, an eps) is a constant of the compiled graph, not a call() argument:
            # the module computes with the value it was optimized for, whatever the caller passes.
            if not isinstance(x, torch.Tensor) and "value" in want and repr(x) != want["value"]:
                return f"input {i} is {x!r}, optimized for {want['value']} (compiled into the module as a constant)"
        del tensors
        return None

    def call_args(self, inputs) -> list:
        return _fill(*self._argument_template(), inputs)

    def _argument_template(self) -> tuple[list, tuple[tuple[int, int], ...]]:
        """call()'s arguments with the model's parameters, buffers and scalars in place, and (slot, input position)
        for each input. Parameters go as they are: a call that reaches call() records nothing for autograd
        (_records_gradients), so what call() makes of them carries no grad either."""
        named = self._current_tensors()
        template, input_slots = [], []
        for entry in self.arguments:
            kind = entry.get("kind")
            if kind == "input":
                input_slots.append((len(template), entry["position"]))
                template.append(None)
            elif kind in ("parameter", "buffer"):
                template.append(named[entry["name"]])
            elif kind == "scalar":
                template.append(entry.get("value"))
            else:
                raise InputError(f"{self.path}: call() argument {entry.get('index')} is a {kind}; "
                                 "models split into several graphs are not supported by load() yet")
        return template, tuple(input_slots)

    def _mode_mismatch(self) -> str | None:
        return _eval_mode_only(self._mode_dependent, f"{self.path} was", "the optimized module")

    def _records_gradients(self, inputs) -> str | None:
        """The module's kernels compute no backward: a call autograd would record (a training step) runs the
        model, or `loss.backward()` would silently give its parameters and inputs no gradient."""
        return _inference_only(inputs, self._call_parameters, "the optimized module computes")

    def _call_parameters(self) -> list[tuple[str, torch.Tensor]]:
        named = self._current_tensors()
        return [(entry["name"], named[entry["name"]]) for entry in self.arguments
                if entry.get("kind") == "parameter" and entry.get("name") in named]

    def _in_forward_order(self, inputs: tuple, named: dict) -> tuple | str | None:
        """Keyword arguments put in the forward's positional order (the capture recorded the inputs by
        position); why not, when the forward takes them otherwise (keyword-only, **kwargs); None when the
        forward does not take this call at all (its own call raises the error)."""
        forward = self.model.forward if isinstance(self.model, torch.nn.Module) else self.model
        try:
            bound = inspect.signature(forward).bind(*inputs, **named)
        except (TypeError, ValueError):
            return None
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        others = [name for name in bound.arguments if bound.signature.parameters[name].kind not in positional]
        if others:
            return f"the forward takes `{others[0]}` otherwise than by position, as the module was optimized"
        return tuple(bound.arguments.values())

    def _as_recorded_views(self, outputs: list, inputs) -> list:
        """The outputs that are views of an input or of the model's buffer or parameter in the forward, made views
        of the caller's tensor (the module may return its own buffer with the same values: the tensor it updated
        in place, viewed before the update was written back). Their strides were checked against those recorded,
        so the recorded view is the same one."""
        for position, base_key, shape, stride, offset in self._output_aliases:
            base = inputs[base_key] if isinstance(base_key, int) else self._current_tensors().get(base_key)
            if base is None:     # a tensor the model no longer has: the module's own values stand
                continue
            if outputs[position].untyped_storage().data_ptr() != base.untyped_storage().data_ptr():
                outputs[position] = base.detach().as_strided(shape, stride, base.storage_offset() + offset)
        return outputs

    def __call__(self, *inputs, **named):
        fast = self._fast
        if fast is not None and not named and fast.at == _REGISTRATIONS[0] and fast.fits(inputs) \
                and self._settings_differ() is None and self._mode_mismatch() is None \
                and (not torch.is_grad_enabled() or self._records_gradients(inputs) is None):
            return self._finish(self._loaded.call(fast.arguments(inputs)), inputs)
        if named:
            ordered = self._in_forward_order(inputs, named)
            if not isinstance(ordered, tuple):
                if ordered is not None:
                    warnings.warn(f"kernelopt: {ordered}; running the original model instead", stacklevel=2)
                return self.model(*inputs, **named)
            inputs = ordered
        mismatch = (self._graph_break or self._outputs_differ or self._settings_differ() or self._mode_mismatch()
                    or self._tensors_mismatch() or self._shapes_match(inputs) or self._records_gradients(inputs))
        if mismatch is not None:
            warnings.warn(f"kernelopt: {mismatch}; running the original model instead", stacklevel=2)
            return self.model(*inputs)
        self._fast = fast = _FastCall.after(self, inputs)
        args = fast.arguments(inputs) if fast is not None else self.call_args(inputs)
        return self._finish(self._loaded.call(args), inputs)

    def _finish(self, result, inputs):
        """The forward's result from call()'s outputs: constants, views of inputs and the forward's nesting."""
        if self._output_constants:
            result = _with_constants(list(result), self._output_constants)
        if self._output_aliases:
            result = self._as_recorded_views(list(result), inputs)
        if self._output_spec is not None:
            return pytree.tree_unflatten(list(result), self._output_spec)
        return result[0] if len(result) == 1 else result


class _FastCall:
    """What a call that passed OptimizedModule's checks lets the next calls skip. While no layer, parameter or
    buffer was assigned since (_REGISTRATIONS), the parameters and buffers call() takes are the same tensors; one
    call of torch's C++ tensor guard (graph_capture.graph_tensor_guard, as a CUDA-graph key uses) then checks their and
    the inputs' sizes, strides, dtypes and devices at once (a `.data` swap or `.to(memory_format=...)` in place
    fails it, as would another input layout), and call()'s argument list is filled from a template instead of
    being looked up per argument. Anything else (the layers' settings and modes, grad mode) is checked as before;
    a call the guard refuses takes the full checks, and a passing one sets up the fast state again."""

    __slots__ = ("at", "guard", "tensors", "template", "input_slots", "n_inputs")

    def __init__(self, at, guard, tensors, template, input_slots, n_inputs):
        self.at, self.guard, self.tensors = at, guard, tensors
        self.template, self.input_slots, self.n_inputs = template, input_slots, n_inputs

    @classmethod
    def after(cls, module: "OptimizedModule", inputs) -> "_FastCall | None":
        if not all(isinstance(x, torch.Tensor) for x in inputs):
            return None             # a Python number is compared by value: the full checks do it
        template, input_slots = module._argument_template()
        tensors = tuple(t for t in template if isinstance(t, torch.Tensor))
        guard = graph_tensor_guard([*tensors, *inputs])
        if guard is None:           # no C++ guard in this torch: the full checks serve every call
            return None
        return cls(_REGISTRATIONS[0], guard, tensors, template, input_slots, len(inputs))

    def fits(self, inputs) -> bool:
        if len(inputs) != self.n_inputs:
            return False
        try:
            return self.guard.check(*self.tensors, *inputs)
        except TypeError:           # a non-tensor input
            return False

    def arguments(self, inputs) -> list:
        return _fill(self.template, self.input_slots, inputs)


def _fill(template: list, input_slots, inputs) -> list:
    """call()'s argument list: the template with the call's inputs in their slots."""
    args = template.copy()
    for slot, position in input_slots:
        args[slot] = inputs[position]
    return args


def _with_constants(tensors: list, constants: dict[int, Any]) -> list:
    """The forward's result leaves: the module's tensors in order, the recorded constants at their positions."""
    remaining = iter(tensors)
    return [constants[position] if position in constants else next(remaining)
            for position in range(len(tensors) + len(constants))]


class BackendOptimizedModule:
    """`kernelopt.optimize`'s result for a model Dynamo splits into several graphs: the model compiled through
    the Dynamo backend, each graph the example inputs reach already optimized (`graphs`: what came of each;
    `modules`: the emitted modules that run, in the backend's cache; `remark`: the line the user was told).

    Called like the model, it runs the compiled model with grad mode off, as its graphs were compiled (with it
    on Dynamo would compile them again), and, as OptimizedModule does, the model itself with a warning while a
    layer that computes otherwise in training mode is in it (the graphs were compiled in eval mode, as the
    capture runs) or when autograd would record the call. Anything else Dynamo guards on is Dynamo's: another
    shape compiles with symbolic sizes (Inductor's module runs for it), a branch the example inputs did not take
    or a changed setting of a layer compiles and is optimized at that call."""

    def __init__(self, model, compiled, graphs: list[GraphOutcome], remark: str):
        self.model = model
        self.compiled = compiled
        self.graphs = graphs
        self.modules = [graph.entry for graph in graphs if graph.emitted]
        self.remark = remark
        self._mode_dependent = mode_dependent_layers(model)

    def _parameters(self) -> Iterable[tuple[str, torch.Tensor]]:
        return self.model.named_parameters() if isinstance(self.model, torch.nn.Module) else ()

    def __call__(self, *inputs, **named):
        mismatch = (_eval_mode_only(self._mode_dependent, "its graphs were", "them")
                    or _inference_only([*inputs, *named.values()], self._parameters, "the optimized graphs compute"))
        if mismatch is not None:
            warnings.warn(f"kernelopt: {mismatch}; running the original model instead", stacklevel=2)
            return self.model(*inputs, **named)
        with torch.no_grad():
            return self.compiled(*inputs, **named)


def _eval_mode_only(mode_dependent: list, optimized: str, use: str) -> str | None:
    """Why the model must run itself while one of its layers that compute otherwise in training mode is in it."""
    training = [name for name, layer in mode_dependent if layer.training]
    if not training:
        return None
    return (f"{optimized} optimized with the model in eval mode, and {training_layers_text(training)}; "
            f"call model.eval() to use {use}")


def _inference_only(inputs, parameters: Callable[[], Iterable[tuple[str, torch.Tensor]]],
                    computes: str) -> str | None:
    """Why a call autograd would record (grad mode on, and an input or one of `parameters()` requiring grad)
    must run the model: optimized for inference, `computes` no gradients. None for any other call."""
    if not torch.is_grad_enabled():
        return None
    needs = next((f"input {i}" for i, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad),
                 None) or next((f"`{name}`" for name, tensor in parameters() if tensor.requires_grad), None)
    if needs is None:
        return None
    return (f"autograd is recording and {needs} requires grad: {computes} no gradients (call it under "
            "torch.no_grad() or torch.inference_mode(); torch.compile(model, backend='kernelopt') trains with "
            "optimized kernels)")


def _settings_mismatch(recorded: dict | None, model) -> str | None:
    """The first plain value of `model`'s layers that differs from the one the module was optimized for."""
    if recorded is None:
        return None
    current = module_settings(model)
    for name in sorted(set(recorded) | set(current)):
        if recorded.get(name) != current.get(name):
            return (f"the model's `{name}` is {current.get(name, 'absent')}, optimized for "
                    f"{recorded.get(name, 'absent')} (compiled into the module as a constant)")
    return None


def load(path: str, model, device: str | None = None) -> OptimizedModule:
    """Load an optimized module written by `kernelopt optimize` (with its .json beside it)."""
    if not Path(path).is_file():
        raise InputError(f"{path}: no such file (expected a module written by `kernelopt optimize`, with its "
                         ".json beside it)")
    sidecar_path = Path(path).with_suffix(".json")
    try:
        sidecar = json.loads(sidecar_path.read_text())
    except (OSError, ValueError) as err:
        raise InputError(f"{sidecar_path}: cannot read the argument mapping written by `kernelopt optimize` "
                         f"({err})") from None
    return OptimizedModule(model, str(path), sidecar, device or sidecar.get("device", "cpu"))


def optimize(model, example_inputs, *, output: str | None = None,
             **options: Any) -> OptimizedModule | BackendOptimizedModule:
    """Optimize `model` for `example_inputs`; options are those of `kernelopt optimize`. A model Dynamo splits
    into several graphs comes back compiled through the Dynamo backend, every graph optimized."""
    inputs = _example_list(example_inputs)
    holder = sys.modules.setdefault("kernelopt_api_models", type(sys)("kernelopt_api_models"))
    key = f"model_{id(model)}"
    # A forward that updates its inputs or buffers in place (a running mean) would leave the caller's
    # model updated by every run the capture makes: each hand-over starts from the caller's values again.
    state = _CallerState(model, inputs)
    setattr(holder, key, lambda: (state.restore(), model, inputs)[1:])
    verbose = bool(options.pop("verbose", False))
    entry = f"kernelopt_api_models:{key}"
    opts = OptimizeOptions(entry=entry, **options)
    backend = _backend_options(options)
    # the capture runs the model in eval mode; the caller's model keeps the mode of each of its layers
    modes = [(layer, layer.training) for layer in model.modules()] if isinstance(model, torch.nn.Module) else []
    with contextlib.ExitStack() as cleanup:
        # Without `output`, the module's own folder in the temp dir: removed with the module that runs from it
        # (collected, or at exit), or now when the job fails or writes no module (several graphs).
        folder = None if output else tempfile.mkdtemp(prefix="kernelopt-")
        if folder is not None:
            cleanup.callback(shutil.rmtree, folder, ignore_errors=True)
        path = output or str(Path(folder) / "optimized.py")
        try:
            result = optimize_model(None, path, opts, stream=sys.stderr if verbose else None,
                                    stop_at_graph_break=True)
            if result.status == SEVERAL_GRAPHS:
                compiled, graphs = _compile_every_graph(model, inputs, backend)
        except InputError as err:   # the job names the model by its internal entry: name it as the user knows it
            raise type(err)(str(err).replace(entry, f"kernelopt.optimize({type(model).__name__})")) from None
        finally:
            state.restore()
            for layer, training in modes:
                layer.training = training
        if result.status != SEVERAL_GRAPHS:
            optimized = load(str(result.output), model)
            if folder is not None:
                cleanup.pop_all()
                weakref.finalize(optimized, shutil.rmtree, folder, ignore_errors=True)
            return optimized
    remark = _several_graphs_remark(result.graphs, graphs, backend, options, output)
    # Worth a warning: a named output, which the caller may load later, holds nothing; or no graph was compiled
    # (Dynamo's recompile limit: the model runs as Dynamo runs it). Otherwise it is news.
    log.log(logging.WARNING if output or not graphs else logging.INFO, "%s", remark)
    if verbose:
        sys.stderr.write(f"kernelopt optimize: {remark}\n")
    return BackendOptimizedModule(model, compiled, graphs, remark)


def _backend_options(options: dict) -> dict:
    """The options of torch.compile(backend="kernelopt") for kernelopt.optimize's: those the backend takes (the
    same names), searching at compile time, so that every graph is optimized once the warm-up call returns."""
    return {name: value for name, value in options.items() if name in BACKEND_OPTIONS} | {"search": "blocking"}


def _compile_every_graph(model, inputs: list, backend: dict) -> tuple[Any, list[GraphOutcome]]:
    """The model compiled through the Dynamo backend, called once on the example inputs as the capture ran them
    (eval mode, grad mode off), and what came of each graph Dynamo compiled."""
    compiled = torch.compile(model, backend="kernelopt", options=backend)
    if isinstance(model, torch.nn.Module):
        model.eval()
    with recorded_graphs() as graphs, torch.no_grad():
        compiled(*inputs)
    return compiled, graphs


def _several_graphs_remark(captured: int, graphs: list[GraphOutcome], backend: dict, options: dict,
                           output: str | None) -> str:
    """The one line that tells the caller of kernelopt.optimize what was done with a model of several graphs."""
    searched = sum(graph.entry is not None for graph in graphs)
    each = "; ".join(f"{graph.part}: " + (f"{graph.rewrites} kernel(s) rewritten, module {graph.entry.stem[:12]}"
                                          if graph.emitted else graph.detail) for graph in graphs)
    text = (f"kernelopt.optimize: the model compiles to {captured} graphs (graph breaks), so it runs through "
            f"torch.compile(model, backend='kernelopt', options={backend!r}), which optimized {searched} of the "
            f"{len(graphs)} graph(s) the example inputs reached at compile time ({each}); the modules are in the "
            f"backend's cache, {cache_root()}, where the same torch.compile finds them in another process"
            if graphs else
            f"kernelopt.optimize: the model compiles to {captured} graphs (graph breaks), but Dynamo compiled none "
            f"of them through torch.compile(model, backend='kernelopt', options={backend!r}) when the example "
            "inputs ran (its own warnings say why, e.g. its recompile limit): the model runs as Dynamo runs it")
    if output:
        text += f"; no single module computes the model, so none is written to {output}"
    unapplied = [name for name in _NOT_BACKEND_OPTIONS if name in options]
    if unapplied:
        text += f"; not applied to its graphs (the backend takes no such option): {', '.join(unapplied)}"
    return text


class _CallerState:
    """The caller's tensor inputs and the model's buffers as they were before the job ran the forward: the
    ones the forward changed in place are put back (parameters are not copied: a forward rarely updates
    them, and they are most of a model's memory)."""

    def __init__(self, model, inputs: list) -> None:
        tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
        if isinstance(model, torch.nn.Module):
            tensors += list(model.buffers())
        # kept on the host: the copies must not take device memory from the job (issue 18)
        self.saved = [[t, t._version, layout_copy(t.detach(), "cpu")] for t in tensors if not t.is_inference()]

    def restore(self) -> None:
        for entry in self.saved:
            tensor, version, copy = entry
            if tensor._version != version:
                with torch.no_grad():
                    tensor.copy_(copy)
                entry[1] = tensor._version


def _example_list(example_inputs) -> list:
    """The forward's inputs as a list: a bare tensor is one input; anything but a list or tuple is refused."""
    if isinstance(example_inputs, torch.Tensor):
        return [example_inputs]
    if not isinstance(example_inputs, (list, tuple)):
        raise InputError(f"kernelopt.optimize(model, example_inputs): example_inputs must be the forward's "
                         f"inputs as a list or tuple (e.g. [x] or (x, mask)), got {type(example_inputs).__name__}")
    return list(example_inputs)
