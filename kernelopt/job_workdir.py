"""The work directory of one `kernelopt optimize` job: created on entry, removed on every way out.

Issue 18: every job left its `kernelopt-optimize-*` folder behind (0.15-9.5 GB each on real sizes) and
filled a 64 GB disk within three problems. `job_workdir()` removes the folder on success, on an
exception, on Ctrl-C and on SIGTERM (which it turns into `JobTerminated`, a KeyboardInterrupt, while
it is active in the main thread; an interrupt that Python swallowed inside a finalizer is raised again
when the block ends), unless `keep=DIR` (`--keep-work DIR`) names a folder to work in and
keep. By default it also points the process's temp folder, and that of every child it starts, inside
the work directory, so the temp files of capture, the candidate pool and worker processes go with it;
Inductor's compile cache stays where it was, so it survives the job and the next job reuses it.

What it cannot clean is a job killed with SIGKILL: `sweep_stale_workdirs()` removes the folders of
jobs whose process is gone (each folder records its owner's pid), for a driver to call at start. The
same holds for the other temp folders KernelOPT makes outside a job (`owned_temp_folder`: the legality
sandbox, the candidate pool, the float64 reference, the backend's search).
"""
from __future__ import annotations

import contextlib
import getpass
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Iterator

WORKDIR_PREFIX = "kernelopt-optimize-"
OWNER_FILE = ".kernelopt-owner"  # the pid of the job that made the folder (sweep_stale_workdirs)
PID_MARK = "p"                    # owned folders are named <prefix>p<pid>-<random>
_PID_IN_NAME = re.compile(r"-p(\d+)-[^-]*$")
TEMP_ENV_NAMES = ("TMPDIR", "TMP", "TEMP")  # what tempfile.gettempdir() reads, on every platform


class JobTerminated(KeyboardInterrupt):
    """SIGTERM reached a job inside `job_workdir()`: unwinds like Ctrl-C, so `finally` blocks run."""

    exit_code = 128 + signal.SIGTERM  # what a shell reports for a process ended by SIGTERM


@contextlib.contextmanager
def job_workdir(keep: Path | str | None = None, *, redirect_temp: bool = True) -> Iterator[Path]:
    """A fresh work folder for one job, removed however the block ends (unless `keep` is given).

    `keep`: work in this folder (created if missing) and leave it in place afterwards, for debugging.
    `redirect_temp`: while the block runs, `tempfile` and child processes (TMPDIR, TMP, TEMP) write their
    temp files into `<work>/tmp`, so they are removed with it.
    """
    # Handlers first, folder inside the try: a SIGTERM between the folder's creation and the try
    # block would otherwise leave the folder behind (seen once in CI, a background search ended at exit).
    previous = _install_stop_handlers()
    received = len(_RECEIVED)
    work = None
    try:
        if keep is not None:
            work = Path(keep).resolve()
            work.mkdir(parents=True, exist_ok=True)
        else:
            work = Path(owned_temp_folder(WORKDIR_PREFIX))
        with (redirect_temp_to(work / "tmp") if redirect_temp else contextlib.nullcontext()):
            yield work
    finally:
        _restore_stop_handlers(previous)
        # A second Ctrl-C or SIGTERM must not cut the removal short and leave half a folder behind.
        with signals_deferred():
            if keep is None and work is not None:
                remove_tree(work)
    if len(_RECEIVED) > received:       # the block ended normally: its interrupt was swallowed on the way
        raise _stopped(_RECEIVED[received])


@contextlib.contextmanager
def redirect_temp_to(folder: Path) -> Iterator[Path]:
    """Point this process's `tempfile` and its environment's TMPDIR/TMP/TEMP at `folder` for the block.

    Inductor's cache directory defaults to `<temp folder>/torchinductor_<user>`: it is pinned to where it
    was before (TORCHINDUCTOR_CACHE_DIR), so compiled kernels outlive the job instead of being
    recompiled by every job and counted against its disk use.
    """
    folder.mkdir(parents=True, exist_ok=True)
    saved_env = {name: os.environ.get(name) for name in (*TEMP_ENV_NAMES, "TORCHINDUCTOR_CACHE_DIR")}
    saved_tempdir = tempfile.tempdir
    os.environ.update(child_temp_env(folder, {}))
    tempfile.tempdir = str(folder)
    try:
        yield folder
    finally:
        tempfile.tempdir = saved_tempdir
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def child_temp_env(folder: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """An environment for a child process whose temp files land in `folder` (created if missing).

    `base` defaults to a copy of `os.environ`; pass `{}` to get only the variables this sets.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ if base is None else base)
    env.setdefault("TORCHINDUCTOR_CACHE_DIR", os.environ.get("TORCHINDUCTOR_CACHE_DIR") or inductor_cache_dir())
    for name in TEMP_ENV_NAMES:
        env[name] = str(folder)
    return env


def inductor_cache_dir() -> str:
    """Inductor's default cache folder, as torch._inductor.runtime.cache_dir_utils.default_cache_dir
    computes it (restated, not imported: this module must not need torch), from the temp folder of
    this moment."""
    user = re.sub(r'[\\/:*?"<>|]', "_", getpass.getuser())
    return os.path.join(tempfile.gettempdir(), "torchinductor_" + user)


def folder_bytes(path: Path | str) -> int:
    """Bytes a folder's files take on disk now (allocated blocks, like `du`), 0 when it is gone.

    Files may appear and vanish while it walks (a job is writing): those are skipped, not errors.
    """
    total = 0
    stack = [str(path)]
    while stack:
        try:
            entries = os.scandir(stack.pop())
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            continue
        with entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    else:
                        stat = entry.stat(follow_symlinks=False)
                        total += getattr(stat, "st_blocks", 0) * 512 or stat.st_size
                except FileNotFoundError:
                    continue
    return total


def remove_tree(path: Path) -> None:
    """Remove a folder, tolerating files that workers delete or still write meanwhile."""
    for _ in range(3):  # a worker still exiting may create a file after rmtree listed the folder
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path):
            return


def owned_temp_folder(prefix: str, parent: str | None = None) -> str:
    """`tempfile.mkdtemp(prefix=...)` that records its creator's pid, so that when the creator dies
    without cleaning up (SIGKILL, a lost machine) `sweep_stale_workdirs` can remove the folder. Every
    KernelOPT temp folder that may hold tensors or compiled candidates is made here (prefix `kernelopt-`)."""
    # The pid is in the name too: a process killed between mkdtemp and writing the owner file (an exiting
    # program's SIGKILL right after the folder appears, on a loaded machine) leaves a folder the sweep can
    # still attribute.
    folder = tempfile.mkdtemp(prefix=f"{prefix}{PID_MARK}{os.getpid()}-", dir=parent)
    Path(folder, OWNER_FILE).write_text(str(os.getpid()))
    return folder


def _owner(folder: Path) -> int | None:
    """The pid that made the folder: its owner file, else the `-p<pid>-` in its name; None for a folder that
    is not ours to judge (kept with --keep-work, or made by another version)."""
    try:
        return int((folder / OWNER_FILE).read_text())
    except (OSError, ValueError):
        match = _PID_IN_NAME.search(folder.name)
        return int(match.group(1)) if match else None


def sweep_stale_workdirs(root: Path | str | None = None) -> list[Path]:
    """Remove the `kernelopt-*` folders under `root` (default: the temp folder) whose owning process no
    longer exists (a job, gate, pool or backend search killed by SIGKILL or lost with its machine).
    Folders without an owner file (kept with --keep-work, made by another version) are left alone.
    Returns what went."""
    removed = []
    for folder in Path(root or tempfile.gettempdir()).glob("kernelopt-*"):
        pid = _owner(folder)
        if pid is not None and not _alive(pid):
            remove_tree(folder)
            removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


_RECEIVED: list[int] = []    # SIGINT/SIGTERM that reached a job, in order (see _raise_stopped)


def _stopped(signum: int) -> KeyboardInterrupt:
    if signum == signal.SIGTERM:
        return JobTerminated(f"stopped by signal {signal.Signals(signum).name}")
    return KeyboardInterrupt()


def _raise_stopped(signum, frame):
    # Remembered as well as raised: a KeyboardInterrupt raised while Python runs a finalizer or a weakref
    # callback (torch's WeakIdKeyDictionary) is printed as "Exception ignored" and lost, and the job ran on
    # to exit 0 after a Ctrl-C; job_workdir raises it again when its block ends.
    _RECEIVED.append(signum)
    raise _stopped(signum)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _install_stop_handlers() -> tuple[dict, object] | None:
    """Our SIGINT and SIGTERM handlers and unraisable hook (_quiet_stop) while the job runs; the previous
    handlers and hook (None: none were installed, because signal handlers can be set from the main thread
    only). SIGINT is taken over only from Python's default handler: one the process ignores (a background
    job of a shell) stays ignored, and a handler of the user's program (torch.compile runs jobs inside it)
    stays theirs."""
    if not _in_main_thread():
        return None
    previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, _raise_stopped)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, _raise_stopped)
    hook = sys.unraisablehook
    sys.unraisablehook = _quiet_stop(hook)
    return previous, hook


def _quiet_stop(hook):
    """An unraisable-exception hook that drops our stop (raised inside a finalizer or a weakref callback, where
    Python prints it as "Exception ignored ... Traceback" and loses it; _RECEIVED keeps it) and passes any
    other to `hook`. The user was promised no traceback on Ctrl-C or SIGTERM."""
    def hook_without_stops(unraisable):
        if isinstance(unraisable.exc_value, (JobTerminated, KeyboardInterrupt)) and _RECEIVED:
            return
        hook(unraisable)
    return hook_without_stops


def _restore_stop_handlers(previous: tuple[dict, object] | None) -> None:
    if previous is None:
        return
    handlers, hook = previous
    for signum, handler in handlers.items():
        signal.signal(signum, handler)
    sys.unraisablehook = hook


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """SIGINT and SIGTERM that arrive during the block are held and delivered after it (main thread
    only). Handlers, not a signal mask: a mask would hold them back from this thread only, and the
    kernel may deliver a process signal to any other thread (a memory sampler, a pool's reader)."""
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []
    saved = {signum: signal.signal(signum, lambda received, frame: caught.append(received))
             for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        if caught:
            signal.raise_signal(caught[0])
