"""Capture the model zoo into a corpus directory, one subprocess per capture.

    python benchmarks/capture_corpus.py run --device cuda --out DIR [--jobs 4] [--deadline 480]
    python benchmarks/capture_corpus.py index tests/corpus      # rebuild tests/corpus/manifest.json

`run` captures every zoo model at small size in each mode, then the LARGE models at large size
(default mode, then max-autotune if time is left), each into DIR/<model>/<size>.<mode>/. A capture
that fails, hangs past its timeout or needs a missing package is logged (DIR/logs/) and listed in
DIR/index.json with its status; the others go on. Jobs still queued at the deadline are skipped
and listed as such, so the whole run ends in bounded time.
"""
from __future__ import annotations

import argparse
import concurrent.futures as futures
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ZOO = REPO / "tests" / "zoo"
SMALL_MODES = ("default", "max-autotune-no-cudagraphs")
# Large-size captures: the realistic shapes, the models worth optimizing first (fixtures' cases).
LARGE = ("cross_entropy", "ln_gelu", "rmsnorm", "softmax", "rms_swiglu", "transformer_block",
         "conv_bn_relu", "kl_div", "groupnorm_silu", "gpt2", "mlp", "embedding_pos")


def zoo_models() -> list[Path]:
    return sorted(p for p in ZOO.glob("*.py") if not p.name.startswith("_"))


def missing_packages(path: Path) -> list[str]:
    """The model file's REQUIRES that are not importable here (read without importing torch)."""
    namespace: dict = {}
    for line in path.read_text().splitlines():
        if line.startswith("REQUIRES"):
            exec(line, namespace)  # a literal tuple of package names, by the zoo convention
    return [n for n in namespace.get("REQUIRES", ()) if importlib.util.find_spec(n) is None]


def plan(device: str, small_modes, large_modes, only: list[str] | None, first_large: int = 6) -> list[dict]:
    """Jobs in priority order: small/first mode, the first large ones, small/other modes, the rest."""
    models = [p for p in zoo_models() if not only or p.stem in only]
    large = sorted((p for p in models if p.stem in LARGE), key=lambda p: LARGE.index(p.stem))

    def jobs(paths, size, modes):
        return [{"model": p.stem, "path": p, "size": size, "mode": m} for m in modes for p in paths]

    ordered = jobs(models, "small", small_modes[:1])
    ordered += jobs(large[:first_large], "large", large_modes[:1])
    ordered += jobs(models, "small", small_modes[1:])
    ordered += jobs(large[first_large:], "large", large_modes[:1])
    ordered += jobs(large, "large", large_modes[1:])
    for job in ordered:
        job["device"] = device
        job["id"] = f"{job['model']}.{job['size']}.{job['mode']}"
    return ordered


def run_job(job: dict, out: Path, deadline: float, timeout: float, compile_threads: int) -> dict:
    started = time.time()
    record = {k: job[k] for k in ("id", "model", "size", "mode", "device")}
    record["dir"] = f"{job['model']}/{job['size']}.{job['mode']}"
    missing = missing_packages(job["path"])
    if missing:
        return record | {"status": "skipped", "reason": f"needs {', '.join(missing)}"}
    left = deadline - started
    if left < 20:
        return record | {"status": "skipped", "reason": "deadline reached before it started"}
    log = out / "logs" / f"{job['id']}.log"
    command = [sys.executable, "-m", "kernelopt.commands.capture", str(job["path"].relative_to(REPO)),
               "--size", job["size"], "--mode", job["mode"], "--device", job["device"],
               "-o", str(out / record["dir"])]
    if job["device"] == "cuda":
        command += ["--compile-threads", str(compile_threads)]
    with open(log, "w") as handle:
        try:
            proc = subprocess.run(command, cwd=REPO, stdout=handle, stderr=subprocess.STDOUT,
                                  timeout=min(timeout, left))
            status = {0: "ok", 1: "failed"}.get(proc.returncode, f"failed (exit {proc.returncode})")
            if proc.returncode == 1 and (out / record["dir"] / "manifest.json").exists():
                status = "mismatch"  # captured, but the compiled model disagrees with eager
        except subprocess.TimeoutExpired:
            status = "timeout"
    record |= {"status": status, "seconds": round(time.time() - started, 1), "log": f"logs/{log.name}"}
    if status != "ok":
        record["reason"] = log.read_text()[-600:].strip().splitlines()[-1:] if log.exists() else []
    print(f"[{time.strftime('%H:%M:%S')}] {record['id']}: {status} ({record['seconds']} s)", flush=True)
    return record


def command_run(args) -> int:
    out = Path(args.out).resolve()
    (out / "logs").mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    os.environ["KERNELOPT_TRACEBACK"] = "1"  # full tracebacks in the per-capture logs
    os.environ["KERNELOPT_GPU_LOCK"] = str(out / "logs" / ".gpu.lock")
    deadline = time.time() + args.deadline
    large_modes = () if args.no_large else ("default",) + (("max-autotune-no-cudagraphs",) if args.large_max_autotune else ())
    small_modes = tuple(args.modes.split(","))
    jobs = plan(args.device, small_modes, large_modes, args.only.split(",") if args.only else None)
    print(f"{len(jobs)} captures, {args.jobs} at a time, deadline in {args.deadline} s", flush=True)
    with futures.ThreadPoolExecutor(args.jobs) as pool:  # threads only wait on subprocesses
        records = list(pool.map(lambda j: run_job(j, out, deadline, args.timeout, args.compile_threads), jobs))
    index = {"device": args.device, "captures": records}
    (out / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    counts: dict[str, int] = {}
    for r in records:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print("summary:", json.dumps(counts), flush=True)
    return 0


def command_index(args) -> int:
    """Write <corpus>/manifest.json: every capture under every platform directory."""
    root = Path(args.corpus)
    entries = []
    for platform in sorted(p for p in root.iterdir() if p.is_dir()):
        index_path = platform / "index.json"
        runs = json.loads(index_path.read_text())["captures"] if index_path.exists() else []
        status_of = {r["dir"]: r for r in runs}
        for manifest_path in sorted(platform.glob("*/*/manifest.json")):
            capture_dir = manifest_path.parent
            manifest = json.loads(manifest_path.read_text())
            rel = capture_dir.relative_to(platform).as_posix()
            entries.append({
                "platform": platform.name, "name": manifest["name"], "size": manifest["size"],
                "mode": manifest["mode"], "dir": f"{platform.name}/{rel}",
                "status": status_of.get(rel, {}).get("status", "ok" if manifest["matches_eager"]["ok"] else "mismatch"),
                "torch": manifest["environment"]["torch"], "triton": manifest["environment"]["triton"],
                "gpu": manifest["environment"].get("gpu"), "tensors_stored": manifest["tensors_stored"],
                "kernels": sum(len(g["kernels"]) for g in manifest["graphs"]),
                "files": [f"{platform.name}/{rel}/{f}" for f in manifest["files"]],
            })
        captured = {e["dir"] for e in entries}
        for r in runs:  # failed or skipped captures are listed too, without files
            if f"{platform.name}/{r['dir']}" not in captured:
                entries.append({"platform": platform.name, "name": r["model"], "size": r["size"], "mode": r["mode"],
                                "dir": None, "status": r["status"], "reason": r.get("reason"), "files": []})
    (root / "manifest.json").write_text(json.dumps({"format": 1, "captures": entries}, indent=1) + "\n")
    print(f"{root / 'manifest.json'}: {len(entries)} captures")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="capture the zoo")
    run.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    run.add_argument("--out", required=True, help="corpus directory for this platform")
    run.add_argument("--jobs", type=int, default=2, help="captures at a time")
    run.add_argument("--deadline", type=float, default=3600, help="seconds after which no capture starts")
    run.add_argument("--timeout", type=float, default=300, help="seconds one capture may take")
    run.add_argument("--compile-threads", type=int, default=4, help="Inductor compile workers per capture (GPU)")
    run.add_argument("--large-max-autotune", action="store_true", help="also capture large sizes in max-autotune")
    run.add_argument("--modes", default=",".join(SMALL_MODES), help="modes for the small sizes (comma-separated)")
    run.add_argument("--no-large", action="store_true", help="small sizes only (the CPU corpus)")
    run.add_argument("--only", help="comma-separated model names")
    run.set_defaults(func=command_run)
    index = sub.add_parser("index", help="rebuild the corpus manifest")
    index.add_argument("corpus", help="the corpus root (tests/corpus)")
    index.set_defaults(func=command_index)
    args = parser.parse_args()
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
