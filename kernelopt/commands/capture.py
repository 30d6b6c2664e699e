"""`kernelopt capture`: compile a model with torch.compile (Inductor) and save what it wrote."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kernelopt.errors import KernelOptError, UsageError


CAPTURE_FILES = ("manifest.json", "inputs.pt", "outputs.pt")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "capture",
        help="compile a model with Inductor and save its output modules, inputs, outputs and a manifest",
        description="Compile MODEL.py (KernelBench style: Model, get_init_inputs, get_inputs) or an entry "
        "point with torch.compile and save into DIR the output module(s), the call() inputs and outputs, "
        "the chosen kernel configs and a manifest.json.",
    )
    parser.add_argument("model", nargs="?", metavar="MODEL.py", help="model file (see tests/zoo/README.md)")
    parser.add_argument("--entry", help="pkg.module:factory (or file.py:factory, or a factory name in MODEL.py) "
                        "returning (model, example_inputs)")
    parser.add_argument("--size", default="small", choices=("small", "large"),
                        help="which entry of the file's SIZES to build (default: small)")
    parser.add_argument("--mode", default="default", choices=("default", "max-autotune-no-cudagraphs", "max-autotune"),
                        help="torch.compile mode (default: default)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"),
                        help="cpu: Triton kernels under the Triton interpreter; cuda: the GPU (default: cpu)")
    parser.add_argument("--seed", type=int, default=0, help="seed for weights and inputs (default: 0)")
    parser.add_argument("--store-tensors", choices=("auto", "yes", "no"), default="auto",
                        help="save inputs.pt/outputs.pt (auto: only for --size small)")
    parser.add_argument("--no-timing", action="store_true", help="skip the eager/compiled timings on the GPU")
    parser.add_argument("--compile-threads", type=int, default=None,
                        help="Inductor's parallel compile workers (GPU only; default: Inductor's choice)")
    parser.add_argument("-o", "--output", required=True, metavar="DIR",
                        help="directory to write the capture into; one holding a manifest.json, inputs.pt or "
                             "outputs.pt that is not an earlier capture's is refused unless --force")
    parser.add_argument("--force", action="store_true",
                        help="let -o replace a manifest.json, inputs.pt or outputs.pt that no capture wrote")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    if not args.model and not args.entry:
        raise UsageError("give MODEL.py or --entry pkg.module:factory")
    if args.entry and ":" not in args.entry and not args.model:
        raise UsageError(f"--entry {args.entry!r} without MODEL.py must be pkg.module:factory")
    _refuse_replacing_the_users_files(Path(args.output), args.force)
    # lazy: start-up: `kernelopt --help` imports every command; capture pulls torch
    from kernelopt.capture import capture

    store_tensors = {"auto": None, "yes": True, "no": False}[args.store_tensors]
    result = capture(
        args.model, args.output, entry=args.entry, size=args.size, mode=args.mode, device=args.device,
        seed=args.seed, store_tensors=store_tensors, time_runs=not args.no_timing,
        compile_threads=args.compile_threads,
    )
    _summarize(result.manifest, result.directory)
    return 0 if result.manifest["matches_eager"].get("ok") else 1


def _refuse_replacing_the_users_files(folder: Path, force: bool) -> None:
    """Before any work: the capture writes manifest.json, inputs.pt and outputs.pt into the folder, which
    must not replace files of the user's (`-o .` in a project folder). An earlier capture's are replaced."""
    # lazy: start-up: `kernelopt --help` imports every command; user_files pulls the IR parser
    from kernelopt.user_files import check_folder_writable

    earlier_capture = _is_capture_manifest(folder / "manifest.json")
    check_folder_writable(folder, CAPTURE_FILES, force, "-o", lambda _path: earlier_capture,
                          "is not an earlier capture's (no capture manifest beside it)", "capture")


def _is_capture_manifest(path: Path) -> bool:
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and {"format", "graphs", "files"} <= manifest.keys()


def _summarize(manifest: dict, directory) -> None:
    kernels = sum(len(g["kernels"]) for g in manifest["graphs"])
    agreement = manifest["matches_eager"]
    line = (f"captured {manifest['name']} ({manifest['size']}, {manifest['mode']}, {manifest['environment']['device']}): "
            f"{len(manifest['graphs'])} graph(s), {kernels} Triton kernel(s), "
            f"compile {manifest['compile_s']:.1f} s, max rel err vs eager {agreement.get('max_rel_err', float('nan')):.2e}")
    if manifest.get("timings_ms"):
        t = manifest["timings_ms"]
        line += f", eager {t['eager']:.3f} ms, compiled {t['compiled']:.3f} ms"
    print(line + f" -> {directory}")
    if not agreement.get("ok"):
        print(f"warning: compiled output does not match eager: {json.dumps(agreement)}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """`python -m kernelopt.commands.capture ...`: the capture command alone, importing no other command
    (the GPU machine lacks packages that other commands need)."""
    parser = argparse.ArgumentParser(prog="kernelopt")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["capture", *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.func(args)
    except KernelOptError as err:
        print(f"kernelopt capture: error: {err}", file=sys.stderr)
        return err.exit_code


if __name__ == "__main__":
    sys.exit(main())
