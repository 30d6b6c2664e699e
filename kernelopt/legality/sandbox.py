"""Parent side of the candidate sandbox: one warm zygote per device, one forked child per candidate.

The zygote (kernelopt/legality/worker.py) pays torch's and triton's import once; forking a child per
candidate then costs milliseconds, gives every candidate a clean interpreter (nothing one candidate
patches can leak into the next), and lets a crash or hang take down only that child. A dead zygote is
started again on the next request.

A request has three deadlines (`Limits`), one per phase the child reports: setup (until the
candidate's code starts), compilation (Triton compiling and loading kernels, however often it
happens during the request) and the run itself. Only the run's limit scales with the original's
time; compilation, which takes tens of seconds for a fresh kernel on a GPU, has its own cap.
"""
from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection

from kernelopt.job_workdir import owned_temp_folder
from kernelopt.legality.wire import recv as _recv, send as _send, send_fds as _send_fds

_SECRET_NAMES = re.compile(r"(_TOKEN|_KEY|_SECRET|_PASSWORD)$|^(OPENAI_API_KEY|KERNELOPT_LLM_API_KEY)$")


def sandbox_environment(device: str) -> dict[str, str]:
    """The parent's environment without credentials; TRITON_INTERPRET only for CPU runs."""
    env = {k: v for k, v in os.environ.items() if not _SECRET_NAMES.search(k)}
    if device == "cpu":
        env["TRITON_INTERPRET"] = "1"
    else:
        env.pop("TRITON_INTERPRET", None)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


class ChildDied(Exception):
    def __init__(self, status: str, stderr_tail: str):
        super().__init__(status)
        self.status = status
        self.stderr_tail = stderr_tail


@dataclass(frozen=True)
class Limits:
    """Seconds allowed per phase of one request (see the module docstring)."""
    setup: float
    run: float
    compile: float


class ChildTimedOut(Exception):
    def __init__(self, phase: str = "run", limit: float = 0.0, spent: dict | None = None):
        super().__init__(f"{phase} took longer than {limit:g} s")
        self.phase = phase          # setup | run | compile
        self.limit = limit
        self.spent = spent or {}


class CandidateProcess:
    """One forked child holding one candidate; calls keep its state (for the same-buffer re-run).
    `shared`, `layout_key` and `device_after` belong to the gate: the buffers of the child's layout."""

    def __init__(self, pool: "WorkerPool", pid: int, conn: Connection, workdir: str, hello: dict,
                 sock: socket.socket | None = None):
        self.pool, self.pid, self.conn, self.workdir, self.hello = pool, pid, conn, workdir, hello
        self.sock = sock
        self.calls = 0
        self.closed = False
        self.spent: dict[str, float] = {}      # seconds per phase of the last request
        self.shared = None
        self.layout_key = None
        self.device_after = None

    def request(self, message: dict, limits: "Limits | float", fds: list[int] = ()):
        """Send `message` (and file descriptors after it), wait for the reply under `limits`."""
        if not isinstance(limits, Limits):
            limits = Limits(limits, limits, limits)
        if message.get("op") == "run":
            self.calls += 1
        try:
            _send(self.conn, message)
            if fds:
                _send_fds(self.sock, fds)
            return self._reply(limits)
        except (EOFError, OSError, BrokenPipeError):
            status = self.pool.wait_child(self.pid)
            self.closed = True
            raise ChildDied(status, self.stderr_tail()) from None

    def _reply(self, limits: Limits):
        """Wait for the reply, charging the time to the phase the child last reported: the deadline
        is that phase's limit less what it has used, so compile time never eats the run's budget."""
        spent = {"setup": 0.0, "run": 0.0, "compile": 0.0}
        self.spent = spent
        phase, compiling = "setup", False
        mark = time.monotonic()
        while True:
            current = "compile" if compiling else phase
            ready = self.conn.poll(max(0.0, getattr(limits, current) - spent[current]))
            now = time.monotonic()
            spent[current] += now - mark
            mark = now
            if not ready:
                self.kill()
                raise ChildTimedOut(current, getattr(limits, current), dict(spent))
            message = _recv(self.conn)
            event = message.get("event") if isinstance(message, dict) else None
            if event is None:
                return message
            if event == "running":
                phase = "run"
            elif event == "compile-start":
                compiling = True
            elif event == "compile-end":
                compiling = False

    def stderr_tail(self, limit: int = 600) -> str:
        try:
            with open(os.path.join(self.workdir, "stderr.txt"), errors="replace") as handle:
                return handle.read()[-limit:]
        except OSError:
            return ""

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            _send(self.conn, {"op": "exit"})
        except OSError:
            pass
        self.conn.close()
        if self.sock is not None:
            self.sock.close()
        self.shared = self.device_after = None
        self.pool.wait_child(self.pid)
        shutil.rmtree(self.workdir, ignore_errors=True)


class _ForkedProcess:
    """What WorkerPool uses of a Popen (poll, wait, kill), for a zygote forked from this process."""

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                done, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                done, status = self.pid, 0
            if done:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"zygote {self.pid}", timeout)
            time.sleep(0.01)
        return self.returncode

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class WorkerPool:
    def __init__(self, device: str = "cpu", *, isolate_network: bool = True,
                 memory_bytes: int | None = 8 << 30, cpu_seconds: float = 900.0):
        self.device = device
        self.isolate_network = isolate_network
        # CUDA reserves far more address space than it uses, so RLIMIT_AS would break it on a GPU.
        self.memory_bytes = memory_bytes if device == "cpu" else None
        self.cpu_seconds = cpu_seconds
        self.process = None
        self.conn = None
        self.sock = None
        self.lock = threading.Lock()
        self.root = owned_temp_folder("kernelopt-legality-")
        self.notes: list[str] = []
        self.ready = False      # the zygote said hello (launched but still importing: False)

    def _alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def launch(self) -> None:
        """Start the zygote without waiting for it. A new interpreter's imports of torch, triton and
        Inductor's helpers take seconds (11.4 s measured before an H100's first candidate): a job calls this
        before its capture, so that they overlap it instead of delaying the first check. `start` waits."""
        with self.lock:
            self._fresh_root_if_removed()
            if not self._alive():
                self._popen()

    def _popen(self) -> None:
        self._close_channel()          # a dead zygote's
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kernelopt.legality.worker", str(theirs.fileno()), self.device],
            pass_fds=[theirs.fileno()], env=sandbox_environment(self.device), cwd=self.root,
            stdin=subprocess.DEVNULL)
        theirs.close()
        self.sock = ours
        self.conn = Connection(os.dup(ours.fileno()))
        self.ready = False

    def start(self) -> None:
        if self._alive() and self.ready:
            return
        if not self._alive():
            self._popen()
        if not self.conn.poll(300):
            raise RuntimeError("the legality worker did not start within 300 s")
        _recv(self.conn)
        self.ready = True

    def _fresh_root_if_removed(self) -> None:
        # The process-wide pool (default_pool) outlives the optimize job that first used it, and that
        # job removes its temp folder, this root included, at its end: a later job in the same process
        # (the Dynamo backend compiles one graph after another) gets a fresh root and worker.
        if not os.path.isdir(self.root):
            self.close()
            self.root = owned_temp_folder("kernelopt-legality-")

    def start_by_fork(self) -> bool:
        """Start the zygote by forking this process rather than a new interpreter, for a process that
        imports what the zygote imports anyway and has run nothing yet, such as a LocalPool worker at
        its start: that saves the zygote's own start-up (seconds of torch, triton and Inductor imports).
        The state it forks from is the one the zygote forks its children from (those imports, no Python
        thread: a fork copies only the calling thread, so a lock another one held would stay held).
        Returns whether it forked; a zygote that dies later is started again by `start`, as a new
        interpreter. CPU only: a GPU zygote is always a new interpreter."""
        if self._alive() or self.device != "cpu" or threading.active_count() != 1:
            return False
        # lazy: the zygote's imports (torch, triton, Inductor's helpers) load only in a process that forks it
        from kernelopt.legality import worker

        worker.preimport(self.device)        # in this process, so that the zygote inherits them
        ours, theirs = socket.socketpair()
        environment = sandbox_environment(self.device)
        pid = os.fork()
        if pid == 0:                          # the zygote: what `start` would run, minus the imports
            code = 0
            try:
                keep = theirs.fileno()
                os.closerange(3, keep)        # like Popen(close_fds=True): no descriptor of this process
                os.closerange(keep + 1, os.sysconf("SC_OPEN_MAX"))   # (a pool worker's socket) stays open
                devnull = os.open(os.devnull, os.O_RDONLY)
                os.dup2(devnull, 0)
                os.close(devnull)
                os.chdir(self.root)
                # a fresh interpreter's SIGTERM, not the forking job's handler (which turns it into the job's own
                # stop, for the job to clean up); zygote_main sets SIGINT as for a new zygote
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                os.environ.clear()
                os.environ.update(environment)        # no credentials, as for a new zygote
                worker.zygote_main(keep, self.device)
            except BaseException:  # noqa: BLE001 - reported on stderr; the parent sees the zygote gone
                code = 70
                traceback.print_exc()
            finally:
                os._exit(code)               # never return into the forking process's code
        theirs.close()
        self._close_channel()          # a dead zygote's
        self.process = _ForkedProcess(pid)
        self.sock = ours
        self.conn = Connection(os.dup(ours.fileno()))
        if not self.conn.poll(300):
            raise RuntimeError("the legality worker did not start within 300 s")
        _recv(self.conn)
        self.ready = True
        return True

    def _fork(self) -> tuple[int, socket.socket, str]:
        """Ask the zygote for a child; a dead zygote is started again and asked once more."""
        for attempt in (1, 2):
            with self.lock:
                self._fresh_root_if_removed()
                self.start()
                ours, theirs = socket.socketpair()
                workdir = tempfile.mkdtemp(prefix="candidate-", dir=self.root)
                options = {"device": self.device, "workdir": workdir, "isolate_network": self.isolate_network,
                           "memory_bytes": self.memory_bytes, "cpu_seconds": self.cpu_seconds}
                try:
                    _send(self.conn, {"op": "spawn", "options": options})
                    socket.send_fds(self.sock, [b"s"], [theirs.fileno()])
                    return _recv(self.conn)["pid"], ours, workdir
                except (EOFError, OSError):
                    self.process = None
                    ours.close()
                    if attempt == 2:
                        raise RuntimeError("the legality worker died while starting a candidate process") from None
                finally:
                    theirs.close()
        raise AssertionError("unreachable")

    def spawn(self, timeout: float = 120.0) -> CandidateProcess:
        pid, ours, workdir = self._fork()
        conn = Connection(os.dup(ours.fileno()))     # messages; `ours` itself passes descriptors
        if not conn.poll(timeout):
            conn.close()
            ours.close()
            os.kill(pid, signal.SIGKILL)
            self.wait_child(pid)
            raise RuntimeError("a candidate process did not start")
        hello = _recv(conn)["hello"]
        if self.device.startswith("cuda") and not hello.get("cuda", True) and self.isolate_network:
            # Some hosts hide the GPU inside a new user namespace: give up network isolation there.
            conn.close()
            ours.close()
            os.kill(pid, signal.SIGKILL)
            self.wait_child(pid)
            self.isolate_network = False
            self.notes.append("network isolation disabled: CUDA is not usable inside a user namespace here")
            return self.spawn(timeout)
        return CandidateProcess(self, pid, conn, workdir, hello, ours)

    def wait_child(self, pid: int) -> str:
        with self.lock:
            if not self._alive():
                return "unknown (worker gone)"
            try:
                _send(self.conn, {"op": "wait", "pid": pid, "timeout": 10.0})
                return _recv(self.conn)["status"]
            except (EOFError, OSError):
                return "unknown (worker gone)"

    def close(self) -> None:
        if self._alive():
            try:
                _send(self.conn, {"op": "exit"})
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
        self.process = None
        self._close_channel()
        shutil.rmtree(self.root, ignore_errors=True)

    def _close_channel(self) -> None:
        """Close the zygote's socket and its connection: left to the garbage collector, each pool closed or
        restarted (a backend compiling graph after graph) held two descriptors until then, and Python said
        "ResourceWarning: unclosed <socket.socket ...>" at exit."""
        if self.conn is not None:
            self.conn.close()
        if self.sock is not None:
            self.sock.close()
        self.conn = self.sock = None
        self.ready = False


_POOLS: dict[str, WorkerPool] = {}


def default_pool(device: str) -> WorkerPool:
    """The process-wide warm pool for a device (started on first use, closed at exit)."""
    key = "cuda" if str(device).startswith("cuda") else "cpu"
    if key not in _POOLS:
        _POOLS[key] = WorkerPool(str(device))
    return _POOLS[key]


def fork_cpu_sandbox_now(device: str) -> bool:
    """For a command that will check candidates on the CPU (`kernelopt optimize`, `kernelopt-opt` with a gate
    pass, `kernelopt check`), called before it has run anything: fork the process-wide pool's zygote from this
    process now. A new interpreter would import torch, triton and Inductor's helpers again (2 to 3 s of CPU, once per
    command), which this process imports anyway; forked here, before any model or kernel has run (no OpenMP pool, no
    thread), the zygote inherits them. Returns whether it forked (a GPU, or a process with threads, keeps the new
    interpreter)."""
    if device != "cpu":
        return False
    return default_pool(device).start_by_fork()


@atexit.register
def _close_pools() -> None:
    for pool in _POOLS.values():
        pool.close()
