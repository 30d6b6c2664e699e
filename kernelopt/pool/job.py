"""The worker side of a job: build (once per module) a ModuleEvaluator and evaluate the candidate."""
from __future__ import annotations

from kernelopt.runtime.device_memory import release_cached_memory
from kernelopt.rewrite.evaluate import ModuleEvaluator, StaticCostModel
from kernelopt.rewrite.search import Evaluation

from .base import Job, inputs_key, load_inputs

# One evaluator per (module, inputs, device, precision, cost model) for the life of the worker: the
# module is loaded and its launches captured once, then every candidate for it reuses them.
_EVALUATORS: dict[tuple, object] = {}


def evaluator_for(job: Job):
    device = "cuda" if job.device.startswith("cuda") else "cpu"   # a worker sees only its own GPU
    key = (job.module_path, inputs_key(job.inputs), device, job.precision, job.cost_model, job.rounds)
    if key not in _EVALUATORS:
        _EVALUATORS[key] = ModuleEvaluator(
            job.module_path, load_inputs(job.inputs), device=device, precision=job.precision,
            cost_model=StaticCostModel() if job.cost_model == "static" else None, rounds=job.rounds,
            # loaded from a file: the worker's own, so the module may update them in place (none copied)
            mutated_inputs=None if isinstance(job.inputs, (list, tuple)) else (),
            recorded_configs=job.recorded_configs)
    return _EVALUATORS[key]


def evaluate_job(job: Job) -> Evaluation:
    """The job's Evaluation; an error in the evaluation itself is a rejection, not a dead worker."""
    try:
        return evaluator_for(job).evaluate(job.target, job.candidate)
    except Exception as err:  # noqa: BLE001 - reported to the search as the candidate's verdict
        return Evaluation(False, f"evaluation failed: {type(err).__name__}: {str(err)[:300]}")
    finally:
        # the gate's case buffers and the timing copy, cached by torch: the gate's sandbox child (another
        # process) and the job's NVML-read memory bound need them back
        release_cached_memory(job.device)
