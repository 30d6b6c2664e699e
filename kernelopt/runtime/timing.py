"""Timing: medians after warm-up, rotating inputs when they fit in L2, side-by-side comparisons.

On CUDA each repetition is timed with CUDA events; on the CPU with perf_counter (useful only to
smoke-test a pipeline: CPU times, through the Triton interpreter, say nothing about GPU speed).
"""
from __future__ import annotations

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
