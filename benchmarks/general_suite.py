"""Issue 19's general benchmark: `kernelopt optimize` on KernelBench-style problems beyond the zoo.

    python3 benchmarks/general_suite.py --next                  # the first problem without a result
    python3 benchmarks/general_suite.py --subset dev            # the first of the 8 dev problems without one
    python3 benchmarks/general_suite.py --problem huber_loss    # that one (skipped if it has a result; --rerun)
    python3 benchmarks/general_suite.py --table                 # only rewrite benchmarks/results/general_suite.md
    python3 benchmarks/general_suite.py --write-manifest        # add new problem files to problems.json + README

The problems are benchmarks/general_problems/<name>.py: plain KernelBench files (one size each; norms,
reductions, scans, losses, softmax variants, conv/GEMM chains), frozen by the sha256 in problems.json.
One problem per invocation, so one device command runs one problem. For the problem it
  a) runs `kernelopt optimize PROBLEM.py -o OUT.py --report DIR --keep-work KEEP` with default options in
     its own process group, killed at its time limit;
  b) times, in one child process, OUT.py's call() against the call() of each Inductor module the job
     captured (kept in KEEP), side by side on the same rotated inputs (kernelopt.guard's timing);
  c) reads the job's report.json: the best Inductor mode and KernelOPT as a user calls them
     (torch.compile'd model vs kernelopt.load, timed side by side by the job), the main kernel's percent
     of its bandwidth floor before and after, which proposer won, and what stopped the search when
     nothing was kept.
Each result is appended to --results (one JSON line); the markdown table of all results so far is
printed (and written with --table). Resuming across device commands: see benchmarks/suite_runner.py.
"""
from __future__ import annotations

import datetime
import hashlib
import inspect
import json
import math
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # suite_runner, beside this file

import suite_runner
from suite_runner import (KILL_GRACE_S, SuiteStopped, clean_leftovers, last_json_line, num, require_gpu, run_group,
                          run_optimize, text)

REPO = Path(__file__).resolve().parents[1]
PROBLEMS = REPO / "benchmarks" / "general_problems"
MANIFEST = PROBLEMS / "problems.json"
README = PROBLEMS / "README.md"
RESULTS = REPO / "benchmarks" / "results" / "general_suite.jsonl"
TABLE = REPO / "benchmarks" / "results" / "general_suite.md"
BUDGET_S = 460                    # one device command's step is 470 s (h200_session.sh `general`)
JOB_TIMEOUT_S = 330               # a job is meant to end within 5 minutes; the margin shows how far over
# One side-by-side run of the same module twice spread about 0.5 % on an H100 (2026-12-06-h100, runs 9 and 10):
# the table says how many problems are slower beyond twice that.
NOISE_BAND = 0.01
CALL_TIMEOUT_S = 60               # building the inputs, loading three modules, 2 x 5 timed rounds (18-27 s
                                  # on an H100 for 16 problems; what it does not use is the job's)
# Below this a job has time for its captures and little else: jobs given 15-50 s (a device command's
# step of 150-190 s) stopped before their search, reported "timed out" and left rows that looked measured
MIN_JOB_S = 90
CATEGORIES = ("norm", "reduction", "scan", "loss", "softmax", "chain")
SUBSETS = ("dev",)
TABLE_BEGIN = "<!-- BEGIN problems table: written by `python3 benchmarks/general_suite.py --write-manifest` -->"
TABLE_END = "<!-- END problems table -->"


# ---------------------------------------------------------------- the problems and their manifest

def describe(path: Path) -> dict:
    """What the manifest records of one problem file: category, sha256, dtype, inputs, input bytes.

    Nothing is allocated: the model and inputs are built on the meta device."""
    import torch

    from kernelopt.capture.models import _import_file, input_bytes

    module = _import_file(path)
    doc = (module.__doc__ or "").strip()
    category = doc.split(":", 1)[0].strip().lower() if ":" in doc.splitlines()[0] else ""
    if category not in CATEGORIES:
        raise SystemExit(f"error: {path}: the docstring's first line must start with a category and a colon "
                         f"(one of {', '.join(CATEGORIES)}), e.g. '\"\"\"Norm: LayerNorm over ...\"\"\"'")
    with torch.device("meta"):
        inputs = module.get_inputs()
    names = list(inspect.signature(module.Model.forward).parameters)[1:]
    floats = [x.dtype for x in inputs if isinstance(x, torch.Tensor) and x.is_floating_point()]
    return {"category": category, "sha256": file_sha256(path),
            "dtype": _short_dtype(floats[0]) if floats else "-",
            "channels_last": any(_is_channels_last(x) for x in inputs if isinstance(x, torch.Tensor)),
            "inputs": ", ".join(_input_text(name, x) for name, x in zip(names, inputs)),
            "input_bytes": input_bytes(str(path))}


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _short_dtype(dtype) -> str:
    return {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}.get(str(dtype).replace("torch.", ""),
                                                                         str(dtype).replace("torch.", ""))


def _is_channels_last(x) -> bool:
    import torch

    fmt = {4: torch.channels_last, 5: torch.channels_last_3d}.get(x.dim())
    return fmt is not None and x.is_contiguous(memory_format=fmt) and not x.is_contiguous()


def _input_text(name: str, x) -> str:
    import torch

    if not isinstance(x, torch.Tensor):
        return f"{name}={x!r}"
    return (f"{name} {list(x.shape)} {_short_dtype(x.dtype)}"
            + (" channels-last" if _is_channels_last(x) else ""))


def load_manifest(path: Path = MANIFEST) -> dict:
    return json.loads(path.read_text()) if path.exists() else {"problems": {}, "subsets": {}}


def write_manifest(folder: Path = PROBLEMS, manifest_path: Path = MANIFEST, readme: Path = README) -> list[str]:
    """Add the problem files the manifest lacks (and rewrite README's table); the names added.

    A problem's hash is written once: a file edited or removed afterwards is an error, because results
    measured on the old file would be mixed with the new one's under the same name."""
    manifest = load_manifest(manifest_path)
    problems = manifest.setdefault("problems", {})
    names = suite_runner.problem_names(folder)
    changed = [n for n in names if n in problems and problems[n]["sha256"] != file_sha256(folder / f"{n}.py")]
    removed = [n for n in problems if n not in names]
    if changed or removed:
        raise SystemExit("error: the problems are frozen once in the manifest, but "
                         + "; ".join(filter(None, [changed and f"edited: {', '.join(changed)}",
                                                   removed and f"removed: {', '.join(removed)}"]))
                         + f". Restore them (git checkout {folder}) and add a changed problem as a new file.")
    added = [n for n in names if n not in problems]
    for name in added:
        problems[name] = describe(folder / f"{name}.py")
    manifest["problems"] = dict(sorted(problems.items()))
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    if readme.exists():
        _write_readme_table(readme, manifest)
    return added


def _write_readme_table(readme: Path, manifest: dict) -> None:
    body = readme.read_text()
    if TABLE_BEGIN not in body or TABLE_END not in body:
        raise SystemExit(f"error: {readme} has no table markers; put the lines\n{TABLE_BEGIN}\n{TABLE_END}\n"
                         "where the table of problems belongs")
    head, rest = body.split(TABLE_BEGIN, 1)
    tail = rest.split(TABLE_END, 1)[1]
    dev = set(manifest.get("subsets", {}).get("dev", []))
    lines = ["| file | category | inputs (shapes, dtype) | dtype | input MB | dev |", "| --- | --- | --- | --- | --- | --- |"]
    for name, entry in manifest["problems"].items():
        lines.append(f"| {name}.py | {entry['category']} | {entry['inputs']} | {entry['dtype']} | "
                     f"{num(entry['input_bytes'], 1e6, 1)} | {'yes' if name in dev else ''} |")
    readme.write_text(head + TABLE_BEGIN + "\n" + "\n".join(lines) + "\n" + TABLE_END + tail)


def select(names: list[str], args) -> list[str]:
    """The problems --next may pick: all, or those of --subset (in the manifest's order)."""
    if not getattr(args, "subset", None):
        return names
    subset = load_manifest(Path(args.problems_dir) / MANIFEST.name).get("subsets", {}).get(args.subset, [])
    return [n for n in subset if n in names]


# ---------------------------------------------------------------- what the job's report says

def summarize(report: dict) -> dict:
    """The figures the table shows, from one optimize report.json (see kernelopt/report/build.py)."""
    steps = report.get("steps") or []
    guard = _written_guard(steps)
    kept_original = bool(guard and "written out unchanged" in guard)
    e2e = report.get("end_to_end_ms") or {}
    inductor = {k.removeprefix("inductor "): v for k, v in e2e.items() if k.startswith("inductor ") and v}
    best = min(inductor, key=inductor.get) if inductor else None
    main = main_kernel(report.get("kernels") or [], kept_original)
    won = sorted({r["proposer"] for r in report.get("kernels") or [] if r.get("proposer")}) if not kept_original else []
    return {"environment": report.get("environment"), "status": report.get("status"),
            "fallback_reason": report.get("fallback_reason"), "base_mode": report.get("base_mode"),
            "user_call": {"best_inductor_mode": best, "best_inductor_ms": inductor.get(best),
                          "kernelopt_ms": e2e.get("kernelopt"),
                          "ratio": _ratio(inductor.get(best), e2e.get("kernelopt")), "all_ms": e2e or None},
            "guard": guard, "main_kernel": main, "triton_over_floor": triton_over_floor(report.get("kernels") or []),
            "proposers_won": won, "stopped_by": None if won else stopped_by(report, guard, main)}


def triton_over_floor(rows: list[dict]) -> float | None:
    """The time Inductor's module spends in Triton kernels over their roofline floors, before any rewrite: the
    issue's "spends more than 1.25x its floor in Triton kernels". A replaced group member keeps its own row,
    so every original launch counts once; library calls (cuBLAS, cuDNN) are not Triton's."""
    timed = [r for r in rows if str(r.get("dispatch") or "").startswith("triton") and r.get("time_us")
             and r.get("floor_us")]
    if not timed:
        return None
    return round(sum(r["time_us"] for r in timed) / sum(r["floor_us"] for r in timed), 3)


def main_kernel(rows: list[dict], kept_original: bool) -> dict | None:
    """The launch that took longest before (a replaced group member is counted in its group's row);
    its percent of the roofline floor before and after. When the guard wrote Inductor's module out,
    the kernel that runs is the original one, so "after" is "before"."""
    rows = [r for r in rows if not r.get("replaced_by") and r.get("time_us")]
    if not rows:
        return None
    row = max(rows, key=lambda r: r["time_us"])
    after_pct = row.get("roofline_before_pct") if kept_original else row.get("roofline_pct")
    return {"op": row.get("group") or row.get("op"), "dispatch": row.get("dispatch"), "bound": row.get("bound"),
            "time_us": row["time_us"], "after_us": row["time_us"] if kept_original else row.get("after_us"),
            "floor_us": row.get("floor_us"), "before_pct": row.get("roofline_before_pct"), "after_pct": after_pct}


def _written_guard(steps: list[dict]) -> str | None:
    """The guard step of the base whose module was written (the one `choose` names, else the only one)."""
    guards = [s for s in steps if s.get("name") == "guard" and s.get("status") == "done"]
    chose = next((s["detail"] for s in steps if s.get("name") == "choose" and s.get("status") == "done"), "")
    mode = re.search(r"writing the (\S+) result", chose)
    if mode:
        guards = [s for s in guards if s["detail"].startswith(f"[{mode.group(1)}]")] or guards
    return guards[-1]["detail"] if guards else None


def stopped_by(report: dict, guard: str | None, main: dict | None) -> str:
    """Why no proposer's kernel runs in the written module, most decisive reason first: the job's status,
    the guard (when rewrites were accepted but the whole module was not faster), the optimize step that
    left the module unchanged, the search's remark on the main kernel, the gate's rejection, any remark."""
    if report.get("status") and report["status"] != "optimized":
        skipped = next((s["detail"] for s in report.get("steps") or [] if s.get("status") == "skipped"), None)
        return f"{report['status']}: {report.get('fallback_reason') or skipped or 'no reason recorded'}"
    proposed = any(r.get("proposer") for r in report.get("kernels") or [])
    if proposed and guard and "written out unchanged" in guard:  # rewrites passed the gate, the module did not win
        return "guard: " + guard.split("] ", 1)[-1]
    unchanged = next((s["detail"] for s in report.get("steps") or []
                      if s.get("name") == "optimize" and s.get("status") == "skipped"), None)
    if unchanged:
        return unchanged
    # a proposer left out for want of configuration (the LLM without an endpoint) stops nothing
    remarks = [r.split("[agentic-rewrite] ", 1)[1] for r in report.get("remarks") or []
               if "[agentic-rewrite] " in r and not r.split("[agentic-rewrite] ", 1)[1].startswith("proposer '")]
    name = str((main or {}).get("op") or "")
    about_main = [r for r in remarks if name and name in r]
    rejected = next((r["legality"] for r in report.get("kernels") or []
                     if str(r.get("legality") or "").startswith("REJECT")), None)
    if about_main:
        return about_main[0]
    if rejected:
        return f"check-legality: {rejected}"
    # the longest launch is a library call (a conv on cuDNN): what the Triton kernels around it got
    library = (f"{name} ({main['dispatch']}) takes the most time; "
               if str((main or {}).get("dispatch") or "").startswith("vendor") else "")
    return library + (remarks[0] if remarks else "no rewrite was proposed (no remark recorded)")


def _ratio(inductor_ms, kernelopt_ms) -> float | None:
    """Inductor's time over KernelOPT's: above 1, KernelOPT's module is faster."""
    return round(inductor_ms / kernelopt_ms, 4) if inductor_ms and kernelopt_ms else None


# ---------------------------------------------------------------- measuring one problem

CALL_CHILD = r"""
import json, sys, torch, triton
from pathlib import Path
import kernelopt
from kernelopt import guard
from kernelopt.capture.models import load_model
problem, written, keep = sys.argv[1:4]
model, inputs, _ = load_model(problem, device="cuda", seed=0, size="large")
args = kernelopt.load(written, model, device="cuda").call_args(inputs)  # the model's inputs and weights, as call() takes them
figures = {"inductor_ms": {}, "kernelopt_ms": {}, "errors": {},
           "environment": {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__}}
for manifest in sorted(Path(keep).glob("manifest.json")) + sorted(Path(keep).glob("*/manifest.json")):
    captured = json.loads(manifest.read_text())
    mode = captured.get("mode") or manifest.parent.name
    try:
        timed = guard.time_side_by_side(str(manifest.parent / captured["graphs"][0]["module"]), written, args)
        figures["inductor_ms"][mode], figures["kernelopt_ms"][mode] = timed.original_ms, timed.emitted_ms
    except Exception as err:
        figures["errors"][mode] = f"{type(err).__name__}: {err}"[:300]
print(json.dumps(figures))
"""


def measure_calls(path: Path, written: Path, keep: Path, work: Path, timeout: float) -> dict:
    """(b) the written module's call() against each captured Inductor module's call(), side by side."""
    log = work / "calls.log"
    rc, timed_out, seconds = run_group([sys.executable, "-c", CALL_CHILD, str(path), str(written), str(keep)],
                                       timeout, None, log)
    output = log.read_text(errors="replace")
    figures = last_json_line(output) if rc == 0 else {}
    inductor = figures.get("inductor_ms") or {}
    best = min(inductor, key=inductor.get) if inductor else None
    return {"rc": rc, "timed_out": timed_out, "wall_s": round(seconds, 1), **figures,
            "best_inductor_mode": best, "best_inductor_ms": inductor.get(best),
            "kernelopt_ms": (figures.get("kernelopt_ms") or {}).get(best),
            "ratio": _ratio(inductor.get(best), (figures.get("kernelopt_ms") or {}).get(best)),
            **({} if rc == 0 else {"log_tail": output[-1500:]})}


def job_seconds(args) -> float:
    """The job's share of --budget-s (the rest times the written module's call()); a budget that leaves it
    less than MIN_JOB_S is refused before anything runs, so that no row is written for a job cut short."""
    seconds = min(args.job_timeout_s, args.budget_s - CALL_TIMEOUT_S - KILL_GRACE_S - 10)
    if seconds < MIN_JOB_S:
        needed = MIN_JOB_S + CALL_TIMEOUT_S + KILL_GRACE_S + 10
        raise SystemExit(f"general suite: error: --budget-s {args.budget_s:.0f} leaves the job {seconds:.0f} s, "
                         f"under the {MIN_JOB_S} s it needs for its captures and a search; give at least "
                         f"--budget-s {needed} (h200_session.sh: GENERAL_LIMIT={needed + 10} or more) and "
                         f"--job-timeout-s {MIN_JOB_S} or more")
    return seconds


def run_problem(name: str, args) -> dict:
    job_s = job_seconds(args)                   # a budget too small is refused before the GPU is asked
    require_gpu("the general suite times modules on the device and")
    started = time.perf_counter()
    path = Path(args.problems_dir) / f"{name}.py"
    work = Path(args.work) / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    job_tmp, keep = work / "tmp", work / "keep"   # under --work, not named kernelopt-*
    system_tmp = Path(tempfile.gettempdir())
    entry = load_manifest(Path(args.problems_dir) / MANIFEST.name).get("problems", {}).get(name, {})
    row = {"problem": name, "date": datetime.datetime.now().isoformat(timespec="seconds"),
           "category": entry.get("category"), "dtype": entry.get("dtype"), "input_bytes": entry.get("input_bytes"),
           "file_matches_manifest": entry.get("sha256") == file_sha256(path)}
    clean_leftovers([system_tmp], keep=work)  # earlier runs' debris is not this job's
    try:
        row["job"], report = run_optimize(path, work, job_tmp, job_s, ("--keep-work", str(keep)))
        row.update(summarize(report))
        written = work / f"{name}_opt.py"
        if written.exists() and written.with_suffix(".json").exists():
            remaining = args.budget_s - (time.perf_counter() - started) - KILL_GRACE_S
            row["module_call"] = measure_calls(path, written, keep, work, min(CALL_TIMEOUT_S, remaining))
            row["environment"] = row.get("environment") or row["module_call"].get("environment")
    except SuiteStopped:
        row["error"] = "the suite was stopped (its step's time limit) before the problem finished"
    row["cleaned_bytes"] = clean_leftovers([system_tmp, job_tmp], keep=work)
    keep_guarded_modules(keep, work)
    shutil.rmtree(keep, ignore_errors=True)
    shutil.rmtree(job_tmp, ignore_errors=True)
    row["suite_wall_s"] = round(time.perf_counter() - started, 1)
    return row


GUARDED_MODULE_MAX_BYTES = 2 << 20


def keep_guarded_modules(keep: Path, work: Path) -> None:
    """The module the guard timed against Inductor's (guard-<mode>/emitted_for_guard.py in the job's kept work
    folder) beside the problem's log: where the guard found it slower, this is the only copy of what ran
    (h200_session.sh brings it back with the log)."""
    for timed in sorted(keep.glob("guard-*/emitted_for_guard.py")):
        if timed.stat().st_size <= GUARDED_MODULE_MAX_BYTES:
            shutil.copyfile(timed, work / f"emitted_for_{timed.parent.name}.py")


# ---------------------------------------------------------------- the table

COLUMNS = ("problem", "category", "dtype", "status", "best Inductor mode", "its ms", "KernelOPT ms",
           "ratio as called", "ratio call()", "main kernel % of floor before → after", "proposer won",
           "stopped by")
STOPPED_BY_CHARS = 140


def table(rows: list[dict], names: list[str]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
    for row in rows:
        user, calls, main = row.get("user_call") or {}, row.get("module_call") or {}, row.get("main_kernel") or {}
        job = row.get("job") or {}
        status = "stopped" if row.get("error") else "timed out" if job.get("timed_out") else row.get("status")
        kernel = (f"{text(main.get('before_pct'))} → {text(main.get('after_pct'))}" if main else "–")
        cells = [row["problem"], text(row.get("category")), text(row.get("dtype")), text(status),
                 text(user.get("best_inductor_mode")), num(user.get("best_inductor_ms"), 1, 4),
                 num(user.get("kernelopt_ms"), 1, 4), num(user.get("ratio"), 1, 3, "x"),
                 num(calls.get("ratio"), 1, 3, "x") + (f" ({calls['best_inductor_mode']})"
                                                        if calls.get("best_inductor_mode") else ""),
                 kernel, ", ".join(row.get("proposers_won") or []) or "–", _cell(row.get("stopped_by"))]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines += summary_lines(rows, names)
    return "\n".join(lines) + "\n"


def summary_lines(rows: list[dict], names: list[str]) -> list[str]:
    measured = {r["problem"] for r in rows}
    missing = [n for n in names if n not in measured]
    lines = []
    for label, key in (("as a user calls each (torch.compile'd model vs kernelopt.load)", "user_call"),
                       ("call() vs call(), side by side in one process", "module_call")):
        ratios = [r[key]["ratio"] for r in rows if (r.get(key) or {}).get("ratio")]
        if ratios:
            mean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            beyond = sum(x < 1 - NOISE_BAND for x in ratios)
            lines.append(f"- Ratio {label}: geometric mean {mean:.3f}x over {len(ratios)} problems; KernelOPT "
                         f"faster on {sum(x > 1 for x in ratios)}, slower on {sum(x < 1 for x in ratios)} "
                         f"({beyond} by more than {NOISE_BAND:.0%}).")
    lines.append(f"- {len(rows)} of {len(names)} problems measured" + (f"; not yet: {', '.join(missing)}." if missing
                                                                      else "."))
    lines += _room_line(rows)
    lines.append("- Ratios are Inductor's time over KernelOPT's (above 1: KernelOPT faster). *As called*: the best of "
                 "Inductor default, max-autotune-no-cudagraphs and max-autotune (CUDA graphs) against "
                 "kernelopt.load, ms per call back to back with rotated inputs (the job's report). *call()*: the "
                 "written module against the faster Inductor module the job captured (mode in brackets). Main "
                 "kernel: the launch that took longest before; % of its roofline (bandwidth) floor from the "
                 "report. *Stopped by*: why no proposer's kernel runs, when none does.")
    return lines


ROOM = 1.25                     # the "more than 1.25x its floor in Triton kernels"
IMPROVED = 1.02                 # call() ratio a problem must reach to count as improved


def _room_line(rows: list[dict]) -> list[str]:
    """How many problems had room in their Triton kernels, and which of them were left unimproved."""
    known = [r for r in rows if r.get("triton_over_floor")]
    if not known:
        return []
    roomy = [r for r in known if r["triton_over_floor"] > ROOM]
    left = [r["problem"] for r in roomy if ((r.get("module_call") or {}).get("ratio") or 0) < IMPROVED]
    return [f"- Triton kernels above {ROOM}x their floor before any rewrite: {len(roomy)} of {len(known)} problems "
            f"that record it; left below {IMPROVED}x call(): {len(left)}" + (f" ({', '.join(left)})." if left else ".")]


def _cell(value) -> str:
    if not value:
        return "–"
    value = str(value).replace("|", "/").replace("\n", " ")
    return value if len(value) <= STOPPED_BY_CHARS else value[: STOPPED_BY_CHARS - 1] + "…"


def header(rows: list[dict]) -> str:
    """The title names GPU, torch and triton; rows measured elsewhere are named one by one."""
    title = f"# General problems: kernelopt optimize beyond the zoo ({suite_runner.environment_title(rows)})"
    first = next((r["environment"] for r in rows if r.get("environment")), None)
    others = [f"{r['problem']} ({suite_runner.environment_title([r])})" for r in rows
              if r.get("environment") and r["environment"] != first]
    return title + (f"\n\nMeasured elsewhere: {'; '.join(others)}." if others else "")


# ---------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if "--write-manifest" in argv:
        added = write_manifest()
        print(f"{MANIFEST}: {len(added)} problem(s) added" + (f": {', '.join(added)}" if added else ""))
        return 0

    def add_arguments(parser):
        parser.add_argument("--subset", choices=SUBSETS, help="pick the next problem from this subset (problems.json)")
        parser.add_argument("--job-timeout-s", type=float, default=JOB_TIMEOUT_S, help="kernelopt optimize's limit")
        parser.add_argument("--write-manifest", action="store_true",
                            help="add new problem files to problems.json and README.md's table, and stop")

    # run_problem and table are looked up when called, so a test can replace them in this module.
    return suite_runner.main(argv, suite_runner.Suite(
        description=__doc__.split("\n\n")[0], label="general suite", problems=PROBLEMS, results=RESULTS,
        table_path=TABLE, work_name="general_suite_work", budget_s=BUDGET_S,
        run_problem=lambda name, args: run_problem(name, args), table=lambda rows, names: table(rows, names),
        header=header, add_arguments=add_arguments, select=select,
        picks_without_flag=lambda args: bool(args.subset)))


if __name__ == "__main__":
    raise SystemExit(main())
