"""The legality gate's check of a module emitted with CUDA graphs: replay must be the plain launches.

A graph replays the kernels it recorded on the addresses it recorded; it is legal only if, for every
call, it gives the same bits as the module's plain path (`call_plain`) on the same inputs. So the
check calls both, round after round, with new input contents each round:
  same buffers    the same argument tensors every round (warm-up, capture, the twin's capture, then
                  replays of both): a graph that baked in a value it read at capture (a stale graph)
                  gives the old round's result;
  fresh buffers   new argument tensors every round (the copy path: inputs copied into the graph's own
                  buffers), then the first buffers again (a known key after its contents changed).
Per round it compares every output (sizes, strides, dtype and bits; NaNs by their bits) and every
argument afterwards (in-place writes must match the plain path's). A module whose plain path is not
bitwise reproducible from run to run (atomics, split reductions) is compared at the dtype's tolerance
instead (tolerance.py) and the verdict notes it. Needs a CUDA device: without one the check is skipped,
and the verdict says so.
"""
from __future__ import annotations

import torch

from kernelopt.legality.compare import finite_rms, run_to_run_reach
from kernelopt.legality.gate import Verdict
from kernelopt.legality.tolerance import tolerance_for
from kernelopt.runtime.loader import load_output_module
from kernelopt.tensor_layout import layout_copy

CHECK = "graph-path"
ROUNDS = 3          # rounds per regime (same buffers, fresh buffers)
SPREAD_TRIES = 3    # repeats of the plain path that measure a non-reproducible module's own spread
SPREAD_FACTOR = 2.0  # how many times that spread the graph path may differ by (the gate's accuracy factor)


def skipped_without_cuda() -> Verdict | None:
    """The skip verdict where the graph path cannot be checked here, else None."""
    if torch.cuda.is_available():
        return None
    return Verdict(True, "skipped", "checking CUDA-graph replay against the plain launches needs a CUDA device "
                   "(none here: torch.cuda.is_available() is False); the graph path is unchecked",
                   notes=["graph path: skipped (no CUDA device)"])


def check_graph_path(module_path: str, inputs: list | None = None, seed: int = 0) -> Verdict:
    """The check on an emitted module file (its own get_args() when `inputs` is None)."""
    skipped = skipped_without_cuda()
    if skipped is not None:
        return skipped
    loaded = load_output_module(module_path, "cuda", hooks=False)
    namespace = loaded.namespace
    graphs = namespace.get("cuda_graphs")
    if graphs is None or not callable(namespace.get("call_plain")):
        return Verdict(True, "accept", "the module has no CUDA-graph path", notes=["graph path: none"])
    args = [a.cuda() if isinstance(a, torch.Tensor) else a for a in inputs] if inputs is not None \
        else loaded.get_args()
    # A replay runtime of its own, in mode "on": auto may have measured graphs slower and turned them off
    # for the module's user, but what the module may run must still be legal.
    replay = namespace["GraphReplay"](namespace["call_plain"], mode="on",
                                      outputs="fresh" if graphs.fresh else "static",
                                      max_graphs=graphs.max_graphs, mutated=graphs.mutated,
                                      device_index=graphs.device_index, name=graphs.name)
    with torch.no_grad():
        verdict = compare_graph_path(namespace["call_plain"], replay.run, args, seed=seed)
    verdict.evidence.setdefault("graph calls", replay.stats())
    return verdict


def compare_graph_path(plain, graph_call, inputs: list, rounds: int = ROUNDS, seed: int = 0) -> Verdict:
    """Run `graph_call` (call(args) through graphs) and `plain` side by side on the rounds above."""
    generators = _SeededGenerators(seed)
    notes = []
    spread = _plain_spread(plain, inputs)
    exact = not any(spread)
    if not exact:
        notes.append("the plain path is not bitwise reproducible from run to run: outputs compared at the "
                     f"dtype's tolerance plus {SPREAD_FACTOR:g} x its own run-to-run spread "
                     f"({', '.join(f'{r:.3g}' for r in spread)} x (|value| + rms))")
    same = _clones(inputs)
    # the first call is the warm-up; the loop holds each round's outputs into the next call, as `y = f(x)`
    # does, so the graph lends its outputs, the next call captures its twin, and both replay from then on
    schedule = [("same buffers", same)] * (rounds + 2)
    schedule += [("fresh buffers", None)] * rounds + [("same buffers after fresh ones", same)]
    for index, (regime, buffers) in enumerate(schedule):
        # each round's values drawn straight into the tensors the graph path is called on (new ones, or the
        # same buffers again), and one copy for the plain path: three copies of a multi-GB input, not four
        target = _new_contents(inputs, generators) if buffers is None else _refill(buffers, inputs, generators)
        mirror = _clones(target)
        expected = _as_tuple(plain(list(mirror)))
        got = _as_tuple(graph_call(list(target)))
        where = f"round {index} ({regime})"
        failure = _difference("output", expected, got, exact, spread) or _difference("argument", mirror, target, True)
        if failure is not None:
            return Verdict(False, CHECK, f"{where}: the CUDA-graph path differs from the plain launches: {failure}",
                           evidence={"round": index, "regime": regime, "difference": failure}, notes=notes,
                           cases_run=index + 1)
        if buffers is not None:
            same = target
    return Verdict(True, "accept", "CUDA-graph replay gives the plain launches' bits on every round", notes=notes,
                   cases_run=len(schedule))


def _plain_spread(plain, inputs) -> list[float]:
    """Per output, how far repeated plain calls on the same inputs differ (compare.run_to_run_reach, the
    widest of SPREAD_TRIES repeats): all 0 for a bitwise reproducible module. A split scan's look-back or
    an atomic reduction adds in an order set at run time; the graph path may differ from the plain path
    by what the plain path differs from itself, never more than SPREAD_FACTOR times that."""
    first = _as_tuple(plain(list(_clones(inputs))))
    spread = [0.0] * len(first)
    for _ in range(SPREAD_TRIES):
        again = _as_tuple(plain(list(_clones(inputs))))
        for index, (a, b) in enumerate(zip(first, again)):
            if isinstance(a, torch.Tensor) and a.dtype.is_floating_point and not torch.equal(_bits(a), _bits(b)):
                spread[index] = max(spread[index], run_to_run_reach(a, b))
            elif isinstance(a, torch.Tensor) and not torch.equal(_bits(a), _bits(b)):
                spread[index] = float("inf")       # integers that change from run to run: no bound holds
    return spread


def _as_tuple(result) -> tuple:
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


def _clones(values) -> list:
    """Copies laid out as the values are (a module asserts its inputs' strides)."""
    return [layout_copy(v) if isinstance(v, torch.Tensor) else v for v in values]


def _refill(buffers, inputs, generators: "_SeededGenerators") -> list:
    """The same buffers with new values for floating arguments; the others get the inputs' values back (a call
    may have changed them)."""
    for buffer, value in zip(buffers, inputs):
        if isinstance(buffer, torch.Tensor) and not buffer.dtype.is_floating_point:
            buffer.copy_(value)
    return _draw(buffers, generators)


def _new_contents(inputs, generators: "_SeededGenerators") -> list:
    """New tensors laid out as the inputs, new values for every floating argument; integer and bool arguments
    keep theirs (they may be indices, whose range the module relies on)."""
    fresh = [torch.empty_strided(v.shape, v.stride(), dtype=v.dtype, device=v.device)
             if isinstance(v, torch.Tensor) and v.dtype.is_floating_point
             else layout_copy(v) if isinstance(v, torch.Tensor) else v for v in inputs]
    return _draw(fresh, generators)


def _draw(values, generators: "_SeededGenerators") -> list:
    """New values drawn in place, on their device, into every floating tensor of `values`: no second copy of
    a multi-GB input."""
    for value in values:
        if isinstance(value, torch.Tensor) and value.dtype.is_floating_point:
            value.normal_(generator=generators.on(value.device))
    return values


class _SeededGenerators:
    """One generator per device, each seeded alike: new contents are drawn where the argument lives. They were
    drawn on the host and copied; the graph-path step took 11-13 s per job on the H200 at 0.5 GB inputs, most
    of it (inferred, not timed apart) that drawing."""

    def __init__(self, seed: int):
        self.seed = seed
        self.by_device: dict[str, torch.Generator] = {}

    def on(self, device: torch.device) -> torch.Generator:
        key = str(device)
        if key not in self.by_device:
            self.by_device[key] = torch.Generator(device=device).manual_seed(self.seed)
        return self.by_device[key]


def _bits(tensor: torch.Tensor) -> torch.Tensor:
    flat = tensor.reshape(-1).contiguous()
    return flat if flat.dtype == torch.bool else flat.view(torch.uint8)


def _difference(what: str, expected, got, exact: bool, spread=None) -> str | None:
    if len(expected) != len(got):
        return f"{len(got)} {what}s, the plain path gives {len(expected)}"
    for index, (want, have) in enumerate(zip(expected, got)):
        if not isinstance(want, torch.Tensor):
            if want != have:
                return f"{what} {index}: {have!r}, the plain path gives {want!r}"
            continue
        layout = (tuple(want.shape), want.stride(), want.dtype)
        if (tuple(have.shape), have.stride(), have.dtype) != layout:
            return (f"{what} {index}: sizes/strides/dtype {(tuple(have.shape), have.stride(), have.dtype)}, the "
                    f"plain path gives {layout}")
        if exact or not want.dtype.is_floating_point:
            if not torch.equal(_bits(want), _bits(have)):
                differing = (_bits(want) != _bits(have)).nonzero()[0].item()
                return f"{what} {index}: bits differ (first at byte {differing})"
        else:
            tolerance = tolerance_for(want.dtype)
            reach = spread[index] if spread and index < len(spread) else 0.0
            w, h = want.double(), have.double()
            allowed = tolerance.atol + tolerance.rtol * w.abs() + SPREAD_FACTOR * reach * (w.abs() + finite_rms(w))
            close = ((h - w).abs() <= allowed) | ((w == h) | (torch.isnan(w) & torch.isnan(h)))
            if not bool(close.all()):
                return f"{what} {index}: values differ beyond the {want.dtype} tolerance and the plain path's own spread"
    return None
