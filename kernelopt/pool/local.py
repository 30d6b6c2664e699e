"""LocalPool: worker processes on this host, one per visible GPU, or N CPU workers.

On a GPU host each worker is started with CUDA_VISIBLE_DEVICES set to one GPU (taken from the
parent's own CUDA_VISIBLE_DEVICES list when it has one), so a worker owns its GPU and jobs time
candidates on an otherwise idle device. Without a GPU the workers run the Triton interpreter.

Each worker runs in its own session (process group): when it is replaced, the whole group goes
(the worker and the legality gate's zygote and sandbox children it started), so nothing is orphaned.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from multiprocessing.connection import Connection

import torch

from kernelopt.job_workdir import owned_temp_folder
from kernelopt.legality.wire import recv, send
from kernelopt.rewrite.search import Evaluation

from .base import CandidatePool, Job, WorkerDied, WorkerSlot, WorkerTimedOut

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def visible_gpus() -> list[str]:
    """The GPU ids a worker can be pinned to: the parent's CUDA_VISIBLE_DEVICES entries, or 0..n-1."""
    try:
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    except Exception:  # noqa: BLE001 - a broken CUDA install means no GPU workers
        count = 0
    listed = [d.strip() for d in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if d.strip()]
    return (listed or [str(i) for i in range(count)])[:count]


def worker_environment(device: str, gpu: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpu
        env.pop("TRITON_INTERPRET", None)
    else:
        env["CUDA_VISIBLE_DEVICES"] = ""          # a CPU worker must not touch a GPU
        env["TRITON_INTERPRET"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([_REPO] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class ProcessSlot(WorkerSlot):
    def __init__(self, index: int, device: str, gpu: str | None, root: str, start_timeout: float = 300.0):
        self.index, self.device, self.gpu, self.root = index, device, gpu, root
        self.name = f"gpu{gpu}" if gpu is not None else f"cpu{index}"
        self.start_timeout = start_timeout
        self.process: subprocess.Popen | None = None
        self.conn: Connection | None = None
        self.stderr_path = os.path.join(root, f"{self.name}.stderr")

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None and self.conn is not None

    def start(self) -> None:
        if self.alive:
            return
        ours, theirs = socket.socketpair()
        with open(self.stderr_path, "ab") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kernelopt.pool.worker", str(theirs.fileno())],
                pass_fds=[theirs.fileno()], env=worker_environment(self.device, self.gpu), cwd=self.root,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
        theirs.close()
        self.conn = Connection(ours.detach())
        try:
            if not self.conn.poll(self.start_timeout):
                raise WorkerDied(f"{self.name} did not start within {self.start_timeout:.0f} s")
            recv(self.conn)
        except (EOFError, OSError):
            why = self._ended()
            self.kill()
            raise WorkerDied(f"{self.name} could not start: {why}") from None
        except WorkerDied:
            self.kill()
            raise

    def run(self, job: Job, timeout: float) -> Evaluation:
        for _ in range(2):  # a worker found dead before it took the job is replaced and the job resent
            try:
                self.start()
                send(self.conn, {"job": job})
                if not self.conn.poll(60.0):
                    raise WorkerTimedOut(f"{self.name} did not take the job within 60 s")
                recv(self.conn)                      # "started": from here on the job is the worker's
                self.current = job.job_id
                break
            except (EOFError, OSError):
                self.kill()
        else:
            raise WorkerDied(f"{self.name} could not take the job: {self._ended()}")
        try:
            if not self.conn.poll(timeout):
                raise WorkerTimedOut(f"{self.name} ran past the {timeout:g} s limit per job")
            return recv(self.conn)["evaluation"]
        except (EOFError, OSError):
            raise WorkerDied(f"{self.name} (pid {self.pid}) {self._ended()}") from None

    def _ended(self) -> str:
        if self.process is None:
            return "not started"
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
        why = _describe_exit(code)
        last = self._stderr_last_line()
        return f"{why}; last stderr line: {last}" if last and code and code > 0 else why

    def _stderr_last_line(self) -> str:
        try:
            with open(self.stderr_path, "rb") as handle:
                handle.seek(max(0, os.path.getsize(self.stderr_path) - 2000))
                lines = [ln for ln in handle.read().decode(errors="replace").splitlines() if ln.strip()]
            return lines[-1][:200] if lines else ""
        except OSError:
            return ""

    def kill(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)   # the worker's own session: it and its children
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.alive:
            try:
                send(self.conn, {"op": "exit"})
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


class LocalPool(CandidatePool):
    """`LocalPool(device="cuda")`: one worker per visible GPU; `LocalPool(device="cpu", workers=N)`."""

    def __init__(self, device: str = "cpu", workers: int | None = None, *, job_timeout: float = 900.0):
        self.device = "cuda" if device.startswith("cuda") else "cpu"
        self.root = owned_temp_folder("kernelopt-pool-")
        if self.device == "cuda":
            gpus = visible_gpus()
            if not gpus:
                shutil.rmtree(self.root, ignore_errors=True)
                raise RuntimeError("LocalPool(device='cuda'): no CUDA GPU is visible")
            slots = [ProcessSlot(i, self.device, gpu, self.root) for i, gpu in enumerate(gpus[: workers or None])]
        else:
            count = workers or max(1, os.cpu_count() or 1)
            slots = [ProcessSlot(i, self.device, None, self.root) for i in range(count)]
        super().__init__(slots, job_timeout=job_timeout)

    def worker_pids(self) -> list[int]:
        return [slot.pid for slot in self.slots if slot.pid is not None]

    def close(self) -> None:
        super().close()
        shutil.rmtree(self.root, ignore_errors=True)
