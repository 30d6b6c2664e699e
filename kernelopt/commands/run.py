"""`kernelopt run MODULE.py`: run an output module on the CPU (Triton interpreter) or a GPU."""
from __future__ import annotations

import argparse
import os
import time

from kernelopt.errors import InputError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="run an output module and save its outputs",
        description="Run an output module's call(args) on given inputs (or its own get_args() with a "
                    "fixed seed; integer inputs from get_args are zeros, a valid index everywhere) and "
                    "report outputs and the inputs it changed in place.")
    parser.add_argument("module", metavar="MODULE.py", help="the output module (Inductor's or KernelOPT's)")
    parser.add_argument("--inputs", metavar="ARGS.pt",
                        help="torch.save file: the list of call() arguments, or a dict with it under 'args'")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="cpu: Triton kernels through the interpreter (default); cuda: the module as is")
    parser.add_argument("-o", "--output", metavar="OUT.pt",
                        help="write {'outputs': [...], 'mutated': {index: tensor}} here")
    parser.add_argument("--seed", type=int, default=0, help="seed for get_args() when --inputs is absent (default 0)")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    if not os.path.isfile(args.module):     # said at once, before torch's seconds of import
        raise InputError(f"{args.module}: no such file")
    # lazy: start-up: `kernelopt --help` imports every command; runtime.* pulls torch
    from kernelopt.runtime.execute import run_loaded, seeded_example_args, _to_device
    from kernelopt.runtime.inputs import describe, load_inputs, save_result
    from kernelopt.runtime.loader import load_output_module

    inputs = load_inputs(args.inputs) if args.inputs else None
    begin = time.perf_counter()
    module = load_output_module(args.module, args.device)
    loaded = time.perf_counter()
    if inputs is None:
        if not module.has_get_args:
            raise InputError(f"{args.module}: the module has no get_args(); pass --inputs ARGS.pt")
        inputs = seeded_example_args(module, args.seed)
    result = run_loaded(module, _to_device(inputs, args.device))
    done = time.perf_counter()
    if args.output:
        save_result(args.output, result)
    print(f"{args.module}: {len(result['outputs'])} output(s) on {args.device}, "
          f"{len(module.kernels)} Triton kernel(s); load {loaded - begin:.2f} s, run {done - loaded:.3f} s")
    for i, out in enumerate(result["outputs"]):
        print(f"  output {i}: {describe(out)}")
    names = {s.index: s.name for s in module.arg_specs}
    for i in sorted(result["mutated"]):
        print(f"  mutated argument {i} ({names.get(i, '?')}): {describe(result['mutated'][i])}")
    if args.output:
        print(f"  saved to {args.output}")
    return 0
