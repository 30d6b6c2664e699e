"""Time the lifter on the largest shared fixture (gpt2_2l, ~85 KB); prints seconds and writes JSON.

    python benchmarks/bench_lift.py [--module PATH] [--repeat 10] [--out benchmarks/results/lift-<date>.json]

Target (issue: lift real Inductor output): under 1 s for gpt2_2l.default.0.py on a development
machine. Timed: read + lift (the text is re-read each run), and separately lift + verify + print.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from importlib import metadata
from pathlib import Path

from kernelopt.ir.printer import print_module
from kernelopt.ir.verifier import verify
from kernelopt.lift import lift_file

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO / "tests" / "fixtures" / "inductor-2.11-h200" / "gpt2_2l.default.0.py"


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _time(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def _lift_verify_print(path: Path) -> None:
    lifted = lift_file(path)
    verify(lifted)
    print_module(lifted)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", default=str(DEFAULT), help="the output module to lift (default: gpt2_2l)")
    parser.add_argument("--repeat", type=int, default=10, help="timed runs (default 10; the median is reported)")
    parser.add_argument("--out", help="write the JSON result here (default: benchmarks/results/lift-<date>.json)")
    args = parser.parse_args()
    path = Path(args.module)
    module = lift_file(path)  # warm-up (imports, lark grammar for later parses)
    lift_times = _time(lambda: lift_file(path), args.repeat)
    full_times = _time(lambda: _lift_verify_print(path), args.repeat)
    result = {
        "benchmark": "lift", "module": str(path.relative_to(REPO) if path.is_relative_to(REPO) else path),
        "module_bytes": path.stat().st_size, "kernels": len(module.kernels), "ops": len(module.body),
        "launches": len(module.launches()), "repeat": args.repeat,
        "lift_median_s": round(statistics.median(lift_times), 4), "lift_min_s": round(min(lift_times), 4),
        "lift_verify_print_median_s": round(statistics.median(full_times), 4), "target_s": 1.0,
        "python": platform.python_version(), "torch": _version("torch"), "triton": _version("triton"),
        "machine": platform.machine(), "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(), "date": datetime.date.today().isoformat(),
    }
    print(f"lift {result['module']} ({result['module_bytes'] / 1024:.0f} KB, {result['kernels']} kernels, "
          f"{result['ops']} ops): median {result['lift_median_s'] * 1000:.1f} ms, with verify+print "
          f"{result['lift_verify_print_median_s'] * 1000:.1f} ms (target < {result['target_s']:.0f} s)")
    out = Path(args.out) if args.out else REPO / "benchmarks" / "results" / f"lift-{result['date']}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out}")
    return 0 if result["lift_median_s"] < result["target_s"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
