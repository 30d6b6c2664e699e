"""The candidate side of the legality gate: a pre-imported zygote that forks one child per candidate.

`python -m kernelopt.legality.worker FD DEVICE` starts the zygote on the Unix socket FD: it imports
torch and triton once, then, for each `spawn` request (a message plus a socket passed with SCM_RIGHTS),
forks a child. The child isolates itself (new user+network namespace where the kernel allows it,
RLIMIT_CPU, RLIMIT_AS on CPU, a private working directory, stdout/stderr to files), loads the candidate
source from a file and runs `run(*args)` on the buffers the gate sends. A crash, hang or illegal memory
access kills only the child; the zygote reports its exit status.

Messages are small: pickled with the plain pickle module and framed by multiprocessing.connection.
Case data lives in shared host buffers (shared.py) whose file descriptors follow the first `run` of a
layout; the child runs on them directly (CPU) or copies them to and from its own GPU buffers.

While a request runs the child reports progress (`_Events`): `running` when the candidate's own code
starts, `compile-start` / `compile-end` around Triton compilation and kernel loading. The gate keeps
separate deadlines for setup, compilation and the run, so a GPU candidate's first call needs no
minutes-long floor and a hung kernel is caught in seconds.
"""
from __future__ import annotations

import ctypes
import importlib.util
import os
import resource
import signal
import socket
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection

import torch
import torch.utils.deterministic

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000


from kernelopt.legality.shared import SharedBases  # noqa: E402
from kernelopt.legality.wire import recv as _recv, recv_fds as _recv_fds, send as _send  # noqa: E402


def _isolate_network() -> str:
    """Enter a fresh user+network namespace: no interface but loopback, so no network. Must run while
    the process has one thread (true right after fork)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
        return f"unavailable ({os.strerror(ctypes.get_errno())})"
    return "isolated"


def _set_limits(cpu_seconds: float, memory_bytes: int | None) -> None:
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


class _Events:
    """The child's side of the connection: replies and progress events, one sender at a time (a
    candidate may compile from several threads)."""

    def __init__(self, conn):
        self.conn = conn
        self.lock = threading.Lock()
        self.depth = 0                 # compiles in progress (nested or concurrent)
        self.since = 0.0
        self.compile_seconds = 0.0     # total compile time of the current request

    def send(self, message) -> None:
        with self.lock:
            _send(self.conn, message)

    def compile_enter(self) -> None:
        with self.lock:
            self.depth += 1
            if self.depth == 1:
                self.since = time.perf_counter()
                _send(self.conn, {"event": "compile-start"})

    def compile_exit(self) -> None:
        with self.lock:
            self.depth -= 1
            if self.depth == 0:
                self.compile_seconds += time.perf_counter() - self.since
                _send(self.conn, {"event": "compile-end"})

    def take_compile_seconds(self) -> float:
        with self.lock:
            seconds, self.compile_seconds = self.compile_seconds, 0.0
        return seconds


def _watch_compiles(events: _Events) -> bool:
    """Wrap Triton's compiler entry point and its kernel loader so that their time is reported as
    compilation. `triton.compile` is what both JITFunction (looked up lazily, at a kernel's first call)
    and Inductor's CachingAutotuner call; `CompiledKernel._init_handles` builds the launcher and loads
    the binary on a kernel's first launch. Both names are stable across triton 3.x; where one is
    missing the gate falls back to a generous first-call limit (see the hello message)."""
    try:
        # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
        import triton
        import triton.compiler
        from triton.compiler import compiler
    except ImportError:
        return False
    original = getattr(compiler, "compile", None)
    kernel_class = getattr(compiler, "CompiledKernel", None)
    init_handles = getattr(kernel_class, "_init_handles", None)
    if original is None or init_handles is None:
        return False

    def compile(*args, **kwargs):
        events.compile_enter()
        try:
            return original(*args, **kwargs)
        finally:
            events.compile_exit()

    def _init_handles(self):
        if getattr(self, "module", None) is not None:      # loaded already: the per-launch fast path
            return init_handles(self)
        events.compile_enter()
        try:
            return init_handles(self)
        finally:
            events.compile_exit()

    for module in (triton, triton.compiler, compiler):
        if getattr(module, "compile", None) is original:
            module.compile = compile
    kernel_class._init_handles = _init_handles
    return True


class _Candidate:
    """Holds the loaded candidate and the buffers of the current layout (reused by later calls)."""

    def __init__(self, device: str, events: _Events):
        self.torch = torch
        self.device = device
        self.events = events
        self.cuda = device.startswith("cuda")
        self.run = None
        self.shared = None      # SharedBases: the host buffers the gate reads and writes
        self.bases = None       # where the candidate runs: the shared buffers (CPU) or device copies
        self.args = None
        self.layout_key = None

    def load(self, source: str, filename: str) -> dict:
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

    def _attach(self, message, fds) -> None:
        """A new layout: map its shared buffers and make the arguments' views (new buffers, new
        addresses; later calls of the same layout reuse them, so old pointers see new data)."""
        torch = self.torch
        spec = message["shared"]
        self.shared = SharedBases.attach(fds, spec["sizes"], spec["dtypes"])
        if self.cuda:
            self.bases = [torch.empty(t.numel(), dtype=t.dtype, device=self.device) for t in self.shared.tensors]
        else:
            self.bases = self.shared.tensors
        self.args = []
        for view in message["views"]:
            if view[0] == "tensor":
                _, base_index, offset, sizes, strides = view
                self.args.append(torch.as_strided(self.bases[base_index], sizes, strides, offset))
            else:
                self.args.append(view[1])
        self.layout_key = message["layout_key"]

    def _place(self, message, fds) -> None:
        if message.get("shared") is not None:
            self._attach(message, fds)
        elif self.shared is None or message["layout_key"] != self.layout_key:
            raise RuntimeError("protocol: a run without buffers for its layout")
        if self.cuda:
            for device_base, host in zip(self.bases, self.shared.tensors):
                device_base.copy_(host)              # same buffers, same pointers, new data

    def _collect(self) -> None:
        if self.cuda:
            for device_base, host in zip(self.bases, self.shared.tensors):
                host.copy_(device_base)
            self.torch.cuda.synchronize()

    def _meta(self):
        meta = []
        for arg in self.args:
            if isinstance(arg, self.torch.Tensor):
                meta.append((tuple(arg.shape), tuple(arg.stride()), arg.storage_offset(), str(arg.dtype),
                             str(arg.device), arg.data_ptr(), arg.untyped_storage().data_ptr()))
            else:
                meta.append(None)
        return meta

    def execute(self, message, fds) -> dict:
        torch = self.torch
        start = time.perf_counter()
        self._place(message, fds)
        before = self._meta()
        sync = torch.cuda.synchronize if self.cuda else (lambda: None)
        call_args = list(self.args)
        self.events.take_compile_seconds()
        try:
            sync()
            placed = time.perf_counter()
            self.events.send({"event": "running"})
            self.run(*call_args)
            sync()
            elapsed = time.perf_counter() - placed
        except BaseException as err:  # noqa: BLE001
            return {"ok": False, "kind": "exception", "error": _describe(err)}
        after = self._meta()
        changed = [(i, b, a) for i, (b, a) in enumerate(zip(before, after)) if b != a]
        collect = time.perf_counter()
        try:
            self._collect()
        except BaseException as err:  # noqa: BLE001 - e.g. a sticky CUDA error surfacing late
            return {"ok": False, "kind": "exception", "error": _describe(err)}
        compile_seconds = self.events.take_compile_seconds()
        return {"ok": True, "elapsed": elapsed - compile_seconds, "compile_s": compile_seconds,
                "place_s": placed - start, "collect_s": time.perf_counter() - collect, "changed_meta": changed}


def _describe(err: BaseException) -> str:
    text = "".join(traceback.format_exception_only(type(err), err)).strip()
    frames = traceback.extract_tb(err.__traceback__)
    where = next((f"{os.path.basename(f.filename)}:{f.lineno}" for f in reversed(frames)
                  if "candidate" in os.path.basename(f.filename)), "")
    return f"{text} ({where})" if where else text


def _child_main(conn, sock, options: dict) -> None:
    network = _isolate_network() if options.get("isolate_network") else "not requested"
    workdir = options["workdir"]
    os.makedirs(workdir, exist_ok=True)
    os.chdir(workdir)
    _redirect_output(workdir)
    _set_limits(options.get("cpu_seconds", 600), options.get("memory_bytes"))
    # torch.empty & co. fill with NaN / max-int, so reading uninitialised memory shows in the results.
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    device = options["device"]
    events = _Events(conn)
    info = {"pid": os.getpid(), "network": network, "compile_watch": _watch_compiles(events)}
    if device.startswith("cuda"):
        info["cuda"] = torch.cuda.is_available()
    events.send({"hello": info})
    candidate = _Candidate(device, events)
    while True:
        try:
            message = _recv(conn)
        except (EOFError, OSError):
            return
        if message["op"] == "load":
            events.send(candidate.load(message["source"], message["filename"]))
        elif message["op"] == "run":
            shared = message.get("shared")
            fds = _recv_fds(sock, len(shared["sizes"])) if shared is not None else []
            events.send(candidate.execute(message, fds))
        elif message["op"] == "exit":
            return


def preimport(device: str) -> None:
    """Import what every candidate needs, once, before children are forked (idempotent). On the CPU the shims come
    first: they set TRITON_INTERPRET before triton loads, which a process forking its zygote (start_by_fork) may not
    have in its environment (triton loaded before it compiles its @triton.jit functions for a GPU, and Inductor's
    CPU capture then fails: "Cannot call @triton.jit'd outside of the scope of a kernel")."""
    if device == "cpu":
        try:
            # lazy: the CPU shims need numpy (not a dependency of kernelopt); only CPU workers load them
            from kernelopt.runtime.interpret import install_cpu_triton_shims
            install_cpu_triton_shims()
        except ImportError:
            pass
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton  # noqa: F401
    import triton.language  # noqa: F401
    try:
        # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
        import torch._inductor.runtime.triton_helpers  # noqa: F401  (candidates copy Inductor's imports)
    except Exception:  # noqa: BLE001 - optional; a candidate needing it fails on its own
        pass


def zygote_main(fd: int, device: str) -> None:
    # Ctrl-C reaches the whole process group: the job it interrupts closes the pool, and the zygote (a forker idle on
    # its socket, or importing) would only print a KeyboardInterrupt traceback. Its children take SIGINT as usual.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sock = socket.socket(fileno=fd)
    conn = Connection(os.dup(fd))
    preimport(device)
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
                signal.signal(signal.SIGINT, signal.default_int_handler)
                try:
                    sock.close()
                    conn.close()
                    _child_main(Connection(fds[0]), socket.socket(fileno=os.dup(fds[0])), message["options"])
                except BaseException:  # noqa: BLE001
                    traceback.print_exc()   # into the child's stderr.txt, whose tail the gate reports
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
