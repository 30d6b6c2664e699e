"""LocalPool on the CPU: two worker processes running the Triton interpreter evaluate real retune
candidates of a real capture and reach the same verdicts as the in-process evaluator."""
from __future__ import annotations

import pytest
import torch

from kernelopt.lift import lift_file
from kernelopt.pool import Job, LocalPool
from kernelopt.rewrite.evaluate import ModuleEvaluator, StaticCostModel
from kernelopt.rewrite.targets import kernel_target
from search_helpers import GELU, INPUTS, MODULE, ZEROS, verdict, widest_retunes, interpreter  # noqa: F401 (autouse fixture)


def test_two_cpu_workers_give_the_same_verdicts_as_the_sequential_evaluator():
    target = kernel_target(lift_file(str(MODULE)), GELU)
    candidates = widest_retunes(target)[:2] + [ZEROS]     # the widest blocks: the fastest to check on the CPU
    sequential = ModuleEvaluator(str(MODULE), torch.load(INPUTS)["args"], device="cpu",
                                 cost_model=StaticCostModel())
    expected = {c.strategy: verdict(sequential.evaluate(target, c)) for c in candidates}
    assert expected["write zeros"][:2] == (False, "mismatch")

    jobs = [Job(str(MODULE), str(INPUTS), target, c, cost_model="static") for c in candidates]
    with LocalPool("cpu", workers=2, job_timeout=120) as pool:
        assert pool.size == 2
        got = {job.candidate.strategy: verdict(evaluation) for job, evaluation in pool.map_unordered(jobs)}
        assert len(set(pool.worker_pids())) == 2
    assert got == expected


def test_a_worker_sees_no_gpu_and_runs_the_interpreter():
    from kernelopt.pool.local import worker_environment

    env = worker_environment("cpu", None)
    assert env["CUDA_VISIBLE_DEVICES"] == "" and env["TRITON_INTERPRET"] == "1"
    env = worker_environment("cuda", "3")
    assert env["CUDA_VISIBLE_DEVICES"] == "3" and "TRITON_INTERPRET" not in env
