"""RayPool: one Ray actor per GPU (`num_gpus=1`, so Ray pins it with CUDA_VISIBLE_DEVICES), or per CPU.

Ray is an optional extra (`pip install 'kernelopt[ray]'`), imported only when a RayPool is made. The
pool joins the running Ray instance (`ray.init()` already called, or `address=`), or starts a local
one. Each actor evaluates one job at a time (the pool's dispatch thread waits for its answer before
sending the next), and actors are never restarted by Ray itself nor their tasks retried: a dead or
overrunning actor is killed and replaced by the pool, and its job is reported once, rejected.
"""
from __future__ import annotations

import os

from kernelopt.errors import UsageError
from kernelopt.pool.job import evaluate_job
from kernelopt.rewrite.search import Evaluation

from .base import CandidatePool, Job, WorkerDied, WorkerSlot, WorkerTimedOut


def import_ray():
    try:
        # lazy: optional dependency (extra 'ray')
        import ray
    except ImportError:
        raise UsageError("the Ray backend needs Ray: pip install 'kernelopt[ray]' "
                         "(or use workers=local for processes on this host)") from None
    return ray


class RayWorker:
    """The actor's body (made remote by RayPool); it holds one evaluator per module for its lifetime."""

    def __init__(self, device: str):
        if device == "cpu":
            os.environ["TRITON_INTERPRET"] = "1"   # before triton reads it (the actor is a fresh process)
        self.device = device

    def hello(self) -> dict:
        return {"pid": os.getpid(), "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")}

    def evaluate(self, job: Job) -> Evaluation:
        return evaluate_job(job)


class ActorSlot(WorkerSlot):
    def __init__(self, ray, actor_class, index: int, device: str, start_timeout: float = 300.0):
        self.ray, self.actor_class, self.index, self.device = ray, actor_class, index, device
        self.name = f"ray-{device}{index}"
        self.start_timeout = start_timeout
        self.actor = None
        self.pid: int | None = None

    @property
    def alive(self) -> bool:
        return self.actor is not None

    def start(self) -> None:
        if self.actor is not None:
            return
        resources = {"num_gpus": 1} if self.device == "cuda" else {"num_cpus": 1}
        actor = self.actor_class.options(max_restarts=0, max_task_retries=0, **resources).remote(self.device)
        try:
            self.pid = self.ray.get(actor.hello.remote(), timeout=self.start_timeout)["pid"]
        except Exception as err:  # noqa: BLE001 - no resources, actor crashed in __init__, ...
            self.ray.kill(actor, no_restart=True)
            raise WorkerDied(f"{self.name} could not start: {_first_line(err)}") from None
        self.actor = actor

    def run(self, job: Job, timeout: float) -> Evaluation:
        ray = self.ray
        self.start()
        reference = self.actor.evaluate.remote(job)
        self.current = job.job_id
        try:
            return ray.get(reference, timeout=timeout)
        except ray.exceptions.GetTimeoutError:
            raise WorkerTimedOut(f"{self.name} ran past the {timeout:g} s limit per job") from None
        except ray.exceptions.RayActorError as err:
            raise WorkerDied(f"{self.name} (pid {self.pid}) {_first_line(err)}") from None

    def kill(self) -> None:
        if self.actor is not None:
            try:
                self.ray.kill(self.actor, no_restart=True)
            except Exception:  # noqa: BLE001 - already gone
                pass
            self.actor = None


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0][:200] if text else ''}"


class RayPool(CandidatePool):
    """`RayPool(device="cuda")`: one actor per GPU in the Ray cluster; `RayPool("cpu", workers=N)`."""

    def __init__(self, device: str = "cpu", workers: int | None = None, *, address: str | None = None,
                 job_timeout: float = 900.0):
        ray = import_ray()
        self.device = "cuda" if device.startswith("cuda") else "cpu"
        self.started_ray = False
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
            self.started_ray = True
        resources = ray.cluster_resources()
        available = int(resources.get("GPU" if self.device == "cuda" else "CPU", 0))
        if available < 1:
            raise UsageError(f"RayPool(device={self.device!r}): the Ray cluster has no "
                             f"{'GPU' if self.device == 'cuda' else 'CPU'} to run a worker on")
        count = min(workers, available) if workers else available
        actor_class = ray.remote(RayWorker)
        super().__init__([ActorSlot(ray, actor_class, i, self.device) for i in range(count)],
                         job_timeout=job_timeout)
        self._ray = ray

    def worker_pids(self) -> list[int]:
        return [slot.pid for slot in self.slots if slot.pid is not None]

    def close(self) -> None:
        super().close()
        if self.started_ray:
            self._ray.shutdown()
