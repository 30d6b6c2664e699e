"""Timing: medians after warm-up, rotating inputs when they fit in L2, side-by-side comparisons.

On CUDA each repetition is timed with CUDA events; on the CPU with perf_counter (useful only to
smoke-test a pipeline: CPU times, through the Triton interpreter, say nothing about GPU speed).
`median_time_ms` times one call per event pair (what a caller waits for, host launch latency included);
`device_time` times calls issued back to back, in a CUDA graph where capture works (the GPU's own time).
"""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import torch

H200_L2_BYTES = 60 * 1024 * 1024


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def _time_once_ms(fn: Callable[[], Any], device: str) -> float:
    if device == "cuda":
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)
    begin = time.perf_counter()
    fn()
    return (time.perf_counter() - begin) * 1e3


def median_time_ms(fn: Callable[[], Any], *, device: str = "cuda", warmup: int = 3, reps: int | None = None,
                   min_time_ms: float = 100.0, max_reps: int = 1000) -> float:
    """Median of per-call times of `fn()` after `warmup` calls.

    Without `reps`, repeats until about `min_time_ms` of measured time (at least 5, at most max_reps).
    """
    for _ in range(warmup):
        fn()
    _sync(device)
    times: list[float] = []
    while True:
        times.append(_time_once_ms(fn, device))
        if reps is not None:
            if len(times) >= reps:
                break
        elif (sum(times) >= min_time_ms and len(times) >= 5) or len(times) >= max_reps:
            break
    return statistics.median(times)


def tensor_bytes(values: Sequence[Any]) -> int:
    return sum(v.untyped_storage().nbytes() for v in values if isinstance(v, torch.Tensor))


def rotation_copies(args: Sequence[Any], l2_bytes: int = H200_L2_BYTES, max_copies: int = 32) -> int:
    """How many input copies to cycle through so that consecutive calls do not find them in L2."""
    size = max(1, tensor_bytes(args))
    if size >= l2_bytes:
        return 1
    return min(max_copies, -(-2 * l2_bytes // size))


def rotating(fn_of_args: Callable[[list], Any], args: Sequence[Any], copies: int | None = None) -> Callable[[], Any]:
    """A zero-argument callable that calls `fn_of_args` on one of `copies` input copies in turn."""
    copies = rotation_copies(args) if copies is None else copies
    sets = [list(args)] + [[a.clone() if isinstance(a, torch.Tensor) else a for a in args]
                           for _ in range(copies - 1)]
    position = [0]

    def call() -> Any:
        chosen = sets[position[0] % len(sets)]
        position[0] += 1
        return fn_of_args(list(chosen))

    call.copies = len(sets)  # type: ignore[attr-defined]
    return call


@dataclass
class Comparison:
    median_a_ms: float
    median_b_ms: float
    rounds: int

    @property
    def ratio(self) -> float:
        """time(b) / time(a): above 1 means a is faster."""
        return self.median_b_ms / self.median_a_ms if self.median_a_ms > 0 else float("inf")


def compare(fn_a: Callable[[], Any], fn_b: Callable[[], Any], rounds: int = 5, *, device: str = "cuda",
            reps_per_round: int | None = None, min_time_ms: float = 50.0) -> Comparison:
    """Time a and b interleaved in the same process, `rounds` times each; medians of the round medians."""
    times_a, times_b = [], []
    for _ in range(max(1, rounds)):
        times_a.append(median_time_ms(fn_a, device=device, reps=reps_per_round, min_time_ms=min_time_ms))
        times_b.append(median_time_ms(fn_b, device=device, reps=reps_per_round, min_time_ms=min_time_ms))
    return Comparison(statistics.median(times_a), statistics.median(times_b), max(1, rounds))


# -- device time: the GPU's time per call, without the host's launch latency ----------------------------
#
# One call timed between two CUDA events also measures the host's launch latency whenever the GPU is idle
# when the first event is reached: the GPU waits while the host issues the call (a Triton launch or a
# library call costs 5-12 µs of host time on a fast host, 20-80 µs on the H200 machines measured here),
# which is more than a small kernel's own work. `device_time` therefore times
# many calls issued back to back, so the GPU is never left waiting between them:
# - "graph": `calls` calls captured into one CUDA graph and replayed; no host work at all between calls;
# - "batched": the same calls issued from Python (when capture is refused: an op that synchronizes, say);
#   the host's cost is still hidden for every op whose GPU time exceeds it, not for smaller ones.
# Each round first runs one untimed step: it keeps the GPU busy while the host records the start event
# and issues the timed steps, so the first timed step does not start on an idle GPU either.

BATCH_MS = 1.0          # about this much GPU work per timed step (one graph replay, or one batch)
MAX_BATCH_CALLS = 256   # most calls in one step (a graph of 256 nodes captures in a few ms)
ESTIMATE_CALLS = 5      # calls timed to size the step, each also timed on the host (launch cost: the fastest)


@dataclass
class DeviceTime:
    """Per-call time of a callable and how it was measured."""

    ms: float                    # median over rounds of the mean time per call
    method: str                  # "graph" | "batched" (CUDA), "host" (CPU: perf_counter per call)
    calls: int = 1               # calls per timed step
    host_ms: float | None = None  # host time to issue one call, no synchronization (the launch cost)
    fallback: str = ""           # why a CUDA graph was not used, when one was asked for


def calls_per_step(estimate_ms: float, copies: int = 1, batch_ms: float = BATCH_MS,
                   max_calls: int = MAX_BATCH_CALLS) -> int:
    """Calls in one timed step: about `batch_ms` of work at `estimate_ms` a call, in whole turns through
    the `copies` rotated input sets (every step then reads each set equally often, and consecutive calls
    never share inputs), at most `max_calls` unless one turn alone is longer."""
    copies = max(1, copies)
    wanted = max_calls if estimate_ms <= 0 else max(1, math.ceil(batch_ms / estimate_ms))
    turns = math.ceil(min(wanted, max_calls) / copies)
    return max(1, min(turns, max_calls // copies)) * copies


def steps_per_round(step_ms: float, round_ms: float, max_steps: int = 1000) -> int:
    """Timed steps in one round: about `round_ms` of work, at least one."""
    if step_ms <= 0:
        return max_steps
    return max(1, min(max_steps, math.ceil(round_ms / step_ms)))


def _estimate(fn: Callable[[], Any], calls: int) -> tuple[float, float]:
    """(ms per call between events, host ms to issue one call) over `calls` calls. The host figure is the
    fastest call's: jitter on a shared host (preemption, other processes) only ever adds time, and a
    median of a few calls still flips with it."""
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    host = []
    start.record()
    for _ in range(calls):
        begin = time.perf_counter()
        fn()
        host.append((time.perf_counter() - begin) * 1e3)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / calls, min(host)


def _capture(fn: Callable[[], Any], calls: int) -> "torch.cuda.CUDAGraph":
    """A CUDA graph of `calls` calls of `fn` on the current (non-default) stream; raises if capture fails."""
    graph = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    # thread_local: only this thread's unsafe calls (a synchronization, a cudaMalloc) invalidate the capture
    graph.capture_begin(capture_error_mode="thread_local")
    try:
        for _ in range(calls):
            fn()
    except BaseException:
        try:
            graph.capture_end()   # ends the (invalidated) capture so the stream can be used again
        except Exception:
            pass
        raise
    graph.capture_end()
    return graph


def _first_line(err: Exception) -> str:
    lines = str(err).strip().splitlines()
    return f"{type(err).__name__}: {lines[0]}" if lines else type(err).__name__


def _round_times(step: Callable[[], Any], steps: int, rounds: int) -> list[float]:
    """ms per step in each round; one untimed step before each round's start event primes the stream."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(rounds):
        step()
        start.record()
        for _ in range(steps):
            step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / steps)
    return times


def back_to_back_ms(fn: Callable[[], Any], *, batch_ms: float = 20.0, rounds: int = 5) -> float:
    """Median milliseconds per call of `fn()` issued back to back, as a loop over a model issues it
    (host work overlaps the previous call's device work): batches of ~batch_ms, events around each."""
    for _ in range(3):
        fn()
    _sync("cuda")
    calls = max(1, min(1000, int(batch_ms / max(_time_once_ms(fn, "cuda"), 1e-3))))
    return statistics.median(_round_times(fn, calls, rounds))


_STREAMS: dict[int, "torch.cuda.Stream"] = {}


def _timing_stream() -> "torch.cuda.Stream":
    """One side stream per device (graphs cannot be captured on the default stream), reused so that
    libraries' per-stream state (cuBLAS workspaces) is set up once, in warm-up, never inside a capture."""
    device = torch.cuda.current_device()
    if device not in _STREAMS:
        _STREAMS[device] = torch.cuda.Stream()
    return _STREAMS[device]


def device_time(fn: Callable[[], Any], *, device: str = "cuda", rounds: int = 3, min_time_ms: float = 30.0,
                copies: int = 1, graph: bool = True, warmup: int = 2) -> DeviceTime:
    """The device time per call of `fn()` (see the section comment above): CUDA graph replays when
    `graph` and capture works, else back-to-back batches; `copies` is how many input sets `fn` rotates
    through (steps hold whole turns). On the CPU, the median per-call perf_counter time (`median_time_ms`).
    """
    rounds = max(1, rounds)
    if device != "cuda":
        per_round = [median_time_ms(fn, device=device, min_time_ms=min_time_ms / rounds) for _ in range(rounds)]
        median = statistics.median(per_round)
        return DeviceTime(median, "host", 1, median)
    stream = _timing_stream()
    stream.wait_stream(torch.cuda.current_stream())
    try:
        with torch.cuda.stream(stream):
            return _device_time_on_stream(fn, rounds, min_time_ms / rounds, copies, graph, warmup)
    finally:
        torch.cuda.current_stream().wait_stream(stream)
        torch.cuda.synchronize()


@dataclass
class _Step:
    """A timed step of device_time: `calls` calls of a function, as one graph replay or a back-to-back batch."""

    run: Callable[[], Any]
    calls: int
    method: str                  # "graph" | "batched"
    host_ms: float
    fallback: str
    step_ms: float               # one step's time, measured once (also the graph's upload, outside the rounds)


def _prepared_step(fn, copies: int, use_graph: bool, warmup: int) -> _Step:
    for _ in range(warmup):   # compiles, autotunes, sets up library state: none of it may happen in a capture
        fn()
    estimate_ms, host_ms = _estimate(fn, ESTIMATE_CALLS)
    calls = calls_per_step(estimate_ms, copies)
    fallback = ""
    captured = None
    if use_graph:
        try:
            captured = _capture(fn, calls)
        except Exception as err:  # any refusal: time the same calls without a graph
            fallback = _first_line(err)
    if captured is not None:
        step = captured.replay
    else:
        def step() -> None:
            for _ in range(calls):
                fn()
    step_ms = _round_times(step, 1, 1)[0]
    return _Step(step, calls, "graph" if captured is not None else "batched", host_ms, fallback, step_ms)


def _device_time_on_stream(fn, rounds: int, round_ms: float, copies: int, use_graph: bool,
                           warmup: int) -> DeviceTime:
    step = _prepared_step(fn, copies, use_graph, warmup)
    times = _round_times(step.run, steps_per_round(step.step_ms, round_ms), rounds)
    return DeviceTime(statistics.median(times) / step.calls, step.method, step.calls, step.host_ms, step.fallback)


def compare_device(fn_a: Callable[[], Any], fn_b: Callable[[], Any], rounds: int = 5, *, device: str = "cuda",
                   min_time_ms: float = 20.0) -> Comparison:
    """compare() on the GPU's own time: each side's calls captured once into a CUDA graph (back-to-back
    batches where capture is refused, see device_time) and the two sides' rounds interleaved. Neither side is
    charged the host's launch latency, which differs with how a kernel is launched (Triton's JIT binding
    against Inductor's C++ launcher: 10-80 us a launch) and not with what it computes. On the CPU: compare()."""
    if device != "cuda":
        return compare(fn_a, fn_b, rounds, device=device, min_time_ms=min_time_ms)
    rounds = max(1, rounds)
    stream = _timing_stream()
    stream.wait_stream(torch.cuda.current_stream())
    try:
        with torch.cuda.stream(stream):
            steps = [_prepared_step(fn, 1, True, 2) for fn in (fn_a, fn_b)]
            counts = [steps_per_round(step.step_ms, min_time_ms / rounds) for step in steps]
            times: list[list[float]] = [[], []]
            for _ in range(rounds):
                for side, (step, count) in enumerate(zip(steps, counts)):
                    times[side].append(_round_times(step.run, count, 1)[0] / step.calls)
    finally:
        torch.cuda.current_stream().wait_stream(stream)
        torch.cuda.synchronize()
    return Comparison(statistics.median(times[0]), statistics.median(times[1]), rounds)
