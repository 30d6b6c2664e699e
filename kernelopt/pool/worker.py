"""A LocalPool worker process: `python -m kernelopt.pool.worker FD`.

It imports torch and the evaluator once (a CPU worker also forks the legality gate's zygote from
itself then, see WorkerPool.start_by_fork), says hello, then serves jobs one at a time on the socket FD:
for each job it first acknowledges receipt ("started"), so the parent can tell a job that was lost
in transit (resent) from one that was running when the worker died (rejected), then sends back the
Evaluation. EOF on the socket (the parent went away) ends it.
"""
from __future__ import annotations

import os
import socket
import sys
from multiprocessing.connection import Connection

import torch  # noqa: F401 - paid once, before the first job

from kernelopt.legality.sandbox import default_pool
from kernelopt.legality.wire import recv, send
from kernelopt.pool.job import evaluate_job


def main(fd: int) -> int:
    conn = Connection(socket.socket(fileno=fd).detach())
    if os.environ.get("TRITON_INTERPRET") == "1":
        # A CPU worker forks the legality gate's zygote from itself now, while it runs one thread: the
        # zygote then shares this process's imports instead of paying torch's and triton's again.
        default_pool("cpu").start_by_fork()
    send(conn, {"hello": os.getpid(), "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")})
    while True:
        try:
            message = recv(conn)
        except (EOFError, OSError):
            return 0
        if message.get("op") == "exit":
            return 0
        job = message["job"]
        send(conn, {"started": job.job_id})
        send(conn, {"done": job.job_id, "evaluation": evaluate_job(job)})


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
