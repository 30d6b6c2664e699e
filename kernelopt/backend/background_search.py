"""`options={"search": "background"}`: Inductor's module runs while the search runs in another process.

dynamo.py installs a `BackgroundSwap` as the compiled graph's `current_callable` when the cache has
no entry for the graph's module. Its first call copies the call's arguments (see `copy_inputs`) and
queues the search; every call, that one included, runs Inductor's module until the search is done.
One thread per user process (a daemon) serves the queue, one search at a time, because concurrent
searches would compete for the device and skew each other's timings. For each it starts
`python -m kernelopt.backend.search_process`, a separate process, so that the search holds neither
this process's GIL nor its device stream, and hands it the module's source, the job's options and
the copied arguments through a pipe (no tensor is written to disk). The search process runs the
blocking mode's job (legality gate and guard included) and writes the persistent cache, so the
next process starts warm. When it reports a module, the thread loads it fully and then rebinds
the one reference calls go through: a call runs either Inductor's module or the emitted one, never a
half-loaded module, and the change lands between two calls.

Copies are bounded: all copies held at once (those of searches waiting their turn; a search's copies
are streamed into its process's pipe and dropped) take at most INPUT_COPY_LIMIT_BYTES (1 GiB by
default, `KERNELOPT_BACKGROUND_INPUT_BYTES`). Inputs that would exceed it are not copied, the log says
so, and that search runs on the module's own random inputs of the same shapes. CUDA arguments are
copied into pinned host memory without waiting for the device (the serving thread waits on an
event), so the first call is not synchronized and the copy takes no device memory.

At exit a running search is ended (SIGTERM, then SIGKILL after STOP_WAIT_S): it removes its work
folders on SIGTERM, and ends itself the same way when this process dies without telling it.
"""
from __future__ import annotations

import atexit
import json
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from typing import Any, Callable

import torch

from kernelopt.job_workdir import sweep_stale_workdirs
from kernelopt.runtime.loader import load_output_module
from kernelopt.tensor_layout import copy_into

log = logging.getLogger("kernelopt.backend")

INPUT_COPY_LIMIT_ENV = "KERNELOPT_BACKGROUND_INPUT_BYTES"
INPUT_COPY_LIMIT_BYTES = 2 ** 30
STOP_WAIT_S = 10.0     # how long exit waits for a search to clean up after SIGTERM before SIGKILL
SEARCH_PROCESS = "kernelopt.backend.search_process"

_queue: queue.Queue = queue.Queue()
_lock = threading.Lock()          # guards the four below
_server: threading.Thread | None = None
_running: subprocess.Popen | None = None
_exiting = False
_held_bytes = 0                   # input copies held for searches not yet sent to their process


def input_copy_limit() -> int:
    text = os.environ.get(INPUT_COPY_LIMIT_ENV, "")
    try:
        return int(text) if text else INPUT_COPY_LIMIT_BYTES
    except ValueError:
        raise ValueError(f"{INPUT_COPY_LIMIT_ENV}={text!r}: expected a number of bytes, "
                         f"e.g. {INPUT_COPY_LIMIT_BYTES}") from None


class BackgroundSwap:
    """The compiled graph's `call(args)`: Inductor's, until the searched module is swapped in.

    `install(fn)` points the caller's reference (the compiled graph's `current_callable`) at `fn`: after
    the first call it is Inductor's call itself and, once the search is done, the emitted module's, so
    that no frame of this object stays in the call path."""

    def __init__(self, inductor_call: Callable, source: str, part: str, device: str, job,
                 install: Callable[[Callable], None] | None = None) -> None:
        self.inductor_call = inductor_call
        self.source, self.part, self.device, self.job = source, part, device, job
        input_copy_limit()      # a malformed bound is reported now, at compile time, not in a call
        self.emitted_path: str | None = None
        self._pending: tuple | None = None    # (copied inputs, their CUDA event, bytes held) until sent
        self._started = threading.Lock()
        self._install = install
        # The one reference every call reads once: rebinding it is atomic, so a call never sees a mix.
        self._current: Callable = self._first_call

    def __call__(self, args):
        return self._current(args)

    def _point_at(self, call: Callable) -> None:
        self._current = call
        if self._install is not None:
            self._install(call)

    def _first_call(self, args):
        if self._started.acquire(blocking=False):    # another thread's first call queues it once
            try:
                self._pending = self._copy(args)    # before the call: Inductor's call empties `args`
            except Exception as err:  # noqa: BLE001 - the user's call must run whatever happens here
                log.warning("kernelopt: %s: the first call's inputs could not be copied (%s: %s): the background "
                            "search runs on random inputs of the same shapes", self.part, type(err).__name__, err)
                self._pending = (None, None, 0)
            self._point_at(self.inductor_call)      # before the search starts: it may swap its module in
            _submit(self._search)
        return self.inductor_call(args)

    def _copy(self, args) -> tuple[list | None, Any, int]:
        """(copies of `args`, the CUDA event after them, bytes reserved) or (None, None, 0), said why."""
        needed = sum(_storage_bytes(a) for a in args if isinstance(a, torch.Tensor))
        left = _reserve(needed)
        if left is not None:
            inputs, why = None, (f"the first call's inputs take {needed / 2 ** 20:.1f} MiB, above the "
                                 f"{left / 2 ** 20:.1f} MiB left of what background searches may hold "
                                 f"({INPUT_COPY_LIMIT_ENV}), so they are not copied")
        else:
            inputs, why = copy_inputs(args)
        if why:
            _release(needed if left is None else 0)
            log.info("kernelopt: %s: %s: the background search runs on random inputs of the same shapes",
                     self.part, why)
            return None, None, 0
        event = None
        if any(isinstance(a, torch.Tensor) and a.is_cuda for a in args):
            event = torch.cuda.Event()
            event.record()      # the copies are queued on this stream; the search waits on this
        return inputs, event, needed

    def _search(self) -> None:
        started = time.perf_counter()
        (inputs, event, held), self._pending = self._pending, None      # the copies go once they are sent
        if event is not None:
            event.synchronize()
        request = {"source": self.source, "device": self.device, "options": asdict(self.job), "inputs": inputs}
        del inputs
        try:
            reply = _run_search_process(request)
        finally:
            _release(held)
        if reply is None:        # this process is exiting
            return
        if "error" in reply:
            log.warning("kernelopt: %s: the background search failed (%s): running Inductor's module",
                        self.part, reply["error"])
            return
        try:
            loaded = load_output_module(reply["path"], self.device, hooks=False)   # fully, before the swap
        except Exception as err:  # noqa: BLE001 - a module that does not load must not break the user's program
            log.warning("kernelopt: %s: the searched module %s did not load (%s: %s): running Inductor's module",
                        self.part, reply["path"], type(err).__name__, err)
            return
        self.emitted_path = reply["path"]
        self._point_at(self._first_emitted_call(loaded))
        log.info("kernelopt: %s: %d kernel(s) rewritten, %s, background search %.1f s: the emitted module %s "
                 "runs from the next call", self.part, reply["rewrites"], reply["how"],
                 time.perf_counter() - started, reply["path"])

    def _first_emitted_call(self, loaded) -> Callable:
        def first(args):
            # from now on the module's own `call` (rebound to its plain launches if its graphs go off)
            loaded.bind_call(self._point_at)
            log.info("kernelopt: %s: first call of the emitted module", self.part)
            return self._current(args)
        return first


def copy_inputs(args) -> tuple[list | None, str]:
    """(copies of `args` in host memory, '') or (None, why they were not copied). Each copy keeps its
    tensor's sizes and strides (Inductor's module asserts them); CUDA tensors go to pinned memory
    without synchronizing: the caller records an event after them."""
    copies = []
    for index, arg in enumerate(args):
        if isinstance(arg, torch.Tensor):
            if arg.layout != torch.strided or type(arg) is not torch.Tensor and not isinstance(arg, torch.nn.Parameter):
                return None, f"argument {index} is a {type(arg).__name__} with layout {arg.layout}, which is not copied"
            try:
                copy = torch.empty_strided(arg.size(), arg.stride(), dtype=arg.dtype, device="cpu",
                                           pin_memory=arg.is_cuda)
                copy_into(copy, arg.detach(), non_blocking=arg.is_cuda)
            except RuntimeError as err:    # no pinned memory left; strides where elements overlap (not expanded)
                return None, f"argument {index} could not be copied ({str(err).splitlines()[0]})"
            copies.append(copy)
        elif arg is None or isinstance(arg, (bool, int, float)):
            copies.append(arg)
        else:
            return None, f"argument {index} is a {type(arg).__name__}, which is not handed to another process"
    return copies, ""


def _storage_bytes(tensor: torch.Tensor) -> int:
    """Bytes a copy with the same sizes and strides takes (a view's copy does not take its base's)."""
    if tensor.numel() == 0:
        return 0
    span = 1 + sum((size - 1) * abs(stride) for size, stride in zip(tensor.shape, tensor.stride()))
    return span * tensor.element_size()


def _reserve(needed: int) -> int | None:
    """Count `needed` bytes of copies against the bound: None when they fit, else the bytes left."""
    global _held_bytes
    with _lock:
        left = input_copy_limit() - _held_bytes
        if needed > left:
            return max(left, 0)
        _held_bytes += needed
        return None


def _release(held: int) -> None:
    global _held_bytes
    with _lock:
        _held_bytes -= held


def _submit(search: Callable[[], None]) -> None:
    global _server
    with _lock:
        if _exiting:
            return
        if _server is None or not _server.is_alive():
            _server = threading.Thread(target=_serve, name="kernelopt-background-search", daemon=True)
            _server.start()
    _queue.put(search)


def _serve() -> None:
    while True:
        search = _queue.get()
        try:
            search()
        except Exception as err:  # noqa: BLE001 - the next graph's search must still run
            log.warning("kernelopt: the background search failed (%s: %s): running Inductor's module",
                        type(err).__name__, err)


def _run_search_process(request: dict) -> dict | None:
    """The search process's reply ({'path', 'rewrites', 'how'} or {'error'}), None when exiting.
    `request` is emptied once sent, so that the input copies are freed while the search runs."""
    global _running
    with _lock:
        if _exiting:
            return None
        _running = subprocess.Popen([sys.executable, "-m", SEARCH_PROCESS], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process = _running
    try:
        try:
            # Streamed into the pipe: no second copy of the inputs. The process reads all of it
            # before it writes anything, so its output pipes cannot fill up meanwhile.
            torch.save(request, process.stdin)    # communicate() below flushes and closes the pipe
        except (BrokenPipeError, OSError):     # it ended early: its output says why
            pass
        request.clear()
        out, err = process.communicate()
    finally:
        with _lock:
            _running = None
    if _exiting:
        return None
    lines = out.decode(errors="replace").strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (IndexError, ValueError):
        tail = err.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        return {"error": f"the search process ended with exit code {process.returncode}: {tail[0]}"}


def search_process_ids() -> list[int]:
    """The pid of the search process now running, if any (for diagnostics and tests)."""
    with _lock:
        return [_running.pid] if _running is not None else []


@atexit.register
def _stop_searches() -> None:
    """End a running search at exit: the user's program must not wait for it, nor leave its folders."""
    global _exiting
    with _lock:
        _exiting = True
        process = _running
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    # The search removes its folders on SIGTERM, except when SIGKILL was needed (a slow C call under a
    # loaded machine) or the signal came between a folder's creation and its try block: sweep what its
    # pid owned now that it is gone, rather than leave it for the next start.
    sweep_stale_workdirs()
