"""`kernelopt bench MODULE.py [--vs OTHER.py]`: median GPU time of whole output modules."""
from __future__ import annotations

import argparse
import sys

from kernelopt.errors import InputError, UsageError

CPU_NOTE = ("NOTE: timing on the CPU through the Triton interpreter. These numbers say NOTHING about "
            "GPU speed; use them only to check that the benchmark runs.")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bench", help="time an output module on a GPU (optionally against another)",
        description="Median time of call(args) after warm-up, cycling through copies of the inputs when "
                    "they fit in L2; with --vs both modules run interleaved in one process.")
    parser.add_argument("module", metavar="MODULE.py", help="the output module to time")
    parser.add_argument("--vs", metavar="OTHER.py", help="a second module with the same call(args), timed alongside")
    parser.add_argument("--inputs", metavar="ARGS.pt",
                        help="torch.save file with the call() arguments (default: MODULE's get_args(), seed 0)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds (default 5)")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda",
                        help="cuda (default); cpu only to smoke-test, its times mean nothing for a GPU")
    parser.add_argument("--profile", type=int, default=0, metavar="CALLS",
                        help="after the timing, run CALLS calls of each module under torch's profiler and print "
                             "the kernels and ops they ran, by time (where a module's time goes)")
    parser.set_defaults(func=handle)


PROFILE_ROWS = 15              # the costliest kernels (ops on the CPU) listed per module


def profile_table(fn, calls: int, device: str, title: str) -> str:
    """`calls` calls of `fn` under torch's profiler: its kernels (on the CPU: its ops), costliest first, as a
    markdown table of total and per-call time."""
    # lazy: start-up: `kernelopt --help` imports every command; the profiler pulls torch
    import torch
    from torch.profiler import ProfilerActivity, profile

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    fn()                                  # warm: compiles, autotunes and graph captures are not profiled
    if device == "cuda":
        torch.cuda.synchronize()
    with profile(activities=activities) as recorded:
        for _ in range(calls):
            fn()
        if device == "cuda":
            torch.cuda.synchronize()
    attribute = "device_time_total" if device == "cuda" else "self_cpu_time_total"
    events = [e for e in recorded.key_averages() if getattr(e, attribute, 0) > 0]
    events.sort(key=lambda e: getattr(e, attribute), reverse=True)
    total = sum(getattr(e, attribute) for e in events) or 1.0
    what = "kernel" if device == "cuda" else "op (CPU time)"
    lines = [f"{title}: {calls} calls profiled", "", f"| {what} | count | total us | per call us | share |",
             "| --- | --- | --- | --- | --- |"]
    for event in events[:PROFILE_ROWS]:
        spent = getattr(event, attribute)
        name = event.key if len(event.key) <= 80 else event.key[:77] + "..."
        lines.append(f"| {name} | {event.count} | {spent:.1f} | {spent / calls:.1f} | {100 * spent / total:.1f}% |")
    return "\n".join(lines)


def _inputs_for(module, path: str | None, device: str) -> list:
    # lazy: start-up: `kernelopt --help` imports every command; runtime.* pulls torch
    from kernelopt.runtime.execute import _to_device, seeded_example_args, validate_inputs
    from kernelopt.runtime.inputs import load_inputs

    args = load_inputs(path) if path else seeded_example_args(module)
    args = _to_device(args, device)
    validate_inputs(module, args)
    return args


def handle(args: argparse.Namespace) -> int:
    # lazy: start-up: `kernelopt --help` imports every command; runtime.* pulls torch
    from kernelopt.runtime.loader import load_output_module
    from kernelopt.runtime.timing import compare, median_time_ms, rotating

    if args.rounds < 1:
        raise UsageError("--rounds must be at least 1")
    if args.profile < 0:
        raise UsageError("--profile takes a number of calls, 0 (no profile) or more")
    # lazy: start-up: `kernelopt --help` imports every command; torch takes seconds
    import torch

    if args.device == "cuda" and not torch.cuda.is_available():
        raise InputError("bench needs a CUDA GPU and none is available here "
                         "(pass --device cpu to smoke-test on the CPU; those times mean nothing)")
    if args.device == "cpu":
        print(CPU_NOTE, file=sys.stderr)
    module = load_output_module(args.module, args.device, hooks=False)  # timed as written
    inputs = _inputs_for(module, args.inputs, args.device)
    copies = 1 if args.device == "cpu" else None
    fn_a = rotating(module.call, inputs, copies)
    timing = {"reps_per_round": 3, "min_time_ms": 0.0} if args.device == "cpu" else {}
    print(f"inputs: {fn_a.copies} rotating cop{'y' if fn_a.copies == 1 else 'ies'}")
    if args.vs is None:
        times = [median_time_ms(fn_a, device=args.device, reps=timing.get("reps_per_round")) for _ in range(args.rounds)]
        times.sort()
        print(f"{args.module}: median {times[len(times) // 2]:.4f} ms ({args.rounds} rounds)")
        if args.profile:
            print(profile_table(fn_a, args.profile, args.device, args.module))
        return 0
    other = load_output_module(args.vs, args.device, hooks=False)
    # lazy: start-up: `kernelopt --help` imports every command; runtime.* pulls torch
    from kernelopt.runtime.execute import validate_inputs

    validate_inputs(other, inputs)
    fn_b = rotating(other.call, inputs, fn_a.copies)
    result = compare(fn_a, fn_b, args.rounds, device=args.device, **timing)
    print(f"{args.module}: median {result.median_a_ms:.4f} ms")
    print(f"{args.vs}: median {result.median_b_ms:.4f} ms")
    print(f"ratio {args.vs} / {args.module}: {result.ratio:.3f} ({'first' if result.ratio > 1 else 'second'} is faster)")
    if args.profile:
        for path, fn in ((args.module, fn_a), (args.vs, fn_b)):
            print(profile_table(fn, args.profile, args.device, path))
    return 0
