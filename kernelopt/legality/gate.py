"""The legality gate: a candidate replaces a kernel only if every check below passes on every launch.

Per launch the gate runs cases: the realistic one (the launch's captured buffers), fresh random inputs
for each seed, and adversarial ones (large magnitudes, negatives, tiny values). Per case it runs the
original in this process and the candidate in a sandboxed child (see pool.py), on identical guarded,
poisoned buffers, and checks in this order (the first failure rejects, with evidence):

  layout / aliasing   argument metadata (sizes, strides, offset, dtype, device, storage) unchanged
  guard-band          nothing written outside any argument (guard bands, stride gaps)
  input-mutated       arguments the original does not write are bit-identical afterwards
  unwritten           every element of every output written (poison gone)
  nonfinite           NaN/Inf positions (and Inf signs) equal to the original's
  mismatch            elementwise within the dtype's tolerance of the original (tolerance.py)
  less-accurate       relative error against the float64 reference <= factor x the original's
  precision           a mismatch/less-accurate fp32 result with the error of bf16/fp16/tf32 math
  stale-result        a failure that disappears in a fresh process: cached or pointer-keyed results

All cases of a launch run in the same child and the same buffers (new data copied in), so a candidate
that caches its result, or keys it on input pointers, sees new data at old addresses. Before any of this,
the source is screened for what the CPU interpreter cannot show (screen.py: streams, TF32/bf16 dots).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import torch

from kernelopt.legality import cases as C
from kernelopt.legality import compare
from kernelopt.legality.pool import ChildDied, ChildTimedOut, WorkerPool, default_pool
from kernelopt.legality.screen import screen_source
from kernelopt.legality.tolerance import PRECISIONS

VALUE_CHECKS = {"unwritten", "nonfinite", "mismatch", "less-accurate", "precision"}
GPU_ONLY_CHECKS = ("stream ordering (dynamic)", "tf32/bf16 dot precision (dynamic)", "illegal memory access")
_REFERENCE_SANITY = 0.05     # a float64 reference farther than this from the original is not trusted


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
    before: list         # bases before the run (CPU)
    original_after: list
    reference: dict      # arg -> float64 tensor (may be empty)
    original_seconds: float


def check_candidate(original: Callable[..., Any], candidate_source: str, launches: list[C.LaunchInputs], *,
                    output_args: Iterable[int], mutated_args: Iterable[int] = (), precision: str = "strict",
                    reference_fn: Callable[..., Any] | None = None, original_source: str | None = None,
                    arg_names: list[str] | None = None, seeds: Iterable[int] = (0, 1, 2),
                    adversarial: Iterable[str] = C.ADVERSARIAL, accuracy_factor: float = 2.0,
                    timeout_factor: float = 20.0, timeout_floor_s: float | None = None,
                    first_timeout_s: float | None = None, static_screen: bool = True, pool: WorkerPool | None = None,
                    stale_recheck: bool = True) -> Verdict:
    """Decide whether `candidate_source` (candidate format: defines `run(*args)`) may replace the
    launches that `original(*args)` performs. See the module docstring for the checks.

    original      runs the original kernel in place on `.run(...)`-ordered args (trusted, in-process)
    launches      each launch's captured args (realistic inputs); every launch is checked
    output_args   positions whose contents are results (out_ptr*, in_out_ptr*)
    mutated_args  further positions the original may change (compared like outputs)
    timeouts      per call: max(floor, timeout_factor x the original's time); the first call's floor is
                  first_timeout_s (default 120 s on a GPU, 10 s on the CPU), later ones timeout_floor_s
    reference_fn  optional float64 reference: called like `original` on args whose floating tensors are
                  float64; writes the outputs in place or returns {arg index: tensor}
    """
    if precision not in PRECISIONS:
        raise GateError(f"precision must be one of {', '.join(PRECISIONS)}")
    if not launches:
        raise GateError("no launches to check the candidate on")
    device = _device_of(launches)
    gate = _Gate(original, candidate_source, launches, set(output_args) | set(mutated_args), precision,
                 reference_fn, arg_names, accuracy_factor, timeout_factor, timeout_floor_s, first_timeout_s,
                 pool or default_pool(device), device, stale_recheck)
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
        for arg in launch.args:
            if isinstance(arg, torch.Tensor):
                return arg.device
    return torch.device("cpu")


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
                 factor, timeout_factor, timeout_floor_s, first_timeout_s, pool, device, stale_recheck):
        self.original, self.source, self.launches = original, source, launches
        self.written, self.precision, self.reference_fn = written, precision, reference_fn
        self.arg_names, self.factor = arg_names, factor
        self.timeout_factor, self.pool, self.device = timeout_factor, pool, device
        cuda = device.type == "cuda"
        # the first call also compiles the candidate's kernels (GPU), hence its own, larger floor
        first_default = timeout_floor_s if timeout_floor_s is not None else (120.0 if cuda else 10.0)
        self.first_floor = first_timeout_s if first_timeout_s is not None else first_default
        self.floor = timeout_floor_s if timeout_floor_s is not None else (15.0 if cuda else 5.0)
        self.stale_recheck = stale_recheck
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

    def sync(self) -> None:
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def verdict(self, failure: compare.Failure | None, prepared: _Prepared | None, **extra) -> Verdict:
        notes = self.notes + [n for n in self.pool.notes if n not in self.notes]
        gpu_only = () if self.device.type == "cuda" else GPU_ONLY_CHECKS
        if failure is None:
            return Verdict(True, "accept", "all checks passed", {}, notes, gpu_only, self.cases_run, self.worst)
        evidence = {}
        if prepared is not None:
            launch = self.launches[prepared.case.launch]
            evidence["launch"] = f"{prepared.case.launch}" + (f" ({launch.label})" if launch.label else "")
            evidence["case"] = prepared.case.label
            if prepared.case.seed is not None:
                evidence["seed"] = prepared.case.seed
        evidence.update(extra)
        evidence.update({k: v for k, v in failure.evidence.items()})
        return Verdict(False, failure.check, failure.message, evidence, notes, gpu_only, self.cases_run, self.worst)

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
            full = {j: launch.args[j] for j in tensors}
            kept = C.build_bases(layout, full, self.device)
            dropped = C.build_bases(layout, {j: v for j, v in full.items() if j != i}, self.device)
            self._run_original(layout, kept)
            self._run_original(layout, dropped)
            same = all(torch.equal(C.bits(a), C.bits(b)) for a, b in
                       zip(layout.views(kept), layout.views(dropped)) if isinstance(a, torch.Tensor))
            if same:
                result.add(i)
        self.write_only[key] = result
        return result

    def _values(self, case: _Case) -> dict:
        launch = self.launches[case.launch]
        layout = self.layout(case.launch)
        fed = [i for i in layout.places if i not in self._write_only(case.launch)]
        if case.kind == "realistic":
            return {i: launch.args[i] for i in fed}
        return C.generated_values(launch, fed, case.kind, case.seed)

    def prepare(self, case: _Case) -> _Prepared:
        layout = self.layout(case.launch)
        values = self._values(case)
        bases = C.build_bases(layout, values, self.device)
        before = [b.clone() for b in bases]
        seconds = self._run_original(layout, bases)
        self._check_original(layout, before, bases)
        reference = self._reference(layout, before, bases)
        return _Prepared(case, layout, [b.cpu() for b in before], [b.cpu() for b in bases], reference, seconds)

    def _check_original(self, layout, before, after) -> None:
        if compare.guard_bands(layout, before, after, self.name):
            raise GateError("the original kernel writes outside its arguments' bounds: cannot guard it")
        pre, post = layout.views(before), layout.views(after)
        for i in layout.places:
            if i not in self.written and not torch.equal(C.bits(pre[i]), C.bits(post[i])):
                self.written.add(i)
                self.notes.append(f"the original writes {self.name(i)}: compared as an output")

    def _reference(self, layout, before, original_after) -> dict:
        if not self.reference_ok:
            return {}
        bases64 = [b.double() if b.dtype.is_floating_point else b.clone() for b in before]
        args = layout.views(bases64)
        try:
            returned = self.reference_fn(*args)
            self.sync()
        except Exception as err:  # noqa: BLE001 - a reference that cannot run is dropped, not fatal
            self._drop_reference(f"the float64 reference failed ({type(err).__name__}: {err})")
            return {}
        outputs = {}
        originals = layout.views(original_after)
        for i in sorted(self.written & set(layout.places)):
            if not originals[i].dtype.is_floating_point:
                continue
            ref = returned[i] if isinstance(returned, dict) and i in returned else args[i]
            ref = ref.double()
            finite = torch.isfinite(ref) & torch.isfinite(originals[i].double())
            err = compare._rel_error(originals[i], ref, finite)
            if err > _REFERENCE_SANITY:
                self._drop_reference(f"the float64 reference disagrees with the original on {self.name(i)} "
                                     f"(relative error {err:.3g})")
                return {}
            outputs[i] = ref.cpu()
        return outputs

    def _drop_reference(self, why: str) -> None:
        self.reference_ok = False
        self.notes.append(why + "; outputs compared with the original only")

    # ------------------------------------------------------------------ candidate side
    def _open(self):
        process = self.pool.spawn()
        network = process.hello.get("network")
        if network != "isolated":
            note = f"network isolation: {network}"
            if note not in self.notes:
                self.notes.append(note)
        return process

    def _load(self, process) -> compare.Failure | None:
        try:
            reply = process.request({"op": "load", "source": self.source, "filename": "candidate.py"},
                                    self.first_floor)
        except ChildTimedOut:
            return compare.Failure("timeout", f"importing the candidate took longer than {self.first_floor:g} s")
        except ChildDied as died:
            return compare.Failure("crash", f"the candidate process died while importing ({died.status})",
                                   {"stderr": died.stderr_tail[-300:]})
        if reply["ok"]:
            return None
        if reply["kind"] == "no-run":
            return compare.Failure("no-run", "the candidate defines no callable run(*args)")
        return compare.Failure("compile", f"the candidate does not import/compile: {reply['error']}")

    def _execute(self, process, prepared: _Prepared, reuse: bool, first: bool):
        scale = self.timeout_factor * prepared.original_seconds
        limit = max(self.first_floor if first else self.floor, scale)
        message = {"op": "run", "layout_key": prepared.layout.key(), "reuse": reuse,
                   "bases": prepared.before, "views": prepared.layout.wire_views()}
        try:
            reply = process.request(message, limit)
        except ChildTimedOut:
            return compare.Failure("timeout", f"the candidate ran longer than the time limit of {limit:.3g} s "
                                   f"(the original took {prepared.original_seconds:.3g} s)",
                                   {"time_limit_s": round(limit, 3)})
        except ChildDied as died:
            return compare.Failure("crash", f"the candidate process died ({died.status})",
                                   {"stderr": died.stderr_tail[-300:]})
        if not reply["ok"]:
            return compare.Failure("exception", f"the candidate raised {reply['error']}")
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
        read_only = set(layout.places) - self.written
        failure = compare.inputs_unchanged(layout, before_views, cand_views, read_only, self.name)
        if failure:
            return failure
        for i in sorted(self.written & set(layout.places)):
            cand, orig = cand_views[i], orig_views[i]
            failure = (compare.unwritten(i, cand, orig, self.name)
                       or compare.nonfinite_pattern(i, cand, orig, self.name))
            if failure:
                return failure
            failure, rel = compare.values(i, cand, orig, prepared.reference.get(i), self.precision,
                                          self.factor, self.name)
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
        process = self._open()
        try:
            failure = self._load(process)
            if failure:
                return self.verdict(failure, None)
            previous_key = None
            for case in plan:
                prepared = self.prepare(case)
                reuse = prepared.layout.key() == previous_key
                outcome = self._execute(process, prepared, reuse, first=process.calls == 0)
                self.cases_run += 1
                if isinstance(outcome, compare.Failure):
                    return self.verdict(outcome, prepared, call=process.calls, same_buffers_as_previous_call=reuse)
                failure = self.evaluate(prepared, outcome)
                if failure:
                    if self.stale_recheck and failure.check in VALUE_CHECKS and process.calls > 1:
                        failure = self._recheck_stale(prepared, failure)
                    return self.verdict(failure, prepared, call=process.calls, same_buffers_as_previous_call=reuse)
                previous_key = prepared.layout.key()
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
