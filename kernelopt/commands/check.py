"""`kernelopt check`: prove (or refute) that a candidate may replace one kernel of an output module."""
from __future__ import annotations

import os
import sys

from kernelopt.errors import KernelOptError
from kernelopt.precision import PRECISIONS


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "check", help="check a candidate kernel against the original with the legality gate",
        description="Run the legality gate: prints ACCEPT or REJECT: <reason> with evidence. "
                    "Exit 0 ACCEPT, 1 REJECT, 2 when the check could not run.")
    parser.add_argument("module", metavar="MODULE.py", help="the Inductor (or KernelOPT) output module")
    parser.add_argument("--kernel", required=True, help="name of the Triton kernel the candidate replaces")
    parser.add_argument("--candidate", required=True, metavar="FILE.py",
                        help="candidate-format file defining run(*args) with the original .run(...) arguments")
    parser.add_argument("--inputs", metavar="ARGS.pt",
                        help="module inputs saved with torch.save: a list, or the {'args': [...]} inputs.pt that "
                             "`kernelopt capture` writes; default: the module's get_args()")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="where to run: cpu (Triton interpreter) or cuda (default: cpu)")
    parser.add_argument("--precision", choices=PRECISIONS, default="strict",
                        help="precision policy: strict keeps fp32 math fp32 (default: strict)")
    parser.add_argument("--launch", type=int, metavar="N",
                        help="check only the N-th launch of the kernel (0-based); default: every launch")
    parser.set_defaults(func=handler)


def _read(path: str, what: str) -> str:
    if not os.path.isfile(path):
        raise _CannotRun(f"{path}: no such {what}")
    try:
        with open(path) as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise _CannotRun(f"{path}: cannot read the {what}: {err}") from None


class _CannotRun(Exception):
    pass


def _load_inputs(path: str | None):
    """The module inputs: a torch.save list, or the {"args": [...]} file `kernelopt capture` writes (as for
    `kernelopt run`)."""
    if path is None:
        return None
    # lazy: start-up: `kernelopt --help` imports every command; torch takes seconds
    from kernelopt.runtime.inputs import load_inputs

    try:
        return load_inputs(path)
    except KernelOptError as err:
        raise _CannotRun(str(err)) from None


def handler(args) -> int:
    # lazy: start-up: `kernelopt --help` imports every command; legality pulls torch
    from kernelopt.legality.gate import GateError
    from kernelopt.legality.module import check_module_kernel
    from kernelopt.legality.sandbox import fork_cpu_sandbox_now
    try:
        _read(args.module, "module")
        source = _read(args.candidate, "candidate")
        fork_cpu_sandbox_now(args.device)       # before anything runs: the gate's zygote costs no interpreter start
        verdict = check_module_kernel(args.module, args.kernel, source, inputs=_load_inputs(args.inputs),
                                      device=args.device, precision=args.precision, launch=args.launch)
    except (_CannotRun, GateError, KernelOptError) as err:
        print(f"kernelopt check: error: {err}", file=sys.stderr)
        return 2
    print(verdict.report())
    return 0 if verdict.accepted else 1
