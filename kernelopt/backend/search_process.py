"""The process a background search runs in: `python -m kernelopt.backend.search_process`.

Started by background_search.py. Reads one request from stdin (torch.save'd: the Inductor module's
source, the device, the job's options and the copied `call(args)` arguments or None), runs the
blocking mode's job on it (dynamo._emitted_module: cache lookup, pipeline with its legality gate and
guard, cache write) and prints one JSON line: {"path", "rewrites", "how"} or {"error"}.

It removes its work folders however it ends: SIGTERM (sent at the user process's exit) unwinds like an
exception, and a watcher thread sends it SIGTERM when the user process dies without a word (SIGKILL,
a crash), noticed as a change of parent.
"""
from __future__ import annotations

import io
import json
import os
import signal
import sys
import threading
import time

PARENT_POLL_S = 1.0


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signal.SIGTERM)


def _end_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os.kill(os.getpid(), signal.SIGTERM)


def main() -> int:
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    threading.Thread(target=_end_when_orphaned, args=(os.getppid(),), daemon=True).start()
    request = sys.stdin.buffer.read()
    # lazy: after the handler above, so that a SIGTERM while torch loads ends the process cleanly too
    import torch

    request = torch.load(io.BytesIO(request), weights_only=True)
    device = request["device"]
    if device == "cpu":
        # lazy: only CPU searches need the interpreter's shims, and they must load before triton
        from kernelopt.runtime.interpret import install_cpu_triton_shims

        install_cpu_triton_shims()
    # lazy: they load torch._inductor and triton, which come after the CPU shims (above)
    from kernelopt.backend.dynamo import _emitted_module
    from kernelopt.optimize_job import OptimizeOptions  # lazy: as the line above

    inputs = request["inputs"]
    if inputs is not None:
        inputs = [a.to(device) if isinstance(a, torch.Tensor) else a for a in inputs]
    options = dict(request["options"], proposers=tuple(request["options"]["proposers"]))
    try:
        path, figures, how = _emitted_module(request["source"], device, OptimizeOptions(**options),
                                             "background search", lambda: inputs)
        rewrites = figures["rewrites"]
    except Exception as err:  # noqa: BLE001 - reported to the user process, which keeps Inductor's module
        text = str(err).splitlines()[0] if str(err) else ""
        print(json.dumps({"error": f"{type(err).__name__}: {text}"}), flush=True)
        return 0
    print(json.dumps({"path": str(path), "rewrites": rewrites, "how": how}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
