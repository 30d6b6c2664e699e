"""Evaluate candidates: the legality gate on the launches' real inputs, then timing.

`ModuleEvaluator` loads the original output module once (`kernelopt.runtime.loader`), runs it on
the module inputs and captures, through the launch hook, a copy of every launch's arguments. A
candidate for a kernel is checked on all of that kernel's launches by the legality gate (isolated
worker processes), and, when legal and on a GPU, timed side by side with the original kernel on the
same arguments. For a fusion group, the captured arguments of the group's launches are merged into
the group's argument list and the original is the group's launches replayed in order.

Without a GPU nothing is timed unless a deterministic cost model is asked for (`StaticCostModel`,
used by tests of the search): a rewrite is only ever kept on a measured (or explicitly modelled)
win.
"""
from __future__ import annotations

import atexit
import hashlib
import linecache
import math
import os
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import torch

from kernelopt.errors import UsageError
from kernelopt.ir.effects import mutated_arguments
from kernelopt.job_workdir import owned_temp_folder, remove_tree
from kernelopt.legality import GateError, check_candidate
from kernelopt.legality.cases import LaunchInputs, host_copy
from kernelopt.legality.memory_budget import parse_size
from kernelopt.legality.phase_timings import time_line
from kernelopt.legality.module import float64_module, reference_of
from kernelopt.proposers.base import Candidate, RewriteTarget
from kernelopt.runtime.loader import load_output_module
from kernelopt.runtime.timing import compare_device
from kernelopt.tensor_layout import layout_copy

from .search import Evaluation
from .targets import VENDOR_POSITIONAL, vendor_operands


def _clone(value: Any) -> Any:
    return layout_copy(value) if isinstance(value, torch.Tensor) else value


def load_candidate(source: str, name: str = "candidate") -> Callable[..., None]:
    """Import a candidate-format source (already accepted by the gate) and return its `run`."""
    return load_source_module(source, name).run


def load_source_module(source: str, name: str = "candidate") -> types.ModuleType:
    """Import a Python source that defines Triton kernels, as a module of its own file (`name` prefixes it)."""
    # Triton's JIT reads function sources through inspect, so the source must be a file: one per
    # distinct candidate (named by its hash), so repeated timings do not pile up files, in a folder of
    # this process's own that goes when it exits (a shared folder kept every candidate of every job).
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    path = _candidate_folder() / f"{name}_{digest}.py"
    if not path.exists():
        path.write_text(source)
    module = types.ModuleType(f"kernelopt_candidate_{digest}")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module
    linecache.checkcache(str(path))
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


_CANDIDATES: dict[int, Path] = {}     # pid -> this process's candidate folder


def _candidate_folder() -> Path:
    """The folder load_candidate writes into: made on first use, owned by this process (a process killed
    before its exit handler runs leaves it to sweep_stale_workdirs) and removed when it exits."""
    pid = os.getpid()                  # a forked child makes its own: the parent's goes with the parent
    # Made under the temp folder of the moment: inside a job's work folder (TMPDIR), which goes when that job
    # ends, and a torch.compile process runs one job per graph (its second graph's candidates found none).
    if pid not in _CANDIDATES or not _CANDIDATES[pid].is_dir():
        folder = Path(owned_temp_folder("kernelopt-candidates-"))
        _CANDIDATES[pid] = folder
        atexit.register(remove_tree, folder)
    return _CANDIDATES[pid]


@dataclass
class CapturedLaunch:
    kernel: str
    index: int
    args: tuple
    keywords: tuple = ()      # a vendor call's keyword names: the last len(keywords) args, in call order


# Captured launch arguments stay on the device up to this many bytes in all; the rest are parked on the
# host (pinned, so the gate's copies to its own device buffers run at full speed). A module with a
# multi-GB input would otherwise hold every launch's arguments twice on the device (the module's own
# and the capture), and with the gate's buffers and its sandbox's the job's memory bound is exceeded
# (issue 18: a 7.5 GB instance norm). Environment: KERNELOPT_CAPTURE_DEVICE_BYTES.
CAPTURE_DEVICE_BYTES = 1 << 30


def capture_device_bytes() -> int:
    text = os.environ.get("KERNELOPT_CAPTURE_DEVICE_BYTES", "").strip()
    try:
        return parse_size(text) if text else CAPTURE_DEVICE_BYTES
    except ValueError as err:     # the user's setting: say which, never a traceback from inside a pass
        raise UsageError(f"KERNELOPT_CAPTURE_DEVICE_BYTES: {err}") from None


class _CaptureStore:
    """Copies of captured arguments: on their device while the total fits `device_bytes`, else on the host."""

    def __init__(self, device_bytes: int):
        self.left = device_bytes
        self.parked = 0             # bytes kept on the host

    def copy(self, value: Any) -> Any:
        if not isinstance(value, torch.Tensor):
            return value
        if value.device.type != "cuda":
            return layout_copy(value)
        nbytes = value.numel() * value.element_size()
        if nbytes <= self.left:
            self.left -= nbytes
            return layout_copy(value)
        self.parked += nbytes
        return host_copy(value)


class LaunchCapture:
    """Runs a loaded module once and keeps a copy of every launch's arguments (before the launch);
    past `device_bytes` in all, the copies are kept on the host (see CAPTURE_DEVICE_BYTES)."""

    def __init__(self, loaded, inputs: list, device_bytes: int | None = None):
        """`inputs`: what the module's call runs on, which it may update in place (the caller passes
        copies of what it must keep unchanged; see ModuleEvaluator)."""
        self.loaded = loaded
        self.launches: list[CapturedLaunch] = []
        store = self.store = _CaptureStore(capture_device_bytes() if device_bytes is None else device_bytes)

        def hook(kernel_name, launch_index, args, run_original):
            self.launches.append(CapturedLaunch(kernel_name, launch_index, tuple(store.copy(a) for a in args)))
            run_original()

        loaded.launch_hook = hook
        externs = loaded.namespace.get("extern_kernels")
        if externs is not None:  # vendor calls too (epilogue targets replay the GEMM)
            loaded.namespace["extern_kernels"] = _RecordingExterns(externs, self.launches, store)
        try:
            loaded.call(list(inputs))
        finally:
            loaded.launch_hook = None
            if externs is not None:
                loaded.namespace["extern_kernels"] = externs

    def of(self, kernel: str) -> list[CapturedLaunch]:
        return [launch for launch in self.launches if launch.kernel == kernel]


class _RecordingExterns:
    """Stands in for the module's `extern_kernels` during the capture: records each call's arguments
    (positional, then keyword values in call order) as a CapturedLaunch named `extern_kernels.<fn>`."""

    def __init__(self, real, launches: list[CapturedLaunch], store: _CaptureStore):
        self._real = real
        self._launches = launches
        self._store = store

    def __getattr__(self, name: str):
        fn = getattr(self._real, name)
        if not callable(fn):
            return fn

        def call(*args, **kwargs):
            values = tuple(self._store.copy(a) for a in list(args) + list(kwargs.values()))
            self._launches.append(CapturedLaunch(f"extern_kernels.{name}", -1, values, tuple(kwargs)))
            return fn(*args, **kwargs)

        return call


class StaticCostModel:
    """A deterministic stand-in for timing, for tests of the search on a CPU.

    Time = bytes moved at the H200 copy rate, times a penalty that grows with the distance of
    the candidate's `num_warps` from 8 and falls with larger blocks (fewer programs); it only
    needs to be deterministic and to prefer some candidates over others.
    """

    bandwidth = 4.27e12

    def time_us(self, target: RewriteTarget, candidate: Candidate | None) -> float:
        nbytes = 0
        for launch in target.launches:
            for arg in launch.args:
                if arg.is_tensor:
                    n = math.prod(arg.sizes) if arg.sizes else 1
                    nbytes += n * (2 if "16" in arg.dtype else 8 if "64" in arg.dtype else 4)
        base = nbytes / self.bandwidth * 1e6 + 2.0 * len(target.launches)
        if candidate is None:
            return base * 1.5
        warps = _config_value(candidate.strategy, "num_warps", 4)
        block = _config_value(candidate.strategy, "BLOCK", 1024)
        penalty = 1.0 + 0.1 * abs(math.log2(max(warps, 1) / 8)) + 0.2 / math.log2(max(block, 2))
        return base * penalty


def _config_value(strategy: str, key: str, default: int) -> int:
    for token in strategy.replace(",", " ").split():
        name, _, value = token.partition("=")
        if name.endswith(key) and value.isdigit():
            return int(value)
    return default


class ModuleEvaluator:
    def __init__(self, module_path: str, inputs: list | None, *, device: str, precision: str = "strict",
                 cost_model: StaticCostModel | None = None, rounds: int = 5, int_bounds: dict | None = None,
                 mutated_inputs: tuple[int, ...] | None = None, recorded_configs: dict[str, dict] | None = None):
        self.device = device
        self.precision = precision
        self.cost_model = cost_model
        self.rounds = rounds
        self.int_bounds = int_bounds or {}
        self.module_path = module_path
        # With recorded configurations, Inductor's autotune cache stays unread: a hit from an earlier run
        # on this machine would leave each kernel only its own pick, and the pin below could not take.
        self.loaded = load_output_module(module_path, device, autotune_cache=not recorded_configs)
        # Pinned before the module's first run (the capture below), which would autotune each kernel
        # again in this process: the kernels run at the configurations the capture recorded (what the
        # emitted module launches, and what candidates built from a kernel's code launch at). `unpinned`:
        # kernels with an autotuner that could not be pinned (no configuration of theirs matches), which
        # the gate then compares with what the autotuner picks here (agentic-rewrite remarks them).
        self.recorded_configs = dict(recorded_configs or {})
        self.unpinned = [kernel for kernel in _pin_configs(self.loaded, self.recorded_configs)
                         if device == "cuda" and self.loaded.kernels[kernel].choices() > 1]
        self._float64: dict[tuple, Any] = {}   # kernel names -> the module with them in float64 (or None)
        self.run_to_run: dict[str, dict] = {}   # target id -> the gate's store of its original's spread
        # The module's call may update its inputs in place, and the caller's are the job's (used after the
        # search): the ones in `mutated_inputs` run on copies (every one when it is None: unknown). () says
        # none needs one (the IR's effects show no write, or the caller hands over inputs it will not use
        # again). Inputs made here are the module's own. At real sizes a copy of every multi-GB input would
        # not fit the job's memory bound (issue 18).
        if inputs is None:
            args = self.loaded.get_args()
        else:
            args = [_clone(a) if mutated_inputs is None or i in mutated_inputs else a for i, a in enumerate(inputs)]
        self.capture = LaunchCapture(self.loaded, args)
        del args
        # where the launches run (captured values may be parked on the host)
        self.run_device = torch.device("cuda", torch.cuda.current_device()) if device == "cuda" else torch.device("cpu")

    @classmethod
    def for_module(cls, module, inputs: list | None, device: str, **options) -> "ModuleEvaluator":
        """The evaluator of a lifted module's source file, as the passes make it: its precision policy, the
        inputs its call updates in place run on copies (the others need none), and its kernels pinned to
        the configurations the capture recorded."""
        return cls(str(module.attrs["file"]), inputs, device=device,
                   precision=str(module.attrs.get("precision", "strict")), mutated_inputs=mutated_arguments(module),
                   recorded_configs=capture_configs(module), **options)

    # -- the original ----------------------------------------------------------------------------
    def original_runner(self, target: RewriteTarget) -> Callable[..., None]:
        return _runner(self.loaded, target)

    def timing_runner(self, target: RewriteTarget) -> Callable[..., None]:
        """The original as it runs in the module: a vendor call that returns its result is timed without
        the copy into `out` that the checks need (the module uses the returned tensor)."""
        return _runner(self.loaded, target, copy_result=False)

    def reference_runner(self, target: RewriteTarget) -> Callable[..., None] | None:
        """The target's launches computed in float64 (the gate's accuracy reference), or None when that
        version of its kernels does not build. Without it the gate compares with the original alone, at
        the dtype's tolerance: a candidate that only reduces in another order (a retune of a LayerNorm)
        differs from the original by rounding noise beyond that tolerance wherever the math cancels,
        and would be rejected although it is as accurate as the original."""
        kernels = tuple(sorted({k.name for k in target.kernels if k.kind != "vendor"}))
        if not kernels:     # library calls only: the library computes in float64 itself
            return _runner(self.loaded, target)
        # The reference reads the target's read-only inputs in their own dtype (no float64 copy of them:
        # the gate's memory bound); in a group, what one member wrote and another reads stays float64.
        native = _native_inputs(target)
        key = (kernels, tuple(sorted((k, tuple(sorted(v))) for k, v in native.items()))
               if isinstance(native, dict) else native)
        if key not in self._float64:
            self._float64[key] = float64_module(self.module_path, kernels, self.device, native_inputs=native,
                                                autotune_cache=not self.recorded_configs)
            if self._float64[key] is not None:     # not autotuned again either: run as the original is
                _pin_configs(self._float64[key], self.recorded_configs)
        loaded64 = self._float64[key]
        if loaded64 is None or any(k not in loaded64.kernels for k in kernels):
            return None
        return reference_of(_runner(loaded64, target), loaded64)

    def launch_inputs(self, target: RewriteTarget) -> list:
        """The captured arguments of the target's launches, as the gate reads them. Not copied: the gate
        only reads them (its cases run on buffers of its own), and timing runs on one copy (_time)."""
        if len(target.kernels) == 1 and not target.group_args:
            return [LaunchInputs(tuple(c.args), label=f"{c.kernel}#{c.index}", device=self.run_device)
                    for c in self.capture.of(target.kernels[0].name)]
        return [LaunchInputs(self.group_args(target), label=target.id, device=self.run_device)]

    def group_args(self, target: RewriteTarget) -> tuple:
        """The group's argument tuple from the first capture of each launch, in first-use order."""
        values: list[Any] = [None] * len(target.group_args)
        positions = _group_positions(target)
        used: dict[str, int] = {}
        for launch, where in zip(target.launches, positions):
            occurrence = used.get(launch.kernel, 0)
            used[launch.kernel] = occurrence + 1
            occurrence = int(launch.config.get("occurrence", occurrence))  # set by epilogue_target
            captured = self.capture.of(launch.kernel)[occurrence]
            if launch.config.get("returns"):
                for slot, value in zip(where, _returning_call_values(launch, captured)):
                    if values[slot] is None:
                        values[slot] = value
                continue
            for arg, slot in zip(captured.args, where):
                if values[slot] is None:
                    values[slot] = _clone(arg)
        return tuple(values)

    @staticmethod
    def output_positions(target: RewriteTarget) -> set[int]:
        if target.group_args:
            return {i for i, a in enumerate(target.group_args) if a.written}
        return {i for i, a in enumerate(target.launches[0].args) if a.written}

    # -- evaluation ------------------------------------------------------------------------------
    def evaluate(self, target: RewriteTarget, candidate: Candidate) -> Evaluation:
        start = time.perf_counter()
        launches = self.launch_inputs(target)
        original = self.original_runner(target)
        try:
            verdict = check_candidate(
                original, candidate.source, launches, output_args=self.output_positions(target),
                scratch_args=target.scratch_args, precision=self.precision, reference_fn=self.reference_runner(target),
                run_to_run=self.run_to_run.setdefault(target.id, {}),
                original_source=next((k.source for k in target.kernels if k.source), ""),
                arg_names=[a.name for a in (target.group_args or target.launches[0].args)])
        except GateError as err:
            return Evaluation(False, f"the check could not run: {err}", gpu_seconds=self._spent(start))
        evidence = _verdict_evidence(verdict)
        phases = time_line(verdict.timings) if verdict.timings else ""
        if not verdict.accepted:
            return Evaluation(False, f"{verdict.check}: {verdict.reason}", evidence, gpu_seconds=self._spent(start),
                              phases=phases, notes="; ".join(verdict.notes))
        if self.device == "cuda":
            baseline_us, time_us = self._time(self.timing_runner(target), load_candidate(candidate.source),
                                              launches[0].args, target.zeroed_args)
            return Evaluation(True, "ACCEPT", evidence, time_us, baseline_us, self._spent(start), "cuda-events",
                              phases)
        if self.cost_model is not None:
            return Evaluation(True, "ACCEPT", evidence, self.cost_model.time_us(target, candidate),
                              self.cost_model.time_us(target, None), 0.0, "static-cost-model")
        return Evaluation(True, "ACCEPT", evidence, gpu_seconds=0.0)

    def _time(self, original, candidate_run, args, zeroed: tuple[int, ...] = ()) -> tuple[float, float]:
        # One copy for both sides: the gate has judged the candidate, so timing needs only buffers of the
        # right shapes (the captured ones must stay as captured for the next candidate's gate).
        shared = [a.to(self.run_device, copy=True) if isinstance(a, torch.Tensor) else a for a in args]
        # the GPU's own time on both sides: a rewrite's kernels launch through Triton's JIT binding here, and through
        # the C++ launcher in the emitted module, which also replays CUDA graphs (the guard times the module as called)
        result = compare_device(zeroing_before(original, shared, zeroed), zeroing_before(candidate_run, shared, zeroed),
                                rounds=self.rounds, device="cuda", min_time_ms=20.0)
        return result.median_a_ms * 1e3, result.median_b_ms * 1e3

    def _spent(self, start: float) -> float:
        return time.perf_counter() - start if self.device == "cuda" else 0.0


def zeroing_before(run: Callable[..., None], args: list, zeroed: tuple[int, ...]) -> Callable[[], None]:
    """`run(*args)` as timing calls it: the slots the module zeroes before the target (RewriteTarget.zeroed_args)
    are zeroed first on every run, on both sides alike, as each call of the module zeroes them."""
    cleared = [args[i] for i in zeroed if isinstance(args[i], torch.Tensor)]
    if not cleared:
        return lambda: run(*args)

    def timed() -> None:
        for tensor in cleared:
            tensor.zero_()
        run(*args)
    return timed


def _runner(loaded, target: RewriteTarget, copy_result: bool = True) -> Callable[..., None]:
    """Runs the target's launches with `loaded`'s kernels: the kernel itself, or a group's launches
    replayed in order on the group's argument list (a vendor call that returns its result copies it
    into its `out` slot, unless `copy_result` is False)."""
    if len(target.kernels) == 1 and not target.group_args:
        return loaded.kernels[target.kernels[0].name].run
    positions = _group_positions(target)
    vendor = {k.name for k in target.kernels if k.kind == "vendor"}

    def run_group(*group_args):
        for launch, where in zip(target.launches, positions):
            if launch.kernel in vendor and launch.config.get("returns"):
                _returning_vendor_call(loaded, launch, [group_args[i] for i in where], copy_result)
            elif launch.kernel in vendor:
                _vendor_call(loaded, launch, [group_args[i] for i in where])
            else:
                loaded.kernels[launch.kernel].run(*[group_args[i] for i in where])

    return run_group


def recorded_configs(launches) -> dict[str, dict]:
    """kernel -> the launch configuration its launches recorded (`(kernel, config)` pairs; the IR's
    `config` attributes), for the kernels whose launches all recorded the same one."""
    recorded: dict[str, list[dict]] = {}
    for kernel, config in launches:
        if config:
            recorded.setdefault(kernel, []).append(config)
    return {kernel: configs[0] for kernel, configs in recorded.items() if all(c == configs[0] for c in configs)}


def capture_configs(module) -> dict[str, dict]:
    """recorded_configs of the IR's launches whose configuration is the capture's autotuner choice
    (`config_source = "capture"`), not one the emitter picked from Inductor's heuristics."""
    return recorded_configs((op.symbol, op.attrs.get("config")) for op in module.launches()
                            if op.attrs.get("config_source") == "capture")


def _pin_configs(loaded, configs: dict[str, dict]) -> list[str]:
    """Pin each of `loaded`'s kernels named in `configs` to its configuration (KernelHandle.pin_config);
    the names of those that could not be pinned."""
    return [kernel for kernel, config in configs.items()
            if kernel in loaded.kernels and not loaded.kernels[kernel].pin_config(config)]


def _vendor_call(loaded, launch, values: list) -> None:
    """Call the vendor op of an epilogue target (`kernels[0].kind == "vendor"`) through the module's
    own `extern_kernels`: positional operands first, then alpha=/beta=/out= by name."""
    positional = VENDOR_POSITIONAL[launch.kernel]
    args = [v for a, v in zip(launch.args, values) if a.name in positional]
    kwargs = {a.name: v for a, v in zip(launch.args, values) if a.name not in positional}
    getattr(loaded.namespace["extern_kernels"], launch.kernel.split(".", 1)[1])(*args, **kwargs)


def _returning_vendor_call(loaded, launch, values: list, copy_result: bool) -> None:
    """Call a vendor op that returns its result (a vendor target, `targets.vendor_target`): the tensor
    roles by position/keyword, the literal keywords from the launch config; the result goes to `out`."""
    roles = dict(zip((a.name for a in launch.args), values))
    kwargs = dict(launch.config.get("kwargs") or {})
    kwargs["bias"] = roles.get("bias")
    fn = getattr(loaded.namespace["extern_kernels"], launch.kernel.split(".", 1)[1])
    result = fn(roles["input"], roles["weight"], **kwargs)
    if copy_result:
        roles["out"].copy_(result)


def _returning_call_values(launch, captured: CapturedLaunch) -> list:
    """A vendor target's slot values from the captured call: the operands by role, and a fresh `out`
    with the result's layout (the call made its own; NaN-filled so that an unwritten element shows)."""
    positional = captured.args[:len(captured.args) - len(captured.keywords)]
    operands = vendor_operands(positional, dict(zip(captured.keywords, captured.args[len(positional):])))
    values = []
    for arg in launch.args:
        if arg.name == "out":
            like = captured.args[0]
            dtype = getattr(torch, arg.dtype)
            out = torch.empty_strided(arg.sizes, arg.strides, dtype=dtype, device=like.device)
            values.append(out.fill_(math.nan) if dtype.is_floating_point else out.zero_())
        else:
            values.append(_clone(operands[arg.name]))
    return values


def _native_inputs(target: RewriteTarget) -> bool | dict[str, set[str]]:
    """Which inputs the target's float64 reference may read in their own dtype: every read-only input of
    a single kernel (True); in a fusion group, per kernel, the `in_ptr`s whose group slot no member
    writes (a dict); none (False) when a library call is a member (it computes on what it is given) or
    a kernel is launched twice with different slots kept."""
    if len(target.kernels) == 1 and not target.group_args:
        return True
    if any(k.kind == "vendor" for k in target.kernels):
        return False
    positions = _group_positions(target)
    written = set(target.scratch_args)
    for launch, where in zip(target.launches, positions):
        written |= {slot for arg, slot in zip(launch.args, where) if arg.written}
    keep: dict[str, set[str]] = {}
    for launch, where in zip(target.launches, positions):
        names = {arg.name for arg, slot in zip(launch.args, where)
                 if arg.is_tensor and arg.name.startswith("in_ptr") and slot not in written}
        if keep.setdefault(launch.kernel, names) != names:
            return False
    return keep


def _group_positions(target: RewriteTarget) -> list[list[int]]:
    """For each launch of a group, the position in `group_args` of each of its arguments."""
    return [list(p) for p in target.group_positions]


def _verdict_evidence(verdict) -> dict:
    """The gate's verdict as plain attribute values (it is recorded on the IR)."""
    evidence = {"verdict": verdict.line(), "cases_run": verdict.cases_run,
                "worst_rel_err": float(verdict.worst_rel_err)}
    if verdict.gpu_only:
        evidence["gpu_only_checks"] = list(verdict.gpu_only)
    for key, value in verdict.evidence.items():
        evidence[str(key)] = value if isinstance(value, (int, float, str, bool)) else str(value)
    return evidence
