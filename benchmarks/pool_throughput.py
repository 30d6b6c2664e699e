"""Candidates evaluated per minute by the rewrite search, in this process and on 1, 2, 4 pool workers.

    python benchmarks/pool_throughput.py --device cpu --workers 1,2,4 --out benchmarks/results/pool_throughput.cpu
    python benchmarks/pool_throughput.py --device cuda --capture <gpu capture>/<name>.0.py --workers 1,2,4,8

The same search (the retune proposer on one kernel of one capture, `--candidates` of them) runs with
the in-process ModuleEvaluator ("sequential") and then with a LocalPool of each worker count (CPU
workers run the Triton interpreter; GPU workers get one GPU each, so a worker count above the GPU
count is skipped). Each configuration runs the search twice on the same pool: "cold" includes starting
the workers and building each worker's evaluator (loading the module, capturing its launches), "warm"
is the steady state. On a CPU the verdicts come from the real legality gate and the speedups from the
static cost model; on a GPU candidates are timed with CUDA events, one per GPU at a time. Writes
<out>.json and <out>.md with the machine's details.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CAPTURE = REPO / "tests" / "corpus" / "cpu-2.13" / "mlp" / "small.default" / "mlp.default.0.py"


def machine(device: str) -> dict:
    import torch
    import triton

    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next(line.split(":", 1)[1].strip() for line in handle if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    info = {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "torch": torch.__version__,
            "triton": triton.__version__, "platform": platform.platform(), "device": device}
    if device == "cuda":
        info["gpus"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return info


def inputs_for(capture: Path):
    import torch

    stored = capture.parent / "inputs.pt"
    return str(stored) if stored.exists() else None, (torch.load(stored)["args"] if stored.exists() else None)


def one_search(target, evaluator, candidates: int):
    from kernelopt.proposers.retune import RetuneProposer
    from kernelopt.rewrite.search import Budget, search

    start = time.perf_counter()
    result = search(target, [RetuneProposer()], evaluator, Budget(max_candidates=candidates, gpu_seconds=1e9),
                    min_speedup=1.0)
    return time.perf_counter() - start, result


def row(label: str, workers: int, cold_s: float, warm_s: float, result) -> dict:
    n = len(result.attempts)
    return {"config": label, "workers": workers, "candidates": n, "accepted": result.accepted,
            "best": result.best[0].strategy if result.best else None,
            "cold_s": round(cold_s, 2), "warm_s": round(warm_s, 2),
            "cold_per_min": round(n / cold_s * 60, 1), "warm_per_min": round(n / warm_s * 60, 1)}


def run(args) -> dict:
    from kernelopt.lift import lift_file
    from kernelopt.pool import LocalPool, PoolEvaluator
    from kernelopt.pool.local import visible_gpus
    from kernelopt.rewrite.evaluate import ModuleEvaluator, StaticCostModel
    from kernelopt.rewrite.targets import kernel_target, rank_kernels

    capture = Path(args.capture).resolve()
    module = lift_file(str(capture))
    kernel = args.kernel or next(name for name, reason in rank_kernels(module) if reason is None)
    target = kernel_target(module, kernel)
    inputs_path, inputs = inputs_for(capture)
    static = args.device == "cpu"
    rows = []

    start = time.perf_counter()
    evaluator = ModuleEvaluator(str(capture), inputs, device=args.device,
                                cost_model=StaticCostModel() if static else None)
    build_s = time.perf_counter() - start
    first_s, result = one_search(target, evaluator, args.candidates)
    warm_s, result = one_search(target, evaluator, args.candidates)
    rows.append(row("sequential (in process)", 1, build_s + first_s, warm_s, result))
    print(rows[-1], flush=True)

    limit = len(visible_gpus()) if args.device == "cuda" else None
    skipped = []
    for workers in args.workers:
        if limit is not None and workers > limit:
            skipped.append(f"{workers} workers: only {limit} GPUs visible")
            continue
        start = time.perf_counter()
        with LocalPool(args.device, workers, job_timeout=args.job_timeout) as pool:
            evaluator = PoolEvaluator(pool, str(capture), inputs_path or inputs, device=args.device,
                                      cost_model="static" if static else "")
            first_s, result = one_search(target, evaluator, args.candidates)
            cold_s = time.perf_counter() - start
            warm_s, result = one_search(target, evaluator, args.candidates)
            evaluator.close()
        rows.append(row(f"LocalPool {args.device}", workers, cold_s, warm_s, result))
        print(rows[-1], flush=True)
    return {"date": datetime.date.today().isoformat(), "machine": machine(args.device),
            "capture": str(capture.relative_to(REPO)) if capture.is_relative_to(REPO) else str(capture),
            "kernel": kernel, "candidates": args.candidates, "rows": rows, "skipped": skipped,
            "cost_model": "static (CPU: no timing)" if static else "CUDA events"}


def markdown(report: dict, note: str) -> str:
    m = report["machine"]
    lines = [f"# Pool throughput ({report['machine']['device']}, {report['date']})", "",
             f"Machine: {m['cpu']}, {m['cores']} cores; Python {m['python']}, torch {m['torch']}, "
             f"triton {m['triton']}; {m['platform']}." + (f" GPUs: {', '.join(m['gpus'])}." if m.get("gpus") else ""),
             f"Search: retune proposer on `{report['kernel']}` of `{report['capture']}`, "
             f"{report['candidates']} candidates; timing: {report['cost_model']}.", "",
             "| configuration | workers | candidates | accepted | cold s | cold cand/min | warm s | warm cand/min | best |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in report["rows"]:
        lines.append(f"| {r['config']} | {r['workers']} | {r['candidates']} | {r['accepted']} | {r['cold_s']} | "
                     f"{r['cold_per_min']} | {r['warm_s']} | {r['warm_per_min']} | {r['best']} |")
    if report["skipped"]:
        lines += ["", "Skipped: " + "; ".join(report["skipped"])]
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="CPU workers or one worker per GPU")
    parser.add_argument("--capture", default=str(CAPTURE), help="Inductor output module (inputs.pt next to it if any)")
    parser.add_argument("--kernel", default="", help="kernel to search (default: the costliest searchable one)")
    parser.add_argument("--candidates", type=int, default=8, help="candidates per search")
    parser.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    parser.add_argument("--job-timeout", type=float, default=600.0, help="per-job time limit, seconds")
    parser.add_argument("--note", default="", help="a paragraph appended to the markdown result")
    parser.add_argument("--out", default="", help="write <out>.json and <out>.md")
    args = parser.parse_args(argv)
    args.workers = [int(w) for w in args.workers.split(",") if w.strip()]
    if args.device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"
    report = run(args)
    text = markdown(report, args.note)
    print(text)
    if args.out:
        Path(args.out + ".json").write_text(json.dumps(report, indent=2) + "\n")
        Path(args.out + ".md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
