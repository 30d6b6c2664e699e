"""`kernelopt optimize MODEL -o OPTIMIZED.py`: the end-to-end job.

The rewrite search's flags are the agentic-rewrite pass's options: their defaults and help come from
its dataclass fields, so the command and `kernelopt-opt -p "agentic-rewrite{...}"` cannot drift apart.
"""
from __future__ import annotations

import argparse
import typing

from kernelopt.commands.emit import add_graph_flags
from kernelopt.errors import UsageError
from kernelopt.passes.agentic_rewrite import AgenticRewrite
from kernelopt.passes.base import Pass


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "optimize", help="capture, analyse, rewrite, prove and emit a faster standalone module",
        description="From a model to a faster, proven-equivalent standalone module. MODEL is a KernelBench-style "
                    "file (class Model, get_init_inputs(), get_inputs()), or an Inductor output module "
                    "(then capture is skipped); or give --entry pkg.module:factory returning (model, inputs).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("model", nargs="?", help="model file, or an Inductor output module (.py)")
    p.add_argument("-o", "--output", required=True, help="where to write the optimized module (.py); a .json "
                   "with the argument mapping is written beside it. Its first line is `# kernelopt-output`: an "
                   "existing file without it (a model, your own module) is never replaced unless --force")
    p.add_argument("--force", action="store_true", help="let -o replace the input or a file KernelOPT did not write "
                   "(and --report its files)")
    p.add_argument("--entry", help="pkg.module:factory (or file.py:factory) returning (model, example_inputs)")
    p.add_argument("--base", choices=["best", "default", "max-autotune"], default="best",
                   help="Inductor mode to start from: default, max-autotune (captured without CUDA graphs), or "
                        "best: on a GPU capture both, time them side by side and start from the faster; "
                        "the slower is optimized too when within 1.25x (and capturing took under 3 "
                        "minutes), and the faster result is written (on a CPU, default)")
    p.add_argument("--size", choices=["small", "large"], default="large",
                   help="for a model file that defines SIZES: the entry to capture on a GPU (on a CPU the small "
                        "one); a file without SIZES has one size, its own, and this option does not apply")
    _pass_option(p, AgenticRewrite, "gpu_seconds")
    _pass_option(p, AgenticRewrite, "max_candidates")
    p.add_argument("--precision", choices=["strict", "allow-tf32", "allow-bf16"], default="strict",
                   help="strict keeps fp32 math fp32; the others allow tf32 / bf16 in replacements")
    _pass_option(p, AgenticRewrite, "proposers")
    _pass_option(p, AgenticRewrite, "llm_base_url")
    _pass_option(p, AgenticRewrite, "llm_model")
    add_graph_flags(p)
    p.add_argument("--report", metavar="DIR", help="write report.md, report.json and report.png into DIR (such "
                   "files there that an earlier job did not write are never replaced unless --force)")
    p.add_argument("--seed", type=int, default=0, help="seed for weights and example inputs")
    p.add_argument("--device", choices=["cpu", "cuda"], help="default: cuda when available, else cpu")
    _pass_option(p, AgenticRewrite, "no_cache")
    _pass_option(p, AgenticRewrite, "cost_model")
    p.add_argument("--time-limit", type=float, metavar="SECONDS",
                   help="the job's wall-clock target: the search stops in time to leave the check, the emitted "
                        "module and the report within it (default: 300 s, plus the GPU-seconds given beyond "
                        "the default); capturing the model counts too")
    p.add_argument("--keep-work", metavar="DIR",
                   help="work in DIR and keep it afterwards, for debugging (default: a temporary folder, "
                        "removed on success, failure and Ctrl-C)")
    p.set_defaults(func=run)


def _pass_option(parser, cls: type[Pass], name: str) -> None:
    """Add `--option-name` for option `name` of pass `cls`, with the field's default and help."""
    field = next(f for f in cls.option_fields() if f.name == name)
    default, kind = cls.option_defaults()[name], typing.get_type_hints(cls)[name]
    flag, text = "--" + Pass.option_name(name), field.metadata.get("help", "")
    if kind is bool:
        parser.add_argument(flag, action="store_false" if default else "store_true", help=text)
    elif typing.get_origin(kind) is list:    # comma-separated, as in a pipeline; run() splits it
        parser.add_argument(flag, default=",".join(default), help=text)
    else:
        parser.add_argument(flag, type=kind, default=default, help=text)


def run(args) -> int:
    # lazy: start-up: `kernelopt --help` imports every command; the job pulls torch
    from kernelopt.optimize_job import OptimizeOptions, optimize_model

    if not args.model and not args.entry:
        raise UsageError("give a MODEL file or --entry pkg.module:factory")
    options = OptimizeOptions(
        base=args.base, gpu_seconds=args.gpu_seconds, precision=args.precision,
        proposers=tuple(p for p in args.proposers.split(",") if p), llm_base_url=args.llm_base_url,
        llm_model=args.llm_model, report_dir=args.report, seed=args.seed, no_cache=args.no_cache,
        entry=args.entry, size=args.size, device=args.device, max_candidates=args.max_candidates,
        keep_work=args.keep_work, force=args.force, cost_model=args.cost_model, cuda_graphs=args.cuda_graphs,
        outputs=args.outputs, time_limit=args.time_limit)
    result = optimize_model(args.model, args.output, options, cold_process=True)
    # A fallback still wrote a working module (Inductor's) and a report saying why: that is success.
    return 0 if result.status in ("optimized", "fallback", "skipped") else 1
