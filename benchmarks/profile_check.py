"""Check annotate-profile's per-op times against the whole module's time, on the realistic captures.

    python benchmarks/profile_check.py --device cuda --out benchmarks/results/profile-check-<date>.json

For every capture in tests/fixtures/inductor-2.11-h200 (or those named with --cases), lift it, run
classify-dispatch and annotate-profile (fresh measurements: the cache is bypassed), and compare the
sum of the measured per-op `time_us` with the whole module's time. Per-op times are device times: each
op is timed alone, many calls back to back captured into one CUDA graph ("graph"; "batched", calls
issued back to back from Python, when capture fails), on rotated buffers. The whole module is measured
both ways: replayed from one CUDA graph (`module_graph_us`, its device time) and called back to back as
written (`module_eager_us`, host launch costs included where the host is slower than the GPU). The sum
is judged against the graph figure (the same kind of time), or the eager one when the module could not
be captured; `compared_with` says which. Target: within 15% on every case. Prints a table and writes
JSON (GPU, torch and triton versions, date, methods, per-op rows). Exit code 1 when a case misses the
target, 2 when the run cannot happen (no CUDA device).
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "inductor-2.11-h200"
TOLERANCE = 0.15
PROFILED = ("ko.launch", "ko.extern", "ko.call")
ROW_KEYS = ("time_us", "time_method", "launch_us", "floor_us", "gap_us", "share", "bound", "bytes_read",
            "bytes_written", "flops")
METHODS = {
    "op time_us": "device time per call: N calls back to back captured into one CUDA graph, replays timed "
                  "with CUDA events after one untimed priming replay, divided by N (time_method = graph); "
                  "when capture fails, N calls issued back to back between events (time_method = batched)",
    "module_graph_us": "the whole module, N calls captured into one CUDA graph, timed like an op",
    "module_eager_us": "the whole module as written, N calls back to back between CUDA events (host launch "
                       "costs included wherever the host is slower than the GPU)",
}


def profile_case(path: Path, device: str, rounds: int) -> dict:
    from kernelopt.lift import lift_file
    from kernelopt.passes.annotate_profile import AnnotateProfile
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.classify_dispatch import ClassifyDispatch

    began = time.perf_counter()
    module = lift_file(path)
    module.attrs["file"] = str(path)
    ctx = PassContext(options={"device": device, "no_cache": True})
    for pass_ in (ClassifyDispatch(), AnnotateProfile(rounds=rounds)):
        ctx.current_pass = pass_.name
        pass_.apply(ctx, module)
    ops = [op for op in module.body if op.name in PROFILED]
    rows = [{"op": op.symbol or op.callee, "dispatch": op.attrs.get("dispatch"),
             **{k: op.attrs.get(k) for k in ROW_KEYS}} for op in ops]
    timed = [r for r in rows if r["time_us"] is not None]
    total = sum(r["time_us"] for r in timed)
    graph_us, eager_us = module.attrs.get("module_graph_us"), module.attrs.get("module_time_us")
    ratio_graph = total / graph_us if graph_us else None
    ratio_eager = total / eager_us if eager_us else None
    compared_with = "graph" if ratio_graph is not None else "eager"
    ratio = ratio_graph if ratio_graph is not None else ratio_eager
    return {"case": path.stem, "module_graph_us": graph_us, "module_eager_us": eager_us, "sum_us": total,
            "ratio": ratio, "compared_with": compared_with, "ratio_graph": ratio_graph, "ratio_eager": ratio_eager,
            "op_methods": dict(Counter(r["time_method"] for r in timed)),
            "launch_us_sum": sum(r["launch_us"] or 0.0 for r in timed),
            "timed_ops": len(timed), "ops": len(rows),
            "ok": ratio is not None and len(timed) == len(rows) and abs(ratio - 1) <= TOLERANCE,
            "seconds": round(time.perf_counter() - began, 2),
            "diagnostics": [str(d) for d in ctx.diagnostics], "rows": rows}


def environment() -> dict:
    import torch
    import triton

    return {"gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else "none",
            "torch": torch.__version__, "triton": triton.__version__,
            "date": datetime.date.today().isoformat()}


def _table_row(result: dict) -> str:
    if "error" in result:
        return f"{result['case']:<40} error: {result['error']}"

    def fmt(value, pattern):
        return pattern.format(value) if value is not None else "-"

    # the ratio the case is judged on is marked with *
    graph_mark, eager_mark = ("*", " ") if result["compared_with"] == "graph" else (" ", "*")
    methods = ",".join(f"{k}:{v}" for k, v in sorted(result["op_methods"].items()))
    return (f"{result['case']:<40} {fmt(result['module_graph_us'], '{:.1f}'):>9} "
            f"{fmt(result['module_eager_us'], '{:.1f}'):>9} {result['sum_us']:>9.1f} "
            f"{fmt(result['ratio_graph'], '{:.3f}'):>8}{graph_mark} "
            f"{fmt(result['ratio_eager'], '{:.3f}'):>8}{eager_mark} "
            f"{result['timed_ops']:>3}/{result['ops']:<3} {methods:>18}  {'yes' if result['ok'] else 'NO'}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda", choices=["cuda"], help="device to measure on (CUDA only)")
    parser.add_argument("--out", help="write the JSON results here")
    parser.add_argument("--cases", nargs="*", help="capture file stems (default: every capture in the fixtures)")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds per op")
    args = parser.parse_args(argv)
    import torch

    if not torch.cuda.is_available():
        print("profile_check: no CUDA device: nothing to measure", file=sys.stderr)
        return 2
    paths = sorted(FIXTURES.glob("*.py"))
    if args.cases:
        paths = [p for p in paths if p.stem in args.cases]
    results = []
    began = time.perf_counter()
    print(f"{'case':<40} {'graph µs':>9} {'eager µs':>9} {'sum µs':>9} {'sum/graph':>9} {'sum/eager':>9} "
          f"{'timed':>7} {'ops by':>18}  ok")
    for path in paths:
        try:
            result = profile_case(path, args.device, args.rounds)
        except Exception as err:  # one broken case must not hide the others
            result = {"case": path.stem, "ok": False, "error": f"{type(err).__name__}: {err}"}
        results.append(result)
        print(_table_row(result), flush=True)
    seconds = round(time.perf_counter() - began, 1)
    print(f"{sum(r['ok'] for r in results)}/{len(results)} within {TOLERANCE:.0%} ({seconds} s)")
    report = {"tolerance": TOLERANCE, **environment(), "methods": METHODS, "seconds": seconds,
              "results": results}
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=2))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
