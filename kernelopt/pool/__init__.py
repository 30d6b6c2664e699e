"""Evaluate rewrite candidates in parallel: one worker per GPU (or N CPU workers), locally or on Ray.

`CandidatePool` is the interface (`submit(job)` -> future, `as_completed`, `map_unordered`, `close`);
`LocalPool` runs worker processes on this host, `RayPool` runs Ray actors (optional extra
`kernelopt[ray]`). A `Job` is self-contained and picklable; a worker evaluates it with
`kernelopt.rewrite.evaluate.ModuleEvaluator` and returns the `Evaluation`. A worker owns its GPU and
runs one job at a time, so a candidate is always timed on an otherwise idle GPU. A worker that dies or
overruns the per-job time limit is replaced and its job comes back once, rejected with the reason.
"""
from .base import CandidatePool, Job, WorkerDied, WorkerTimedOut, load_inputs, save_inputs
from .evaluator import PoolEvaluator, make_pool
from .local import LocalPool


def __getattr__(name):  # RayPool imports nothing from ray until it is used
    if name == "RayPool":
        # lazy: the Ray backend (optional extra 'ray') loads only when asked for
        from .ray_pool import RayPool

        return RayPool
    raise AttributeError(name)


__all__ = ["CandidatePool", "Job", "LocalPool", "RayPool", "PoolEvaluator", "make_pool", "WorkerDied",
           "WorkerTimedOut", "load_inputs", "save_inputs"]
