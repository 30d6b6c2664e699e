"""How `kernelopt optimize` spends its wall clock: when a job should end, what it keeps for the steps after
the search, and when a second base is worth optimizing. The job (optimize_job.py) reads these; a harness
that runs jobs under a time limit passes it with `--time-limit`."""
from __future__ import annotations


# `--base best` optimizes its second base only when capturing both took less than this: a job is meant to
# finish within 5 minutes, and max-autotune's own autotuning can take most of it (gpt2 large: 197 s of
# 285 s on the H200).
SECOND_BASE_WALL_S = 180.0

# A job is meant to end within 5 minutes: the second base of `--base best` is optimized only when the
# first was done within half of it (on a 7.5 GB instance norm the first base's search alone took 230 s).
JOB_TARGET_S = 300.0
# What the job leaves after the search, within its target: the legality re-check, emit, the CUDA-graph
# check, the guard's side by side timing and the report's end-to-end timing. Measured on an H200: 25-30 s
# at inputs under 0.6 GB (graph path 11-13 s, guard 2-4 s, report 7-12 s), about a minute at 7.5 GB. A
# flat minute left a job under `--time-limit 135` no search at all once capture had taken 75 s.
SEARCH_RESERVE_S = 30.0
SEARCH_RESERVE_S_PER_GIB = 4.0


def search_reserve_s(peak_bytes: int | None) -> float:
    """Seconds kept after the search for a model whose Inductor module peaks at `peak_bytes` on the device
    (unknown: the most the 7.5 GB case needed)."""
    if peak_bytes is None:
        return SEARCH_RESERVE_S + SEARCH_RESERVE_S_PER_GIB * 7.5
    return SEARCH_RESERVE_S + SEARCH_RESERVE_S_PER_GIB * peak_bytes / 2**30


def job_target_s(options, default_gpu_seconds: float) -> float:
    """The job's wall-clock target: `--time-limit` when given; else 5 minutes with the default search
    budget (`default_gpu_seconds`, the rewrite pass's), and a user who gives the search more GPU-seconds
    than that gets that much more."""
    if getattr(options, "time_limit", None):
        return float(options.time_limit)
    return JOB_TARGET_S + max(0.0, float(options.gpu_seconds) - float(default_gpu_seconds))
