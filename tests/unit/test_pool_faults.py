"""Faults in LocalPool workers: a worker killed mid-job, one that exits, one that segfaults and one
that hangs are each replaced; the job it held comes back exactly once, rejected with the reason, and
every other job is evaluated normally."""
from __future__ import annotations

import collections
import os
import signal
import time

import pytest

from kernelopt.lift import lift_file
from kernelopt.pool import Job, LocalPool
from kernelopt.rewrite.targets import kernel_target
from search_helpers import GELU, INPUTS, MODULE, widest_retunes, interpreter  # noqa: F401 (autouse fixture)


@pytest.fixture(scope="module")
def target_and_candidates():
    target = kernel_target(lift_file(str(MODULE)), GELU)
    return target, widest_retunes(target)      # the widest blocks first: the fastest to check on the CPU


def job(target, candidate, module=MODULE, timeout_s=None) -> Job:
    return Job(str(module), str(INPUTS), target, candidate, cost_model="static", timeout_s=timeout_s)


def test_a_worker_killed_mid_job_is_replaced_and_its_job_reported_once_as_rejected(target_and_candidates):
    target, candidates = target_and_candidates
    jobs = [job(target, c) for c in candidates[:4]]
    with LocalPool("cpu", workers=2, job_timeout=120) as pool:
        futures = [pool.submit(j) for j in jobs]
        deadline = time.monotonic() + 60
        while not pool.running() and time.monotonic() < deadline:
            time.sleep(0.05)
        victim_job, slot = next(iter(pool.running().items()))
        os.kill(slot.pid, signal.SIGKILL)
        results = [(f.job.job_id, f.result()) for f in pool.as_completed(futures)]
        stats = dict(pool.stats)
    counts = collections.Counter(job_id for job_id, _ in results)
    assert counts == collections.Counter(j.job_id for j in jobs)       # every job out, exactly once
    verdicts = dict(results)
    assert not verdicts[victim_job].accepted
    assert verdicts[victim_job].reason.startswith("worker died:") and "SIGKILL" in verdicts[victim_job].reason
    assert all(e.accepted for job_id, e in results if job_id != victim_job), verdicts
    assert stats["worker_deaths"] == 1 and stats["restarts"] == 1 and stats["done"] == 4


def test_exit_segfault_and_hang_each_reject_only_their_own_job(target_and_candidates, tmp_path):
    target, candidates = target_and_candidates
    exits = tmp_path / "exits.py"
    exits.write_text("import os\nos._exit(3)\n")
    segfaults = tmp_path / "segfaults.py"
    segfaults.write_text("import ctypes\nctypes.string_at(0)\n")
    hangs = tmp_path / "hangs.py"
    hangs.write_text("import time\ntime.sleep(600)\n")
    jobs = {"exit": job(target, candidates[0], exits), "segv": job(target, candidates[0], segfaults),
            "hang": job(target, candidates[0], hangs, timeout_s=3), "ok1": job(target, candidates[1]),
            "ok2": job(target, candidates[2])}
    names = {j.job_id: name for name, j in jobs.items()}
    # The hang has its own short limit (it counts from the worker's receipt of the job, so a worker still
    # starting does not eat it); the others get the pool's generous one, so that a loaded machine (slow
    # interpreter runs) cannot turn a good job into a timeout.
    with LocalPool("cpu", workers=2, job_timeout=300) as pool:
        results = list(pool.map_unordered(jobs.values()))
        stats = dict(pool.stats)
    assert sorted(names[j.job_id] for j, _ in results) == sorted(jobs)
    got = {names[j.job_id]: e for j, e in results}
    assert got["exit"].reason.startswith("worker died:") and "exit status 3" in got["exit"].reason
    assert got["segv"].reason.startswith("worker died:") and "SIGSEGV" in got["segv"].reason
    assert got["hang"].reason.startswith("timeout:") and "3 s limit" in got["hang"].reason
    assert got["ok1"].accepted and got["ok2"].accepted, (got["ok1"].reason, got["ok2"].reason)
    assert stats == {"done": 5, "worker_deaths": 2, "timeouts": 1, "restarts": 3}
