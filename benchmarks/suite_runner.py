"""What the GPU suites share: one problem per invocation, results appended as JSON lines, resuming.

A suite (benchmarks/large_suite.py, benchmarks/general_suite.py) is a folder of KernelBench problem
files and a function that measures one of them. This module gives it the rest:
  - `main(argv, suite)`: --problem NAME / --next / --rerun, --results, --table, --copy-to, --work and
    --budget-s; the measured row is appended to the results file as soon as the problem finishes (a
    later line for the same problem replaces an earlier one), and the table of all rows is printed;
  - `run_group()`: a child command in its own process group, killed (SIGTERM, then SIGKILL) at its time
    limit or when the suite itself is stopped, so no job outlives its device command;
  - `clean_leftovers()`, `read_json()` and the table cells' formatting.

One problem per invocation, because one device command (10 minutes at most) fits one `kernelopt
optimize` job with margin. Resuming across device commands: the machine gets a fresh copy of the tree
each time, so the results file is copied back (`--copy-to`) into the tree before the next `--next`.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from kernelopt.job_workdir import child_temp_env, folder_bytes, remove_tree

REPO = Path(__file__).resolve().parents[1]
KILL_GRACE_S = 15                 # SIGTERM first, so the job can clean up; then SIGKILL
STOPPED_GRACE_S = 3               # when the suite itself is stopped: `timeout --kill-after=10` waits 10 s
LEFTOVER_PATTERN = "kernelopt-*"
# The card the issues' figures are on: its results keep the plain file names. Another card's rows go to files
# of their own (general_suite.h100.jsonl), so that `--next` makes progress on whichever card a device
# command gets, and no table mixes cards.
REFERENCE_CARD = "NVIDIA H200"


class SuiteStopped(Exception):
    """SIGTERM reached the suite (its step's time limit): record what is known and stop."""


@dataclass
class Suite:
    """One suite's own parts; `main()` does the rest.

    run_problem(name, args) -> row     measures one problem (needs a GPU); the row has "problem"
    table(rows, names) -> str          the markdown table of the rows (names: every problem, in order)
    header(rows) -> str                the table file's title line(s), naming GPU, torch and triton
    add_arguments(parser)              the suite's own options
    select(names, args) -> names       the problems --next may pick from (e.g. a subset)
    picks_without_flag(args) -> bool   whether the suite's own options alone ask for the next problem
    """
    description: str
    label: str                                    # printed before the problem's name
    problems: Path
    results: Path
    table_path: Path
    work_name: str
    budget_s: float
    run_problem: Callable[[str, argparse.Namespace], dict]
    table: Callable[[list[dict], list[str]], str]
    header: Callable[[list[dict]], str]
    add_arguments: Callable[[argparse.ArgumentParser], None] = lambda parser: None
    select: Callable[[list[str], argparse.Namespace], list[str]] = lambda names, args: names
    picks_without_flag: Callable[[argparse.Namespace], bool] = lambda args: False   # as if --next


def problem_names(folder: Path) -> list[str]:
    return sorted(p.stem for p in Path(folder).glob("*.py") if not p.name.startswith("_"))


def load_results(path: Path) -> dict[str, dict]:
    """Problem name -> its latest result line (a later line replaces an earlier one)."""
    rows: dict[str, dict] = {}
    if path.exists():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as err:
                raise SystemExit(f"error: {path}:{number} is not a JSON line ({err.msg}); a line cut short by a "
                                 "stopped run can be deleted, the suite then measures that problem again") from None
            rows[row["problem"]] = row
    return rows


def append_result(path: Path, row: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        handle.write(json.dumps(row, default=str) + "\n")


def pick(names: list[str], done: dict[str, dict], problem: str | None, rerun: bool, folder: Path) -> str | None:
    """The problem to run now: the one named (unless done, without --rerun), or the first without a result."""
    if problem:
        if problem not in names:
            raise SystemExit(f"error: no problem {problem!r} in {folder} (there are: {', '.join(names)})")
        return problem if rerun or problem not in done else None
    return next((n for n in names if n not in done), None)


def require_gpu(what: str) -> None:
    """Stop with a clear message where there is no GPU (checked through NVML: no CUDA context here)."""
    from kernelopt.runtime.device_memory import DeviceMemoryReader

    reader = DeviceMemoryReader()
    try:
        if not reader.available:
            raise SystemExit(f"error: {what} needs a GPU: {reader.reason}")
    finally:
        reader.close()


# ---------------------------------------------------------------- child processes

def run_group(command: list[str], timeout: float, env: dict | None, log: Path) -> tuple[int | None, bool, float]:
    """Run `command` in its own process group (workers included); (exit code, timed out, seconds)."""
    started = time.perf_counter()
    with log.open("w") as handle:
        child = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, env=env, cwd=REPO,
                                 start_new_session=True)
        try:
            return child.wait(timeout=max(timeout, 1)), False, time.perf_counter() - started
        except subprocess.TimeoutExpired:
            _stop_group(child, KILL_GRACE_S)
            return child.returncode, True, time.perf_counter() - started
        except BaseException:  # SuiteStopped, Ctrl-C: the job must not outlive the suite
            _stop_group(child, STOPPED_GRACE_S)
            raise


def _stop_group(child: subprocess.Popen, grace_s: float) -> None:
    for signum, grace in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 5)):
        try:
            os.killpg(child.pid, signum)
        except ProcessLookupError:
            return
        try:
            child.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


JOB_EXIT_MARGIN_S = 20.0     # between the job's own wall target and the kill: its last steps' overrun


def run_optimize(path: Path, work: Path, job_tmp: Path, timeout: float, options: tuple[str, ...] = ()
                 ) -> tuple[dict, dict]:
    """`kernelopt optimize PATH -o WORK/<name>_opt.py --report WORK/report OPTIONS` in its own process group,
    its temp files in `job_tmp`; (what the job did, its report.json or {})."""
    out = work / f"{path.stem}_opt.py"
    report_dir = work / "report"
    # the job is told its limit, so that it ends its search in time to write its module and report
    # (killed at the limit, it leaves no report)
    limit = () if "--time-limit" in options else ("--time-limit", f"{max(30.0, timeout - JOB_EXIT_MARGIN_S):.0f}")
    command = [sys.executable, "-m", "kernelopt.cli", "optimize", str(path), "-o", str(out),
               "--report", str(report_dir), *limit, *options]
    rc, timed_out, seconds = run_group(command, timeout, child_temp_env(job_tmp), work / "optimize.log")
    report = read_json(report_dir / "report.json")
    return {"command": " ".join(command[1:]), "rc": rc, "timed_out": timed_out, "wall_s": round(seconds, 1),
            "output_written": out.exists(), "report_status": report.get("status"),
            "fallback_reason": report.get("fallback_reason"),
            "log_tail": (work / "optimize.log").read_text(errors="replace")[-1500:]}, report


def last_json_line(text: str) -> dict:
    """The JSON object a child printed last (its figures), or {} when it printed none."""
    for line in reversed(text.strip().splitlines()):
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return {}


def clean_leftovers(folders: list[Path], keep: Path | None = None) -> int:
    """Remove `kernelopt-*` entries under each folder, except `keep` and the folders above it (the
    suite's own --work, which a user may name /tmp/kernelopt-...); the bytes they held."""
    cleaned = 0
    kept = Path(keep).resolve() if keep is not None else None
    for folder in folders:
        for entry in Path(folder).glob(LEFTOVER_PATTERN):
            if kept is not None and (entry.resolve() == kept or entry.resolve() in kept.parents):
                continue
            cleaned += folder_bytes(entry) if entry.is_dir() else _file_bytes(entry)
            if entry.is_dir() and not entry.is_symlink():
                remove_tree(entry)
            else:
                entry.unlink(missing_ok=True)
    return cleaned


def read_json(path: Path) -> dict:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError):
        return {}


def _file_bytes(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0


# ---------------------------------------------------------------- table cells

def num(value, unit: float, digits: int, suffix: str = "") -> str:
    return "–" if value is None else f"{value / unit:.{digits}f}{suffix}"


def text(value) -> str:
    return "–" if value is None else str(value)


def yes(value) -> str:
    return "–" if value is None else ("yes" if value else "**no**")


def ok(value) -> str:
    return "–" if value is None else ("ok" if value else "**over**")


def environment_title(rows: list[dict]) -> str:
    """'GPU, torch X, triton Y' of the first row that recorded one."""
    env = next((r["environment"] for r in rows if r.get("environment")), {}) or {}
    return f"{env.get('gpu', 'GPU unknown')}, torch {env.get('torch', '?')}, triton {env.get('triton', '?')}"


# ---------------------------------------------------------------- main

def _stop(signum, frame):
    raise SuiteStopped()


def card_suffix(gpu_name: str | None) -> str:
    """'' on the reference card or without a GPU; else the card's short name ('h100' for 'NVIDIA H100 80GB
    HBM3'), which its results files carry."""
    if not gpu_name or gpu_name.startswith(REFERENCE_CARD):
        return ""
    model = re.search(r"\b([A-Za-z]+\d+[A-Za-z]*)\b", gpu_name.replace("NVIDIA", ""))
    return (model.group(1) if model else re.sub(r"\W+", "-", gpu_name).strip("-")).lower()


def for_card(path: Path, suffix: str) -> Path:
    """`path` as the results or table file of the card with this suffix."""
    return path.with_name(f"{path.stem}.{suffix}{path.suffix}") if suffix else path


def current_gpu_name() -> str | None:
    import torch  # lazy: the suites' CPU-only commands (--table, --write-manifest) need no CUDA

    return torch.cuda.get_device_name() if torch.cuda.is_available() else None


def main(argv: list[str] | None, suite: Suite) -> int:
    parser = argparse.ArgumentParser(description=suite.description)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--problem", help="the problem to run (a file stem in --problems-dir)")
    which.add_argument("--next", action="store_true", help="run the first problem without a result")
    parser.add_argument("--rerun", action="store_true", help="run --problem even if it has a result")
    parser.add_argument("--results", default=str(suite.results), help="JSON lines, one per problem (appended)")
    parser.add_argument("--table", nargs="?", const=str(suite.table_path), metavar="MD",
                        help=f"write the table (default {suite.table_path})")
    parser.add_argument("--copy-to", metavar="DIR", help="also copy the results (and table) into DIR")
    parser.add_argument("--problems-dir", default=str(suite.problems), help=argparse.SUPPRESS)
    parser.add_argument("--work", default=str(Path(tempfile.gettempdir()) / suite.work_name),
                        help="where each problem's output module, report and logs go")
    parser.add_argument("--budget-s", type=float, default=suite.budget_s, help="the whole invocation's time")
    parser.add_argument("--card", help=f"the GPU whose results and table files to use, e.g. 'NVIDIA H100 80GB HBM3' "
                                       f"(default: this machine's; {REFERENCE_CARD} and no GPU use the plain names)")
    suite.add_arguments(parser)
    args = parser.parse_args(argv)

    suffix = card_suffix(args.card or current_gpu_name())
    if args.results == str(suite.results):
        args.results = str(for_card(suite.results, suffix))
    if args.table == str(suite.table_path):
        args.table = str(for_card(suite.table_path, suffix))
    results = Path(args.results)
    folder = Path(args.problems_dir)
    names = problem_names(folder)
    done = load_results(results)
    wants_next = args.next or (not args.problem and suite.picks_without_flag(args))
    name = None
    if args.problem:
        name = pick(names, done, args.problem, args.rerun, folder)
        if name is None:
            print(f"{args.problem}: has a result in {results} already (--rerun to run it again)")
    elif wants_next:
        name = pick(suite.select(names, args), done, None, False, folder)
        if name is None:
            print(f"every problem has a result in {results}")
    if name:
        previous = signal.signal(signal.SIGTERM, _stop)
        try:
            print(f"{suite.label}: {name}", flush=True)
            row = suite.run_problem(name, args)
        finally:
            signal.signal(signal.SIGTERM, previous)
        append_result(results, row)
        done[name] = row
    rows = [done[n] for n in names if n in done] + [r for n, r in done.items() if n not in names]
    print(suite.table(rows, names))
    if args.table:
        path = Path(args.table)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(suite.header(rows) + "\n\n" + suite.table(rows, names))
    if args.copy_to:
        target = Path(args.copy_to)
        target.mkdir(parents=True, exist_ok=True)
        for path in (results, Path(args.table) if args.table else None):
            if path is not None and path.exists():
                shutil.copy2(path, target / path.name)
    return 0
