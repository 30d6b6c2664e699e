"""Emitted vs original module on the GPU: bitwise identity and time ratio, for every capture.

    python benchmarks/emit_identity.py --device cuda --out benchmarks/results/emit_identity.json

For each capture under the corpus (small captures with stored inputs; large ones on get_args() with a
fixed seed): lift, pin the autotuner's configs from the capture's manifest, emit the standalone
module, then run the original Inductor module and the emitted one on the same inputs. Identity:
every output bitwise equal (NaN payloads included). Timing: the two `call(args)` are timed in
interleaved rounds (CUDA events around N calls, after warm-up); the ratio is emitted/original of the
medians. Targets: <= 1.02 for captures of >= 1 ms, <= 1.05 below. Writes a JSON (GPU, torch, triton,
date, one row per capture) and prints a table.

`--plain`: plain output modules, as `kernelopt emit` gets them without a manifest. Nothing is pinned: the
emitted module times Inductor's heuristic configs at its first call, as the original's autotuner does
(a fresh KERNELOPT_CACHE_DIR, so it really times). Rows: every corpus capture (its manifest ignored)
and the modules under --modules (default tests/fixtures/inductor-2.11-h200, on get_args() with a fixed
seed). Each row adds the first call's seconds on both sides (compile + autotune) and the kernels whose
autotuned config differs between the two (then bitwise identity is not expected for reductions):

    python benchmarks/emit_identity.py --device cuda --plain --rounds 5 --out emit_identity_plain.json
"""
from __future__ import annotations

import argparse
import datetime
import glob
import json
import os
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def captures(corpus: Path, only: list[str] | None) -> list[Path]:
    found = []
    for manifest in sorted(corpus.glob("**/manifest.json")):
        if manifest.parent == corpus:
            continue
        data = json.loads(manifest.read_text())
        if len(data.get("graphs", [])) != 1:
            continue
        if only and data.get("name") not in only:
            continue
        found.append(manifest.parent)
    return found


def _bits_equal(a, b) -> bool:
    import torch

    if not isinstance(a, torch.Tensor):
        return a == b
    if a.shape != b.shape or a.dtype != b.dtype or a.stride() != b.stride():
        return False
    return torch.equal(a.detach().reshape(-1).view(torch.uint8) if a.dtype != torch.bool else a.reshape(-1),
                       b.detach().reshape(-1).view(torch.uint8) if b.dtype != torch.bool else b.reshape(-1))


def _inputs(capture: Path, module, device: str) -> list:
    import torch

    if (capture / "inputs.pt").exists():
        args = torch.load(capture / "inputs.pt")["args"]
        return [a.to(device) if isinstance(a, torch.Tensor) else a for a in args]
    from kernelopt.runtime.execute import seeded_example_args

    return seeded_example_args(module)


def _time_interleaved(calls: dict, args: list, rounds: int, per_round: int) -> dict[str, float]:
    """Median milliseconds per call of each function, timed in alternating rounds (same inputs)."""
    import torch

    samples = {name: [] for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(per_round):
                fn(list(args))
            end.record()
            torch.cuda.synchronize()
            samples[name].append(start.elapsed_time(end) / per_round)
    return {name: statistics.median(values) for name, values in samples.items()}


def measure(capture: Path, device: str, rounds: int, workdir: Path) -> dict:
    import torch

    from kernelopt.capture.inductor import kernel_configs
    from kernelopt.codegen import emit_python
    from kernelopt.codegen.standalone_module import EmitOptions
    from kernelopt.codegen.configs import apply_recorded_configs, recorded_configs
    from kernelopt.lift import lift_file
    from kernelopt.runtime.loader import load_output_module

    manifest = json.loads((capture / "manifest.json").read_text())
    original_path = capture / manifest["graphs"][0]["module"]
    # Plain imports (no launch hooks): both modules run exactly as a user would run them.
    original = _import(original_path)
    args = _inputs(capture, load_output_module(str(original_path), device), device)
    with torch.no_grad():  # the original's autotuner picks its configs now, in this process
        original.call([a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    torch.cuda.synchronize()
    # Pin on the emitted side exactly what the original's autotuner chose in this run ("the same
    # launch configurations on both sides"); autotuning is timing-based, so it may differ from the
    # choice recorded at capture: count those differences.
    live = kernel_configs(original)
    module = lift_file(str(original_path))
    recorded, chosen = recorded_configs(manifest, module), recorded_configs({"kernels": live}, module)
    pinned = apply_recorded_configs(module, {"kernels": live})
    differs = sorted(name for name, config in chosen.items()
                     if name in recorded and recorded[name].as_attr() != config.as_attr())
    emitted_path = workdir / f"{capture.parent.name}_{capture.name.replace('.', '_').replace('-', '_')}_emitted.py"
    # the live choice launched as is (not timed again): the same configuration on both sides
    emitted_path.write_text(emit_python(module, options=EmitOptions(retime_recorded=False)))
    sources = {}
    for launch in module.launches():
        sources[launch.attrs.get("config_source", "?")] = sources.get(launch.attrs.get("config_source", "?"), 0) + 1
    emitted = _import(emitted_path)
    with torch.no_grad():
        row = _side_by_side(original, emitted, args, rounds)
    return {"capture": f"{capture.parent.parent.name}/{capture.parent.name}/{capture.name}",
            "launches": len(module.launches()), "configs_pinned": pinned, "config_sources": sources,
            "autotuner_differs_from_capture": differs, "launch_path": _launch_path(emitted), **row}


def _launch_path(emitted) -> str:
    """Which fast launch path the emitted module's launch sites set up (static, direct or jit)."""
    paths = set()
    for value in vars(emitted).values():
        if type(value).__name__ in ("_Launch", "_Autotuned"):
            fast = value.fast
            paths.add("jit" if fast is None else "static" if getattr(fast, "__self__", None) is not None
                      else "direct")
    return ",".join(sorted(paths)) or "none"


def _timed_first_call(module, args) -> float:
    import torch

    started = time.perf_counter()
    module.call([a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    torch.cuda.synchronize()
    return time.perf_counter() - started


def _autotuned_configs(emitted) -> dict[str, dict]:
    """Kernel -> the config each `_Autotuned` site settled on, in the manifest's `chosen` form."""
    found = {}
    for value in vars(emitted).values():
        if type(value).__name__ == "_Autotuned" and value.candidates is None:
            found[value.name] = {"kwargs": dict(value.meta), **value.options}
    return found


def measure_plain(module_path: Path, label: str, device: str, rounds: int, workdir: Path) -> dict:
    """One plain output module: emitted with nothing pinned, then side by side with the original."""
    import torch

    from kernelopt.capture.inductor import kernel_configs
    from kernelopt.codegen import emit_python
    from kernelopt.codegen.configs import recorded_configs
    from kernelopt.lift import lift_file
    from kernelopt.runtime.loader import load_output_module

    original = _import(module_path)
    inputs_folder = module_path.parent if (module_path.parent / "inputs.pt").exists() else workdir
    args = _inputs(inputs_folder, load_output_module(str(module_path), device), device)
    module = lift_file(str(module_path))
    emitted_path = workdir / f"{label.replace('/', '_').replace('.', '_').replace('-', '_')}_plain.py"
    emitted_path.write_text(emit_python(module, options=None))
    sources = {}
    for launch in module.launches():
        sources[launch.attrs.get("config_source", "?")] = sources.get(launch.attrs.get("config_source", "?"), 0) + 1
    emitted = _import(emitted_path)
    with torch.no_grad():
        first = {"original": _timed_first_call(original, args), "emitted": _timed_first_call(emitted, args)}
        live = recorded_configs({"kernels": kernel_configs(original)}, module)
        tuned = recorded_configs({"kernels": _autotuned_configs(emitted)}, module)
        differs = sorted(name for name, config in tuned.items()
                         if name in live and live[name].as_attr() != config.as_attr())
        row = _side_by_side(original, emitted, args, rounds)
    return {"capture": label, "plain": True, "launches": len(module.launches()), "config_sources": sources,
            "first_call_s": {k: round(v, 3) for k, v in first.items()}, "autotuned_kernels": len(tuned),
            "autotune_differs_from_original": differs, "launch_path": _launch_path(emitted), **row}


def _side_by_side(original, emitted, args: list, rounds: int) -> dict:
    """Bitwise identity of the outputs and the interleaved time ratio emitted / original."""
    import torch

    first = original.call([a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    second = emitted.call([a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    torch.cuda.synchronize()
    identical = len(first) == len(second) and all(_bits_equal(a, b) for a, b in zip(first, second))
    calls = {"original": original.call, "emitted": emitted.call}
    for fn in calls.values():  # warm-up: compile, fill caches, first direct launches
        for _ in range(3):
            fn([a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    torch.cuda.synchronize()
    probe = _time_interleaved(calls, args, 1, 3)
    per_round = max(1, min(200, int(20.0 / max(probe["original"], 1e-3))))  # ~20 ms per round
    medians = _time_interleaved(calls, args, rounds, per_round)
    ratio = medians["emitted"] / medians["original"]
    target = 1.02 if medians["original"] >= 1.0 else 1.05
    return {"bitwise_identical": bool(identical), "original_ms": round(medians["original"], 5),
            "emitted_ms": round(medians["emitted"], 5), "ratio": round(ratio, 4), "target": target,
            "meets_target": ratio <= target, "calls_per_round": per_round, "rounds": rounds}


def _import(path: Path):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"emit_identity_{abs(hash(str(path)))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def environment(device: str) -> dict:
    import torch
    import triton

    return {"gpu": torch.cuda.get_device_name(0) if device == "cuda" and torch.cuda.is_available() else None,
            "torch": torch.__version__, "triton": triton.__version__,
            "date": datetime.datetime.now().isoformat(timespec="seconds")}


def table(rows: list[dict]) -> str:
    lines = [f"{'capture':<58} {'bitwise':>7} {'orig ms':>9} {'emit ms':>9} {'ratio':>6} {'ok':>3}"]
    for row in rows:
        if "error" in row:
            lines.append(f"{row['capture']:<58} ERROR {row['error'][:60]}")
            continue
        lines.append(f"{row['capture']:<58} {'yes' if row['bitwise_identical'] else 'NO':>7} "
                     f"{row['original_ms']:>9.4f} {row['emitted_ms']:>9.4f} {row['ratio']:>6.3f} "
                     f"{'yes' if row['meets_target'] else 'NO':>3}")
    return "\n".join(lines)


def merged_markdown(paths: list[str]) -> str:
    """One markdown table from several result files: per capture the row of the latest file that has it
    (each row is still one side-by-side measurement; the table says which run it came from)."""
    latest: dict[str, tuple[dict, dict, str]] = {}
    for path in paths:
        result = json.loads(Path(path).read_text())
        for row in result["rows"]:
            latest[row["capture"]] = (row, result, Path(path).name)
    lines = ["| capture | launches | bitwise identical | original ms | emitted ms | ratio | target | ok | launch path "
             "| GPU | torch | triton | date | file |", "| --- " * 14 + "|"]
    for capture in sorted(latest):
        row, env, name = latest[capture]
        if "error" in row:
            lines.append(f"| {capture} | ERROR {row['error'][:80]} |" + " |" * 12)
            continue
        lines.append(f"| {capture} | {row['launches']} | {'yes' if row['bitwise_identical'] else 'NO'} | "
                     f"{row['original_ms']:.4f} | {row['emitted_ms']:.4f} | {row['ratio']:.3f} | {row['target']} | "
                     f"{'yes' if row['meets_target'] else 'NO'} | {row.get('launch_path', '?')} | {env['gpu']} | "
                     f"{env['torch']} | {env['triton']} | {env['date'][:10]} | {name} |")
    rows = [r for r, _, _ in latest.values() if "error" not in r]
    lines += ["", f"{len(latest)} captures: {sum(r['bitwise_identical'] for r in rows)} bitwise identical, "
              f"{sum(r['meets_target'] for r in rows)} within the time target "
              "(<= 1.02 for originals of >= 1 ms, <= 1.05 below)."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cuda",), default="cuda", help="the GPU (timing needs one)")
    parser.add_argument("--corpus", default=str(REPO / "tests" / "corpus"), help="corpus root (default tests/corpus)")
    parser.add_argument("--out", required=True, help="write the JSON results here (with --merge: the markdown table)")
    parser.add_argument("--merge", nargs="+", metavar="RESULT.json",
                        help="no measurement: merge earlier result files into one markdown table (later files win)")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved timing rounds (default 15)")
    parser.add_argument("--only", help="comma-separated model names")
    parser.add_argument("--platform", default="cuda", help="only corpus platforms whose name contains this")
    parser.add_argument("--plain", action="store_true",
                        help="plain output modules: nothing pinned, the emitted module autotunes at its first call")
    parser.add_argument("--modules", default=str(REPO / "tests" / "fixtures" / "inductor-2.11-h200" / "*.py"),
                        help="with --plain: a glob of further output modules without a capture folder "
                             "(default tests/fixtures/inductor-2.11-h200/*.py)")
    args = parser.parse_args(argv)
    if args.merge:
        Path(args.out).write_text(merged_markdown(args.merge))
        print(Path(args.out).read_text().splitlines()[-1])
        return 0
    import torch

    if not torch.cuda.is_available():
        print("emit_identity: needs a CUDA GPU", file=sys.stderr)
        return 2
    rows = []
    workdir = Path(tempfile.mkdtemp(prefix="emit-identity-"))
    if args.plain:  # a cache of earlier runs would skip the first-call timing this measures
        os.environ["KERNELOPT_CACHE_DIR"] = str(workdir / "cache")
    jobs = []
    for capture in captures(Path(args.corpus), args.only.split(",") if args.only else None):
        if args.platform and args.platform not in capture.parent.parent.name:
            continue
        label = str(capture.relative_to(Path(args.corpus)))
        if args.plain:
            manifest = json.loads((capture / "manifest.json").read_text())
            jobs.append((label, lambda c=capture, m=manifest, l=label: measure_plain(
                c / m["graphs"][0]["module"], l, args.device, args.rounds, workdir)))
        else:
            jobs.append((label, lambda c=capture: measure(c, args.device, args.rounds, workdir)))
    if args.plain:
        for path in sorted(glob.glob(args.modules)):
            name = Path(path).stem
            if not args.only or name.split(".")[0] in args.only.split(","):
                label = f"{Path(path).parent.name}/{name}"
                jobs.append((label, lambda p=path, l=label: measure_plain(Path(p), l, args.device, args.rounds,
                                                                         workdir)))
    for label, job in jobs:
        started = time.time()
        try:
            row = job()
        except Exception as err:  # one capture failing must not end the run
            row = {"capture": label, "error": f"{type(err).__name__}: {err}",
                   "traceback": traceback.format_exc()[-2000:]}
        row["seconds"] = round(time.time() - started, 1)
        rows.append(row)
        print(table([row]).splitlines()[-1], flush=True)
    result = {**environment(args.device), "plain": args.plain, "rows": rows,
              "summary": {"captures": len(rows), "errors": sum("error" in r for r in rows),
                          "bitwise_identical": sum(bool(r.get("bitwise_identical")) for r in rows),
                          "meets_target": sum(bool(r.get("meets_target")) for r in rows)}}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(table(rows))
    print(json.dumps(result["summary"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
