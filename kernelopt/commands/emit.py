"""`kernelopt emit FILE.kir|FILE.py -o OUT.py`: write the module as Python (standalone or patched)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kernelopt.cuda_graph_options import CUDA_GRAPHS, CUDA_GRAPHS_HELP, GRAPH_OUTPUTS, OUTPUTS_HELP, check_graph_options
from kernelopt.errors import InputError, UsageError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "emit", help="emit an IR module (or lift an output module) as a Python module",
        description="Emit a .kir module, or an Inductor output module lifted on the fly, as Python. "
                    "standalone: needs only torch + triton on a GPU; patched: the input module with only "
                    "rewritten kernels changed.")
    parser.add_argument("input", metavar="FILE.kir|FILE.py", help="the IR module or Inductor output module")
    parser.add_argument("-o", "--output", metavar="OUT.py", help="where to write the module (default: stdout); its "
                        "first line is `# kernelopt-output`, and an existing file without it is never replaced "
                        "unless --force")
    parser.add_argument("--force", action="store_true", help="let -o replace the input or a file KernelOPT did not write")
    parser.add_argument("--style", choices=("standalone", "patched"), default="standalone",
                        help="standalone (default) or patched (minimal diff against the input module)")
    parser.add_argument("--manifest", metavar="MANIFEST.json",
                        help="a capture manifest: pin each kernel's autotuner-chosen config from it")
    parser.add_argument("--config-policy", choices=("auto", "autotune", "first", "most-work"), default="auto",
                        help="launches without a recorded config: autotune (the emitted module times Inductor's "
                             "heuristic configs at the first launch on a GPU, as Inductor does), first (Inductor's "
                             "first heuristic config), most-work (the most work per program: fastest under the "
                             "CPU interpreter); auto (default): autotune for a module captured for a GPU, "
                             "most-work for one captured for the CPU")
    parser.add_argument("--pin-recorded-configs", action="store_true",
                        help="launch each --manifest config as recorded; by default a module for a GPU times it "
                             "again at the first launch, first among Inductor's heuristic configs, as Inductor's "
                             "runtime does in every process (a recorded pick is one process's noisy benchmark)")
    parser.add_argument("--gpu", help="the GPU the launch configs were tuned on, for the header")
    add_graph_flags(parser)
    parser.set_defaults(func=handle)


def add_graph_flags(parser) -> None:
    """--cuda-graphs and --outputs (also on `kernelopt optimize`)."""
    parser.add_argument("--cuda-graphs", choices=CUDA_GRAPHS, default="auto", help=CUDA_GRAPHS_HELP)
    parser.add_argument("--outputs", choices=GRAPH_OUTPUTS, default="fresh", help=OUTPUTS_HELP)


def load_ir(path: str):
    # lazy: start-up: `kernelopt --help` imports every command; the parser pulls lark
    from kernelopt.ir.parser import parse_file

    if not Path(path).is_file():
        raise UsageError(f"{path}: no such file")
    if path.endswith(".py"):
        # lazy: start-up: `kernelopt --help` imports every command; the lifter loads only for a .py input
        from kernelopt.lift import lift_file

        return lift_file(path)
    return parse_file(path)


def _verify(module, path: str) -> None:
    """The emitter trusts the IR's structure (every value defined, every launch's kernel present), as
    kernelopt-opt and lift do: so refuse invalid IR here with the verifier's located errors."""
    # lazy: start-up: `kernelopt --help` imports every command
    from kernelopt.ir.verifier import verify

    errors = verify(module).errors
    for diag in errors:
        print(diag, file=sys.stderr)
    if errors:
        raise InputError(f"{path}: the IR has {len(errors)} verifier error(s) (shown above); emit needs valid IR")


def handle(args: argparse.Namespace) -> int:
    # lazy: start-up: `kernelopt --help` imports every command; codegen pulls jinja2
    from kernelopt.codegen import emit_python
    from kernelopt.codegen.configs import apply_recorded_configs
    from kernelopt.codegen.standalone_module import EmitOptions
    from kernelopt.user_files import check_writable, write_output

    check_graph_options(args.cuda_graphs, args.outputs)
    if args.output:   # refuse before any work is done
        check_writable(args.output, [args.input], args.force)
    module = load_ir(args.input)
    _verify(module, args.input)
    if args.manifest:
        try:
            manifest = json.loads(Path(args.manifest).read_text())
        except (OSError, ValueError) as err:
            raise InputError(f"{args.manifest}: not a readable JSON manifest: {err}") from None
        applied = apply_recorded_configs(module, manifest)
        print(f"{args.manifest}: recorded configs for {applied} launch(es)", file=sys.stderr)
    remarks = []
    source = emit_python(module, args.style, options=EmitOptions(config_policy=args.config_policy, gpu=args.gpu,
                                                                  retime_recorded=not args.pin_recorded_configs,
                                                                  cuda_graphs=args.cuda_graphs, outputs=args.outputs),
                         remark=lambda op, message: remarks.append(message))
    for message in remarks:
        print(f"remark: {message}", file=sys.stderr)
    if args.output:
        write_output(args.output, source, [args.input], args.force)
        print(f"wrote {args.output} ({args.style}, {source.count(chr(10))} lines)", file=sys.stderr)
    else:
        sys.stdout.write(source)
    return 0
