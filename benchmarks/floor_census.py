"""How far each general problem's Inductor kernels run from their bandwidth floor, all problems in one command.

    python3 benchmarks/floor_census.py --out census.jsonl [--problems a,b] [--budget-s 500]   # on a GPU

Issue 19 counts a problem as having room when its best Inductor module spends more than 1.25x its floor in
Triton kernels. Before spending a whole device command on a problem's search, this says which problems have
that room and in which kernel. Per problem it lifts the committed H200 capture
(`tests/fixtures/cuda-2.11-general/<problem>/`, Inductor `default`, its recorded launch configs), runs
`classify-dispatch,annotate-profile` on the GPU (each op timed as a CUDA-graph replay, the floor from the
bytes it moves) and appends one JSON line: per launch its time, floor and percent of floor (floor / time),
and per module the Triton kernels' total time against their total floor. Problems already in --out are
skipped, so a stopped run resumes; --budget-s stops before starting a problem that would not fit.
A markdown table of every line so far goes to --table.

The committed captures are Inductor `default` modules. A kernel near its floor there is near it in every
mode; one far from it may be close under max-autotune (cross_entropy_spatial's main kernel: 44 % of its
floor in `default`, 94.5 % in `max-autotune-no-cudagraphs`, H100). `--mode max-autotune-no-cudagraphs`
captures each problem in that mode first (`kernelopt capture`, 15-40 s a problem, so about a dozen per
command) and takes the census on that capture; its lines say the mode.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CAPTURES = REPO / "tests" / "fixtures" / "cuda-2.11-general"
ROOM = 1.25   # issue 19: a module spending more than this multiple of its floor in Triton kernels has room


def capture_in_mode(problem: str, mode: str, work: Path) -> Path:
    """A fresh capture of the general problem in `mode` (its module and manifest, no tensors)."""
    folder = work / f"{problem}.{mode}"
    model = REPO / "benchmarks" / "general_problems" / f"{problem}.py"
    subprocess.run([sys.executable, "-m", "kernelopt.cli", "capture", str(model), "--mode", mode, "--device", "cuda",
                    "--store-tensors", "no", "--no-timing", "-o", str(folder)], check=True, capture_output=True,
                   text=True, timeout=300)
    return folder


def census_one(folder: Path, device: str) -> dict:
    # lazy: --table needs no torch
    from kernelopt.codegen.configs import apply_recorded_configs
    from kernelopt.lift import lift_source
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.pass_manager import Instrumentation, PassManager
    from kernelopt.passes.pipeline import parse_pipeline

    module_path = next(folder.glob("*.0.py"))
    manifest = json.loads((folder / "manifest.json").read_text())
    ctx = PassContext(options={"device": device, "no_cache": True})
    module = lift_source(module_path.read_text(), str(module_path), diagnostics=ctx.diagnostics)
    apply_recorded_configs(module, manifest)
    PassManager(parse_pipeline("classify-dispatch,annotate-profile"), Instrumentation()).run(module, ctx)
    launches = []
    for op in module.body:
        if op.name not in ("ko.launch", "ko.call"):
            continue
        time_us, floor_us = op.attrs.get("time_us"), op.attrs.get("floor_us")
        launches.append({
            "op": op.symbol or op.callee, "triton": op.name == "ko.launch", "time_us": time_us,
            "floor_us": floor_us, "bound": op.attrs.get("bound"),
            "pct_of_floor": round(100 * floor_us / time_us, 1) if time_us and floor_us else None})
    triton = [row for row in launches if row["triton"] and row["time_us"]]
    time_us = sum(row["time_us"] for row in triton)
    floor_us = sum(row["floor_us"] for row in triton)
    return {"problem": folder.name.split(".")[0], "mode": manifest.get("mode", "default"),
            "gpu": module.attrs.get("profile_gpu"),
            "module_graph_us": module.attrs.get("module_graph_us"),
            "triton_time_us": round(time_us, 3), "triton_floor_us": round(floor_us, 3),
            "triton_x_floor": round(time_us / floor_us, 3) if floor_us else None,
            "launches": launches, "remarks": [str(d.message) for d in ctx.diagnostics][:8]}


def table(rows: list[dict]) -> str:
    lines = ["| problem | mode | Triton kernels us | their floor us | x floor | room | slowest kernel (% of floor) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for row in sorted(rows, key=lambda r: -(r.get("triton_x_floor") or 0)):
        if "error" in row:
            lines.append(f"| {row['problem']} | {row.get('mode', 'default')} | – | – | – | – | failed: {row['error'][:120]} |")
            continue
        timed = [k for k in row["launches"] if k["triton"] and k["time_us"]]
        worst = max(timed, key=lambda k: k["time_us"] - (k["floor_us"] or 0), default=None)
        ratio = row["triton_x_floor"]
        lines.append(f"| {row['problem']} | {row.get('mode', 'default')} | {row['triton_time_us']} | {row['triton_floor_us']} | {ratio} | "
                     f"{'yes' if ratio and ratio > ROOM else 'no'} | "
                     f"{worst['op'] + ' (' + str(worst['pct_of_floor']) + ' %)' if worst else '–'} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="JSON lines, one per problem (appended; resumes)")
    parser.add_argument("--problems", default="", help="comma-separated problem names (default: every capture)")
    parser.add_argument("--budget-s", type=float, default=520.0,
                        help="stop before a problem once this many seconds have gone (default 520)")
    parser.add_argument("--device", default="cuda", choices=("cuda", "cpu"),
                        help="cpu only checks that the script runs (static floors, no times)")
    parser.add_argument("--table", default="", help="also write the markdown table of every line here")
    parser.add_argument("--mode", default="default", choices=("default", "max-autotune-no-cudagraphs", "max-autotune"),
                        help="Inductor mode: default reads the committed captures; another captures each problem "
                             "in that mode first")
    args = parser.parse_args(argv)
    out = Path(args.out)
    done = {json.loads(line)["problem"] for line in out.read_text().splitlines()} if out.exists() else set()
    wanted = [p for p in args.problems.split(",") if p]
    folders = [f for f in sorted(CAPTURES.iterdir()) if f.is_dir() and (not wanted or f.name in wanted)]
    start, longest = time.monotonic(), 0.0
    for folder in folders:
        if folder.name in done:
            continue
        if time.monotonic() - start + longest > args.budget_s:
            print(f"floor_census: budget spent; {folder.name} and later left for the next run", flush=True)
            break
        began = time.monotonic()
        try:
            if args.mode != "default":
                with tempfile.TemporaryDirectory(prefix="floor-census-") as work:
                    row = census_one(capture_in_mode(folder.name, args.mode, Path(work)), args.device)
            else:
                row = census_one(folder, args.device)
        except Exception as err:  # one broken problem must not cost the others
            row = {"problem": folder.name, "error": f"{type(err).__name__}: {err}"}
        took = time.monotonic() - began
        longest = max(longest, took)
        row["seconds"] = round(took, 1)
        with out.open("a") as handle:
            handle.write(json.dumps(row) + "\n")
        print(f"floor_census: {folder.name}: {row.get('triton_x_floor', row.get('error'))} x floor "
              f"({took:.0f} s)", flush=True)
    rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    text = table(rows)
    print(text)
    if args.table:
        Path(args.table).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
