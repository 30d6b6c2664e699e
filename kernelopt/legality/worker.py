"""The candidate side of the legality gate: a pre-imported zygote that forks one child per candidate.

`python -m kernelopt.legality.worker FD DEVICE` starts the zygote on the Unix socket FD: it imports
torch and triton once, then, for each `spawn` request (a message plus a socket passed with SCM_RIGHTS),
forks a child. The child isolates itself (new user+network namespace where the kernel allows it,
RLIMIT_CPU, RLIMIT_AS on CPU, a private working directory, stdout/stderr to files), loads the candidate
source from a file and runs `run(*args)` on the buffers the gate sends. A crash, hang or illegal memory
access kills only the child; the zygote reports its exit status.

Messages are pickled with the plain pickle module (not multiprocessing's reducers, which would move
tensors through shared memory) and framed by multiprocessing.connection.
"""
from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import time
import traceback

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000


from kernelopt.legality.wire import recv as _recv, send as _send  # noqa: E402


def _isolate_network() -> str:
    """Enter a fresh user+network namespace: no interface but loopback, so no network. Must run while
    the process has one thread (true right after fork)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
        return f"unavailable ({os.strerror(ctypes.get_errno())})"
    return "isolated"


def _set_limits(cpu_seconds: float, memory_bytes: int | None) -> None:
    import resource
    used = resource.getrusage(resource.RUSAGE_SELF)
    soft = int(used.ru_utime + used.ru_stime + cpu_seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))
    if memory_bytes:
        with open("/proc/self/statm") as handle:
            current = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (current + memory_bytes, current + memory_bytes))


def _redirect_output(workdir: str) -> None:
    for fd, name in ((1, "stdout.txt"), (2, "stderr.txt")):
        target = os.open(os.path.join(workdir, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)


class _Candidate:
    """Holds the loaded candidate and the buffers of the last run (reused for same-buffer calls)."""

    def __init__(self, device: str):
        import torch
        self.torch = torch
        self.device = device
        self.run = None
        self.bases = None
        self.args = None
        self.layout_key = None

    def load(self, source: str, filename: str) -> dict:
        import importlib.util
        path = os.path.abspath(filename)
        with open(path, "w") as handle:
            handle.write(source)
        try:
            spec = importlib.util.spec_from_file_location("kernelopt_candidate", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
        except BaseException as err:  # noqa: BLE001 - any failure of foreign code is a verdict
            return {"ok": False, "kind": "compile", "error": _describe(err)}
        run = getattr(module, "run", None)
        if not callable(run):
            return {"ok": False, "kind": "no-run", "error": "no callable run(*args)"}
        self.run = run
        return {"ok": True}

    def _place(self, message) -> None:
        torch = self.torch
        key = message["layout_key"]
        if message.get("reuse") and self.bases is not None and key == self.layout_key:
            for base, data in zip(self.bases, message["bases"]):
                base.copy_(data)                     # same buffers, same pointers, new data
            return
        self.bases = [data.to(self.device).clone() for data in message["bases"]]
        self.args = []
        for view in message["views"]:
            if view[0] == "tensor":
                _, base_index, offset, sizes, strides = view
                self.args.append(torch.as_strided(self.bases[base_index], sizes, strides, offset))
            else:
                self.args.append(view[1])
        self.layout_key = key

    def _meta(self):
        meta = []
        for arg in self.args:
            if isinstance(arg, self.torch.Tensor):
                meta.append((tuple(arg.shape), tuple(arg.stride()), arg.storage_offset(), str(arg.dtype),
                             str(arg.device), arg.data_ptr(), arg.untyped_storage().data_ptr()))
            else:
                meta.append(None)
        return meta

    def execute(self, message) -> dict:
        torch = self.torch
        self._place(message)
        before = self._meta()
        sync = torch.cuda.synchronize if self.device.startswith("cuda") else (lambda: None)
        call_args = list(self.args)
        try:
            sync()
            start = time.perf_counter()
            self.run(*call_args)
            sync()
            elapsed = time.perf_counter() - start
        except BaseException as err:  # noqa: BLE001
            return {"ok": False, "kind": "exception", "error": _describe(err)}
        after = self._meta()
        changed = [(i, b, a) for i, (b, a) in enumerate(zip(before, after)) if b != a]
        return {"ok": True, "elapsed": elapsed, "changed_meta": changed,
                "bases": [base.detach().cpu() for base in self.bases]}


def _describe(err: BaseException) -> str:
    text = "".join(traceback.format_exception_only(type(err), err)).strip()
    frames = traceback.extract_tb(err.__traceback__)
    where = next((f"{os.path.basename(f.filename)}:{f.lineno}" for f in reversed(frames)
                  if "candidate" in os.path.basename(f.filename)), "")
    return f"{text} ({where})" if where else text


def _child_main(conn, options: dict) -> None:
    network = _isolate_network() if options.get("isolate_network") else "not requested"
    workdir = options["workdir"]
    os.makedirs(workdir, exist_ok=True)
    os.chdir(workdir)
    _redirect_output(workdir)
    _set_limits(options.get("cpu_seconds", 600), options.get("memory_bytes"))
    import torch
    # torch.empty & co. fill with NaN / max-int, so reading uninitialised memory shows in the results.
    torch.use_deterministic_algorithms(True, warn_only=True)
    import torch.utils.deterministic
    torch.utils.deterministic.fill_uninitialized_memory = True
    device = options["device"]
    info = {"pid": os.getpid(), "network": network}
    if device.startswith("cuda"):
        info["cuda"] = torch.cuda.is_available()
    _send(conn, {"hello": info})
    candidate = _Candidate(device)
    while True:
        try:
            message = _recv(conn)
        except (EOFError, OSError):
            return
        if message["op"] == "load":
            _send(conn, candidate.load(message["source"], message["filename"]))
        elif message["op"] == "run":
            _send(conn, candidate.execute(message))
        elif message["op"] == "exit":
            return


def _preimport(device: str) -> None:
    import torch  # noqa: F401
    import triton  # noqa: F401
    import triton.language  # noqa: F401
    if device == "cpu":
        try:
            from kernelopt.runtime.interpret import install_cpu_triton_shims
            install_cpu_triton_shims()
        except ImportError:
            pass
    try:
        import torch._inductor.runtime.triton_helpers  # noqa: F401  (candidates copy Inductor's imports)
    except Exception:  # noqa: BLE001 - optional; a candidate needing it fails on its own
        pass


def zygote_main(fd: int, device: str) -> None:
    from multiprocessing.connection import Connection
    sock = socket.socket(fileno=fd)
    conn = Connection(os.dup(fd))
    _preimport(device)
    _send(conn, {"ready": True, "pid": os.getpid()})
    while True:
        try:
            message = _recv(conn)
        except (EOFError, OSError):
            return
        op = message["op"]
        if op == "spawn":
            _, fds, _, _ = socket.recv_fds(sock, 1, 1)
            pid = os.fork()
            if pid == 0:
                status = 0
                try:
                    sock.close()
                    conn.close()
                    _child_main(Connection(fds[0]), message["options"])
                except BaseException:  # noqa: BLE001
                    status = 70
                finally:
                    os._exit(status)
            os.close(fds[0])
            _send(conn, {"pid": pid})
        elif op == "wait":
            _send(conn, {"status": _wait(message["pid"], message.get("timeout", 10.0))})
        elif op == "exit":
            return


def _wait(pid: int, timeout: float) -> str:
    """Reap a child and say how it ended: 'exit N', 'signal NAME' or 'running'."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return "gone"
        if done:
            if os.WIFSIGNALED(status):
                return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
            return f"exit {os.WEXITSTATUS(status)}"
        if time.monotonic() > deadline:
            return "running"
        time.sleep(0.01)


if __name__ == "__main__":
    zygote_main(int(sys.argv[1]), sys.argv[2])
