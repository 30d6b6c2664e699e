"""One Inductor Triton kernel, compiled for the CPU interpreter, launched the way the module would.

Inductor wraps each kernel in a `@triton_heuristics.<kind>(...)` decorator that builds a
`CachingAutotuner`: it compiles for a GPU and benchmarks configs. On the CPU we drop that
decorator, keep its arguments (size hints, triton_meta, inductor_meta), ask the same heuristic for
its config list (so block sizes are ones Inductor considers valid for this kernel), pick one
deterministically, and launch the interpreted `@triton.jit` function with Inductor's own grid
expression (`GridExpr.from_meta`) evaluated on the launch arguments.

Config choice ("most-work-per-program"): the config with the largest product of block sizes, ties
broken by Inductor's order. Every config Inductor lists is correct for the kernel; the interpreter
runs one program at a time, so fewer, larger programs are much faster on the CPU.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import math
import os
import tempfile
from dataclasses import dataclass, field
from typing import Any

from kernelopt.errors import InputError
from kernelopt.inductor_decorator import DecoratorOrigin, InductorDecorator
from kernelopt.inductor_source import dotted_name

CONFIG_CHOICE = "most-work-per-program"
_BLOCK_NAMES = ("XBLOCK", "YBLOCK", "ZBLOCK", "R0_BLOCK", "R1_BLOCK", "RBLOCK")


@dataclass
class HeuristicCall:
    """The `@triton_heuristics.<kind>(...)` decorator of a kernel, removed from its source."""

    kind: str
    expression: str  # the decorator call, as source text
    line: int = 1    # its first line in the kernel source


@dataclass
class LaunchConfig:
    kwargs: dict[str, Any]
    num_warps: int | None = None
    num_stages: int | None = None

    def as_meta(self) -> dict[str, Any]:
        meta = dict(self.kwargs)
        if self.num_warps is not None:
            meta["num_warps"] = self.num_warps
        if self.num_stages is not None:
            meta["num_stages"] = self.num_stages
        return meta


@dataclass
class InterpretedKernel:
    """An Inductor kernel running on the CPU; `.run(*args, stream=...)` as in the module."""

    name: str
    source: str
    fn: Any
    kind: str
    size_hints: Any
    triton_meta: dict
    inductor_meta: dict
    configs: list[LaunchConfig]
    config: LaunchConfig
    config_choice: str
    arg_names: list[str] = field(default_factory=list)

    @property
    def positional_names(self) -> list[str]:
        """Names of the `.run(...)` positional arguments, in order (as Inductor's launcher)."""
        names = [n for n in self.arg_names if n not in self.config.kwargs]
        return names + list(self.inductor_meta.get("extra_launcher_args", ()))

    def bind(self, args: tuple) -> dict[str, Any]:
        names = self.positional_names
        if len(args) != len(names):
            raise InputError(f"kernel {self.name}: expected {len(names)} launch arguments "
                             f"({', '.join(names)}), got {len(args)}")
        return dict(zip(names, args))

    def grid(self, *args, grid=None) -> tuple[int, int, int]:
        """The launch grid for these `.run` arguments, computed as Inductor's launcher does."""
        bound = self.bind(tuple(args))
        meta = {**bound, **self.config.as_meta()}
        if grid is not None:  # older modules pass grid=... at the call site
            value = grid(meta) if callable(grid) else grid
            return tuple(int(v) for v in value) + (1,) * (3 - len(value))
        # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
        from torch._inductor.runtime.triton_heuristics import GridExpr

        expr = GridExpr.from_meta(self.inductor_meta, self.config.as_meta())
        return tuple(int(v) for v in expr.eval_slow(meta))

    def run(self, *args, stream=None, grid=None, **kwargs):
        bound = self.bind(args)
        launch_grid = self.grid(*args, grid=grid)
        kernel_args = {n: v for n, v in bound.items() if n in self.arg_names}
        self.fn[launch_grid](**kernel_args, **self.config.kwargs)


def _kernel_cache_dir() -> str:
    path = os.path.join(tempfile.gettempdir(), f"kernelopt-kernels-{os.getuid()}")
    os.makedirs(path, exist_ok=True)
    return path


def _drop_driver_selection(tree: ast.Module) -> None:
    """`triton_helpers.set_driver_to_gpu()` needs a GPU driver; the interpreter needs none."""
    def selects_driver(statement: ast.stmt) -> bool:
        return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
                and dotted_name(statement.value.func).startswith("triton_helpers.set_driver_to_"))

    tree.body = [s for s in tree.body if not selects_driver(s)]


def _split_heuristic(tree: ast.Module, source: str, name: str) -> tuple[ast.FunctionDef, HeuristicCall | None]:
    """Find the jit function and take its heuristic decorator off (returned separately)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            heuristic = None
            kept = []
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                dotted = dotted_name(target)
                if dotted.startswith("triton_heuristics.") and isinstance(deco, ast.Call):
                    heuristic = HeuristicCall(dotted.split(".", 1)[1], ast.get_source_segment(source, deco),
                                              deco.lineno)
                else:
                    kept.append(deco)
            node.decorator_list = kept
            return node, heuristic
    raise InputError(f"kernel {name}: no function named {name} in its source")


def _heuristic_configs(name: str, heuristic: HeuristicCall, module_file: str) -> tuple[dict, list[LaunchConfig]]:
    """Read the decorator call (never executing it): its keyword arguments, and the configs Inductor's
    heuristic would autotune."""
    decorator = InductorDecorator(heuristic.expression, name, DecoratorOrigin(f"<kernel {name}>", heuristic.line),
                                  file_value=module_file)
    configs = [LaunchConfig(dict(c.kwargs), getattr(c, "num_warps", None), getattr(c, "num_stages", None))
               for c in decorator.config_list()]
    return decorator.keywords(), configs


def _fallback_config(arg_names: list[str], size_hints: Any) -> LaunchConfig:
    hints = size_hints if isinstance(size_hints, dict) else {}
    kwargs = {}
    for name in arg_names:
        if name in _BLOCK_NAMES:
            prefix = name[:-5].lower() if name != "RBLOCK" else "r0_"
            hint = hints.get(prefix, hints.get(prefix + "_", 1))
            kwargs[name] = min(1 << max(0, math.ceil(math.log2(max(1, hint)))), 1024)
    return LaunchConfig(kwargs)


def _work_per_program(config: LaunchConfig) -> int:
    return math.prod(int(v) for k, v in config.kwargs.items() if k in _BLOCK_NAMES and isinstance(v, int))


def choose_config(configs: list[LaunchConfig]) -> LaunchConfig:
    best = configs[0]
    for candidate in configs[1:]:
        if _work_per_program(candidate) > _work_per_program(best):
            best = candidate
    return best


def compile_interpreted_kernel(name: str, source: str) -> InterpretedKernel:
    """Compile one `async_compile.triton(name, source)` kernel for the Triton interpreter."""
    # lazy: the CPU shims need numpy (not a dependency of kernelopt); only CPU runs load them
    from kernelopt.runtime.interpret import install_cpu_triton_shims

    install_cpu_triton_shims()
    tree = ast.parse(source)
    func, heuristic = _split_heuristic(tree, source, name)
    _drop_driver_selection(tree)
    cpu_source = ast.unparse(tree) + "\n"
    digest = hashlib.sha256(cpu_source.encode()).hexdigest()[:24]
    path = os.path.join(_kernel_cache_dir(), f"{name}_{digest}.py")
    if not os.path.exists(path):
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "w") as handle:
            handle.write(cpu_source)
        os.replace(temporary, path)
    spec = importlib.util.spec_from_file_location(f"kernelopt_kernel_{name}_{digest}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, name)
    arg_names = [a.arg for a in func.args.args]
    if heuristic is None:
        keywords, configs, kind = {}, [], "jit"
    else:
        keywords, configs = _heuristic_configs(name, heuristic, path)
        kind = heuristic.kind
    choice = CONFIG_CHOICE
    if not configs:
        configs = [_fallback_config(arg_names, keywords.get("size_hints"))]
        choice = "fallback: next power of two of each size hint, at most 1024"
    return InterpretedKernel(
        name=name, source=source, fn=fn, kind=kind, size_hints=keywords.get("size_hints"),
        triton_meta=keywords.get("triton_meta") or {}, inductor_meta=keywords.get("inductor_meta") or {},
        configs=configs, config=choose_config(configs), config_choice=choice, arg_names=arg_names,
    )
