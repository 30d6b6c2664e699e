"""`kernelopt optimize MODEL -o OPTIMIZED.py`: the end-to-end job."""
from __future__ import annotations

import argparse


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "optimize", help="capture, analyse, rewrite, prove and emit a faster standalone module",
        description="From a model to a faster, proven-equivalent standalone module. MODEL is a KernelBench-style "
                    "file (class Model, get_init_inputs(), get_inputs()), or an Inductor output module "
                    "(then capture is skipped); or give --entry pkg.module:factory returning (model, inputs).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("model", nargs="?", help="model file, or an Inductor output module (.py)")
    p.add_argument("-o", "--output", required=True, help="where to write the optimized module (.py); a .json "
                   "with the argument mapping is written beside it")
    p.add_argument("--entry", help="pkg.module:factory (or file.py:factory) returning (model, example_inputs)")
    p.add_argument("--base", choices=["best", "default", "max-autotune"], default="best",
                   help="Inductor mode to start from: default, max-autotune (captured without CUDA graphs), or "
                        "best: on a GPU capture both, time them side by side and start from the faster; "
                        "the slower is optimized too when within 1.25x (and capturing took under 3 "
                        "minutes), and the faster result is written (on a CPU, default)")
    p.add_argument("--size", choices=["small", "large"], default="large",
                   help="model-file size to capture on a GPU (on a CPU the small size is always used)")
    p.add_argument("--gpu-seconds", type=float, default=240.0, help="GPU-time budget of the rewrite search")
    p.add_argument("--max-candidates", type=int, default=24, help="candidates evaluated per kernel")
    p.add_argument("--precision", choices=["strict", "allow-tf32", "allow-bf16"], default="strict",
                   help="strict keeps fp32 math fp32; the others allow tf32 / bf16 in replacements")
    p.add_argument("--proposers", default="templates,fuse,epilogue,retune,llm",
                   help="comma-separated proposers, asked in this order (built-in: templates, fuse, epilogue, "
                        "retune, llm; plugins from the kernelopt.proposers entry points too)")
    p.add_argument("--llm-base-url", default="", help="OpenAI-compatible endpoint for the llm proposer "
                   "(key from OPENAI_API_KEY or KERNELOPT_LLM_API_KEY)")
    p.add_argument("--llm-model", default="", help="model name for the llm proposer")
    p.add_argument("--report", metavar="DIR", help="write report.md, report.json and report.png into DIR")
    p.add_argument("--seed", type=int, default=0, help="seed for weights and example inputs")
    p.add_argument("--device", choices=["cpu", "cuda"], help="default: cuda when available, else cpu")
    p.add_argument("--no-cache", action="store_true", help="ignore cached search results and LLM answers")
    p.set_defaults(func=run)


def run(args) -> int:
    from kernelopt.errors import UsageError
    from kernelopt.optimize_job import OptimizeOptions, optimize_model

    if not args.model and not args.entry:
        raise UsageError("give a MODEL file or --entry pkg.module:factory")
    options = OptimizeOptions(
        base=args.base, gpu_seconds=args.gpu_seconds, precision=args.precision,
        proposers=tuple(p for p in args.proposers.split(",") if p), llm_base_url=args.llm_base_url,
        llm_model=args.llm_model, report_dir=args.report, seed=args.seed, no_cache=args.no_cache,
        entry=args.entry, size=args.size, device=args.device, max_candidates=args.max_candidates)
    optimize_model(args.model, args.output, options)
    return 0
