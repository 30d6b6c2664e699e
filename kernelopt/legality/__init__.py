"""The legality gate: no rewrite is kept unless it is proven equivalent to the original launch(es).

Core API (independent of the module loader):
    check_candidate(original, candidate_source, launches, *, output_args, mutated_args=(), precision=...,
                    reference_fn=None, ...) -> Verdict
Module-level API (uses kernelopt.runtime.loader): kernelopt.legality.module.check_module_kernel(...).
"""
from kernelopt.legality.cases import LaunchInputs
from kernelopt.legality.gate import GateError, Verdict, check_candidate
from kernelopt.legality.tolerance import PRECISIONS, tolerance_for

__all__ = ["LaunchInputs", "Verdict", "GateError", "check_candidate", "PRECISIONS", "tolerance_for"]
