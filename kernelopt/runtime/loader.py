"""Load an output module (Inductor's, captured for CUDA or CPU, or KernelOPT's) and run it.

`load_output_module(path, device)` executes the module's source in a fresh namespace:
- on "cpu", the syntax tree is rewritten first (`cpu_rewrite.py`): CUDA-only calls go to CPU stand-ins
  (`cpu_shims.py`) and `async_compile.triton(...)` compiles each kernel for the Triton interpreter
  (`cpu_kernel.py`); vendor calls (`extern_kernels.mm/addmm/bmm/convolution/...`) already accept CPU
  tensors and run as the same torch ops;
- on "cuda", the module runs as it is.
Either way every Triton kernel global is wrapped so that each launch goes through `launch_hook`.
"""
from __future__ import annotations

import ast
import inspect
import os
import textwrap
from dataclasses import dataclass
from typing import Any, Callable

import torch

from kernelopt.errors import InputError
from kernelopt.inductor_source import dotted_name
from kernelopt.runtime.autotuner_pin import pin_autotuner, without_autotune_cache
from kernelopt.runtime.cpu_kernel import InterpretedKernel
from kernelopt.runtime.cpu_rewrite import RUNTIME_NAME, rewrite_for_cpu
from kernelopt.runtime.cpu_shims import CpuRuntime
from kernelopt.user_files import read_text

LaunchHook = Callable[[str, int, tuple, Callable[[], None]], None]
DEVICES = ("cpu", "cuda")


def default_launch_hook(kernel_name: str, launch_index: int, args: tuple, run_original: Callable[[], None]) -> None:
    run_original()


@dataclass
class ArgSpec:
    """One `call(args)` argument as the module declares it (get_args / assert_size_stride)."""

    index: int
    name: str
    sizes: tuple | None = None
    strides: tuple | None = None
    dtype: torch.dtype | None = None
    is_tensor: bool = True


@dataclass
class LaunchSite:
    """A kernel launch written in `call()`: `kernel.run(...)` or `kernel[grid](...)`."""

    kernel_name: str
    line: int
    text: str


class KernelHandle:
    """One Triton kernel of a loaded module, runnable alone with its `.run(...)` arguments."""

    def __init__(self, name: str, target: Any, device: str) -> None:
        self.name = name
        self.target = target  # InterpretedKernel (cpu), CachingAutotuner (cuda) or a jit function
        self.device = device
        # A bare @triton.jit kernel (a module KernelOPT emitted) takes its grid and constexprs from the launch
        # site: each launch seen is remembered by the shapes and scalars of its arguments, so that `run(*args)`
        # repeats it as Inductor's `.run(*args)` would.
        self.seen_launches: dict[tuple, tuple[Any, dict]] = {}

    def remember_launch(self, grid: Any, args: tuple, kwargs: dict) -> None:
        self.seen_launches[_launch_key(args)] = (grid, dict(kwargs))

    @property
    def kind(self) -> str:
        return getattr(self.target, "kind", type(self.target).__name__)

    @property
    def source(self) -> str | None:
        return getattr(self.target, "source", None)

    @property
    def config(self) -> dict | None:
        """The launch config used on the CPU (block sizes, num_warps, num_stages)."""
        config = getattr(self.target, "config", None)
        return config.as_meta() if hasattr(config, "as_meta") else None

    @property
    def config_choice(self) -> str | None:
        """How `config` was picked from Inductor's heuristic configs (see kernels.CONFIG_CHOICE)."""
        return getattr(self.target, "config_choice", None)

    @property
    def arg_names(self) -> list[str] | None:
        names = getattr(self.target, "positional_names", None)
        return list(names) if names is not None else None

    def pin_config(self, meta: dict) -> bool:
        """Restrict this kernel's Inductor autotuner (CUDA) to the configuration `meta` names, the one the
        capture recorded Inductor's autotuner chose (autotuner_pin.pin_autotuner says how and why);
        whether the kernel now runs at `meta`."""
        return self.device == "cuda" and pin_autotuner(self.target, meta)

    def choices(self) -> int:
        """How many configurations this kernel's autotuner still chooses among (its compiled launchers, or
        its configs before compiling); 0 for a kernel without an autotuner."""
        target = self.target
        return max(len(getattr(target, "launchers", None) or ()), len(getattr(target, "configs", None) or ()))

    def grid(self, *args) -> tuple[int, int, int]:
        return self.target.grid(*args)

    def run(self, *args, grid=None, **kwargs) -> None:
        """Launch with the module's positional `.run(...)` arguments; `grid=` only for bare jit kernels."""
        if hasattr(self.target, "run") and not _is_bare_jit(self.target):
            if self.device == "cuda" and "stream" not in kwargs:
                kwargs["stream"] = torch.cuda.current_stream().cuda_stream
            with torch.no_grad():
                self.target.run(*args, **kwargs)
            return
        if grid is None:
            seen = self.seen_launches.get(_launch_key(args))
            if seen is None:
                raise InputError(f"kernel {self.name} is a bare @triton.jit function not launched with these "
                                 "argument shapes by the module: pass grid=(...)")
            grid, kwargs = seen[0], {**seen[1], **kwargs}
        self.target[grid](*args, **kwargs)


def _launch_key(args) -> tuple:
    """What fixes a launch's grid and constexprs: its tensors' shapes and its scalar values (not dtypes: the
    float64 reference of a kernel launches like the kernel)."""
    return tuple(tuple(a.shape) if isinstance(a, torch.Tensor) else a for a in args)


def _is_bare_jit(obj: Any) -> bool:
    try:
        # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
        from triton.runtime.jit import JITFunction
        from triton.runtime.interpreter import InterpretedFunction
    except ImportError:  # pragma: no cover
        return False
    return isinstance(obj, (JITFunction, InterpretedFunction))


def _is_kernel(obj: Any) -> bool:
    if isinstance(obj, InterpretedKernel) or _is_bare_jit(obj):  # bare: the kernels of an emitted module
        return True
    try:
        # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
        from triton.runtime.jit import KernelInterface
    except ImportError:  # pragma: no cover
        return False
    return isinstance(obj, KernelInterface)


def _kernel_source(kernel: Any) -> str | None:
    source = getattr(kernel, "src", None)
    if isinstance(source, str):
        return source
    try:
        return inspect.getsource(getattr(kernel, "fn", kernel))
    except (OSError, TypeError):
        return None


def _device_helpers(kernels: dict[str, Any]) -> set[str]:
    """Names of the kernels that another kernel's source calls."""
    called: set[str] = set()
    for name, kernel in kernels.items():
        source = _kernel_source(kernel)
        if not source:
            continue
        try:
            tree = ast.parse(textwrap.dedent(source))
        except SyntaxError:
            continue
        called |= {node.func.id for node in ast.walk(tree)
                   if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id != name}
    return called & set(kernels)


class _HookedKernel:
    """Stands in for a kernel global: every launch goes through the module's launch hook."""

    def __init__(self, module: "LoadedModule", name: str, target: Any) -> None:
        self._module = module
        self._name = name
        self._target = target

    def run(self, *args, **kwargs):
        self._module._dispatch(self._name, args, lambda: self._target.run(*args, **kwargs))

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            self._module.kernels[self._name].remember_launch(grid, args, kwargs)
            self._module._dispatch(self._name, args, lambda: self._target[grid](*args, **kwargs))

        return launch

    def __getattr__(self, name: str):
        return getattr(self._target, name)


class LoadedModule:
    """An executed output module: `.call(args)`, `.kernels`, `.launch_hook`, `.arg_specs`."""

    def __init__(self, path: str, device: str, namespace: dict, tree: ast.Module, hooks: bool = True) -> None:
        self.path = path
        self.device = device
        self.namespace = namespace
        self.launch_hook: LaunchHook | None = None
        self.kernels: dict[str, KernelHandle] = {}
        # set by legality.module.float64_module: its kernels take their read-only float inputs in their
        # own dtype (the rest in float64)
        self.native_inputs = False
        self._launch_index = 0
        self.hooked = hooks
        self._wrap_kernels(hooks)
        self.arg_specs: list[ArgSpec] = parse_arg_specs(tree)
        self.launch_sites: list[LaunchSite] = parse_launch_sites(tree, set(self.kernels), self._source)

    @property
    def _source(self) -> str:
        return read_text(self.path, _EXPECTED)

    def _wrap_kernels(self, hooks: bool) -> None:
        found = {name: value for name, value in self.namespace.items()
                 if not name.startswith("__") and _is_kernel(value)}
        # A @triton.jit function that another kernel calls is a device helper: Triton resolves it in the
        # module's globals when it compiles the caller, so it must stay the JIT function itself.
        helpers = _device_helpers(found) if hooks else set()
        for name, value in found.items():
            self.kernels[name] = KernelHandle(name, value, self.device)
            if hooks and name not in helpers:
                self.namespace[name] = _HookedKernel(self, name, value)

    def _dispatch(self, kernel_name: str, args: tuple, run_original: Callable[[], None]) -> None:
        index = self._launch_index
        self._launch_index += 1
        hook = self.launch_hook or default_launch_hook
        hook(kernel_name, index, tuple(args), run_original)

    @property
    def has_get_args(self) -> bool:
        return callable(self.namespace.get("get_args"))

    def get_args(self) -> list:
        """The module's own example inputs (`get_args()`), on this module's device."""
        if not self.has_get_args:
            raise InputError(f"{self.path}: the module has no get_args(); pass inputs explicitly")
        return list(self.namespace["get_args"]())

    def bind_call(self, setter: Callable[[Callable], None]) -> None:
        """Point `setter` at the module's `call` as its user calls it, now and whenever the module rebinds it
        (a module emitted with CUDA graphs points its `call` at the plain launches once graphs are off for
        good): the holder then calls the module with no frame of KernelOPT's in between, as Inductor's own
        module is called. `.call()` below is for tools: no_grad, a copied argument list, a tuple, hooks."""
        call = self.namespace.get("call")
        if not callable(call):
            raise InputError(f"{self.path}: the module defines no call(args)")
        setter(call)
        graphs = self.namespace.get("cuda_graphs")
        if graphs is not None and callable(getattr(graphs, "add_rebinder", None)):
            graphs.add_rebinder(setter)

    def call(self, args) -> tuple:
        """Run `call(args)` (launch indices restart at 0); returns the module's result tuple."""
        call = self.namespace.get("call")
        # A module emitted with CUDA graphs: a replay runs no Python, so a launch hook would see nothing;
        # with hooks the plain launches run (`call_plain`), without them the module as its user runs it.
        if self.hooked and callable(self.namespace.get("call_plain")):
            call = self.namespace["call_plain"]
        if not callable(call):
            raise InputError(f"{self.path}: the module defines no call(args)")
        self._launch_index = 0
        with torch.no_grad():
            result = call(list(args))
        return tuple(result) if isinstance(result, (tuple, list)) else (result,)


# What a module given to run, bench or kernelopt.load must be, for read_text's messages.
_EXPECTED = "an output module (Python source)"


def _read_tree(path: str) -> tuple[str, ast.Module]:
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    source = read_text(path, _EXPECTED)   # a non-UTF-8 byte: a located InputError, not a UnicodeDecodeError
    try:
        return source, ast.parse(source, filename=path)
    except SyntaxError as err:
        raise InputError(f"{path}:{err.lineno}: not a Python module: {err.msg}") from None


def load_output_module(path: str, device: str = "cpu", hooks: bool = True,
                       autotune_cache: bool = True) -> LoadedModule:
    """Execute the output module at `path` for `device` ("cpu" through the Triton interpreter, or "cuda").

    hooks           route every launch through `LoadedModule.launch_hook` (what the legality gate, the
                    profiler and the search use to see launches); False runs the module exactly as written,
                    for timing and for the drop-in API, where a Python hook per launch would only add host
                    time.
    autotune_cache  False: Inductor's kernels do not read its autotune cache, so each keeps every
                    configuration its heuristics list (KernelHandle.pin_config can then pin the one a
                    capture recorded; a cache hit from an earlier run on this machine leaves only its own
                    pick, and the pin could not take)."""
    if device not in DEVICES:
        raise InputError(f"unknown device {device!r}: use one of {', '.join(DEVICES)}")
    if device == "cuda" and not torch.cuda.is_available():
        raise InputError("device 'cuda' requested but no CUDA GPU is available here")
    if device == "cuda":
        # lazy: the CPU shims need numpy (not a dependency of kernelopt); a GPU run must not need it
        from kernelopt.runtime.interpret import cpu_shims_installed

        if cpu_shims_installed():
            raise InputError("this process runs Triton through the CPU interpreter (install_cpu_triton_shims "
                             "was called): load CUDA modules in a separate process")
    source, tree = _read_tree(path)
    if not autotune_cache and device == "cuda":
        source = without_autotune_cache(source)
        tree = ast.parse(source, filename=path)
    namespace: dict[str, Any] = {"__name__": f"kernelopt_output_module_{abs(hash(path))}",
                                 "__file__": os.path.abspath(path), "__builtins__": __builtins__}
    if device == "cpu":
        # lazy: the CPU shims need numpy (not a dependency of kernelopt); only CPU runs load them
        from kernelopt.runtime.interpret import install_cpu_triton_shims

        install_cpu_triton_shims()
        namespace[RUNTIME_NAME] = CpuRuntime()
        executable = rewrite_for_cpu(ast.parse(source, filename=path))
    else:
        executable = tree
    try:
        exec(compile(executable, os.path.abspath(path), "exec"), namespace)
    except InputError:
        raise
    except Exception as err:
        raise InputError(f"{path}: loading the module failed: {type(err).__name__}: {err}") from err
    if device == "cpu":
        # lazy: the interpreter's shims import triton, which must load after TRITON_INTERPRET is set
        from kernelopt.runtime.interpret import use_fast_helpers

        use_fast_helpers(namespace.get("triton_helpers"))   # an emitted module ships its own helpers
    return LoadedModule(path, device, namespace, tree, hooks)


# --------------------------------------------------------------------------------------------
# static facts about the module, read from its syntax tree
# --------------------------------------------------------------------------------------------

def _find_call_function(tree: ast.Module) -> ast.FunctionDef | None:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "call":
            return node
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "call":
                    return item
    return None


def _argument_names(call: ast.FunctionDef) -> list[str]:
    parameter = call.args.args[-1].arg if call.args.args else "args"
    for node in ast.walk(call):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == parameter:
            target = node.targets[0]
            if isinstance(target, (ast.Tuple, ast.List)):
                return [elt.id for elt in target.elts if isinstance(elt, ast.Name)]
            if isinstance(target, ast.Name):
                return [target.id]
    return []


def _literal(node: ast.AST):
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError):
        return None
    return tuple(value) if isinstance(value, (tuple, list)) else None


def _torch_dtype(node: ast.AST) -> torch.dtype | None:
    name = dotted_name(node)
    if name.startswith("torch."):
        value = getattr(torch, name.split(".", 1)[1], None)
        return value if isinstance(value, torch.dtype) else None
    return None


def parse_arg_specs(tree: ast.Module) -> list[ArgSpec]:
    """Argument names (call's unpacking), sizes/strides (assert_size_stride), dtypes (get_args)."""
    call = _find_call_function(tree)
    if call is None:
        return []
    specs = {name: ArgSpec(i, name) for i, name in enumerate(_argument_names(call))}
    for node in ast.walk(call):
        if (isinstance(node, ast.Call) and dotted_name(node.func) == "assert_size_stride" and len(node.args) >= 3
                and isinstance(node.args[0], ast.Name) and node.args[0].id in specs):
            spec = specs[node.args[0].id]
            spec.sizes, spec.strides = _literal(node.args[1]), _literal(node.args[2])
    get_args = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "get_args"), None)
    for node in ast.walk(get_args) if get_args else ():
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
            continue
        spec = specs.get(node.targets[0].id)
        if spec is None:
            continue
        value = node.value
        if isinstance(value, ast.Call) and dotted_name(value.func).endswith("rand_strided"):
            if spec.sizes is None and len(value.args) >= 2:
                spec.sizes, spec.strides = _literal(value.args[0]), _literal(value.args[1])
            for kw in value.keywords:
                if kw.arg == "dtype":
                    spec.dtype = _torch_dtype(kw.value)
        elif isinstance(value, ast.Constant):
            spec.is_tensor = False
    return sorted(specs.values(), key=lambda s: s.index)


def parse_launch_sites(tree: ast.Module, kernel_names: set[str], source: str) -> list[LaunchSite]:
    """Every `kernel.run(...)` / `kernel[grid](...)` in call(), in source order."""
    call = _find_call_function(tree)
    sites = []
    for node in ast.walk(call) if call else ():
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = None
        if isinstance(func, ast.Attribute) and func.attr == "run" and isinstance(func.value, ast.Name):
            name = func.value.id
        elif isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name):
            name = func.value.id
        if name in kernel_names:
            sites.append(LaunchSite(name, node.lineno, ast.get_source_segment(source, node) or ""))
    return sorted(sites, key=lambda s: s.line)
