"""The search driver on a pool: two CPU workers find the same attempts and the same best candidate as
the one-at-a-time search, and `agentic-rewrite{workers=local}` proposes the same rewrite."""
from __future__ import annotations

import io

import pytest
import torch

from kernelopt.lift import lift_file
from kernelopt.pool import LocalPool, PoolEvaluator
from kernelopt.rewrite.evaluate import ModuleEvaluator, StaticCostModel
from kernelopt.rewrite.search import Budget, search
from kernelopt.rewrite.targets import kernel_target
from search_helpers import CAPTURE, GELU, MODULE, ZerosThenRetune, interpreter  # noqa: F401 (autouse fixture)


def summary(result) -> list[tuple]:
    return [(c.strategy, e.accepted, e.speedup) for c, e in result.attempts]


def test_the_search_on_a_pool_keeps_the_same_best_candidate_as_the_sequential_search():
    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    target = kernel_target(lift_file(str(MODULE)), GELU)
    # three candidates (the wrong one, then two retunes; it was five): two full batches of two for the
    # two workers, the budget running out in the second as before, at fewer interpreter checks
    budget = Budget(max_candidates=3)
    sequential = search(target, [ZerosThenRetune()],
                        ModuleEvaluator(str(MODULE), inputs, device="cpu", cost_model=StaticCostModel()),
                        budget, min_speedup=1.0)
    with LocalPool("cpu", workers=2, job_timeout=120) as pool:
        evaluator = PoolEvaluator(pool, str(MODULE), inputs, device="cpu", cost_model="static")
        pooled = search(target, [ZerosThenRetune()], evaluator, budget, min_speedup=1.0)
        evaluator.close()
    assert summary(pooled) == summary(sequential)
    assert pooled.stopped_because == sequential.stopped_because == "candidate budget spent"
    assert not pooled.attempts[0][1].accepted
    assert pooled.best[0].strategy == sequential.best[0].strategy
    assert pooled.best[1].speedup == sequential.best[1].speedup


def test_agentic_rewrite_with_local_workers_proposes_the_rewrite():
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.pass_manager import PassManager
    from kernelopt.passes.pipeline import parse_pipeline

    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    module = lift_file(str(MODULE))
    ctx = PassContext(options={"device": "cpu", "inputs": inputs, "progress_stream": io.StringIO()})
    pipeline = ("classify-dispatch,annotate-profile,"
                "agentic-rewrite{cost-model=static max-candidates=2 proposers=retune workers=local}")
    PassManager(parse_pipeline(pipeline)).run(module, ctx)
    rewrite = module.kernel(GELU).attrs["rewrite"]
    assert rewrite["status"] == "proposed" and rewrite["proposer"] == "retune" and rewrite["candidates"] == 2
    assert any("LocalPool workers" in d.message for d in ctx.diagnostics)


def test_the_search_stops_at_the_jobs_wall_clock_deadline():
    # A 7.5 GB input made one candidate's check take minutes: the job's 5-minute target is kept by a
    # deadline the search honours after every evaluation.
    import time

    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    target = kernel_target(lift_file(str(MODULE)), GELU)
    evaluator = ModuleEvaluator(str(MODULE), inputs, device="cpu", cost_model=StaticCostModel())
    result = search(target, [ZerosThenRetune()], evaluator, Budget(max_candidates=5, deadline=time.monotonic()),
                    min_speedup=1.0)
    assert len(result.attempts) == 1 and result.stopped_because == "wall-clock deadline reached"



def test_a_candidate_that_would_end_after_the_deadline_is_not_started():
    """The deadline counts the slowest evaluation so far: with a minute-long check per candidate (real
    sizes), the search does not start a candidate that would end past the job's wall target, and the
    progress line of a slow candidate says where its check's time went."""
    import time

    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    target = kernel_target(lift_file(str(MODULE)), GELU)
    inner = ModuleEvaluator(str(MODULE), inputs, device="cpu", cost_model=StaticCostModel())

    class Slow:
        def evaluate(self, target, candidate):
            time.sleep(3.0)       # the first candidate (zeros) is rejected in far less than this
            return inner.evaluate(target, candidate)

    inner.evaluate(target, next(iter(ZerosThenRetune().propose(target, []))))    # the sandbox's start-up
    from kernelopt.rewrite import search as search_module
    stream = io.StringIO()
    slow_at = search_module.SLOW_EVALUATION_S
    search_module.SLOW_EVALUATION_S = 0.3
    try:
        result = search(target, [ZerosThenRetune()], Slow(),
                        Budget(max_candidates=5, deadline=time.monotonic() + 5.5), min_speedup=1.0,
                        progress=search_module.Progress(stream))
    finally:
        search_module.SLOW_EVALUATION_S = slow_at
    assert len(result.attempts) == 1, result.attempts
    assert result.stopped_because.startswith("wall-clock deadline: the next candidate would end after it"), \
        result.stopped_because
    line = stream.getvalue().splitlines()[0]
    assert " s; check total " in line and "inputs" in line, line

def test_agentic_rewrite_starts_no_target_after_the_deadline_and_says_so():
    import time

    from kernelopt.passes.base import PassContext
    from kernelopt.passes.pass_manager import PassManager
    from kernelopt.passes.pipeline import parse_pipeline

    module = lift_file(str(MODULE))
    ctx = PassContext(options={"device": "cpu", "inputs": torch.load(CAPTURE / "inputs.pt")["args"],
                               "progress_stream": io.StringIO(), "search_deadline": time.monotonic() - 1})
    PassManager(parse_pipeline("classify-dispatch,annotate-profile,"
                               "agentic-rewrite{cost-model=static proposers=retune workers=none}")).run(module, ctx)
    assert "rewrite" not in module.kernel(GELU).attrs
    assert any("wall-clock target was reached" in d.message for d in ctx.diagnostics)
    # and on the console, where the user watching the job reads it
    assert "wall-clock target was reached; triton_poi_fused_gelu_0" in ctx.options["progress_stream"].getvalue()


def test_a_pool_job_gets_what_is_left_before_the_deadline_as_its_limit():
    import time

    evaluator = PoolEvaluator(None, str(MODULE), None, device="cpu", cost_model="static")  # jobs only: no pool
    target = kernel_target(lift_file(str(MODULE)), GELU)
    candidate = next(iter(ZerosThenRetune().propose(target, [])))
    assert evaluator.job(target, candidate).timeout_s is None       # no deadline: the pool's limit
    evaluator.deadline = time.monotonic() + 60
    assert 55 < evaluator.job(target, candidate).timeout_s <= 60
    evaluator.deadline = time.monotonic() - 10                       # past: the shortest limit still
    assert evaluator.job(target, candidate).timeout_s == 5.0
