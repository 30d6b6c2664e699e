"""Launch configurations: which block sizes, num_warps and num_stages each launch gets.

Never a blind default. In order of preference:
1. the launch attr `config` already in the IR (from the capture: the autotuner's choice, put there by
   the lifter or by `apply_recorded_configs`). Under policy `autotune` a recorded choice is *retimed*
   (`retime_recorded`, the default): it is the first of the configs the emitted module times at the
   kernel's first launch, beside Inductor's list, as Inductor's runtime does in every process. A
   recorded pick is one process's noisy benchmark: on an H100 an exclusive scan's recorded split-scan
   configuration ran 1.2x slower than the one a fresh process picked, and an emitted module pinned to
   it lost to the Inductor module it came from. A launch the search rewrote keeps its measured config;
2. otherwise the kernel's own heuristic configs: the list Inductor's `@triton_heuristics.<kind>`
   would autotune over, from the decorator in the kernel source (read as data, never executed:
   kernelopt/inductor_decorator.py; at emit time: the emitted module does not need Inductor).
   Policy `autotune` keeps them all: the emitted module times them at
   the kernel's first launch on a GPU, as Inductor's runtime does (`config_source = "autotune"`; one
   config is pinned as before). Policy `first` takes Inductor's first candidate (its preferred one;
   the only one when Inductor would not autotune); `most-work` the one with the largest block product
   (fewest programs: fastest under the CPU interpreter). `auto`, the default, is `autotune` for a module
   captured for a GPU and `most-work` for one captured for the CPU interpreter. A pinned launch gets
   `config_source = "heuristic"`; either way a remark says so.
Template kernels (`@triton_heuristics.template`) have one fixed config: num_warps/num_stages in the
decorator, block sizes in the body.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from kernelopt.codegen.plain_jit import KernelCode, standalone_kernel
from kernelopt.errors import InputError
from kernelopt.inductor_decorator import DecoratorOrigin, InductorDecorator
from kernelopt.ir.core import Location, Module, Op

BLOCK_NAMES = ("XBLOCK", "YBLOCK", "ZBLOCK", "R0_BLOCK", "R1_BLOCK", "RBLOCK")
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg")
POLICIES = ("auto", "autotune", "first", "most-work")



def next_pow2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1): Triton block sizes and the caps on them."""
    return 1 << max(0, int(n) - 1).bit_length()

@dataclass(frozen=True)
class LaunchConfig:
    """Constexpr keyword arguments (block sizes, ...) plus launch options."""

    kwargs: tuple[tuple[str, Any], ...]
    num_warps: int | None = None
    num_stages: int | None = None
    extra: tuple[tuple[str, Any], ...] = ()   # num_ctas, maxnreg when set

    @classmethod
    def from_dict(cls, data: dict) -> "LaunchConfig":
        """From an IR `config` attr ({XBLOCK = .., num_warps = .., grid = ..}) or a manifest entry
        ({"kwargs": {..}, "num_warps": .., ...})."""
        if "kwargs" in data and isinstance(data["kwargs"], dict):
            kwargs = dict(data["kwargs"])
            options = {k: data.get(k) for k in LAUNCH_OPTIONS}
        else:
            kwargs = {k: v for k, v in data.items() if k not in LAUNCH_OPTIONS and k != "grid"}
            options = {k: data.get(k) for k in LAUNCH_OPTIONS}
        extra = tuple((k, options[k]) for k in ("num_ctas", "maxnreg") if options.get(k) not in (None, 1)
                      or (k == "maxnreg" and options.get(k)))
        extra = tuple((k, v) for k, v in extra if v is not None)
        return cls(tuple(kwargs.items()), options.get("num_warps"), options.get("num_stages"), extra)

    @property
    def meta(self) -> dict[str, Any]:
        return dict(self.kwargs)

    def options(self) -> dict[str, Any]:
        found = {"num_warps": self.num_warps, "num_stages": self.num_stages, **dict(self.extra)}
        return {k: v for k, v in found.items() if v is not None}

    def as_attr(self, grid: list | None = None) -> dict[str, Any]:
        """The IR form: `{XBLOCK = 1024, num_warps = 4, num_stages = 1, grid = [8, 1, 1]}`."""
        attr: dict[str, Any] = dict(self.kwargs)
        attr.update(self.options())
        if grid is not None:
            attr["grid"] = list(grid)
        return attr

    def work_per_program(self) -> int:
        return math.prod(int(v) for k, v in self.kwargs if k in BLOCK_NAMES and isinstance(v, int))


# --------------------------------------------------------------------------------------------
# Inductor's heuristic config lists, from the kernel's decorator (read, never executed)
# --------------------------------------------------------------------------------------------

def kernel_decorator(kernel: Op, code: KernelCode | None = None) -> InductorDecorator | None:
    """The kernel's `@triton_heuristics` decorator, parsed without executing it (None: it has none).
    Raises `DecoratorRefused` (located) for anything Inductor never writes there."""
    return decorator_of(kernel.symbol or "", str(kernel.attrs.get("source", "")), kernel.loc, code)


def decorator_of(name: str, source: str, loc: Location | None,
                 code: KernelCode | None = None) -> InductorDecorator | None:
    """`kernel_decorator` from the kernel's name, source and location (hashable: for caches)."""
    code = code or standalone_kernel(name, source)
    if code.heuristic_source is None:
        return None
    return InductorDecorator(code.heuristic_source, name, decorator_origin(name, source, loc, code.heuristic_line or 1))


def decorator_origin(name: str, source: str, loc: Location | None, source_line: int) -> DecoratorOrigin:
    """Where line `source_line` of a kernel's source sits: in an Inductor module the source starts on
    its `async_compile.triton(...)` line, so the file line is exact; elsewhere (a .kir file, a module
    KernelOPT emitted) the message names the kernel's line and column and the place within its source."""
    if loc is None:
        return DecoratorOrigin(f"<kernel {name}>", source_line)
    if loc.file.endswith(".py") and source.startswith("\n"):
        return DecoratorOrigin(loc.file, loc.line + source_line - 1)
    return DecoratorOrigin(loc.file, loc.line, source_line, loc.column)


def heuristic_configs(kernel: Op) -> list[LaunchConfig]:
    """The configs Inductor's decorator for this kernel would autotune over (at least one)."""
    code = standalone_kernel(kernel.symbol or "", kernel.attrs.get("source", ""))
    if code.heuristic is None:
        raise InputError(f"kernel {kernel.symbol}: no @triton_heuristics decorator to take configs from")
    decorator = kernel_decorator(kernel, code)
    keywords = decorator.keywords(skip_unevaluable=True)
    if code.heuristic == "template":
        return [LaunchConfig((), keywords.get("num_warps"), keywords.get("num_stages"))]
    configs = []
    for found in decorator.config_list():
        config = LaunchConfig(tuple(dict(found.kwargs).items()), getattr(found, "num_warps", None),
                              getattr(found, "num_stages", None))
        if config not in configs:  # Inductor drops duplicates before autotuning (`unique_configs`)
            configs.append(config)
    if not configs:
        configs = [_size_hint_config(code.constexpr_params, keywords.get("size_hints"), code.heuristic)]
    return configs


def trial_buffers(kernel: Op) -> tuple[list[str], list[str]]:
    """Parameter names the kernel's autotuning must protect, as its decorator declares them for
    Inductor's autotuner: (`restore`: updated in place, so every trial runs on a copy:
    inductor_meta `mutated_arg_names` + triton_meta `restore_value`; `zero`: zeroed before every trial
    and after the last one: triton_meta `reset_to_zero`)."""
    decorator = kernel_decorator(kernel)
    if decorator is None:
        return [], []
    keywords = decorator.keywords(skip_unevaluable=True)
    inductor_meta = keywords.get("inductor_meta") if isinstance(keywords.get("inductor_meta"), dict) else {}
    triton_meta = keywords.get("triton_meta") if isinstance(keywords.get("triton_meta"), dict) else {}
    restore = list(inductor_meta.get("mutated_arg_names") or ()) + list(triton_meta.get("restore_value") or ())
    return list(dict.fromkeys(restore)), list(triton_meta.get("reset_to_zero") or ())


def _size_hint_config(constexprs: list[str], size_hints: Any, kind: str) -> LaunchConfig:
    """Last resort when Inductor's heuristic cannot be evaluated here: each block the next power of
    two of its size hint, capped (x at 1024, reductions at 1024 unless persistent), 4 warps, 1 stage."""
    hints = size_hints if isinstance(size_hints, dict) else {}
    kwargs = {}
    for name in constexprs:
        if name not in BLOCK_NAMES:
            continue
        prefix = {"RBLOCK": "r0_"}.get(name, name[:-5].lower())
        hint = int(hints.get(prefix, hints.get(prefix + "_", 1)))
        block = 1 << max(0, math.ceil(math.log2(max(1, hint))))
        cap = 1 << 30 if (kind == "persistent_reduction" and name.startswith("R")) else 1024
        kwargs[name] = min(block, cap)
    return LaunchConfig(tuple(kwargs.items()), 4, 1)


def resolve_policy(policy: str, module: Module) -> str:
    """`auto` -> `autotune` for a module captured for a GPU, `most-work` for one captured for the CPU
    interpreter (where timing would cost seconds per config and the largest blocks always win)."""
    if policy not in POLICIES:
        raise InputError(f"unknown config policy {policy!r}: use one of {', '.join(POLICIES)}")
    if policy != "auto":
        return policy
    return "autotune" if str(module.attrs.get("device", "cuda")).startswith("cuda") else "most-work"


def choose(configs: list[LaunchConfig], policy: str = "first") -> LaunchConfig:
    """One config of the list: Inductor's first (`first`) or the most work per program (`most-work`,
    also the untimed choice of `autotune`)."""
    if policy not in POLICIES:
        raise InputError(f"unknown config policy {policy!r}: use one of {', '.join(POLICIES)}")
    if policy == "first":
        return configs[0]
    best = configs[0]
    for candidate in configs[1:]:
        if candidate.work_per_program() > best.work_per_program():
            best = candidate
    return best


@dataclass
class Selection:
    config: LaunchConfig   # with `candidates`: the one launched when the emitted module does not time
    source: str            # capture | measured | heuristic | template | autotune
    remark: str | None = None
    candidates: list[LaunchConfig] | None = None   # autotune: every config, in Inductor's order
    recorded: bool = False  # a capture's recorded config retimed: where the configs cannot share a launch
                            # site, the recorded one is launched (not Inductor's first)


def select_config(module: Module, launch: Op, policy: str = "auto",
                  cache: dict | None = None, retime_recorded: bool = True) -> Selection:
    """The configuration `launch` is emitted with (see the module doc for the order)."""
    policy = resolve_policy(policy, module)
    recorded = launch.attrs.get("config")
    kernel = module.kernel(launch.symbol or "")
    if isinstance(recorded, dict) and recorded:
        chosen = LaunchConfig.from_dict(recorded)
        source = str(launch.attrs.get("config_source", "capture"))
        if source != "capture" or policy != "autotune" or not retime_recorded or kernel is None \
                or str(kernel.attrs.get("kind", "")) == "template":
            return Selection(chosen, source)
        try:
            listed = _heuristic_configs_cached(kernel, cache)
        except InputError:          # no Inductor decorator to read a list from: the recorded one is launched
            return Selection(chosen, source)
        params = set(standalone_kernel(kernel.symbol or "", kernel.attrs.get("source", "")).params)

        def launched(config: LaunchConfig) -> tuple:    # what a launch passes: the kernel's own constexprs
            return tuple((k, v) for k, v in config.kwargs if k in params), config.options()

        candidates = [chosen] + [c for c in listed if launched(c) != launched(chosen)]
        if len(candidates) == 1:            # nothing else to time it against
            return Selection(chosen, source)
        return Selection(chosen, "autotune", None, candidates, recorded=True)
    if kernel is None:
        raise InputError(f"launch of @{launch.symbol}: no such kernel in the module")
    configs = _heuristic_configs_cached(kernel, cache)
    config = choose(configs, "most-work" if policy == "autotune" else policy)
    if str(kernel.attrs.get("kind", "")) == "template" or len(configs) == 1 and not config.kwargs:
        return Selection(config, "template" if kernel.attrs.get("kind") == "template" else "heuristic")
    if policy == "autotune" and len(configs) > 1:
        return Selection(config, "autotune", f"no recorded launch config for @{kernel.symbol}: the emitted module "
                         f"times its {len(configs)} Inductor heuristic configs at the first launch on a GPU "
                         f"(under the Triton interpreter: {_describe(config)}, the most work per program)", configs)
    if len(configs) == 1:
        return Selection(config, "heuristic", f"no recorded launch config for @{kernel.symbol}: {_describe(config)}, "
                         "its only Inductor heuristic config (Inductor's runtime does not autotune it either)")
    remark = (f"no recorded launch config for @{kernel.symbol}: picked {_describe(config)} from its "
              f"{len(configs)} Inductor heuristic config(s) (policy '{policy}')")
    return Selection(config, "heuristic", remark)


def _heuristic_configs_cached(kernel: Op, cache: dict | None) -> list[LaunchConfig]:
    key = kernel.symbol
    if cache is not None and key in cache:
        return cache[key]
    configs = heuristic_configs(kernel)
    if cache is not None:
        cache[key] = configs
    return configs


def _describe(config: LaunchConfig) -> str:
    parts = [f"{k}={v}" for k, v in config.kwargs] + [f"{k}={v}" for k, v in config.options().items()]
    return ", ".join(parts) or "no block sizes"


# --------------------------------------------------------------------------------------------
# recorded configs (corpus manifests) and measured configs (GPU)
# --------------------------------------------------------------------------------------------

def _graph_entry(manifest: dict, module: Module) -> dict:
    graphs = manifest.get("graphs")
    if not isinstance(graphs, list):
        return manifest
    file_name = str(module.attrs.get("file", "")).replace("\\", "/").rsplit("/", 1)[-1]
    for graph in graphs:
        if file_name and graph.get("module") == file_name:
            return graph
    return graphs[0] if graphs else {}


def recorded_configs(manifest_entry: dict, module: Module) -> dict[str, LaunchConfig]:
    """Kernel name -> the autotuner's chosen config, from a capture manifest (`manifest.json` of one
    capture, one of its `graphs[]` entries, or a plain {kernel: config} mapping)."""
    graph = _graph_entry(manifest_entry, module)
    kernels = graph.get("kernels", graph)
    found = {}
    for name, entry in (kernels.items() if isinstance(kernels, dict) else ()):
        if not isinstance(entry, dict):
            continue
        chosen = entry.get("chosen", entry if "kwargs" in entry else None)
        if isinstance(chosen, dict):
            found[name] = LaunchConfig.from_dict(chosen)
    return found


def apply_recorded_configs(module: Module, manifest_entry: dict) -> int:
    """Set `config` (and `config_source = "capture"`) on every launch whose kernel has a recorded
    autotuner choice. Returns how many launches got one. The grid is added by the emitter."""
    configs = recorded_configs(manifest_entry, module)
    applied = 0
    for launch in module.launches():
        config = configs.get(launch.symbol or "")
        if config is None:
            continue
        launch.attrs["config"] = config.as_attr()
        launch.attrs["config_source"] = "capture"
        applied += 1
    return applied
