"""A quick look at many general problems in one device command: do the schedule transforms apply, pass
the gate, and win? Not the issue's figures (those come from `general_suite.py`, default options, one
problem per command); this runs each problem with a short search so that eight fit in ten minutes.

    python3 benchmarks/general_probe.py --problems a,b,c --out probe.jsonl [--per-problem-s 75]

Per problem: `kernelopt optimize P --base default --gpu-seconds G` with the product's own proposer list (or
`--proposers LIST`), killed at --per-problem-s; one JSON line with the report's summary (general_suite.summarize: the job's
user-call ratio against Inductor default, the main kernel's percent of its floor before and after, which
proposer won or what stopped the search) and the transforms' remarks. Problems run in the order given until
--budget-s is spent. `--keep-modules DIR` keeps each job's written module and the emitted module its guard timed
(DIR/<problem>/), to see afterwards why a module lost to Inductor's.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import general_suite
from suite_runner import run_optimize

TRANSFORMS = ("outer-tile", "row-on-chip", "fold-pass", "block-online", "split-row", "store-remap", "align-split",
              "fold-split", "absorb-consumer", "diagonal-operand", "sum-through-gemm", "memory-order",
              "fusion group", "group:")


def probe(name: str, per_problem_s: float, gpu_seconds: float, proposers: str,
          problem_dir: Path = general_suite.PROBLEMS, keep_modules: Path | None = None) -> dict:
    path = problem_dir / f"{name}.py"
    work = Path(tempfile.mkdtemp(prefix="kernelopt-probe-"))
    job_tmp = work / "tmp"
    job_tmp.mkdir()
    try:
        options = ("--base", "default", "--gpu-seconds", str(gpu_seconds))
        if proposers != "default":   # "default": the product's own proposer list, as a user gets it
            options += ("--proposers", proposers)
        job, report = run_optimize(path, work, job_tmp, per_problem_s, options)
        row = {"problem": name, "job": {k: job[k] for k in ("rc", "timed_out", "wall_s", "output_written")},
               **general_suite.summarize(report)}
        row["transform_remarks"] = [r for r in report.get("remarks") or [] if any(t in r for t in TRANSFORMS)][:12]
        row["kernels"] = [{k: r.get(k) for k in ("op", "group", "proposer", "legality", "time_us", "after_us",
                                                  "roofline_before_pct", "roofline_pct")}
                          for r in report.get("kernels") or []][:12]
        if job["rc"] != 0:
            row["log_tail"] = job["log_tail"]
        return row
    finally:
        if keep_modules is not None:
            kept = keep_modules / name
            kept.mkdir(parents=True, exist_ok=True)
            for module in [*work.glob("*_opt.py"), *work.rglob("emitted_for_guard*.py")]:
                shutil.copy(module, kept / module.name)
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--problems", required=True, help="comma-separated problem names, run in this order")
    parser.add_argument("--out", required=True, help="JSON lines, one per problem (appended)")
    parser.add_argument("--per-problem-s", type=float, default=75, help="one job's limit")
    parser.add_argument("--gpu-seconds", type=float, default=25, help="the search's budget per job")
    parser.add_argument("--proposers", default="default",
                        help="comma-separated proposers, or 'default' for the product's own list")
    parser.add_argument("--keep-modules", type=Path, default=None,
                        help="keep each job's written and guard-timed modules under this folder")
    parser.add_argument("--budget-s", type=float, default=540, help="stop starting problems after this")
    parser.add_argument("--problem-dir", type=Path, default=general_suite.PROBLEMS,
                        help="where the problem files are (e.g. benchmarks/unseen_gpu_problems)")
    args = parser.parse_args()
    started = time.monotonic()
    for name in args.problems.split(","):
        if time.monotonic() - started + args.per_problem_s > args.budget_s:
            print(f"{name}: skipped, out of budget", flush=True)
            continue
        row = probe(name, args.per_problem_s, args.gpu_seconds, args.proposers, args.problem_dir, args.keep_modules)
        with open(args.out, "a") as handle:
            handle.write(json.dumps(row) + "\n")
        user, main = row.get("user_call") or {}, row.get("main_kernel") or {}
        print(f"{name}: rc={row['job']['rc']} {row['job']['wall_s']}s ratio={user.get('ratio')} "
              f"main={main.get('before_pct')}->{main.get('after_pct')}% won={row.get('proposers_won')} "
              f"stopped={str(row.get('stopped_by'))[:160]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
