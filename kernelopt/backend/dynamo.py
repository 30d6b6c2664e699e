"""The Dynamo backend: `torch.compile(model, backend="kernelopt", options={...})`.

Each FX graph is compiled by Inductor's own `compile_fx`, with an `inner_compile` wrapper that sees
the compiled graph Inductor returns (a CompiledFxGraph: the output module's source, and
`current_callable`, its `call`). The wrapper runs the `kernelopt optimize` job on that module (or
takes its result from the persistent cache, cache.py) and swaps `current_callable` for the emitted
module's `call`. Everything around it stays Inductor's and Dynamo's: guards, recompiles, graph breaks,
AOTAutograd's wrappers (input mutation, aliasing, no_grad), so the backend is a drop-in.

Training graphs are optimized too: AOTAutograd compiles a forward (is_inference=False) and, at the
first backward(), a backward graph through the same inner_compile, and both modules are swapped in, so
`loss.backward()` runs emitted kernels. The job runs on real inputs (graph_inputs.py): the forward on
copies of Dynamo's example inputs, the backward on the tensors Inductor's forward saves from them plus
random tangents; the module's own get_args() (zeros for integers) would let the gate prove nothing
about saved indices and masks.

Inductor's module runs instead, with one log line saying why, when: there is no CUDA GPU (unless
options={"cost_model": "static"}, which runs the whole path on the CPU under Triton's interpreter), the
graph has symbolic sizes, its inputs cannot be made from real data, or anything fails inside KernelOPT
(a warning with the reason: the user's program never breaks because of us). Otherwise one line per
graph (logger kernelopt.backend; KERNELOPT_LOGS, logs_env.py) says kernels rewritten, the speedup the
guard measured and cache hit or miss; the job's own steps go to kernelopt.search (search_log.py).

options={"search": "background"} installs background_search.BackgroundSwap instead of searching here
(the cache still answers at once), and options={"specialize": "seen"} gives a symbolic-size graph a
seen_sizes.SeenSizesDispatch, which compiles static specializations through this same backend.

Each graph's line is also a GraphOutcome: code that compiles a model through the backend and must say what
came of every graph (kernelopt.optimize, for a model with graph breaks) reads them with recorded_graphs().
"""
from __future__ import annotations

import contextlib
import dataclasses
import itertools
import logging
import os
import time
from pathlib import Path
from typing import Callable, Iterator

import torch
import torch._functorch.config as functorch_config
import torch.utils._python_dispatch as python_dispatch

from kernelopt.backend.cache import CorruptEntry, ModuleCache, cache_key
from kernelopt.backend.graph_inputs import (ForwardRun, Layout, Unrealistic, backward_inputs, forward_inputs,
                                            output_names, placeholder_names)
from kernelopt.backend.options import backend_options, inductor_mode, key_options
from kernelopt.backend.search_log import SearchLog
from kernelopt.backend.search_options import search_options
from kernelopt.backend.seen_sizes import SeenSizesDispatch, has_symbolic_sizes
from kernelopt.source_fingerprint import kernelopt_fingerprint
from kernelopt.logs_env import apply_kernelopt_logs
from kernelopt.job_workdir import owned_temp_folder, remove_tree, sweep_stale_workdirs
from kernelopt.runtime.loader import load_output_module

log = logging.getLogger("kernelopt.backend")
_graph_ids = itertools.count()
_SWEPT: list[bool] = []         # [True] once this process swept the temp folders of killed searches


@dataclasses.dataclass(frozen=True)
class GraphOutcome:
    """What runs for one graph the backend compiled: its log line, and the facts a caller checks."""
    part: str                   # "graph 3 (forward)"
    detail: str                 # the log line after "kernelopt: <part>: " (what runs, and why)
    entry: Path | None = None   # the graph's module in the cache (None: the graph did not go through the pipeline)
    emitted: bool = False       # the emitted module runs in place of Inductor's
    rewrites: int = 0           # kernels it rewrote


_RECORDINGS: list[list[GraphOutcome]] = []     # one list per recorded_graphs() block open


@contextlib.contextmanager
def recorded_graphs() -> Iterator[list[GraphOutcome]]:
    """The outcome of each graph the backend compiles inside the block, in the order compiled."""
    outcomes: list[GraphOutcome] = []
    _RECORDINGS.append(outcomes)
    try:
        yield outcomes
    finally:
        _RECORDINGS.remove(outcomes)


def _tell(outcome: GraphOutcome, level: int = logging.INFO) -> None:
    """The graph's line on the kernelopt.backend logger, and its outcome for each recorded_graphs() block."""
    log.log(level, "kernelopt: %s: %s", outcome.part, outcome.detail)
    for outcomes in _RECORDINGS:
        outcomes.append(outcome)


def kernelopt_backend(gm, example_inputs, options: dict | None = None):
    """The `torch_dynamo_backends` entry point named `kernelopt`."""
    job = backend_options(options)     # a wrong option is the user's error: raised now, never a fallback
    if not _SWEPT:                     # once per process: temp folders of searches killed earlier
        _SWEPT.append(True)
        sweep_stale_workdirs()
    when = search_options(options)     # search: blocking | background; specialize: none | seen
    apply_kernelopt_logs()             # so is a wrong KERNELOPT_LOGS
    # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
    import torch._inductor
    from torch._inductor.compile_fx import compile_fx, compile_fx_inner

    graph = f"graph {next(_graph_ids)}"
    device = "cuda" if any(getattr(x, "is_cuda", False) for x in example_inputs) else "cpu"
    patches = dict(torch._inductor.list_mode_options(inductor_mode(job)))
    if device == "cpu" and job.cost_model == "static" and os.environ.get("TRITON_INTERPRET") == "1":
        # The whole path on the CPU: Inductor writes Triton kernels, run by Triton's interpreter.
        patches.update(cpu_backend="triton", compile_threads=1)
        # lazy: the CPU shims need numpy (not a dependency of kernelopt); only CPU runs load them
        from kernelopt.runtime.interpret import install_cpu_triton_shims

        install_cpu_triton_shims()   # Inductor compiles its Triton kernels for a CPU target it must find
    why_not = _why_inductor_runs(example_inputs, device, job)
    if why_not:
        _tell(GraphOutcome(graph, f"{why_not}: running Inductor's module"))
        only_symbolic = has_symbolic_sizes(example_inputs) and not _why_inductor_runs([], device, job)
        if when.specialize == "seen" and only_symbolic:
            log.info("kernelopt: %s: specialize 'seen': each size called %d times gets a static specialization",
                     graph, when.specialize_after)
            return SeenSizesDispatch(gm, example_inputs, graph, after=when.specialize_after, limit=when.specialize_max,
                                     compile_dynamic=lambda g, x: compile_fx(g, x, config_patches=patches),
                                     compile_static=lambda g, x: kernelopt_backend(g, x, options))
        return compile_fx(gm, example_inputs, config_patches=patches)

    # Dynamo's example inputs are real tensors: the modules' inputs are made from them. Held until the
    # forward compiles, and for a training graph until its backward does (then dropped: no leak).
    real_inputs = list(example_inputs)
    forward_run: list[ForwardRun] = []

    def inner_compile(inner_gm, inner_inputs, **kwargs):
        compiled = compile_fx_inner(inner_gm, inner_inputs, **kwargs)
        backward = bool(kwargs.get("is_backward"))
        part = f"{graph} ({'backward' if backward else 'forward'})"
        layouts = [Layout.of(x) for x in inner_inputs]
        # The module's inputs are made only on a cache miss (a warm start runs no forward for them).
        if backward:
            forward = forward_run.pop() if forward_run else None
            names = placeholder_names(inner_gm)

            def make_inputs() -> list:
                if forward is None:
                    raise Unrealistic("its forward was not compiled here, so no saved tensor can be made")
                return backward_inputs(forward, names, layouts)
        else:
            real = list(real_inputs)
            real_inputs.clear()
            if not kwargs.get("is_inference", True) and getattr(compiled, "current_callable", None):
                # Inductor's forward (not ours, swapped in below): the reference run of the saved tensors
                forward_run[:] = [ForwardRun(compiled.current_callable, real, layouts, output_names(inner_gm))]

            def make_inputs() -> list:
                return forward_inputs(real, layouts)
        _swap_in_emitted(compiled, part, device, job, make_inputs, when.search)
        return compiled

    # The AOTAutograd cache would hand back a compiled graph without calling inner_compile, so the
    # emitted module would never be swapped in: our own cache stands in for it.
    with functorch_config.patch(enable_autograd_cache=False):
        return compile_fx(gm, example_inputs, inner_compile=inner_compile, config_patches=patches)


def _why_inductor_runs(example_inputs, device: str, job) -> str | None:
    if has_symbolic_sizes(example_inputs):
        return "symbolic sizes (KernelOPT optimizes static-shape graphs; each static shape Dynamo compiles is)"
    if job.cost_model == "static":
        if device == "cpu" and os.environ.get("TRITON_INTERPRET") != "1":
            return ("cost_model 'static' on the CPU needs Triton's interpreter: set TRITON_INTERPRET=1 before "
                    "starting Python")
        return None
    if not torch.cuda.is_available():
        return "no CUDA GPU, so no candidate can be timed (options={'cost_model': 'static'} runs the pipeline on the CPU)"
    if device != "cuda":
        return "the graph's tensors are on the CPU (KernelOPT optimizes CUDA graphs)"
    return None


def _swap_in_emitted(compiled, part: str, device: str, job, make_inputs: Callable[[], list],
                     search: str = "blocking") -> None:
    """Replace `compiled.current_callable` by the emitted module's `call`; on any failure leave it as it is.
    Only the callable changes: AOTAutograd's wrappers around it keep input mutation and aliasing theirs."""
    source = getattr(compiled, "source_code", None)
    if not source or getattr(compiled, "current_callable", None) is None:
        _tell(GraphOutcome(part, f"Inductor returned {type(compiled).__name__} without an output module: running it "
                                 "as it is"))
        return
    started = time.perf_counter()
    try:
        if search == "background" and not _emitted_module(source, device, job, part, make_inputs, search=False):
            # lazy: the background search's machinery loads only where a graph is not in the cache
            from kernelopt.backend.background_search import BackgroundSwap

            compiled.current_callable = BackgroundSwap(
                compiled.current_callable, source, part, device, job,
                install=lambda call: setattr(compiled, "current_callable", call))
            _tell(GraphOutcome(part, "not in the cache: Inductor's module runs while a background search starts at "
                                     "the first call"))
            return
        path, figures, how = _emitted_module(source, device, job, part, make_inputs)
        if not figures["emitted"]:
            # The job kept Inductor's module (the guard timed the emitted one no faster, or nothing in it could
            # be optimized): the compiled graph keeps Inductor's own callable, with no reload and no frame of ours.
            _tell(GraphOutcome(part, f"the optimize job kept Inductor's module ({how}): running it as it is", path))
            return
        loaded = load_output_module(str(path), device, hooks=False)
        how += f"; ready in {time.perf_counter() - started:.2f} s"   # a warm start's share is this
    except Unrealistic as why:
        _tell(GraphOutcome(part, f"no real inputs for the module's search and legality checks ({why}): running "
                                 "Inductor's module"))
        return
    except Exception as err:  # noqa: BLE001 - a failure inside KernelOPT must not break the user's program
        _tell(GraphOutcome(part, f"KernelOPT failed ({type(err).__name__}: {_first_line(err)}): running Inductor's "
                                 "module"), logging.WARNING)
        return
    # The module's own `call`, exactly where Inductor's was: AOTAutograd already runs it under no_grad (or
    # inside autograd.Function), hands it a list it may clear, and takes its tuple; LoadedModule.call's
    # no_grad, list copy and tuple() would only add host time to every call. A module whose CUDA graphs go
    # off for good rebinds this to its plain launches (LoadedModule.bind_call).
    loaded.bind_call(lambda call: setattr(compiled, "current_callable", call))
    rewrites = int(figures["rewrites"])
    _tell(GraphOutcome(part, f"{rewrites} kernel(s) rewritten, {_speedup_text(figures.get('speedup'), device)}, {how}: "
                             f"running the emitted module {path}", path, emitted=True, rewrites=rewrites))


def _speedup_text(speedup: float | None, device: str) -> str:
    if speedup is None:
        return "speedup not measured (" + ("no CUDA device: static cost model" if device != "cuda" else "not timed") + ")"
    return f"speedup {speedup:.3f}x measured side by side"


def _first_line(err: BaseException) -> str:
    return str(err).splitlines()[0] if str(err) else ""


def _emitted_module(source: str, device: str, job, part: str, make_inputs: Callable[[], list],
                    search: bool = True) -> tuple[Path, dict, str] | None:
    """(cached module path, {rewrites, speedup}, 'cache hit' / 'cache miss (...)') for Inductor's module
    `source`; None on a miss with `search=False`. On a miss the optimize job runs on make_inputs()
    (Unrealistic: none can be made), its steps logged to kernelopt.search."""
    cache = ModuleCache()
    key = cache_key({"inductor_source": source, "device": _device_name(device), "torch": torch.__version__,
                     "triton": _triton_version(), "kernelopt": kernelopt_fingerprint(), "options": key_options(job)})
    try:
        found = cache.get(key)
    except CorruptEntry as err:
        log.warning("kernelopt: corrupt cache entry ignored and rebuilt: %s", err)
        found = None
    if found is not None:
        path, header = found
        return path, {"rewrites": int(header.get("rewrites", 0)), "speedup": header.get("speedup"),
                      "emitted": bool(header.get("emitted", True))}, f"cache hit ({key[:12]})"
    if not search:
        return None
    # lazy: the search (capture, codegen, legality, report) loads on a cache miss only: a warm start skips it
    from kernelopt.optimize_job import optimize_model

    started = time.perf_counter()
    inputs = make_inputs()
    # Owned (pid recorded): a search killed with its process is swept by the next job or backend start.
    folder = owned_temp_folder("kernelopt-backend-")
    try:
        given = Path(folder) / "inductor_module.py"
        given.write_text(source)
        job = dataclasses.replace(job, device=device)
        # The pipeline runs real tensors: leave the FakeTensorMode Inductor compiles under.
        with python_dispatch._disable_current_modes():
            result = optimize_model(str(given), str(Path(folder) / "emitted.py"), job, stream=SearchLog(part),
                                    inputs=inputs)
        if result.status != "optimized":
            raise RuntimeError(result.reason or f"the pipeline ended with status {result.status}")
        emitted = (Path(folder) / "emitted.py").read_text()
    finally:
        remove_tree(folder)
    seconds = time.perf_counter() - started
    figures = {"rewrites": result.rewrites, "speedup": result.speedup, "emitted": result.emitted}
    path = cache.put(key, emitted, figures | {"seconds": round(seconds, 2), "device": _device_name(device),
                                              "options": key_options(job)})
    return path, figures, f"cache miss ({key[:12]}; pipeline {seconds:.1f} s)"


def _device_name(device: str) -> str:
    return torch.cuda.get_device_name() if device == "cuda" else "cpu"


def _triton_version() -> str:
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton

    return triton.__version__
