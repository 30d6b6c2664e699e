"""RayPool against a local Ray instance started by the test (two CPUs, no dashboard): the same verdicts
as the in-process evaluator, and an actor that dies is replaced with its job reported once."""
from __future__ import annotations

import sys

import pytest
import torch

from kernelopt.errors import UsageError
from kernelopt.lift import lift_file
from kernelopt.pool import Job
from kernelopt.rewrite.evaluate import ModuleEvaluator, StaticCostModel
from kernelopt.rewrite.targets import kernel_target
from search_helpers import GELU, INPUTS, MODULE, ZEROS, verdict, widest_retunes, interpreter  # noqa: F401 (autouse fixture)


@pytest.fixture(scope="module")
def ray_instance():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_actors_give_the_same_verdicts_and_survive_a_dying_actor(ray_instance, tmp_path):
    from kernelopt.pool import RayPool

    target = kernel_target(lift_file(str(MODULE)), GELU)
    # a legal retune (the widest blocks: the fastest to check on the CPU) and a wrong candidate: both verdicts
    candidates = widest_retunes(target)[:1] + [ZEROS]
    sequential = ModuleEvaluator(str(MODULE), torch.load(INPUTS)["args"], device="cpu",
                                 cost_model=StaticCostModel())
    expected = {c.strategy: verdict(sequential.evaluate(target, c)) for c in candidates}

    exits = tmp_path / "exits.py"
    exits.write_text("import os\nos._exit(3)\n")
    dying = Job(str(exits), str(INPUTS), target, candidates[0], cost_model="static")
    jobs = [Job(str(MODULE), str(INPUTS), target, c, cost_model="static") for c in candidates] + [dying]
    with RayPool("cpu", workers=2, job_timeout=120) as pool:
        assert pool.size == 2 and not pool.started_ray       # it joined the test's Ray instance
        results = list(pool.map_unordered(jobs))
        stats = dict(pool.stats)
    assert sorted(j.job_id for j, _ in results) == sorted(j.job_id for j in jobs)
    got = {j.job_id: e for j, e in results}
    assert got[dying.job_id].reason.startswith("worker died:"), got[dying.job_id].reason
    assert {j.candidate.strategy: verdict(got[j.job_id]) for j in jobs[:-1]} == expected
    assert stats["worker_deaths"] == 1 and stats["restarts"] == 1


def test_without_ray_the_backend_says_how_to_install_it(monkeypatch):
    from kernelopt.pool.ray_pool import import_ray

    monkeypatch.setitem(sys.modules, "ray", None)       # what `import ray` sees when it is not installed
    with pytest.raises(UsageError, match=r"pip install 'kernelopt\[ray\]'"):
        import_ray()
