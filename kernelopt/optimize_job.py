"""`kernelopt optimize`: from a model to a faster, proven-equivalent standalone module.

Steps (each reported as it runs; on a machine without a GPU the ones that need one are skipped and
the report says which and why):
  1. capture   torch.compile the model (mode `default` or `max-autotune-no-cudagraphs`; `--base best`,
               the default, captures both on a GPU, times them side by side and starts from the faster
               one) and keep the output module, its inputs and the autotuner's launch configurations
               (skipped when MODEL is already an Inductor output module);
  2. lift      the output module into the IR;
  3. optimize  classify-dispatch, detect-fusion, annotate-profile, agentic-rewrite, check-legality;
  4. emit      emit-python writes the standalone module (atomically: Ctrl-C leaves no half file);
  5. guard     on a GPU, the emitted module against the Inductor module, side by side: if it is slower
               at all, the Inductor module is written out unchanged (kernelopt/guard.py);
  6. choose    with `--base best`, the slower mode is optimized too when it is within 25% of the faster
               and capturing took under 3 minutes
               (its kernels may leave more to win: mlp's default module has a cuBLAS GEMM + GELU pair
               that folds into a cuBLASLt epilogue, max-autotune's has a Triton template); the two
               results are timed side by side and the faster is written;
  7. report    report.md / report.json / report.png, with end-to-end timings on a GPU.
Modules with symbolic sizes or backward graphs are lifted and emitted unchanged (this wave handles
static-shape inference graphs), and the report says so.

A model Dynamo splits into several graphs (a graph break) gets the first graph's module, in whose place
`kernelopt.load` runs the model itself; `kernelopt.optimize` asks the job to stop after the capture instead
(`stop_at_graph_break`) and optimizes every graph through the Dynamo backend.
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, TextIO

import torch

from kernelopt import guard
from kernelopt.capture import capture
from kernelopt.capture.models import CPU_INPUT_LIMIT_BYTES, input_bytes, training_layers_text
from kernelopt.codegen.configs import apply_recorded_configs
from kernelopt.codegen.graph_runtime import GRAPH_RUNTIME_MARKER
from kernelopt.errors import InputError, UsageError
from kernelopt.job_workdir import job_workdir, signals_deferred, sweep_stale_workdirs
from kernelopt.legality import graph_path, memory_budget
from kernelopt.legality.sandbox import default_pool, fork_cpu_sandbox_now
from kernelopt.pool.evaluator import resolve_workers
from kernelopt.lift import lift_file
from kernelopt.passes.pass_manager import PassManager
from kernelopt.report.build import check_report_writable, write_minimal_report, write_report
from kernelopt.memory_bound import (AUTOTUNE_COMPILE_FACTOR, MEMORY_BOUND_FACTOR, MEMORY_BOUND_FLOOR,
                                    SMALL_MODULE_CAP, SMALL_MODULE_FACTOR, autotune_over_bound, job_memory_bound)
from kernelopt.runtime.device_memory import DiskMeter, PeakSampler, gib, release_cached_memory
from kernelopt.inductor_source import unsupported_parts
from kernelopt.ir import rewrite_record
from kernelopt.job_clock import SECOND_BASE_WALL_S, job_target_s, search_reserve_s
from kernelopt.passes.base import Pass, PassContext
from kernelopt.passes.emit_python import EmitPython
from kernelopt.user_files import (check_folder_writable, check_writable, is_kernelopt_output, read_text,
                                  with_marker)
from kernelopt.lift.emitted_module import is_emitted_module_text
# the job's options live apart (light to import); REWRITE_OPTIONS and OptimizeOptions stay importable from here
from kernelopt.optimize_options import BASES, REWRITE_DEFAULTS, REWRITE_OPTIONS, OptimizeOptions  # noqa: F401
# `--base best`: the slower mode is optimized as well when its module is at most this much slower than
# the faster one's; further behind, no rewrite we have closes the gap, and the search time is saved.
SECOND_BASE_WITHIN = 1.25


@dataclass
class StepRecord:
    name: str
    status: str                  # done | skipped | unchanged | failed
    detail: str = ""
    seconds: float = 0.0


@dataclass
class OptimizeResult:
    output: Path
    steps: list[StepRecord] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)
    # optimized | fallback (Inductor's module written; `reason` says why) | skipped | several_graphs (a graph break
    # with stop_at_graph_break: no module written, for the caller to optimize every graph through the backend)
    # | interrupted (Ctrl-C or SIGTERM after the capture: the output holds the last module written)
    status: str = "optimized"
    reason: str = ""
    rewrites: int = 0            # rewrites accepted in the module written (0 when the guard kept Inductor's)
    speedup: float | None = None  # the guard's Inductor time / emitted time, side by side (None: not timed)
    emitted: bool = False        # the module written is KernelOPT's (False: Inductor's own, unchanged)
    graphs: int = 1              # the graphs Dynamo split the model into at capture


class Steps:
    """Prints each step as it starts and ends, and keeps the record for the report."""

    def __init__(self, stream: TextIO | None):
        self.stream = stream
        self.records: list[StepRecord] = []
        self.meters: tuple = ()      # PeakSampler, DiskMeter: peaks are booked on the step that runs
        self.current = ""

    def begin(self, name: str) -> None:
        self.current = name
        for meter in self.meters:
            meter.step(name)

    def say(self, text: str) -> None:
        if self.stream is not None:
            self.stream.write(f"kernelopt optimize: {text}\n")
            self.stream.flush()

    def done(self, name: str, detail: str, started: float) -> None:
        record = StepRecord(name, "done", detail, round(time.perf_counter() - started, 2))
        self.records.append(record)
        self.say(f"{name}: {detail} ({record.seconds:.1f} s)")

    def skipped(self, name: str, why: str) -> None:
        self.records.append(StepRecord(name, "skipped", why))
        self.say(f"{name}: skipped: {why}")

    def failed(self, name: str, why: str) -> None:
        self.records.append(StepRecord(name, "failed", why))

    def warn(self, text: str) -> None:
        if self.stream is not None:
            self.stream.write(f"kernelopt optimize: warning: {text}\n")
            self.stream.flush()


MODEL_EXPECTED = ("a model file with class Model, get_inputs() and get_init_inputs(), or an Inductor "
                  "output module")


def is_output_module(path: Path) -> bool:
    """An Inductor output module, or a module KernelOPT emitted (which lifts like one). A file that is not
    UTF-8 text raises a clear InputError: it can be neither a model nor a module."""
    text = read_text(path, MODEL_EXPECTED)
    return "def call(" in text and ("async_compile" in text or "extern_kernels" in text
                                    or is_emitted_module_text(text))


def resolve_device(requested: str | None) -> str:
    if requested:
        if requested == "cuda" and not torch.cuda.is_available():
            raise UsageError("--device cuda was given, but no CUDA device is available")
        return requested
    return "cuda" if torch.cuda.is_available() else "cpu"


@contextlib.contextmanager
def _sandbox_started(device: str, options: OptimizeOptions, cold_process: bool) -> Iterator[None]:
    """Start the gate's sandbox early, where the search checks candidates in this process (one GPU or the CPU; pool
    workers have their own). On a GPU its zygote imports torch and triton while the capture runs (no GPU memory: the
    zygote never touches CUDA, its forked children do). On the CPU, in a process that has run nothing yet and has no
    thread (`cold_process`: the command line's), it is forked from this process, which imports the same anyway."""
    if options.proposers and resolve_workers(REWRITE_DEFAULTS["workers"], device) == "none":
        if device.startswith("cuda") and options.gpu_seconds > 0:
            default_pool(device).launch()
        elif cold_process:
            fork_cpu_sandbox_now(device)
    yield


def pipeline_text(passes: list[Pass]) -> str:
    """The `-p` pipeline that replays `passes` with `kernelopt-opt` (options left at their default are omitted)."""
    return ",".join(p.pipeline_text() for p in passes)


@dataclass
class Base:
    """One captured Inductor output module the pipeline can start from."""
    mode: str
    module_path: str
    inputs: list | None
    manifest: dict | None


@dataclass
class Outcome:
    """What optimizing one base gave: the IR after the pipeline, its context and the module text."""
    base: Base
    module: Any
    ctx: Any
    source: str
    speedup: float | None = None   # measured by the guard (None: no GPU, or passthrough)
    failure: str = ""               # why its emitted module was not kept (the graph-path or guard step failed)


SEVERAL_GRAPHS = "several_graphs"


def optimize_model(model: str | None, output: str, options: OptimizeOptions,
                   stream: TextIO | None = sys.stderr, inputs: list | None = None,
                   stop_at_graph_break: bool = False, cold_process: bool = False) -> OptimizeResult:
    """Run the job. Whatever fails after capture, the output path holds a working module: Inductor's
    module is written as soon as it is captured and replaced (atomically) only by a proven one; the
    failure becomes a `warning:` line and `"status": "fallback"` in the report, never a traceback.

    `inputs`: when `model` is an output module, the arguments of its `call` that the search, the gate
    and the guard run on instead of its get_args() (whose integers are zeros and whose floats are normal
    samples: meaningless for, say, a backward graph's saved indices). The Dynamo backend passes real ones (a
    background search, a copy of a real call's).

    `stop_at_graph_break`: a model that compiles to several graphs ends the job after the capture with status
    several_graphs and no module at `output` (one computing its first graph only would not be the model's),
    for the caller to optimize every graph through the Dynamo backend (kernelopt.optimize does).

    `cold_process`: this process has run nothing yet (the command line's): on the CPU, the gate's zygote is forked
    from it rather than started as a new interpreter (`fork_cpu_sandbox_now`)."""
    options.validate()
    steps = Steps(stream)
    device = resolve_device(options.device)
    out_path = Path(output)
    _refuse_overwriting_input(model, out_path, options.force)
    if options.report_dir:
        check_report_writable(options.report_dir, options.force, (out_path, out_path.with_suffix(".json")))
    if options.keep_work:           # a file there (or on its way): said now, not as a traceback from mkdir
        check_folder_writable(options.keep_work, (), options.force, "--keep-work", is_kernelopt_output, "",
                              "job", "the job's work files")
    sweep_stale_workdirs()          # folders of jobs killed with SIGKILL, which could not clean up
    # the sandbox starts in `work` (as it would later, at the first check) and before the meters' threads
    with job_workdir(keep=options.keep_work) as work, _sandbox_started(device, options, cold_process), \
            PeakSampler(_cuda_index(device)) as memory, DiskMeter(work) as disk:
        steps.meters = (memory, disk)
        job_started = time.perf_counter()
        bases = _capture_step(model, options, device, work, steps, inputs, stop_at_graph_break)
        result = OptimizeResult(out_path, steps.records)
        if not bases:               # nothing could be captured here (see _capture_step): no module to write
            result.status = "skipped"
            _report_step(result, model, options, device, steps, None, memory, disk, work)
            return result
        result.graphs = len((bases[0].manifest or {}).get("graphs") or [None])
        if stop_at_graph_break and result.graphs > 1:
            result.status = SEVERAL_GRAPHS
            result.reason = (f"the model compiles to {result.graphs} graphs (graph breaks): each is optimized through "
                             "torch.compile(backend='kernelopt'), and no single module is written")
            _remove_earlier_module(out_path, steps)
            steps.skipped("optimize", result.reason)
            _report_step(result, model, options, device, steps, None, memory, disk, work)
            return result
        _write_module(out_path, Path(bases[0].module_path).read_text(), bases[0].manifest, options, device)
        chosen = None
        try:
            # said inside the try: a Ctrl-C that follows the line reaches the interrupted job's report
            steps.say(f"wrote {out_path}: Inductor's {bases[0].mode} module, until a proven faster one replaces it")
            _bound_gate_memory(bases, device, steps)
            bases = _within_wall(bases, time.perf_counter() - job_started, steps)
            outcomes = _optimize_bases(bases, options, device, work, steps, job_started)
            chosen = _choose_step(outcomes, work, steps)
            if chosen.failure:          # its emitted module could not be checked or timed: Inductor's stands
                result.status, result.reason = "fallback", chosen.failure
                steps.warn(f"{chosen.failure}; {out_path} is Inductor's {chosen.base.mode} module, unchanged")
            _write_module(out_path, chosen.source, chosen.base.manifest, options, device)
            result.rewrites = _rewrites_written(chosen)
            result.emitted = chosen.source != Path(chosen.base.module_path).read_text()
            result.speedup = chosen.speedup
            _release_inputs(bases)
            steps.say(f"wrote {out_path} (+ {out_path.with_suffix('.json').name}: argument mapping and shapes)")
        except KeyboardInterrupt as stop:
            # Ctrl-C, or SIGTERM from a scheduler's time limit: the output file holds the last module written
            # (Inductor's, or one the guard proved), and the report says where the job stopped
            _report_interruption(result, stop, options, steps, memory, disk, work)
            raise
        except Exception as err:  # noqa: BLE001 - any failure after capture falls back to Inductor's module
            result.status, result.reason = "fallback", _one_line(err)
            steps.failed(steps.current or "optimize", result.reason)
            steps.warn(f"{result.reason}; {out_path} is Inductor's {bases[0].mode} module, unchanged")
        finally:
            if os.environ.pop(_JOB_SET_BUDGET, None):     # the gate budget this job set, not a user's
                os.environ.pop(memory_budget.ENV, None)
        _report_step(result, model, options, device, steps, chosen or _fallback_outcome(bases[0]), memory, disk,
                     work)
    return result


_JOB_SET_BUDGET = "KERNELOPT_JOB_SET_MEMORY_BUDGET"   # marks a budget this job set (removed at its end)


def _bound_gate_memory(bases: list[Base], device: str, steps: Steps) -> None:
    """Give the legality gate what is left of the job's memory bound once the job's own tensors are in
    place (KERNELOPT_DEVICE_MEMORY_BUDGET, unless the user set it): the gate then keeps what does not fit
    on the host and compares in chunks (kernelopt/legality/memory_budget.py)."""
    peaks = [b.manifest.get("device_peak_bytes") for b in bases if b.manifest]
    if device != "cuda" or not any(peaks) or os.environ.get(memory_budget.ENV):
        return
    total = torch.cuda.get_device_properties(torch.cuda.current_device()).total_memory
    bound = job_memory_bound(max(p for p in peaks if p), total)
    release_cached_memory(device)
    held = torch.cuda.memory_allocated()       # the job's own tensors (its inputs, shared by the bases)
    left = max(0, bound - held)
    os.environ[memory_budget.ENV] = str(left)
    os.environ[_JOB_SET_BUDGET] = "1"
    steps.say(f"memory: bound {gib(bound)} (the largest of {MEMORY_BOUND_FACTOR}x Inductor's peak "
              f"{gib(max(p for p in peaks if p))}, {SMALL_MODULE_FACTOR}x it up to {gib(SMALL_MODULE_CAP)} and "
              f"{gib(MEMORY_BOUND_FLOOR)}, at most the device's {gib(total)} less {gib(memory_budget.HEADROOM)}); "
              f"the job holds {gib(held)}, "
              f"so the gate and its sandbox may use {gib(left)}")


def _release_inputs(bases: list[Base]) -> None:
    """The captured inputs are not needed after the last timing: the report's end-to-end timing builds
    its own, and two sets of a multi-GB input would not fit the job's memory bound."""
    for base in bases:
        base.inputs = None
    release_cached_memory("cuda")


def _remove_earlier_module(out_path: Path, steps: Steps) -> None:
    """A module an earlier job wrote at `out_path` (and its sidecar), which this job would have replaced: left
    there, `kernelopt.load` would run a module of another model, or another version of this one."""
    if not (out_path.is_file() and is_kernelopt_output(out_path)):
        return
    sidecar = out_path.with_suffix(".json")
    earlier = [out_path] + ([sidecar] if _is_our_sidecar(sidecar) else [])
    for path in earlier:
        path.unlink()
    steps.say(f"removed {' and '.join(map(str, earlier))}, written by an earlier run: no single module computes "
              "this model")


def _refuse_overwriting_input(model: str | None, out_path: Path, force: bool) -> None:
    """-o must not replace the model, nor a file (module or sidecar .json) that KernelOPT did not write."""
    sidecar = out_path.with_suffix(".json")
    if sidecar == out_path:
        raise UsageError(f"-o {out_path}: the argument mapping is written beside the module with the suffix .json, "
                         "which would replace the module itself: give a .py path")
    check_writable(out_path, [model], force)
    if force or not sidecar.exists() or _is_our_sidecar(sidecar):
        return
    raise UsageError(f"-o {out_path}: {sidecar} (where the argument mapping goes) exists and was not written by "
                     "KernelOPT: give another output path, delete it, or pass --force to replace it")


def _is_our_sidecar(path: Path) -> bool:
    try:
        return json.loads(path.read_text()).get("kernelopt_module") is True
    except (OSError, ValueError, AttributeError):
        return False


def _cuda_index(device: str) -> int:
    return torch.cuda.current_device() if device == "cuda" else 0


def _one_line(err: BaseException) -> str:
    """The error in one line, with its innermost cause: Triton's CompilationError says only where
    (`at 23:11:`, then the source), and what went wrong is the exception it was raised from."""
    lines = str(err).strip().splitlines()
    text = f"{type(err).__name__}: {lines[0] if lines else ''}"
    cause, seen = _cause(err), 0
    while cause is not None and _cause(cause) is not None and seen < 8:
        cause, seen = _cause(cause), seen + 1
    if cause is not None:
        cause_lines = str(cause).strip().splitlines()
        text += f" (from {type(cause).__name__}: {cause_lines[-1] if cause_lines else ''})"
    return text[:400]


def _cause(err: BaseException) -> BaseException | None:
    """What `err` was raised from, as a traceback would show it (`raise ... from None` shows nothing)."""
    if err.__cause__ is not None:
        return err.__cause__
    return None if err.__suppress_context__ else err.__context__


def _rewrites_written(outcome: Outcome) -> int:
    """Accepted rewrites in the module written: none when it is Inductor's own (passthrough, or the guard
    measured the emitted one slower)."""
    if outcome.module is None or outcome.source == Path(outcome.base.module_path).read_text():
        return 0
    return _accepted_rewrites(outcome.module)


def _accepted_rewrites(module) -> int:
    return len(rewrite_record.with_status(module, rewrite_record.ACCEPTED))


def _fallback_outcome(base: Base) -> Outcome:
    """What the report describes when the pipeline failed: the captured module, lifted afresh."""
    ctx = PassContext(options={})
    try:
        module = lift_file(base.module_path, diagnostics=ctx.diagnostics)
    except Exception:  # noqa: BLE001 - the report then has no kernel table, but it is still written
        module = None
    return Outcome(base, module, ctx, "")


def _report_step(result: OptimizeResult, model, options, device, steps: Steps, outcome: Outcome | None,
                 memory, disk, work: Path | None = None) -> None:
    if not options.report_dir:
        return

    folder = Path(options.report_dir)
    steps.begin("report")
    started = time.perf_counter()

    def job_figures() -> dict:
        return {"status": result.status, "fallback_reason": result.reason,
                "device_memory": memory.summary(), "disk": _disk_figures(disk, options.keep_work)}
    try:
        if outcome is None or outcome.module is None:
            raise LookupError("no module to describe")
        result.report = write_report(folder, outcome.module, outcome.ctx, steps.records, outcome.base.manifest,
                                     outcome.base.module_path, result.output, model, options, device,
                                     outcome.base.inputs, extra=job_figures, work_dir=work)
    except KeyboardInterrupt:
        raise
    except Exception as err:  # noqa: BLE001 - a report that cannot be built in full is still written
        if result.status == "optimized":
            result.status, result.reason = "fallback", f"the report failed: {_one_line(err)}"
        result.report = write_minimal_report(folder, steps.records, job_figures(), work_dir=work)
    steps.done("report", f"{options.report_dir}/report.md, report.json" + (
        ", report.png" if "plot_note" not in result.report else ""), started)


def _report_interruption(result: OptimizeResult, stop: KeyboardInterrupt, options, steps: Steps, memory, disk,
                         work: Path | None) -> None:
    """The short report of a job stopped by Ctrl-C or SIGTERM: which step it was in, and what the output file
    holds. Written with further signals held back (a second Ctrl-C must not leave half a report)."""
    if not options.report_dir:
        return
    with signals_deferred():
        why = str(stop) or "interrupted (Ctrl-C)"
        result.status = "interrupted"
        result.reason = (f"{why} during the {steps.current or 'optimize'} step; {result.output} holds the last "
                         "module the job wrote (Inductor's, unless the guard had proven a faster one)")
        steps.failed(steps.current or "optimize", why)
        figures = {"status": result.status, "fallback_reason": result.reason,
                   "device_memory": memory.summary(), "disk": _disk_figures(disk, options.keep_work)}
        try:
            result.report = write_minimal_report(Path(options.report_dir), steps.records, figures, work_dir=work)
        except OSError as err:
            steps.warn(f"the report of the interrupted job could not be written: {err}")


def _disk_figures(disk, keep_work: str | None) -> dict:
    """The work folder's disk figures for the report. The folder is removed when the job ends (unless
    --keep-work named it), before the user reads the report: its path would name nothing, so it is left out."""
    figures = disk.summary()
    figures["removed"] = keep_work is None
    if figures["removed"]:
        figures["folder"] = None
    return figures


def _within_wall(bases: list[Base], elapsed: float, steps: Steps) -> list[Base]:
    """The bases to optimize, given how long capturing took (see SECOND_BASE_WALL_S)."""
    if len(bases) > 1 and elapsed > SECOND_BASE_WALL_S:
        steps.say(f"base: capturing took {elapsed:.0f} s (> {SECOND_BASE_WALL_S:.0f} s), so only "
                  f"{bases[0].mode} is optimized (the job should stay within 5 minutes)")
        return bases[:1]
    return bases


def _optimize_bases(bases: list[Base], options, device: str, work: Path, steps: Steps, job_started: float):
    outcomes = []
    target = job_target_s(options, REWRITE_DEFAULTS["gpu_seconds"])
    for base in bases:
        elapsed = time.perf_counter() - job_started
        if outcomes and elapsed > target / 2:
            steps.say(f"base: {elapsed:.0f} s spent, so {base.mode} is not optimized too (the job should stay "
                      f"within {target:.0f} s)")
            break
        reserve = search_reserve_s((base.manifest or {}).get("device_peak_bytes"))
        deadline = time.monotonic() + max(0.0, target - reserve - elapsed)
        if target - reserve - elapsed <= 0:
            # Else the job's only word is "0 rewrite(s) accepted", with the reason in the report's remarks.
            steps.say(f"search: no time left for it within the job's {target:.0f} s target ({elapsed:.0f} s spent, "
                      f"{reserve:.0f} s kept for the check, emit and report after it): no kernel is searched; "
                      "give a larger --time-limit (time_limit from Python)")
        outcomes.append(_optimize_base(base, options, device, work, steps, tag=len(bases) > 1, deadline=deadline))
        release_cached_memory(device)
    return outcomes


def _optimize_base(base: Base, options, device: str, work: Path, steps: Steps, tag: bool,
                   deadline: float | None = None) -> Outcome:
    """lift -> pipeline -> emit -> guard for one base; `tag` prefixes its step details with the mode;
    the rewrite search ends by `deadline` (time.monotonic())."""
    prefix = f"[{base.mode}] " if tag else ""
    module, ctx = _pipeline_step(base.module_path, base.inputs, base.manifest, options, device, steps, prefix,
                                 deadline)
    source = ctx.artifacts.get("python")
    if ctx.artifacts.get("passthrough"):
        source = Path(base.module_path).read_text()  # unchanged: the Inductor module itself
    if source is None:
        raise InputError("the pipeline produced no Python module (emit-python did not run)")
    if not ctx.artifacts.get("passthrough"):
        folder = work / f"guard-{base.mode}"
        folder.mkdir(parents=True, exist_ok=True)
        try:
            source = _graph_path_step(source, module, ctx, base.inputs, device, folder, steps, prefix)
            source, speedup, graphs = _guard_step(source, base.module_path, base.inputs, device, folder, steps,
                                                  prefix, guard.tolerance_for(_accepted_rewrites(module)))
            source = _settle_graphs(source, graphs, module, ctx, steps, prefix)
        except KeyboardInterrupt:
            raise
        except Exception as err:  # noqa: BLE001 - this base keeps Inductor's module; the search's IR stays for the report
            reason = prefix + _one_line(err)
            steps.failed(steps.current or "guard", reason)
            return Outcome(base, module, ctx, Path(base.module_path).read_text(), None, failure=reason)
        return Outcome(base, module, ctx, source, speedup)
    return Outcome(base, module, ctx, source)


def _choose_step(outcomes: list[Outcome], work: Path, steps: Steps) -> Outcome:
    """The faster of the optimized bases, their written modules timed side by side."""
    if len(outcomes) == 1:
        return outcomes[0]

    steps.begin("choose")
    first, second = outcomes[:2]
    paths = []
    for outcome in (first, second):
        path = work / f"final-{outcome.base.mode}.py"
        path.write_text(outcome.source)
        paths.append(str(path))
    started = time.perf_counter()
    try:
        timed = guard.time_side_by_side(paths[0], paths[1], first.base.inputs)
    except Exception as err:  # noqa: BLE001 - a timing failure must not stop the job: keep the faster base
        steps.skipped("choose", f"could not time the two results ({type(err).__name__}: {err}); "
                                f"writing the {first.base.mode} result")
        return first
    chosen = second if timed.emitted_ms < timed.original_ms else first
    steps.done("choose", f"{first.base.mode} result {timed.original_ms:.4f} ms, {second.base.mode} result "
                         f"{timed.emitted_ms:.4f} ms per call (side by side): writing the {chosen.base.mode} "
                         "result", started)
    return chosen


def _capture_step(model, options, device, work: Path, steps: Steps, inputs: list | None = None,
                  stop_at_graph_break: bool = False) -> list[Base]:
    """The captured bases, faster first; [] when the model cannot be captured here (said why). A model of
    several graphs with `stop_at_graph_break` is captured in its first mode only (no graph of it is optimized)."""
    steps.begin("capture")
    path = Path(model) if model else None
    if path is not None and path.suffix == ".py" and path.is_file() and is_output_module(path):
        steps.skipped("capture", f"{path} is already an Inductor output module")
        return [Base("given", str(path), inputs, None)]
    if path is not None and not path.exists() and not options.entry:
        raise InputError(f"{model}: no such file (expected a model file with class Model, get_inputs() and "
                         "get_init_inputs(), an Inductor output module, or --entry pkg.module:factory)")
    if device != "cuda" and _too_large_for_cpu(model, options, steps):
        return []
    modes = BASES[options.base] if device == "cuda" else BASES[options.base][:1]
    bases = []
    for mode in modes:
        if bases and _autotune_capture_too_large(bases[0], steps):
            break
        started = time.perf_counter()
        folder = work if len(modes) == 1 else work / mode
        try:
            # No tensor is written to disk: the job keeps its inputs in memory (issue 18: full-size
            # inputs.pt/outputs.pt filled the disk); `kernelopt capture --store-tensors yes` saves them.
            result = capture(model, folder, entry=options.entry, size=_capture_size(options, device), mode=mode,
                             device=device, seed=options.seed, store_tensors=False, time_runs=False)
        except (InputError, RuntimeError, MemoryError) as err:
            if not bases:
                raise
            steps.failed("capture", f"{mode}: {_one_line(err)}")
            steps.warn(f"capture of mode {mode} failed ({_one_line(err)}); starting from {bases[0].mode}")
            break
        graphs = result.manifest["graphs"]
        size = (result.manifest.get("model") or {}).get("size") or "its own size"   # None: the file has no SIZES
        if size == "small" and device != "cuda" and options.size != "small":
            steps.say(f"no CUDA device: capturing the model's small size (--size {options.size} needs a GPU)")
        # the report keeps it: a KernelBench model is built in training mode, the capture runs it in eval mode
        training = (result.manifest.get("model") or {}).get("training_layers") or []
        mode_note = (f"; the model, built in training mode, ran in eval mode: {training_layers_text(training)}, "
                     "and kernelopt.load runs the model itself while it is in training mode" if training else "")
        # With a graph break the job optimizes the first graph (the model's outputs come from the last one), or,
        # stopping there, none: the caller optimizes them all
        break_note = "" if len(graphs) == 1 else (
            ": a graph break; every graph is optimized through torch.compile(backend='kernelopt')"
            if stop_at_graph_break else
            (": a graph break; only the first graph is optimized, and kernelopt.load runs the model itself (the "
             "module computes the first graph's outputs, not the model's)"))
        steps.done("capture", f"{result.manifest['name']} ({size}, {mode}, {device}): {len(graphs)} graph(s)"
                   f"{break_note}{mode_note}", started)
        if break_note and not stop_at_graph_break:
            steps.warn(f"the model compiles to {len(graphs)} graphs{break_note}")
        bases.append(_share_equal_inputs(_base(mode, folder, result), bases))
        del result                    # it still held this capture's own inputs, if the base now shares others
        release_cached_memory(device)   # what capture freed stays reserved by torch's allocator otherwise
        if break_note and stop_at_graph_break:
            break                     # the caller compiles the graphs itself: a second mode's capture is not needed
    return _order_bases(bases, steps) if len(bases) > 1 else bases


def _autotune_capture_too_large(first: Base, steps: Steps) -> bool:
    peak = (first.manifest or {}).get("device_peak_bytes")
    if not peak:
        return False
    total = torch.cuda.get_device_properties(torch.cuda.current_device()).total_memory
    over, needs, bound = autotune_over_bound(peak, total)
    if not over:
        return False
    steps.say(f"base: only {first.mode} is captured: Inductor's max-autotune benchmarks its configurations on copies of "
              f"the arguments at compile time (about {AUTOTUNE_COMPILE_FACTOR}x the module's {gib(peak)}, "
              f"{gib(needs)}), over the job's memory bound of {gib(bound)}")
    return True


def _share_equal_inputs(base: Base, earlier: list[Base]) -> Base:
    """`base` holding an earlier base's inputs when its own are equal (both modes capture from the same
    seed): at real sizes a second copy of a 7.5 GB input held for the whole job would break its memory
    bound (issue 18). Inputs a capture changed in place (running statistics) differ and stay separate."""
    for other in earlier:
        if _same_values(base.inputs, other.inputs):
            base.inputs = other.inputs
            break
    return base


def _same_values(a: list | None, b: list | None) -> bool:
    if a is None or b is None or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, torch.Tensor) != isinstance(y, torch.Tensor):
            return False
        if not isinstance(x, torch.Tensor):
            if x != y:
                return False
        elif (x.shape, x.stride(), x.dtype, x.device) != (y.shape, y.stride(), y.dtype, y.device) or \
                not torch.equal(x, y):
            return False
    return True


def _capture_size(options, device: str) -> str:
    """A file with SIZES is captured at --size on a GPU and at its small size on a CPU; a file without
    SIZES has one size, its own, whatever --size says."""
    return options.size if device == "cuda" else "small"


def _too_large_for_cpu(model, options, steps: Steps) -> bool:
    """Without a GPU a model runs under the Triton interpreter: inputs above CPU_INPUT_LIMIT_BYTES
    (measured on the meta device, nothing allocated) cannot be captured here, so the job says so."""
    if options.entry or not model:
        return False
    total = input_bytes(model, _capture_size(options, "cpu"))
    if total is None or total <= CPU_INPUT_LIMIT_BYTES:
        return False
    why = (f"the model's inputs are {gib(total)} at the size captured without a GPU (above "
           f"{gib(CPU_INPUT_LIMIT_BYTES)}): capture, profile, search, gate and guard all need the full-size "
           "tensors, so on this machine no module is written; run on a CUDA GPU, give the file a SIZES entry "
           "'small', or pass an Inductor output module instead")
    steps.skipped("capture", why)
    steps.warn(why)
    return True


def _base(mode: str, folder: Path, result) -> Base:
    manifest = result.manifest
    manifest["base_mode"] = mode
    return Base(mode, str(folder / manifest["graphs"][0]["module"]), result.arg_values, manifest)


def _order_bases(bases: list[Base], steps: Steps) -> list[Base]:
    """`--base best`: the captured bases, faster module first (timed side by side); the slower one
    only while it is within SECOND_BASE_WITHIN of the faster."""
    steps.begin("base")
    first, second = bases[:2]
    if len(first.manifest["graphs"]) != 1 or len(second.manifest["graphs"]) != 1:
        steps.say(f"base: more than one graph; starting from {first.mode}")
        return [first]
    started = time.perf_counter()
    try:
        timed = guard.time_side_by_side(first.module_path, second.module_path, first.inputs)
    except Exception as err:  # noqa: BLE001 - a timing failure must not stop the job: keep the first mode
        steps.say(f"base: could not time the two modes ({type(err).__name__}: {err}); starting from {first.mode}")
        return [first]
    faster, slower = (second, first) if timed.emitted_ms < timed.original_ms else (first, second)
    also = max(timed.original_ms, timed.emitted_ms) <= SECOND_BASE_WITHIN * min(timed.original_ms, timed.emitted_ms)
    steps.done("base", f"{first.mode} {timed.original_ms:.4f} ms, {second.mode} {timed.emitted_ms:.4f} ms per call "
                       f"(side by side): starting from {faster.mode}" + (f", and optimizing {slower.mode} too "
                       f"(within {SECOND_BASE_WITHIN:g}x)" if also else ""), started)
    return [faster, slower] if also else [faster]


def _nothing_to_search(module) -> str:
    """Why a module without a Triton launch or a library (extern) call gets no candidate: Inductor lowered
    every op to an ATen fallback (`torch.ops.aten._adaptive_avg_pool2d`, ...), which no proposer rewrites.
    '' when the module has a launch or an extern call (those are targets)."""
    if module.launches() or module.ops_named("ko.extern"):
        return ""
    calls = []
    for op in module.ops_named("ko.call"):
        for name in op.attrs.get("aten") or ["an ATen call"]:
            if name not in calls:
                calls.append(name)
    runs = (f"no Triton kernel, only ATen fallbacks ({', '.join(calls)})" if calls
            else "no Triton kernel and no library call")
    return (f": Inductor's module runs {runs}, and KernelOPT rewrites Triton kernels and library calls only: "
            "nothing to search")


def _pipeline_step(module_path: str, inputs, manifest, options, device, steps: Steps, prefix: str = "",
                   deadline: float | None = None):
    steps.begin("lift")
    started = time.perf_counter()
    ctx = PassContext(options={"device": device, "inputs": inputs, "progress_stream": steps.stream,
                               **({"search_deadline": deadline} if deadline is not None else {})})
    module = lift_file(module_path, diagnostics=ctx.diagnostics)
    module.attrs["precision"] = options.precision
    if manifest:
        pinned = apply_recorded_configs(module, manifest)  # the autotuner's own choices, never a default
        if pinned:
            steps.say(f"lift: {pinned} launch(es) carry the configuration Inductor's autotuner chose at capture (the "
                      "gate's original runs at it; the emitted module times it again beside Inductor's list)")
    warnings = [d for d in ctx.diagnostics if d.severity == "warning"]
    steps.done("lift", f"{prefix}{len(module.launches())} launches, {len(module.kernels)} kernels"
               + (f", {len(warnings)} warning(s)" if warnings else "") + _nothing_to_search(module), started)
    unsupported = unsupported_parts(module)
    if unsupported:
        why = ("symbolic sizes" if unsupported.symbolic_shapes else
               "a backward graph" if unsupported.backward else f"C++ kernels (@{unsupported.cpp_kernels[0]})")
        steps.skipped("optimize", f"{prefix}the module has {why}; this version optimizes static-shape inference "
                                  "graphs, so the Inductor module is written out unchanged")
        ctx.artifacts["passthrough"] = True
        return module, ctx
    else:
        passes = options.passes()
        if device != "cuda" and options.cost_model == "static":
            steps.say("no CUDA device: annotate-profile records static figures only, and agentic-rewrite ranks "
                      "candidates with the static cost model (deterministic figures, not measurements)")
        elif device != "cuda":
            steps.say("no CUDA device: annotate-profile records static figures only and agentic-rewrite "
                      "proposes nothing, because no candidate can be timed (to search on the CPU all the same, "
                      "ranked by a static cost model: --cost-model static, or cost_model=\"static\" from Python)")
    steps.begin("optimize")
    started = time.perf_counter()
    PassManager(passes).run(module, ctx)
    rewrites = rewrite_record.with_status(module, rewrite_record.ACCEPTED)
    # The whole pipeline, replayable with `kernelopt-opt MODULE -p "..."`, in the log and the report's steps.
    steps.done("optimize", f"{prefix}pipeline {pipeline_text(passes)}: {len(rewrites)} rewrite(s) accepted", started)
    return module, ctx


def _graph_path_step(source: str, module, ctx, inputs, device: str, work: Path, steps: Steps, prefix: str = "") -> str:
    """The legality gate's check of the CUDA-graph path (legality/graph_path.py); a module whose replay
    differs from its plain launches is emitted again without graphs."""
    if GRAPH_RUNTIME_MARKER not in source:
        return source
    if device != "cuda" or graph_path.skipped_without_cuda() is not None:
        steps.skipped("graph-path", f"{prefix}checking CUDA-graph replay against the plain launches needs a CUDA "
                                    "device: the graph path is unchecked")
        return source
    steps.begin("graph-path")
    started = time.perf_counter()
    verdict = graph_path.check_graph_path(str(guard.write_candidate(work, source)), inputs)
    if verdict.accepted:
        steps.done("graph-path", prefix + verdict.reason, started)
        return source
    steps.warn(f"{prefix}graph-path: {verdict.reason}; the module is written without CUDA graphs")
    steps.done("graph-path", f"{prefix}REJECT: {verdict.reason}; emitted again with --cuda-graphs off", started)
    return _emitted_without_graphs(module, ctx)


def _guard_step(source: str, module_path: str, inputs, device: str, work: Path, steps: Steps,
                prefix: str = "", tolerance: float = guard.TOLERANCE) -> tuple[str, float | None, dict | None]:
    """(the emitted module, or the Inductor module when the emitted one measures slower (see guard.py);
    Inductor's time / the written module's, or None when not timed; what the emitted module's CUDA graphs
    did while it was timed, when it is the one written)."""
    if device != "cuda":
        steps.skipped("guard", "timing the emitted module against the Inductor module needs a CUDA device")
        return _cpu_run_step(source, module_path, inputs, work, steps, prefix), None, None

    steps.begin("guard")
    started = time.perf_counter()
    try:
        result = guard.time_side_by_side(module_path, str(guard.write_candidate(work, source)), inputs,
                                         tolerance=tolerance)
    except KeyboardInterrupt:
        raise
    except Exception as err:  # noqa: BLE001 - not proven faster: the job falls back to Inductor's module
        raise RuntimeError(f"{prefix}guard: could not time the emitted module against the original "
                           f"({_one_line(err)})") from None
    steps.done("guard", prefix + result.detail(), started)
    if result.keep_emitted:
        return source, result.original_ms / result.emitted_ms, result.graphs
    return Path(module_path).read_text(), 1.0, None


def _cpu_run_step(source: str, module_path: str, inputs, work: Path, steps: Steps, prefix: str = "") -> str:
    """Without a GPU: the emitted module run once under Triton's interpreter beside the Inductor module
    (guard.run_once_on_cpu), when its inputs are small enough to interpret; the Inductor module is written
    instead when the emitted one fails to run or returns other outputs."""
    if inputs is None:
        steps.skipped("run-once", f"{prefix}running the emitted module: no inputs were captured")
        return source
    elements = sum(a.numel() for a in inputs if isinstance(a, torch.Tensor))
    if elements > guard.RUN_ONCE_MAX_ELEMENTS:
        steps.skipped("run-once", f"{prefix}running the emitted module under the interpreter: its inputs hold "
                                  f"{elements} elements (more than {guard.RUN_ONCE_MAX_ELEMENTS})")
        return source
    steps.begin("run-once")
    started = time.perf_counter()
    try:
        problem = guard.run_once_on_cpu(module_path, str(guard.write_candidate(work, source)), inputs)
    except guard.OriginalDoesNotRun as err:
        steps.skipped("run-once", f"{prefix}the Inductor module does not run on these inputs here ({err}): "
                                  "nothing to compare the emitted module with")
        return source
    if not problem:
        steps.done("run-once", f"{prefix}the emitted module runs under the interpreter and returns the original's "
                               "outputs' shapes and dtypes", started)
        return source
    steps.warn(f"{prefix}run-once: {problem}; the Inductor module is written instead")
    steps.done("run-once", f"{prefix}REJECT: {problem}", started)
    return Path(module_path).read_text()


def _settle_graphs(source: str, graphs: dict | None, module, ctx, steps: Steps, prefix: str = "") -> str:
    """The emitted module, written with CUDA graphs off when its `auto` runtime measured replay itself (the
    fastest graph path, no input copied) no faster than the plain launches while the guard timed it. Left
    on `auto`, every process times both paths again on its first few calls and may keep a replay that is
    slower: on an H200 an argmax module the guard timed with graphs off (replay 163.9 us vs plain 156.1 us)
    measured 11 % slower than its original in another process."""
    if "replay" not in (graphs or {}).get("dropped", ()):
        return source
    steps.say(f"{prefix}graph-path: written with CUDA graphs off: auto measured replay no faster than the plain "
              f"launches while the guard timed it ({graphs.get('decision')})")
    return _emitted_without_graphs(module, ctx)


def _emitted_without_graphs(module, ctx) -> str:
    """The module emitted again with --cuda-graphs off (plain launches only)."""
    EmitPython(cuda_graphs="off").apply(ctx, module)
    return ctx.artifacts["python"]


def _sidecar(manifest, module, options, device) -> dict:
    graph = (manifest or {}).get("graphs", [{}])[0]
    return {
        "format": 1, "kernelopt_module": True, "device": device, "precision": options.precision,
        "base": (manifest or {}).get("base_mode", options.base), "arguments": graph.get("arguments"),
        "forward_inputs": (manifest or {}).get("forward_inputs"),
        "model": (manifest or {}).get("model"),
        "model_mode": "eval",    # every capture runs the model in eval mode (capture.models._to_device)
        "graphs": len((manifest or {}).get("graphs") or [None]),   # more than 1: the module is the first's only
        "output_structure": _output_structure(manifest),
    }


def _output_structure(manifest) -> dict | None:
    """How the forward nests the module's outputs (capture.output_structure), when the first graph's outputs are
    the forward's tensors in order (equal checksums); otherwise why the module's outputs are not the forward's."""
    structure = (manifest or {}).get("output_structure")
    if structure is None:
        return None
    graph = (manifest.get("graphs") or [{}])[0]
    if structure.get("spec") and [(o.get("sha256"), o.get("shape"), o.get("dtype")) for o in graph.get("outputs", [])] != \
            [(o.get("sha256"), o.get("shape"), o.get("dtype")) for o in manifest.get("model_outputs", [])]:
        return {"spec": None, "why": "the module's outputs are not the forward's tensors in order"}
    return structure


def _write_module(out_path: Path, source: str, manifest, options, device: str) -> None:
    """The module (its first line the `# kernelopt-output` marker) and its sidecar (argument mapping and
    shapes), each replaced atomically."""
    _write_atomically(out_path, with_marker(source))
    sidecar = _sidecar(manifest, None, options, device)
    _write_atomically(out_path.with_suffix(".json"), json.dumps(sidecar, indent=1, default=str))


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text)
        tmp.replace(path)
    finally:
        if tmp.exists():
            tmp.unlink()
