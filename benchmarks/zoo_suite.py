"""Run the model zoo end to end through `kernelopt optimize` and tabulate the results.

    python benchmarks/zoo_suite.py [--models mlp,softmax] [--out-dir benchmarks/results] [--size large]

Per model: capture, the default pipeline, emit, and the end-to-end timing of eager, Inductor default,
max-autotune-no-cudagraphs, max-autotune and KernelOPT, side by side in one process (the report's
`end_to_end_ms`). Resumable: each model's result is kept in `<out-dir>/zoo/<model>.json` and skipped
on the next run, so the suite can run in shards (`--models`) of a few minutes each and merge; the
merged `<out-dir>/<date>-<gpu>.json` and `.md` are rewritten after every model. On a machine without
a GPU every step that needs one is skipped (the table then has no timings).
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ZOO = REPO / "tests" / "zoo"
COLUMNS = ("eager", "inductor default", "inductor max-autotune-no-cudagraphs", "inductor max-autotune", "kernelopt")


def zoo_models() -> list[str]:
    return sorted(p.stem for p in ZOO.glob("*.py") if not p.name.startswith("_"))


def run_model(name: str, work: Path, args) -> dict:
    from kernelopt.optimize import OptimizeOptions, optimize_model

    options = OptimizeOptions(size=args.size, base=args.base, gpu_seconds=args.gpu_seconds,
                              report_dir=str(work / f"{name}-report"),
                              proposers=tuple(args.proposers.split(",")))
    started = time.perf_counter()
    result = optimize_model(str(ZOO / f"{name}.py"), str(work / f"{name}_opt.py"), options, stream=sys.stderr)
    report = result.report
    search = report.get("statistics", {}).get("agentic-rewrite", {})
    return {"model": name, "wall_s": round(time.perf_counter() - started, 1),
            "end_to_end_ms": report.get("end_to_end_ms"), "best_inductor_ms": report.get("best_inductor_ms"),
            "rewrites": report.get("statistics", {}).get("check-legality", {}).get("accepted", 0),
            "candidates": search.get("candidates", 0), "search_gpu_s": round(search.get("gpu-ms", 0) / 1000, 1),
            "base_mode": report.get("base_mode"),
            "environment": report.get("environment")}


def table(rows: list[dict]) -> str:
    lines = ["| model | " + " | ".join(COLUMNS) + " | KernelOPT vs best Inductor | started from | rewrites | search GPU s | wall s |",
             "| --- " * (len(COLUMNS) + 6) + "|"]
    ratios = []
    for row in rows:
        e2e = row.get("end_to_end_ms") or {}
        cells = [f"{e2e[c]:.4f}" if c in e2e else "–" for c in COLUMNS]
        ratio = "–"
        if row.get("best_inductor_ms") and e2e.get("kernelopt"):
            value = row["best_inductor_ms"] / e2e["kernelopt"]
            ratios.append(value)
            ratio = f"{value:.3f}x"
        if row.get("error"):
            ratio = f"error: {row['error'][:60]}"
        lines.append(f"| {row['model']} | " + " | ".join(cells) + f" | {ratio} | {row.get('base_mode') or 'default'} | {row.get('rewrites', '–')} | "
                     f"{row.get('search_gpu_s', '–')} | "
                     f"{row.get('wall_s', '–')} |")
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        lines.append(f"\nGeomean over {len(ratios)} models: **{geomean:.3f}x** against the best Inductor mode.")
    return "\n".join(lines) + "\n"


def write_merged(out: Path, rows: list[dict]) -> Path:
    """`<out>/<date>-<gpu>.json` and `.md` from the per-model rows."""
    import torch
    import triton

    gpu = torch.cuda.get_device_name().replace(" ", "-") if torch.cuda.is_available() else "cpu"
    environments = [r["environment"] for r in rows if r.get("environment")]
    if environments and environments[0].get("gpu"):  # merging elsewhere: name the GPU the rows ran on
        gpu = environments[0]["gpu"].replace(" ", "-")
    versions = environments[0] if environments else {"torch": torch.__version__, "triton": triton.__version__}
    stem = out / f"{datetime.date.today().isoformat()}-{gpu}"
    meta = {"gpu": gpu, "torch": versions.get("torch"), "triton": versions.get("triton"),
            "date": datetime.date.today().isoformat(), "models": rows}
    stem.with_suffix(".json").write_text(json.dumps(meta, indent=1, default=str))
    missing = sorted(set(zoo_models()) - {r["model"] for r in rows})
    coverage = (f"\n{len(rows)} of {len(rows) + len(missing)} zoo models measured; not measured yet: "
                f"{', '.join(missing)}.\n" if missing else "")
    stem.with_suffix(".md").write_text(f"# Zoo end to end ({gpu}, torch {meta['torch']}, triton {meta['triton']}, "
                                       f"{meta['date']})\n\n" + table(rows) + coverage)
    return stem


def load_rows(folders: list[Path]) -> list[dict]:
    """Per-model rows from `<folder>/zoo/*.json`, a later folder's row replacing an earlier one's."""
    rows: dict[str, dict] = {}
    for folder in folders:
        for path in sorted((folder / "zoo").glob("*.json")):
            row = json.loads(path.read_text())
            rows[row["model"]] = row
    return [rows[name] for name in sorted(rows)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", help="comma-separated zoo models (default: all)")
    parser.add_argument("--out-dir", default=str(REPO / "benchmarks" / "results"), help="where results go")
    parser.add_argument("--size", default="large", choices=["small", "large"], help="model size on a GPU")
    parser.add_argument("--base", default="best", choices=["best", "default", "max-autotune"],
                        help="Inductor mode each model starts from (see kernelopt optimize --help)")
    parser.add_argument("--gpu-seconds", type=float, default=240.0, help="search budget per model")
    parser.add_argument("--proposers", default="templates,fuse,epilogue,retune", help="proposers to use")
    parser.add_argument("--merge", nargs="+", metavar="DIR", help="only merge the per-model results of earlier "
                        "runs (each DIR holds a zoo/ folder; later ones win) into --out-dir")
    args = parser.parse_args()

    out = Path(args.out_dir)
    if args.merge:
        stem = write_merged(out, load_rows([Path(d) for d in args.merge]))
        print(stem.with_suffix(".md").read_text())
        return 0
    per_model = out / "zoo"
    per_model.mkdir(parents=True, exist_ok=True)
    work = out / "zoo-work"
    work.mkdir(exist_ok=True)
    names = args.models.split(",") if args.models else zoo_models()
    for name in names:
        done = per_model / f"{name}.json"
        if done.exists():
            print(f"{name}: done earlier, skipped (delete {done} to rerun)")
            continue
        try:
            row = run_model(name, work, args)
        except Exception as err:  # one model failing must not stop the suite
            traceback.print_exc()
            row = {"model": name, "error": f"{type(err).__name__}: {err}"}
        done.write_text(json.dumps(row, indent=1, default=str))
        write_merged(out, load_rows([out]))  # after every model: a shard stopped at its limit keeps its table
    print(table(load_rows([out])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
