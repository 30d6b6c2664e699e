"""The pool interface, the job, and the per-worker-slot dispatch shared by both backends.

Each worker slot has one dispatch thread in the parent. It takes the next job from the shared queue,
hands it to its worker and waits for the answer, so a worker never holds more than one job: on a GPU
that is what keeps timing honest (nothing else runs on the GPU while a candidate is timed). When the
worker dies or overruns the time limit, the thread resolves the job's future as rejected with the
reason, replaces the worker and takes the next job; a future is resolved in exactly one place, so a
job is never lost or reported twice.
"""
from __future__ import annotations

import concurrent.futures
import hashlib
import os
import pickle
import queue
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

import torch

from kernelopt.proposers.base import Candidate, RewriteTarget
from kernelopt.rewrite.search import Evaluation


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to evaluate one candidate, with nothing shared with the parent."""

    module_path: str
    inputs: Any                     # path of a torch.save'd file, a list of tensors, or None (get_args)
    target: RewriteTarget
    candidate: Candidate
    device: str = "cpu"             # "cpu" or "cuda" (inside a worker, its one pinned GPU)
    precision: str = "strict"
    cost_model: str = ""            # "" (measure on a GPU) or "static" (deterministic, for CPU tests)
    rounds: int = 5
    timeout_s: float | None = None  # this job's own limit; None: the pool's job_timeout
    # kernel -> the launch configuration the capture recorded (the worker's evaluator runs at it)
    recorded_configs: dict = field(default_factory=dict)
    job_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])


def save_inputs(inputs: list, directory: str) -> str:
    """Write module inputs once, so jobs carry a path instead of the tensors."""
    path = os.path.join(directory, "inputs.pt")
    torch.save({"args": list(inputs)}, path)
    return path


def load_inputs(inputs: Any) -> list | None:
    """A job's inputs as a list: a path (the corpus `{"args": [...]}` format or a plain list) or tensors."""
    if inputs is None or isinstance(inputs, (list, tuple)):
        return None if inputs is None else list(inputs)

    loaded = torch.load(str(inputs))
    return list(loaded["args"] if isinstance(loaded, dict) else loaded)


def inputs_key(inputs: Any) -> str:
    if inputs is None:
        return "get_args"
    if isinstance(inputs, (str, os.PathLike)):
        stat = os.stat(inputs)
        return f"{os.path.abspath(inputs)}:{stat.st_mtime_ns}:{stat.st_size}"
    return hashlib.sha256(pickle.dumps(inputs)).hexdigest()


def rejected(reason: str) -> Evaluation:
    return Evaluation(False, reason)


class WorkerDied(Exception):
    """The worker process/actor ended while it held a job (the message says how)."""


class WorkerTimedOut(Exception):
    """The job ran past the pool's per-job time limit."""


class WorkerSlot:
    """One worker (a process or an actor), replaced when it fails. Backends implement these."""

    name = "worker"
    current: str | None = None      # the id of the job the worker has taken and is evaluating now

    @property
    def alive(self) -> bool:
        raise NotImplementedError

    def start(self) -> None:
        raise NotImplementedError

    def run(self, job: Job, timeout: float) -> Evaluation:
        """Evaluate one job; raise WorkerDied/WorkerTimedOut (the worker is then unusable)."""
        raise NotImplementedError

    def kill(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        self.kill()


class CandidatePool:
    """Runs jobs on worker slots, one job per slot at a time; futures resolve to `Evaluation`s."""

    def __init__(self, slots: list[WorkerSlot], *, job_timeout: float = 900.0):
        if not slots:
            raise ValueError("a pool needs at least one worker")
        self.slots = slots
        self.job_timeout = job_timeout
        self.stats = {"done": 0, "worker_deaths": 0, "timeouts": 0, "restarts": 0}
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._closed = False
        self._threads = [threading.Thread(target=self._serve, args=(slot,), daemon=True,
                                          name=f"kernelopt-pool-{slot.name}") for slot in slots]
        for thread in self._threads:
            thread.start()

    @property
    def size(self) -> int:
        return len(self.slots)

    # -- the interface ---------------------------------------------------------------------------
    def submit(self, job: Job) -> concurrent.futures.Future:
        if self._closed:
            raise RuntimeError("the pool is closed")
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.job = job  # type: ignore[attr-defined]
        self._queue.put((job, future))
        return future

    @staticmethod
    def as_completed(futures: Iterable[concurrent.futures.Future], timeout: float | None = None):
        return concurrent.futures.as_completed(list(futures), timeout=timeout)

    def map_unordered(self, jobs: Iterable[Job]) -> Iterator[tuple[Job, Evaluation]]:
        """(job, evaluation) pairs in completion order, one per job."""
        futures = [self.submit(job) for job in jobs]
        for future in self.as_completed(futures):
            yield future.job, future.result()

    def running(self) -> dict[str, WorkerSlot]:
        """Job id -> the slot whose worker has taken that job and is evaluating it now."""
        return {slot.current: slot for slot in self.slots if slot.current is not None}

    def close(self) -> None:
        """Finish the jobs already submitted, then stop the workers."""
        if self._closed:
            return
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join()
        for slot in self.slots:
            slot.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- dispatch --------------------------------------------------------------------------------
    def _serve(self, slot: WorkerSlot) -> None:
        try:
            slot.start()              # warm every worker at once, before the first job arrives
        except Exception:  # noqa: BLE001 - retried when the first job needs it
            pass
        while True:
            item = self._queue.get()
            if item is None:
                return
            job, future = item
            if not future.set_running_or_notify_cancel():
                continue
            if not slot.alive and not self._start(slot, future):
                continue
            future.set_result(self._evaluate(slot, job))

    def _start(self, slot: WorkerSlot, future) -> bool:
        try:
            slot.start()
            return True
        except Exception as err:  # noqa: BLE001 - a worker that cannot start rejects its job
            future.set_result(rejected(f"worker died: could not start ({err})"))
            return False

    def _evaluate(self, slot: WorkerSlot, job: Job) -> Evaluation:
        try:
            evaluation = slot.run(job, job.timeout_s or self.job_timeout)
        except WorkerTimedOut as err:
            self._count("timeouts")
            evaluation = rejected(f"timeout: {err}")
            self._replace(slot)
        except WorkerDied as err:
            self._count("worker_deaths")
            evaluation = rejected(f"worker died: {err}")
            self._replace(slot)
        finally:
            slot.current = None
        self._count("done")
        return evaluation

    def _replace(self, slot: WorkerSlot) -> None:
        slot.kill()
        self._count("restarts")
        try:
            slot.start()
        except Exception:  # noqa: BLE001 - still dead: started again before its next job (_serve)
            pass

    def _count(self, key: str) -> None:
        with self._lock:
            self.stats[key] += 1
