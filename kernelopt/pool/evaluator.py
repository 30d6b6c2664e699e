"""Evaluate a search's candidates through a pool, and pick the pool for `agentic-rewrite{workers=...}`."""
from __future__ import annotations

import os
import shutil
import sys
import time

from kernelopt.job_workdir import owned_temp_folder
from kernelopt.errors import UsageError
from kernelopt.proposers.base import Candidate, RewriteTarget
from kernelopt.rewrite.search import Evaluation

from .base import CandidatePool, Job, save_inputs
from .local import LocalPool, visible_gpus


MIN_JOB_S = 5.0    # a job started just before the deadline still gets this long


class PoolEvaluator:
    """Stands in for a ModuleEvaluator in `search()`: the same verdicts, computed by the pool's workers.

    `evaluate_many` is what lets the search hand over several candidates at once (see search.py);
    the answers come back in the order of the candidates, whatever order the workers finish in.
    """

    def __init__(self, pool: CandidatePool, module_path: str, inputs: list | str | None, *, device: str,
                 precision: str = "strict", cost_model: str = "", rounds: int = 5,
                 recorded_configs: dict | None = None):
        self.pool = pool
        self._scratch = None
        if isinstance(inputs, (list, tuple)):       # written once; jobs carry the path, not the tensors
            self._scratch = owned_temp_folder("kernelopt-pool-inputs-")
            inputs = save_inputs(list(inputs), self._scratch)
        self.fields = dict(module_path=os.path.abspath(str(module_path)), inputs=inputs, device=device,
                           precision=precision, cost_model=cost_model, rounds=rounds,
                           recorded_configs=dict(recorded_configs or {}))
        # time.monotonic() by which every job must have ended (the job's wall target): a candidate still
        # being checked then is stopped (its worker replaced) and counts as rejected.
        self.deadline: float | None = None

    @property
    def batch_size(self) -> int:
        return self.pool.size

    def job(self, target: RewriteTarget, candidate: Candidate) -> Job:
        timeout = None if self.deadline is None else max(MIN_JOB_S, self.deadline - time.monotonic())
        return Job(target=target, candidate=candidate, timeout_s=timeout, **self.fields)

    def evaluate(self, target: RewriteTarget, candidate: Candidate) -> Evaluation:
        return self.pool.submit(self.job(target, candidate)).result()

    def evaluate_many(self, target: RewriteTarget, candidates: list[Candidate]) -> list[Evaluation]:
        futures = [self.pool.submit(self.job(target, c)) for c in candidates]
        return [future.result() for future in futures]

    def close(self) -> None:
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None


def gpu_count() -> int:
    return len(visible_gpus())


def resolve_workers(kind: str, device: str) -> str:
    """auto: Ray when this process already runs a Ray instance, local processes on a host with more
    than one GPU, else none (one GPU or a CPU gains nothing from a pool of one)."""
    if kind not in ("auto", "local", "ray", "none"):
        raise UsageError(f"workers={kind!r}: use auto, local, ray or none")
    if kind != "auto":
        return kind
    ray = sys.modules.get("ray")
    if ray is not None and getattr(ray, "is_initialized", lambda: False)():
        return "ray"
    if device.startswith("cuda") and gpu_count() > 1:
        return "local"
    return "none"


def make_pool(kind: str, device: str, workers: int | None = None, *, job_timeout: float = 900.0
              ) -> CandidatePool | None:
    """The pool for `workers=kind` (None for "none")."""
    kind = resolve_workers(kind, device)
    if kind == "none":
        return None
    if kind == "ray":
        # lazy: the Ray backend (optional extra 'ray') loads only when asked for
        from .ray_pool import RayPool

        return RayPool(device, workers, job_timeout=job_timeout)

    return LocalPool(device, workers, job_timeout=job_timeout)
