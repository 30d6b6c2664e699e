"""`kernelopt run MODULE.py`: run an output module on the CPU (Triton interpreter) or a GPU."""
from __future__ import annotations

import argparse
import os
import time

from kernelopt.errors import InputError

# run writes a torch.save file, which has no room for the `# kernelopt-output` marker line the text outputs
# start with: a file of run's own format (a dict of exactly these keys) is what an earlier run wrote.
RESULT_KEYS = {"outputs", "mutated"}


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
                        help="write {'outputs': [...], 'mutated': {index: tensor}} here; an existing file is "
                             "replaced only if it is an earlier run's output (a torch.save file of that dict, "
                             "exactly these two keys), never the module or the inputs file, unless --force")
    parser.add_argument("--force", action="store_true",
                        help="let -o replace the module, the inputs file or a file that is not a run's output")
    parser.add_argument("--seed", type=int, default=0, help="seed for get_args() when --inputs is absent (default 0)")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    if not os.path.isfile(args.module):     # said at once, before torch's seconds of import
        raise InputError(f"{args.module}: no such file")
    if args.output:   # refuse before any work is done
        # lazy: start-up: `kernelopt --help` imports every command; user_files pulls the IR parser
        from kernelopt.user_files import check_writable

        check_writable(args.output, [args.module, args.inputs], args.force, ours=is_run_output,
                       not_ours="is not the output of an earlier `kernelopt run` (a torch.save file of "
                                "{'outputs': ..., 'mutated': ...})")
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


def is_run_output(path: str) -> bool:
    """Whether `path` holds what `save_result` writes: tensors only (weights_only), under exactly RESULT_KEYS."""
    # lazy: start-up: `kernelopt --help` imports every command; only an existing -o file needs torch
    import torch

    try:   # mmap: the tensors are not read, only the pickled structure
        data = torch.load(path, map_location="cpu", weights_only=True, mmap=True)
    except Exception:  # not a torch.save zip file, or a pickle weights_only refuses: not ours
        return False
    return isinstance(data, dict) and set(data) == RESULT_KEYS and isinstance(data["outputs"], list) \
        and isinstance(data["mutated"], dict)
