"""Profile one proposer's candidates for one fusion group of an output module, op by op, on the GPU.

    python benchmarks/profile_group_candidate.py MODULE.py --group 0 --proposer sum-through-conv

The search reports a candidate's speed as one ratio; this says where its time goes: the original group and each
candidate are timed one after the other (the search's own device timing, which says whether a CUDA graph held the
calls), then the candidate runs under torch.profiler and its most expensive device ops are printed. Inputs are
random, in the group's own sizes, strides and dtypes.
"""
from __future__ import annotations

import argparse

import torch

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.registry import make_proposer
from kernelopt.rewrite.evaluate import ModuleEvaluator, load_candidate
from kernelopt.rewrite.targets import fusion_target
from kernelopt.runtime.timing import device_time


def group_args(target, device: str) -> list:
    args = []
    for arg in target.group_args:
        if not arg.is_tensor:
            args.append(arg.value)
            continue
        tensor = torch.empty_strided(arg.sizes, arg.strides, dtype=getattr(torch, arg.dtype), device=device)
        tensor.copy_(torch.randn(arg.sizes, device=device) if tensor.is_floating_point() else
                     torch.zeros(arg.sizes, device=device))
        args.append(tensor)
    return args


def timed(label: str, call) -> None:
    """The product's own device timing (a CUDA graph where capture works): its method and why a graph was refused
    say whether the search saw the GPU's time or the host's."""
    found = device_time(call, device="cuda")
    print(f"== {label}: {found.ms:.3f} ms per call ({found.method}{', ' + found.fallback if found.fallback else ''};"
          f" host {found.host_ms if found.host_ms is None else round(found.host_ms, 3)} ms to issue one call)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="an output module (Inductor's or KernelOPT's)")
    parser.add_argument("--group", type=int, default=0, help="the fusion group's number (default 0)")
    parser.add_argument("--kind", default="reduction-epilogue", help="the group target's kind")
    parser.add_argument("--proposer", default="sum-through-conv", help="the proposer whose candidates are profiled")
    options = parser.parse_args()
    module = lift_file(options.module)
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = fusion_target(module, options.group, options.kind)
    if target is None:
        raise SystemExit(f"group {options.group}: {why}")
    original = ModuleEvaluator.for_module(module, None, "cuda").timing_runner(target)
    args = group_args(target, "cuda")
    proposer = make_proposer(options.proposer)
    for candidate in proposer.propose(target, []):
        run = load_candidate(candidate.source)
        call = (lambda run=run: run(*args))
        call()
        torch.cuda.synchronize()
        timed(candidate.strategy, call)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                call()
            torch.cuda.synchronize()
        print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=12, max_name_column_width=70))
    timed("original", lambda: original(*args))


if __name__ == "__main__":
    main()
