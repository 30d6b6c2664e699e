"""The legality gate: a candidate replaces a kernel only if every check below passes on every launch.

Per launch the gate runs cases: the realistic one (the launch's captured buffers), fresh random inputs
for each seed, and adversarial ones (large magnitudes, negatives, tiny values). Per case it runs the
original in this process and the candidate in a sandboxed child (see sandbox.py), on identical guarded,
poisoned buffers, and checks in this order (the first failure rejects, with evidence):

  layout / aliasing   argument metadata (sizes, strides, offset, dtype, device, storage) unchanged
  guard-band          nothing written outside any argument (guard bands, stride gaps)
  input-mutated       arguments the original does not write are bit-identical afterwards
                      (scratch arguments, which nothing reads after the launches, are exempt from this
                      and from every value check: a fusion's dead intermediate may be left unwritten)
  unwritten           every element of every output written (poison gone)
  nonfinite           NaN/Inf positions (and Inf signs) equal to the original's
  mismatch            elementwise within the dtype's tolerance of the original (tolerance.py); an original
                      that differs from itself from run to run (atomics, a split scan's look-back: measured
                      by repeating it on the first case of each launch) also allows that spread
  less-accurate       relative error against the float64 reference <= factor x the original's
  precision           a mismatch/less-accurate fp32 result with the error of bf16/fp16/tf32 math
  stale-result        a failure that disappears in a fresh process: cached or pointer-keyed results

All cases of a launch run in the same child and the same buffers (new data copied in), so a candidate
that caches its result, or keys it on input pointers, sees new data at old addresses. Before any of this,
the source is screened for what the CPU interpreter cannot show (screen.py: streams, TF32/bf16 dots).

Data path: a case's buffers are made, run and compared where the launch's tensors live (a GPU case
never goes through the CPU here); they reach the child through shared host buffers (shared.py), not
pickles. Time limits: a call's run may take max(floor, timeout_factor x the original's time); Triton
compilation and kernel loading, which the child reports as they happen, count against a separate cap
instead. `Verdict.timings` says where the check's time went (spawn, load, per case: inputs, original,
reference, transfer, candidate run and compile, comparison); the logger `kernelopt.legality` logs it
per case at DEBUG.

Memory: every comparison walks its tensors in bounded chunks (compare.CHUNK_ELEMENTS), the case buffers
are reused from case to case, and per layout the copies a case needs are planned against a device
memory budget (memory_budget.py): what does not fit is kept on the host and compared chunk by chunk,
and a float64 reference whose run cannot fit is dropped; `Verdict.notes` says which (`memory budget
...: ...`). Every case still runs and every element of every output is still compared.
"""
from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import torch

from kernelopt.legality import cases as C
from kernelopt.legality import compare
from kernelopt.legality import memory_budget as M
from kernelopt.legality.phase_timings import PhaseTimings, time_line
from kernelopt.legality.sandbox import ChildDied, ChildTimedOut, Limits, WorkerPool, default_pool
from kernelopt.legality.screen import screen_source
from kernelopt.legality.shared import SharedBases
from kernelopt.legality.tolerance import PRECISIONS

log = logging.getLogger("kernelopt.legality")

VALUE_CHECKS = {"unwritten", "nonfinite", "mismatch", "less-accurate", "precision"}
GPU_ONLY_CHECKS = ("stream ordering (dynamic)", "tf32/bf16 dot precision (dynamic)", "illegal memory access")
_REDUCTION_SIZE = re.compile(r"r\d*_?numel")     # Inductor's reduction-size parameters
_REFERENCE_SANITY = 0.05     # a float64 reference farther than this from the original is not trusted
# Defaults of the time limits (seconds); see check_candidate.
_RUN_FLOOR = 5.0              # a call's run, compilation not counted
_FIRST_RUN_FLOOR_CPU = 10.0   # the interpreter's first call of a kernel is slower
_COMPILE_CAP = {"cuda": 300.0, "cpu": 60.0}
_SETUP_CAP = {"cuda": 120.0, "cpu": 60.0}      # placing a case's data in the child, CUDA context
_LOAD_CAP = {"cuda": 30.0, "cpu": 10.0}        # importing the candidate, compilation not counted
RUN_TO_RUN_TRIES = 3           # repeats of the original that measure a non-reproducible one's spread
_UNWATCHED_FIRST_FLOOR = 120.0  # a GPU child that cannot report compilation: its first call compiles


@dataclass
class Verdict:
    accepted: bool
    check: str                          # "accept" or the failing check's id
    reason: str                         # human-readable text of the failing check
    evidence: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    gpu_only: tuple = ()
    cases_run: int = 0
    worst_rel_err: float = 0.0
    timings: dict = field(default_factory=dict)   # seconds per phase (PhaseTimings.summary); not evidence

    def line(self) -> str:
        return "ACCEPT" if self.accepted else f"REJECT: {self.check}: {self.reason}"

    def report(self) -> str:
        lines = [self.line()]
        for key, value in self.evidence.items():
            lines.append(f"  {key}: {value}")
        lines.append(f"  cases run: {self.cases_run}; worst relative error: {self.worst_rel_err:.3g}")
        lines.extend(f"  note: {note}" for note in self.notes)
        if self.gpu_only:
            lines.append(f"  checked only on a GPU: {', '.join(self.gpu_only)}")
        if self.timings:
            lines.append(f"  time: {time_line(self.timings)}")
        return "\n".join(lines)


class GateError(Exception):
    """The check could not run (bad inputs, an original that misbehaves): neither ACCEPT nor REJECT."""


@dataclass
class _Case:
    launch: int
    label: str
    kind: str            # realistic | random | large | negative | tiny
    seed: int | None


@dataclass
class _Prepared:
    case: _Case
    layout: C.Layout
    before: list         # bases before the run (on the launch's device, or the host: see placement)
    original_after: list
    reference: dict      # arg -> float64 tensor on the device or the host (may be empty)
    original_seconds: float
    placement: M.Placement


def check_candidate(original: Callable[..., Any], candidate_source: str, launches: list[C.LaunchInputs], *,
                    output_args: Iterable[int], mutated_args: Iterable[int] = (), scratch_args: Iterable[int] = (),
                    precision: str = "strict",
                    reference_fn: Callable[..., Any] | None = None, original_source: str | None = None,
                    arg_names: list[str] | None = None, seeds: Iterable[int] = (0, 1, 2),
                    adversarial: Iterable[str] = C.ADVERSARIAL, accuracy_factor: float = 2.0,
                    timeout_factor: float = 20.0, timeout_floor_s: float | None = None,
                    first_timeout_s: float | None = None, compile_timeout_s: float | None = None,
                    static_screen: bool = True, pool: WorkerPool | None = None,
                    stale_recheck: bool = True, memory_budget=None, run_to_run: dict | None = None) -> Verdict:
    """Decide whether `candidate_source` (candidate format: defines `run(*args)`) may replace the
    launches that `original(*args)` performs. See the module docstring for the checks.

    original      runs the original kernel in place on `.run(...)`-ordered args (trusted, in-process)
    launches      each launch's captured args (realistic inputs); every launch is checked
    output_args   positions whose contents are results (out_ptr*, in_out_ptr*)
    mutated_args  further positions the original may change (compared like outputs)
    scratch_args  positions the original writes but nothing reads afterwards (a fusion group's intermediate
                  that does not escape it): the candidate may leave them anything; never compared
    timeouts      a call's run: max(floor, timeout_factor x the original's time), Triton compilation and
                  kernel loading not counted; the floor is timeout_floor_s (default 5 s) and, for the
                  first call, first_timeout_s (default: timeout_floor_s, or 5 s on a GPU and 10 s on the
                  CPU). Compilation has its own cap per call, compile_timeout_s (default 300 s on a GPU)
    reference_fn  optional float64 reference: called like `original` on args whose floating tensors are
                  float64; writes the outputs in place or returns {arg index: tensor}
    run_to_run    where the original's run-to-run spread is kept (launch signature -> output -> reach): pass
                  the same dict to every check of the same original and it is measured once, not per candidate
    memory_budget bytes the gate may allocate on the launches' device (an int, "2GiB", or a
                  memory_budget.MemoryBudget); default unlimited on the CPU, free memory - 4 GiB on a GPU;
                  the environment variable KERNELOPT_DEVICE_MEMORY_BUDGET overrides it. What does not
                  fit is kept on the host, or the reference dropped (memory_budget.py), with a note
    """
    if precision not in PRECISIONS:
        raise GateError(f"precision must be one of {', '.join(PRECISIONS)}")
    if not launches:
        raise GateError("no launches to check the candidate on")
    device = _device_of(launches)
    scratch = set(scratch_args)
    gate = _Gate(original, candidate_source, launches, (set(output_args) | set(mutated_args)) - scratch, precision,
                 reference_fn, arg_names, accuracy_factor, timeout_factor, timeout_floor_s, first_timeout_s,
                 compile_timeout_s, pool or default_pool(device), device, stale_recheck,
                 M.resolve(memory_budget, device), scratch, run_to_run)
    if static_screen:
        low = any(isinstance(a, torch.Tensor) and a.dtype in (torch.bfloat16, torch.float16)
                  for launch in launches for a in launch.args)
        findings = screen_source(candidate_source, precision=precision, original_source=original_source,
                                 low_precision_args=low)
        if findings:
            first = findings[0]
            names = {"stream": "uses another CUDA stream", "precision": f"lowers precision under --precision {precision}"}
            return gate.verdict(compare.Failure(
                f"static-{first.check}", f"{names[first.check]}: line {first.line}: `{first.text}` ({first.why})",
                {"check": "static screening of the source", "findings": len(findings),
                 "marked GPU-only for the dynamic check": True}), None)
    return gate.run(_plan(launches, seeds, adversarial))


def _device_of(launches) -> torch.device:
    for launch in launches:
        if launch.device is not None or any(isinstance(a, torch.Tensor) for a in launch.args):
            return launch.run_device()
    return torch.device("cpu")


# A GPU tensor kept aside for a later comparison goes to the host from this size on.
_PARK_BYTES = 256 << 20


def _parked(view: torch.Tensor) -> torch.Tensor:
    if view.device.type == "cuda" and view.numel() * view.element_size() >= _PARK_BYTES:
        return C.host_copy(view)
    return view.clone()


def _plan(launches, seeds, adversarial) -> list[_Case]:
    """Realistic inputs for every launch; random and adversarial ones once per distinct signature."""
    plan, seen = [], set()
    for index, launch in enumerate(launches):
        plan.append(_Case(index, "realistic (captured buffers)", "realistic", None))
        signature = launch.signature()
        if signature in seen:
            continue
        seen.add(signature)
        plan.extend(_Case(index, f"random seed {s}", "random", s) for s in seeds)
        plan.extend(_Case(index, f"adversarial {k} values", k, 1000 + n) for n, k in enumerate(adversarial))
    return plan


class _Gate:
    def __init__(self, original, source, launches, written, precision, reference_fn, arg_names,
                 factor, timeout_factor, timeout_floor_s, first_timeout_s, compile_timeout_s, pool, device,
                 stale_recheck, budget: M.MemoryBudget, scratch: set[int] = frozenset(), run_to_run: dict | None = None):
        self.original, self.source, self.launches = original, source, launches
        self.scratch = set(scratch)     # written by the original, dead afterwards: never compared
        # launch signature -> output -> reach; the caller's store when it checks one original many times
        self.run_to_run: dict[tuple, dict[int, float]] = {} if run_to_run is None else run_to_run
        self.written, self.precision, self.reference_fn = written, precision, reference_fn
        self.arg_names, self.factor = arg_names, factor
        self.timeout_factor, self.pool, self.device = timeout_factor, pool, device
        kind = "cuda" if device.type == "cuda" else "cpu"
        # compilation is reported by the child and not counted (see _execute): no minutes-long floor
        first_default = timeout_floor_s if timeout_floor_s is not None else (
            _RUN_FLOOR if kind == "cuda" else _FIRST_RUN_FLOOR_CPU)
        self.first_floor = first_timeout_s if first_timeout_s is not None else first_default
        self.floor = timeout_floor_s if timeout_floor_s is not None else _RUN_FLOOR
        self.compile_cap = compile_timeout_s if compile_timeout_s is not None else _COMPILE_CAP[kind]
        self.setup_cap, self.load_cap = _SETUP_CAP[kind], max(_LOAD_CAP[kind], self.first_floor)
        self.stale_recheck = stale_recheck
        self.budget = budget
        self.placements: dict[tuple, M.Placement] = {}
        self.buffers: tuple = (None, [], [])     # (layout key, bases, snapshots): reused by every case
        self.timings = PhaseTimings()
        self.notes: list[str] = []
        self.layouts: dict[int, C.Layout] = {}
        self.write_only: dict[tuple, set] = {}
        self.cases_run = 0
        self.worst = 0.0
        self.reference_ok = reference_fn is not None
        if reference_fn is None:
            self.notes.append("no float64 reference: outputs compared with the original only")

    # ------------------------------------------------------------------ helpers
    def name(self, i: int) -> str:
        if self.arg_names and i < len(self.arg_names):
            return f"arg {i} ({self.arg_names[i]})"
        return f"arg {i}"

    def reduction_length(self, layout: C.Layout) -> int:
        """How many terms each output element of the kernel sums (the product of its Inductor
        reduction sizes, `r0_numel`, `rnumel`, ...), or 1 when the argument names do not say: the
        floor of the rounding noise a reordered reduction may show (rounding_noise)."""
        length = 1
        for i, value in layout.scalars.items():
            if self.arg_names and i < len(self.arg_names) and _REDUCTION_SIZE.fullmatch(self.arg_names[i]) \
                    and isinstance(value, int) and value > 0:
                length *= value
        return length

    def sync(self) -> None:
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def verdict(self, failure: compare.Failure | None, prepared: _Prepared | None, **extra) -> Verdict:
        notes = self.notes + [n for n in self.pool.notes if n not in self.notes]
        gpu_only = () if self.device.type == "cuda" else GPU_ONLY_CHECKS
        timings = self.timings.summary()
        if log.isEnabledFor(logging.DEBUG):
            log.debug("legality check: %s; %s", "accept" if failure is None else failure.check, time_line(timings))
            for case in timings["cases"]:
                log.debug("  %s", case)
        if failure is None:
            return Verdict(True, "accept", "all checks passed", {}, notes, gpu_only, self.cases_run, self.worst,
                           timings)
        evidence = {}
        if prepared is not None:
            launch = self.launches[prepared.case.launch]
            evidence["launch"] = f"{prepared.case.launch}" + (f" ({launch.label})" if launch.label else "")
            evidence["case"] = prepared.case.label
            if prepared.case.seed is not None:
                evidence["seed"] = prepared.case.seed
        evidence.update(extra)
        evidence.update({k: v for k, v in failure.evidence.items()})
        return Verdict(False, failure.check, failure.message, evidence, notes, gpu_only, self.cases_run, self.worst,
                       timings)

    def _run_original(self, layout, bases) -> float:
        args = layout.views(bases)
        self.sync()
        start = time.perf_counter()
        self.original(*args)
        self.sync()
        return time.perf_counter() - start

    # ------------------------------------------------------------------ case preparation
    def layout(self, index: int) -> C.Layout:
        if index not in self.layouts:
            self.layouts[index] = C.make_layout(self.launches[index])
        return self.layouts[index]

    def _write_only(self, index: int) -> set:
        """Written args whose prior contents the original ignores: poisoned like pure outputs. Found by
        running the original with the arg holding real data and with it poisoned."""
        launch = self.launches[index]
        key = launch.signature()
        if key in self.write_only:
            return self.write_only[key]
        layout = self.layout(index)
        tensors = {i for i in layout.places}
        result = set()
        for i in sorted(self.written & tensors):
            if self.arg_names and i < len(self.arg_names) and self.arg_names[i].startswith("out_ptr"):
                result.add(i)
                continue
            # One set of bases at a time (at real sizes two would not fit beside the case buffers): the
            # written args' results with real data are kept (on the host when large), then compared with
            # theirs after a run with arg i poisoned. Read-only args hold the same values in both runs.
            full = {j: launch.args[j] for j in tensors}
            kept = C.build_bases(layout, full, self.device)
            self._run_original(layout, kept)
            with_data = {j: _parked(layout.views(kept)[j]) for j in sorted(self.written & tensors)}
            del kept
            dropped = C.build_bases(layout, {j: v for j, v in full.items() if j != i}, self.device)
            self._run_original(layout, dropped)
            views = layout.views(dropped)
            if all(compare.same_bits(with_data[j], views[j]) for j in with_data):
                result.add(i)
            del dropped, views, with_data
        self.write_only[key] = result
        return result

    def _values(self, case: _Case):
        """(arg index, tensor) pairs of the case's inputs; generated ones are drawn one at a time."""
        launch = self.launches[case.launch]
        layout = self.layout(case.launch)
        fed = [i for i in layout.places if i not in self._write_only(case.launch)]
        if case.kind == "realistic":
            return [(i, launch.args[i]) for i in fed]
        return C.iter_generated_values(launch, fed, case.kind, case.seed)

    def _placement(self, layout: C.Layout) -> M.Placement:
        """Where this layout's copies live under the memory budget (planned once per layout)."""
        key = layout.key()
        if key not in self.placements:
            biggest = max(layout.base_sizes, default=0)
            placement = M.place(self.budget, self.device, layout, self.written & set(layout.places),
                                self.reference_ok, min(compare.CHUNK_ELEMENTS, biggest),
                                sandbox_copy=self.device.type == "cuda", native_reference=self._native_reference())
            for note in placement.notes:
                self._note(note)
            self.placements[key] = placement
        return self.placements[key]

    def _case_buffers(self, layout: C.Layout, placement: M.Placement) -> tuple[list, list]:
        """The bases and snapshot buffers, reused by every case of the layout (a new layout frees the
        previous one's first): a case never holds two cases' copies."""
        key, bases, before = self.buffers
        if key != layout.key():
            self.buffers = (None, [], [])
            del bases, before
            bases = [torch.empty(n, dtype=d, device=self.device)
                     for n, d in zip(layout.base_sizes, layout.base_dtypes)]
            # pinned when a GPU's snapshots are kept on the host: every case copies them both ways
            pinned = placement.snapshots.type == "cpu" and self.device.type == "cuda"
            before = [torch.empty(n, dtype=d, device=placement.snapshots, pin_memory=pinned)
                      for n, d in zip(layout.base_sizes, layout.base_dtypes)]
            self.buffers = (layout.key(), bases, before)
        return bases, before

    def prepare(self, case: _Case) -> _Prepared:
        """Inputs, the original's results and the reference, left on the launch's device, or on the host
        where the memory budget says so (_placement)."""
        layout = self.layout(case.launch)
        placement = self._placement(layout)
        with self.timings.phase("inputs"):
            self._write_only(case.launch)     # its trial runs' buffers come and go before the case's exist
            bases, before = self._case_buffers(layout, placement)
            C.fill_bases(layout, bases, self._values(case))
            for snapshot, base in zip(before, bases):
                snapshot.copy_(base)
        with self.timings.phase("original"):
            seconds = self._run_original(layout, bases)
            self._check_original(layout, before, bases)
            self._measure_run_to_run(case.launch, layout, before, bases)
        with self.timings.phase("reference"):
            reference = self._reference(layout, before, bases, placement)
        return _Prepared(case, layout, before, bases, reference, seconds, placement)

    def _check_original(self, layout, before, after) -> None:
        if compare.guard_bands(layout, before, after, self.name):
            raise GateError("the original kernel writes outside its arguments' bounds: cannot guard it")
        pre, post = layout.views(before), layout.views(after)
        for i in layout.places:
            if i not in self.written and i not in self.scratch and not compare.same_bits(pre[i], post[i]):
                self.written.add(i)
                self.notes.append(f"the original writes {self.name(i)}: compared as an output")

    def _measure_run_to_run(self, index: int, layout, before, after) -> None:
        """How far each output of the original moves from run to run on the same inputs (measured once per
        launch signature, and once per original when the caller shares its `run_to_run` store). A kernel
        that combines in an order decided at run time (atomics, the decoupled look-back of Inductor's split
        scans) is not reproducible; a candidate must then be judged against that spread, or the original
        itself would fail the gate."""
        key = self.launches[index].signature()
        if key not in self.run_to_run:
            self._repeat_original(key, layout, before, after)
        for i, reach in self.run_to_run[key].items():
            self._note(f"the original is not reproducible from run to run on {self.name(i)} (runs differ by up to "
                       f"{reach:.3g} x (|orig| + rms)): compared with that spread")

    def _repeat_original(self, key, layout, before, after) -> None:
        """RUN_TO_RUN_TRIES more runs of the original on copies of the case's inputs, the widest spread kept
        (compare.run_to_run_reach). Needs one more copy of the case's buffers: where it does not fit, the
        spread counts as 0 (a note)."""
        first = layout.views(after)
        outputs = [i for i in sorted(self.written & set(layout.places)) if first[i].is_floating_point()]
        self.run_to_run[key] = {}
        if not outputs:
            return
        # The copy is freed before the candidate's sandbox copy of the bases exists, which the layout's
        # placement already budgets on a GPU; the budget must hold it beside the case's own bases.
        nbytes = sum(b.numel() * b.element_size() for b in before)
        if not self.budget.fits(2 * nbytes):
            self._note("the original's run-to-run reproducibility was not measured: a second copy of the case's "
                       f"buffers does not fit the {self.budget.describe()}")
            return
        try:
            again = [b.to(self.device, copy=True) for b in before]
        except torch.OutOfMemoryError:
            self._note("the original's run-to-run reproducibility was not measured: a second copy of the case's "
                       "buffers does not fit")
            return
        spread = self.run_to_run[key]
        # a race may happen to resolve the same way twice: several runs, the widest spread kept
        for attempt in range(RUN_TO_RUN_TRIES):
            if attempt:
                for copy, snapshot in zip(again, before):
                    copy.copy_(snapshot)
            self._run_original(layout, again)
            second = layout.views(again)
            for i in outputs:
                if not compare.same_bits(first[i], second[i]):
                    spread[i] = max(spread.get(i, 0.0), compare.run_to_run_reach(first[i], second[i]))
        del again, first, second

    def _reference(self, layout, before, original_after, placement: M.Placement) -> dict:
        if not self.reference_ok:
            return {}
        if placement.reference is None:
            self._drop_reference(placement.reference_dropped)
            return {}
        try:
            return self._run_reference(layout, before, original_after, placement.reference)
        except torch.OutOfMemoryError as err:
            self._drop_reference(f"{self.budget.describe()}: the float64 reference ran out of device memory "
                                 f"({str(err).splitlines()[0][:200]})")
        except Exception as err:  # noqa: BLE001 - a reference that cannot run is dropped, not fatal
            self._drop_reference(f"the float64 reference failed ({type(err).__name__}: {err})")
        return {}

    def _native_reference(self) -> bool:
        """The reference reads its read-only inputs in their own dtype (reference_fn.native_inputs)."""
        return bool(getattr(self.reference_fn, "native_inputs", False))

    def _run_reference(self, layout, before, original_after, keep_on: torch.device) -> dict:
        native = self._native_reference()
        written = {layout.places[i].base for i in layout.places if i in self.written or i in self.scratch}
        if native:
            shared = [i for i, place in layout.places.items() if place.base in written and i not in self.written
                      and i not in self.scratch and layout.base_dtypes[place.base].is_floating_point]
            if shared:
                raise GateError(f"{self.name(shared[0])} shares its buffer with an output, and the reference reads "
                                "inputs in their own dtype")
        # A written base is always copied (a float64 base's .double() is itself: the reference would write
        # the snapshot). With native inputs a read-only base is the case's own, which the original left as
        # it was (_check_original) and the reference only reads: no float64 copy of the inputs.
        bases64 = [after if native and b not in written else
                   snapshot.to(device=self.device, dtype=torch.float64 if snapshot.dtype.is_floating_point
                               else snapshot.dtype, copy=True)
                   for b, (snapshot, after) in enumerate(zip(before, original_after))]
        args = layout.views(bases64)
        returned = self.reference_fn(*args)
        self.sync()
        outputs = {}
        originals = layout.views(original_after)
        for i in sorted(self.written & set(layout.places)):
            if not originals[i].dtype.is_floating_point:
                continue
            ref = returned[i] if isinstance(returned, dict) and i in returned else args[i]
            err = compare.rel_error(originals[i], ref)        # chunked: no full-size float64 temporaries
            if err > _REFERENCE_SANITY:
                self._drop_reference(f"the float64 reference disagrees with the original on {self.name(i)} "
                                     f"(relative error {err:.3g})")
                return {}
            # just the output's elements (the float64 bases can go), on the host if the budget says so
            outputs[i] = ref.to(device=keep_on, dtype=torch.float64, copy=True)
        return outputs

    def _drop_reference(self, why: str) -> None:
        self.reference_ok = False
        self.notes.append(why + "; outputs compared with the original only")

    # ------------------------------------------------------------------ candidate side
    def _open(self):
        with self.timings.phase("spawn"):
            process = self.pool.spawn()
        network = process.hello.get("network")
        if network != "isolated":
            self._note(f"network isolation: {network}")
        if self.device.type == "cuda" and not process.hello.get("compile_watch", False):
            # without compile reports a GPU candidate's first call includes its compilation
            self.first_floor = max(self.first_floor, _UNWATCHED_FIRST_FLOOR)
            self.load_cap = max(self.load_cap, _UNWATCHED_FIRST_FLOOR)
            self._note("the sandbox cannot report Triton compilation here: the first call's time limit "
                       f"includes it ({_UNWATCHED_FIRST_FLOOR:g} s floor)")
        return process

    def _note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    def _charge(self, spent: dict) -> None:
        """Book the phases the child reported during a call (setup, compile, run) on the timings."""
        for phase in ("setup", "compile", "run"):
            self.timings.add(phase, spent.get(phase, 0.0))

    def _load(self, process) -> compare.Failure | None:
        limits = Limits(setup=self.load_cap, run=self.load_cap, compile=self.compile_cap)
        start = time.perf_counter()
        try:
            reply = process.request({"op": "load", "source": self.source, "filename": "candidate.py"}, limits)
        except ChildTimedOut as late:
            if late.phase == "compile":
                return self._compile_timeout(late)
            return compare.Failure("timeout", f"importing the candidate took longer than {late.limit:g} s")
        except ChildDied as died:
            return compare.Failure("crash", f"the candidate process died while importing ({died.status})",
                                   {"stderr": died.stderr_tail[-300:]})
        finally:
            compiled = process.spent.get("compile", 0.0)
            self.timings.add("compile", compiled)
            self.timings.add("load", time.perf_counter() - start - compiled)
        if reply["ok"]:
            return None
        if reply["kind"] == "no-run":
            return compare.Failure("no-run", "the candidate defines no callable run(*args)")
        return compare.Failure("compile", f"the candidate does not import/compile: {reply['error']}")

    def _compile_timeout(self, late: ChildTimedOut) -> compare.Failure:
        return compare.Failure("timeout", f"compiling the candidate's kernels took longer than {late.limit:g} s",
                               {"compile_limit_s": round(late.limit, 3)})

    def _to_child(self, process, prepared: _Prepared) -> tuple[dict, list[int]]:
        """Put the case's inputs in the child's shared buffers (new buffers for a new layout, whose
        file descriptors go with the message) and make the run message."""
        layout = prepared.layout
        key = layout.key()
        fds: list[int] = []
        message = {"op": "run", "layout_key": key, "views": layout.wire_views(), "shared": None}
        if process.layout_key != key:
            process.shared = SharedBases.create(layout.base_sizes, layout.base_dtypes)
            process.layout_key = key
            process.device_after = None
            fds = process.shared.fds
            message["shared"] = {"sizes": list(layout.base_sizes), "dtypes": list(layout.base_dtypes)}
        for host, before in zip(process.shared.tensors, prepared.before):
            host.copy_(before)
        return message, fds

    def _from_child(self, process, placement: M.Placement) -> list:
        """The candidate's bases where the comparisons run: the shared buffers themselves (CPU, or a GPU
        whose memory budget keeps them on the host: compared chunk by chunk), or a device copy of them
        (GPU; one set of buffers per layout, reused)."""
        if self.device.type != "cuda" or placement.candidate.type == "cpu":
            return process.shared.tensors
        if process.device_after is None:
            process.device_after = [torch.empty_like(t, device=self.device) for t in process.shared.tensors]
        for device_base, host in zip(process.device_after, process.shared.tensors):
            device_base.copy_(host)
        return process.device_after

    def _execute(self, process, prepared: _Prepared, reuse: bool, first: bool):
        scale = self.timeout_factor * prepared.original_seconds
        limit = max(self.first_floor if first else self.floor, scale)
        with self.timings.phase("to_child"):
            message, fds = self._to_child(process, prepared)
            self.sync()
        limits = Limits(setup=self.setup_cap, run=limit, compile=self.compile_cap)
        shared = process.shared
        try:
            reply = process.request(message, limits, fds)
        except ChildTimedOut as late:
            self._charge(late.spent)
            if late.phase == "compile":
                return self._compile_timeout(late)
            if late.phase == "setup":
                return compare.Failure("timeout", f"the sandbox did not start the call within {late.limit:g} s")
            compiled = late.spent.get("compile", 0.0)
            return compare.Failure("timeout", f"the candidate ran longer than the time limit of {limit:.3g} s "
                                   f"(the original took {prepared.original_seconds:.3g} s"
                                   + (f"; {compiled:.3g} s of compilation not counted)" if compiled >= 1e-3 else ")"),
                                   {"time_limit_s": round(limit, 3)})
        except ChildDied as died:
            self._charge(process.spent)
            return compare.Failure("crash", f"the candidate process died ({died.status})",
                                   {"stderr": died.stderr_tail[-300:]})
        finally:
            if fds:
                shared.close_fds()          # the child has its own copies (or is gone)
        self._charge(process.spent)
        if not reply["ok"]:
            return compare.Failure("exception", f"the candidate raised {reply['error']}")
        with self.timings.phase("from_child"):
            reply["bases"] = self._from_child(process, prepared.placement)
        return reply

    def evaluate(self, prepared: _Prepared, reply: dict) -> compare.Failure | None:
        layout = prepared.layout
        if reply["changed_meta"]:
            return self._meta_failure(reply["changed_meta"], layout)
        after = reply["bases"]
        failure = compare.guard_bands(layout, prepared.before, after, self.name)
        if failure:
            return failure
        before_views, cand_views = layout.views(prepared.before), layout.views(after)
        orig_views = layout.views(prepared.original_after)
        read_only = set(layout.places) - self.written - self.scratch
        failure = compare.inputs_unchanged(layout, before_views, cand_views, read_only, self.name)
        if failure:
            return failure
        for i in sorted(self.written & set(layout.places)):
            cand, orig = cand_views[i], orig_views[i]
            failure = (compare.unwritten(i, cand, orig, self.name)
                       or compare.nonfinite_pattern(i, cand, orig, self.name))
            if failure:
                return failure
            spread = self.run_to_run.get(self.launches[prepared.case.launch].signature(), {}).get(i, 0.0)
            failure, rel = compare.values(i, cand, orig, prepared.reference.get(i), self.precision,
                                          self.factor, self.name, self.reduction_length(layout), spread)
            if failure:
                return failure
            self.worst = max(self.worst, rel)
        return None

    def _meta_failure(self, changed, layout) -> compare.Failure:
        index, before, after = changed[0]
        fields = ("sizes", "strides", "storage offset", "dtype", "device", "data pointer", "storage")
        what = [f"{name} {b} -> {a}" for name, b, a in zip(fields, before, after) if b != a]
        return compare.Failure("layout", f"changed {self.name(index)} itself: " + "; ".join(what) +
                               " (results must be left in the original output tensors, same layout, no new aliasing)",
                               {"arg": index})

    # ------------------------------------------------------------------ driver
    def run(self, plan: list[_Case]) -> Verdict:
        with compare.compute_on(self.device):     # what the budget kept on the host is compared on the GPU
            return self._run(plan)

    def _run(self, plan: list[_Case]) -> Verdict:
        process = self._open()
        try:
            failure = self._load(process)
            if failure:
                return self.verdict(failure, None)
            for case in plan:
                prepared = outcome = None    # the previous case's copies go before this case's are made
                self.timings.new_case(case.label if len(self.launches) == 1 else f"launch {case.launch}: {case.label}")
                prepared = self.prepare(case)
                reuse = prepared.layout.key() == process.layout_key
                outcome = self._execute(process, prepared, reuse, first=process.calls == 0)
                self.cases_run += 1
                if isinstance(outcome, compare.Failure):
                    return self.verdict(outcome, prepared, call=process.calls, same_buffers_as_previous_call=reuse)
                with self.timings.phase("compare"):
                    failure = self.evaluate(prepared, outcome)
                if failure:
                    if self.stale_recheck and failure.check in VALUE_CHECKS and process.calls > 1:
                        failure = self._recheck_stale(prepared, failure)
                    return self.verdict(failure, prepared, call=process.calls, same_buffers_as_previous_call=reuse)
            return self.verdict(None, None)
        finally:
            process.close()

    def _recheck_stale(self, prepared: _Prepared, failure: compare.Failure) -> compare.Failure:
        """Run the failing case alone in a fresh process: if it passes there, the candidate's result
        depended on its earlier calls."""
        fresh = self._open()
        try:
            if self._load(fresh):
                return failure
            outcome = self._execute(fresh, prepared, reuse=False, first=True)
            if isinstance(outcome, compare.Failure) or self.evaluate(prepared, outcome):
                return failure
        finally:
            fresh.close()
        return compare.Failure("stale-result",
                               "the result depends on earlier calls (a cached or input-pointer-keyed result): "
                               "this case fails after earlier calls in the same buffers but passes in a fresh "
                               f"process; in the repeated call: {failure.check}: {failure.message}",
                               failure.evidence)
