"""Check annotate-profile's per-op times against the whole module's time, on the realistic captures.

    python benchmarks/profile_check.py --device cuda --out benchmarks/results/profile-check-<date>.json

For every capture in tests/fixtures/inductor-2.11-h200 (or those named with --cases), lift it, run
classify-dispatch and annotate-profile (fresh measurements: the cache is bypassed), and compare the
sum of the measured per-op `time_us` (Triton launches and library calls, each timed alone on rotated
buffers) with the measured whole-module time. Target: within 15% on every case. Prints a table and
writes JSON (GPU, torch and triton versions, date, per-op rows). Exit code 1 when a case misses the
target, 2 when the run cannot happen (no CUDA device).
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "inductor-2.11-h200"
TOLERANCE = 0.15
PROFILED = ("ko.launch", "ko.extern", "ko.call")


def profile_case(path: Path, device: str, rounds: int) -> dict:
    from kernelopt.lift import lift_file
    from kernelopt.passes.annotate_profile import AnnotateProfile
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.classify_dispatch import ClassifyDispatch

    module = lift_file(path)
    module.attrs["file"] = str(path)
    ctx = PassContext(options={"device": device, "no_cache": True})
    for pass_ in (ClassifyDispatch(), AnnotateProfile(rounds=rounds)):
        ctx.current_pass = pass_.name
        pass_.apply(ctx, module)
    ops = [op for op in module.body if op.name in PROFILED]
    rows = [{"op": op.symbol or op.callee, "dispatch": op.attrs.get("dispatch"),
             **{k: op.attrs.get(k) for k in ("time_us", "floor_us", "gap_us", "share", "bound", "bytes_read",
                                            "bytes_written", "flops")}} for op in ops]
    timed = [r["time_us"] for r in rows if r["time_us"] is not None]
    module_us = module.attrs.get("module_time_us")
    total = sum(timed)
    ratio = total / module_us if module_us else None
    return {"case": path.stem, "module_us": module_us, "sum_us": total, "ratio": ratio,
            "timed_ops": len(timed), "ops": len(rows),
            "ok": ratio is not None and len(timed) == len(rows) and abs(ratio - 1) <= TOLERANCE,
            "diagnostics": [str(d) for d in ctx.diagnostics], "rows": rows}


def environment() -> dict:
    import torch
    import triton

    return {"gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else "none",
            "torch": torch.__version__, "triton": triton.__version__,
            "date": datetime.date.today().isoformat()}


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
    print(f"{'case':<40} {'module µs':>10} {'sum µs':>10} {'ratio':>7} {'timed':>7}  ok")
    for path in paths:
        try:
            result = profile_case(path, args.device, args.rounds)
        except Exception as err:  # one broken case must not hide the others
            result = {"case": path.stem, "ok": False, "error": f"{type(err).__name__}: {err}"}
        results.append(result)
        if "error" in result:
            print(f"{result['case']:<40} error: {result['error']}")
            continue
        ratio = f"{result['ratio']:.3f}" if result["ratio"] is not None else "-"
        module_us = f"{result['module_us']:.1f}" if result["module_us"] else "-"
        print(f"{result['case']:<40} {module_us:>10} {result['sum_us']:>10.1f} {ratio:>7} "
              f"{result['timed_ops']:>3}/{result['ops']:<3}  {'yes' if result['ok'] else 'NO'}")
    report = {"tolerance": TOLERANCE, **environment(), "results": results}
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=2))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
