"""The options of a `kernelopt optimize` job (`OptimizeOptions`) and the pipeline they assemble.

Kept apart from the job itself (optimize_job.py, which imports capture, codegen, legality, the report, ...)
so that what only needs the options stays light: the Dynamo backend validates its options and computes its
cache key on every compile, and a warm start (a cache hit) should not pay for the search's imports.
"""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.cuda_graph_options import check_graph_options
from kernelopt.errors import UsageError
from kernelopt.passes.agentic_rewrite import COST_MODELS, AgenticRewrite
from kernelopt.passes.annotate_profile import AnnotateProfile
from kernelopt.passes.base import Pass
from kernelopt.passes.check_legality import CheckLegality
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.passes.emit_python import EmitPython
from kernelopt.precision import PRECISIONS

# --base -> the Inductor modes captured. `best` captures both on a GPU, times the two modules side by
# side and starts from the faster one (the headline compares against the best Inductor mode, so starting
# from a slower one would leave that margin on the table); without a GPU it is `default`.
BASES = {"best": ("default", "max-autotune-no-cudagraphs"), "default": ("default",),
         "max-autotune": ("max-autotune-no-cudagraphs",)}
# The options of the job that are agentic-rewrite's (same names): their defaults are the pass's.
REWRITE_OPTIONS = ("proposers", "gpu_seconds", "max_candidates", "llm_base_url", "llm_model", "no_cache",
                   "cost_model")
REWRITE_DEFAULTS = AgenticRewrite.option_defaults()


@dataclass
class OptimizeOptions:
    base: str = "best"
    gpu_seconds: float = REWRITE_DEFAULTS["gpu_seconds"]
    precision: str = "strict"
    proposers: tuple[str, ...] = tuple(REWRITE_DEFAULTS["proposers"])
    llm_base_url: str = REWRITE_DEFAULTS["llm_base_url"]
    llm_model: str = REWRITE_DEFAULTS["llm_model"]
    report_dir: str | None = None
    seed: int = 0
    no_cache: bool = REWRITE_DEFAULTS["no_cache"]
    entry: str | None = None
    size: str = "large"
    device: str | None = None          # None: cuda when available
    max_candidates: int = REWRITE_DEFAULTS["max_candidates"]
    keep_work: str | None = None       # --keep-work DIR: work there and keep it (default: a temp folder, removed)
    force: bool = False                # --force: -o may replace the input or a file KernelOPT did not write
    cost_model: str = REWRITE_DEFAULTS["cost_model"]   # static: the search runs without a GPU (tests; the Dynamo backend)
    cuda_graphs: str = "auto"          # --cuda-graphs: call() through CUDA graphs (kernelopt/cuda_graph_options.py)
    outputs: str = "fresh"             # --outputs: with graphs, fresh tensors or static views of graph memory
    time_limit: float | None = None    # --time-limit: the job's wall-clock target (None: job_target_s's default)

    def validate(self) -> None:
        if self.base not in BASES:
            raise UsageError(f"--base must be one of {', '.join(BASES)}, got {self.base!r}")
        if self.precision not in PRECISIONS:
            raise UsageError(f"--precision must be one of {', '.join(PRECISIONS)}, got {self.precision!r}")
        if self.gpu_seconds < 0:
            raise UsageError("--gpu-seconds must be >= 0")
        if self.max_candidates < 0:
            raise UsageError(f"--max-candidates must be >= 0, got {self.max_candidates}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise UsageError(f"--time-limit must be a positive number of seconds, got {self.time_limit:g}")
        if self.cost_model not in COST_MODELS:
            raise UsageError(f"cost_model must be one of {', '.join(COST_MODELS)}, got {self.cost_model!r}")
        check_graph_options(self.cuda_graphs, self.outputs)

    def passes(self) -> list[Pass]:
        """The pipeline the job runs, as pass objects (`pipeline_text` writes it for kernelopt-opt -p)."""
        rewrite = AgenticRewrite(**{name: getattr(self, name) for name in REWRITE_OPTIONS} | {
            "proposers": list(self.proposers), "gpu_seconds": float(self.gpu_seconds),
            "max_candidates": int(self.max_candidates)})   # the field types, as a parsed pipeline has them
        return [ClassifyDispatch(), DetectFusion(), AnnotateProfile(), rewrite, CheckLegality(),
                EmitPython(cuda_graphs=self.cuda_graphs, outputs=self.outputs)]
