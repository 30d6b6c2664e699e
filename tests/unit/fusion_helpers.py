"""A lifted module with its fusion groups marked, as agentic-rewrite sees it (a helper, not tests)."""
from pathlib import Path

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion


def grouped_module(path: Path):
    """The output module at `path`, lifted, its launches classified and its fusion groups detected."""
    module = lift_file(path)
    ctx = PassContext()
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    return module
