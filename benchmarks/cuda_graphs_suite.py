"""Issue 22's figures: KernelOPT's CUDA graphs against Inductor's three modes, through torch.compile.

    python benchmarks/cuda_graphs_suite.py --out-dir benchmarks/results          # on a GPU (~6-8 min)
    python benchmarks/cuda_graphs_suite.py --dry-run --out-dir /tmp/cg           # no GPU: checks the harness
    python benchmarks/cuda_graphs_suite.py --list                                # the cases

Cases: the zoo's transformer_block, mlp, rmsnorm and embedding_pos at their small size and at decode
shapes (batch 1, 4, 8; one token per sequence, the large size's width). Each case is compiled four ways
in one process and timed side by side: torch.compile with Inductor `default`,
`max-autotune-no-cudagraphs`, `max-autotune` (CUDA graphs, input copies), and `backend="kernelopt"`
with `options={"cuda_graphs": ..., "gpu_seconds": ...}` (default: auto, no kernel search, so the
figures isolate launch overhead). Dynamo's guards run on every side. Two input regimes:
  same     the same input tensors every call (a serving loop);
  ring64   inputs drawn in turn from 64 distinct buffers (the allocator cannot hand back the captured
           addresses: what a program that makes new inputs each call gets).
Per variant and regime: warm-up calls, then interleaved rounds of N calls issued back to back, one
synchronize per round; the figure is the median over rounds of microseconds per call. Outputs are
fresh (the caller's). Headline per regime: geomean of kernelopt's speedup over the best of Inductor
default / max-autotune-no-cudagraphs, and over max-autotune (issue targets: 1.5x and 1.15x). Also per
case: the device memory kernelopt's graphs hold (read from the emitted modules' `cuda_graphs.stats()`),
auto's decision, and the largest difference of kernelopt's output from Inductor default's.

Writes cuda_graphs_suite.json and cuda_graphs_suite.md (GPU, torch, triton, date) after every case, so
a run stopped at its limit keeps what finished; `--budget-s` stops starting cases in time.
"""
from __future__ import annotations

import argparse
import datetime
import gc
import importlib.util
import json
import math
import os
import statistics
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ZOO = REPO / "tests" / "zoo"
MODELS = ("transformer_block", "mlp", "rmsnorm", "embedding_pos")
BATCHES = (1, 4, 8)
# Decode shapes: one token per sequence at the large size's width.
DECODE = {
    "transformer_block": lambda b: {"batch": b, "seq": 1, "dim": 1024, "heads": 16},
    "mlp": lambda b: {"tokens": b, "dim": 1024},
    "rmsnorm": lambda b: {"rows": b, "dim": 4096},
    "embedding_pos": lambda b: {"batch": b, "seq": 1, "vocab": 50257, "dim": 1024},
}
INDUCTOR_MODES = ("default", "max-autotune-no-cudagraphs", "max-autotune")
RING = 64


def cases() -> list[tuple[str, str]]:
    """(model, size) in the order they run: decode batch 1 of every model first, so a run stopped early
    still covers every model."""
    sizes = ["decode_b1", "small"] + [f"decode_b{b}" for b in BATCHES[1:]]
    return [(model, size) for size in sizes for model in MODELS]


def load_case(model_name: str, size: str, device: str):
    import torch

    spec = importlib.util.spec_from_file_location(f"zoo_{model_name}", ZOO / f"{model_name}.py")
    zoo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(zoo)
    if size.startswith("decode_b"):
        zoo.SIZES[size] = DECODE[model_name](int(size[len("decode_b"):]))
    torch.manual_seed(0)
    model = zoo.Model(*zoo.get_init_inputs(size)).to(device).eval()
    inputs = [x.to(device) for x in zoo.get_inputs(size)]
    return model, inputs, dict(zoo.SIZES[size])


def variants(dry_run: bool, options: argparse.Namespace) -> dict:
    """name -> function(model) returning the callable to time."""
    import torch

    kernelopt_options = {"cuda_graphs": options.cuda_graphs, "gpu_seconds": options.gpu_seconds}
    if dry_run:    # the whole pipeline on the CPU (Triton's interpreter); Inductor's modes stand in as eager
        kernelopt_options.update(cost_model="static", gpu_seconds=0)
        found = {f"inductor {mode} (dry run: eager)": (lambda model: model) for mode in INDUCTOR_MODES}
    else:
        found = {f"inductor {mode}": (lambda model, mode=mode: torch.compile(model, mode=mode))
                 for mode in INDUCTOR_MODES}
    found["kernelopt"] = lambda model: torch.compile(model, backend="kernelopt", options=kernelopt_options)
    return found


def per_call_us(fn, batches, calls: int, sync) -> float:
    sync()
    start = time.perf_counter()
    for i in range(calls):
        fn(*batches[i % len(batches)])
    sync()
    return (time.perf_counter() - start) / calls * 1e6


def graph_replays(before: set[int]) -> list:
    """The GraphReplay objects of emitted modules created since `before` (ids): each emitted module inlines
    its own runtime, so they are found by class name."""
    return [o for o in gc.get_objects() if type(o).__name__ == "GraphReplay" and id(o) not in before]


def run_case(model_name: str, size: str, device: str, options, dry_run: bool) -> dict:
    import torch

    model, inputs, params = load_case(model_name, size, device)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    ring = [[x.clone() for x in inputs] for _ in range(RING if not dry_run else 2)]
    regimes = {"same": [inputs], f"ring{RING}": ring}
    compiled, compile_s, graphs, outputs, replays = {}, {}, {}, {}, []
    with torch.no_grad():
        for name, make in variants(dry_run, options).items():
            torch._dynamo.reset()
            before = {id(o) for o in gc.get_objects() if type(o).__name__ == "GraphReplay"}
            started = time.perf_counter()
            fn = make(model)
            outputs[name] = fn(*inputs)
            for batches in regimes.values():            # warm-up: compile, autotune, capture, auto's trials
                per_call_us(fn, batches, options.warmup, sync)
            compile_s[name] = round(time.perf_counter() - started, 1)
            compiled[name] = fn
            if name == "kernelopt":
                replays = graph_replays(before)
                graphs = {"modules": len(replays), "memory_bytes": sum(r.memory_bytes for r in replays),
                          "stats": [r.stats() for r in replays]}
        samples = {(name, regime): [] for name in compiled for regime in regimes}
        paths = {regime: {} for regime in regimes}      # kernelopt's calls per graph path in each timed regime
        for _ in range(options.rounds):
            for name, fn in compiled.items():
                for regime, batches in regimes.items():
                    counted = [dict(r.counts) for r in replays] if name == "kernelopt" else None
                    samples[(name, regime)].append(per_call_us(fn, batches, options.calls, sync))
                    if counted is not None:
                        for replay, before in zip(replays, counted):
                            for path, count in replay.counts.items():
                                paths[regime][path] = paths[regime].get(path, 0) + count - before[path]
        if graphs:
            graphs["timed_paths"] = paths
            finals = [r.stats() for r in replays]
            graphs["final"] = [{key: stats[key] for key in ("decision", "off", "dropped", "copy_moving", "copy_bytes")}
                               for stats in finals]
        profiles = ({regime: profile_calls(compiled["kernelopt"], batches, sync) for regime, batches in regimes.items()}
                    if options.profile and not dry_run else None)
    us = {regime: {name: round(statistics.median(samples[(name, regime)]), 2) for name in compiled}
          for regime in regimes}
    reference = outputs[next(iter(outputs))]
    diff = (reference - outputs["kernelopt"]).abs().max().item() if isinstance(reference, torch.Tensor) else None
    return {"model": model_name, "size": size, "params": params, "us_per_call": us, "compile_s": compile_s,
            "graphs": graphs, "max_abs_diff_vs_default": diff, **({"profile": profiles} if profiles else {})}


def profile_calls(fn, batches, sync, calls: int = 20, top: int = 12) -> dict:
    """torch.profiler over `calls` calls of `fn` in one regime: the ops that took the most device time and the
    most host time, per call (where a regime's extra cost per call goes)."""
    import torch

    sync()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                            torch.profiler.ProfilerActivity.CUDA]) as prof:
        for i in range(calls):
            fn(*batches[i % len(batches)])
        sync()
    events = prof.key_averages()

    def ranked(attribute):
        rows = sorted(events, key=lambda e: getattr(e, attribute, 0) or 0, reverse=True)[:top]
        return [{"op": e.key[:80], "us_per_call": round((getattr(e, attribute, 0) or 0) / calls, 2),
                 "count_per_call": round(e.count / calls, 2)} for e in rows]
    return {"device": ranked("self_device_time_total"), "host": ranked("self_cpu_time_total")}


def speedups(row: dict) -> dict:
    found = {}
    for regime, figures in row["us_per_call"].items():
        names = {n.split(" (")[0]: v for n, v in figures.items()}
        best_plain = min(names["inductor default"], names["inductor max-autotune-no-cudagraphs"])
        found[regime] = {"vs_best_no_graphs": round(best_plain / names["kernelopt"], 3),
                         "vs_max_autotune": round(names["inductor max-autotune"] / names["kernelopt"], 3)}
    return found


def geomean(values: list[float]) -> float | None:
    return round(math.exp(sum(map(math.log, values)) / len(values)), 3) if values else None


def summary(rows: list[dict]) -> dict:
    good = [r for r in rows if "error" not in r]
    found = {}
    for regime in ("same", f"ring{RING}"):
        for against in ("vs_best_no_graphs", "vs_max_autotune"):
            found[f"{regime} {against}"] = geomean([r["speedups"][regime][against] for r in good])
    return found


def _paths(counts: dict) -> str:
    """kernelopt's timed calls of one regime by graph path ('replay 480, copy 20'), '-' without graphs."""
    shown = [f"{path} {counts[path]}" for path in ("replay", "copy", "plain", "capture") if counts.get(path)]
    return ", ".join(shown) or "-"


def markdown(result: dict) -> str:
    lines = [f"# CUDA graphs suite (issue 22)", "",
             f"{result['device']}, torch {result['torch']}, triton {result['triton']}, {result['date']}; "
             f"kernelopt options {result['kernelopt_options']}; {result['calls']} calls x {result['rounds']} rounds.",
             "", "Geomean speedup of kernelopt (targets: 1.5x over the best no-graph Inductor mode, 1.15x over "
             "max-autotune):", ""]
    lines += [f"- {k}: {v}x" for k, v in result["geomean"].items()]
    lines += ["", "| model | size | regime | default us | ma-no-cg us | max-autotune us | kernelopt us | "
              "vs best no-graph | vs max-autotune | graph MiB | auto | timed calls by path |", "|" + "---|" * 12]
    for row in result["rows"]:
        if "error" in row:
            lines.append(f"| {row['model']} | {row['size']} | error: {row['error'].splitlines()[0][:80]} |" + " |" * 9)
            continue
        decisions = sorted({s["decision"] for s in row["graphs"].get("stats", [])}) or ["-"]
        for regime, figures in row["us_per_call"].items():
            values = list(figures.values())
            s = row["speedups"][regime]
            lines.append(f"| {row['model']} | {row['size']} | {regime} | " + " | ".join(f"{v:.1f}" for v in values)
                         + f" | {s['vs_best_no_graphs']} | {s['vs_max_autotune']} | "
                         f"{row['graphs'].get('memory_bytes', 0) / 2**20:.1f} | {'; '.join(decisions)[:60]} | "
                         f"{_paths(row['graphs'].get('timed_paths', {}).get(regime, {}))} |")
    lines += _profile_lines(result["rows"])
    return "\n".join(lines) + "\n"


def _profile_lines(rows: list[dict], top: int = 6) -> list[str]:
    """With --profile: per case and regime, kernelopt's ops with the most host and device time per call (where one
    regime's extra microseconds go), side by side."""
    lines = []
    for row in rows:
        for regime, ranked in (row.get("profile") or {}).items():
            if not lines:
                lines += ["", "## Where kernelopt's calls spend their time (torch.profiler, us per call)"]
            lines += ["", f"{row['model']} {row['size']}, {regime}:", "",
                      "| host op | host us | calls | device op | device us | calls |", "|---|---|---|---|---|---|"]
            host, device = ranked["host"][:top], ranked["device"][:top]
            for i in range(max(len(host), len(device))):
                cells = []
                for ops in (host, device):
                    op = ops[i] if i < len(ops) else None
                    cells += ([op["op"][:50], f"{op['us_per_call']:.1f}", f"{op['count_per_call']:g}"] if op
                              else ["", "", ""])
                lines.append("| " + " | ".join(cells) + " |")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", default=str(REPO / "benchmarks" / "results"))
    parser.add_argument("--dry-run", action="store_true", help="no GPU: run the harness on the CPU (rmsnorm "
                        "small, kernelopt through Triton's interpreter, Inductor's modes as eager)")
    parser.add_argument("--list", action="store_true", help="print the cases and exit")
    parser.add_argument("--only", help="comma-separated model[:size] filters (e.g. mlp:decode_b1,rmsnorm)")
    parser.add_argument("--cuda-graphs", default="auto", choices=("auto", "on", "off"))
    parser.add_argument("--gpu-seconds", type=float, default=0.0, help="kernelopt's kernel search (0: none)")
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--profile", action="store_true", help="also profile 20 calls of kernelopt per regime "
                        "(torch.profiler: the ops with the most device and host time, per call) into the json")
    parser.add_argument("--budget-s", type=float, default=450.0, help="start no case after this many seconds")
    options = parser.parse_args(argv)
    selected = cases()
    if options.only:
        wanted = [w.split(":") for w in options.only.split(",") if w]
        selected = [(m, s) for m, s in selected if any(m == w[0] and (len(w) == 1 or s == w[1]) for w in wanted)]
    if options.list:
        for model, size in selected:
            print(f"{model}:{size}")
        return 0
    if options.dry_run:   # before triton loads: it reads the variable when kernels are defined
        os.environ.setdefault("TRITON_INTERPRET", "1")
    import torch
    import triton

    if options.dry_run:
        device, selected = "cpu", [("rmsnorm", "small")]
        options.calls, options.rounds, options.warmup = 2, 1, 1
    elif not torch.cuda.is_available():
        print("cuda_graphs_suite: needs a CUDA GPU (torch.cuda.is_available() is False); --dry-run checks the "
              "harness on the CPU", file=sys.stderr)
        return 2
    else:
        device = "cuda"
    out = Path(options.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    result = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "device": torch.cuda.get_device_name() if device == "cuda" else "cpu (dry run: not figures)",
              "torch": torch.__version__, "triton": triton.__version__, "dry_run": options.dry_run,
              "kernelopt_options": {"cuda_graphs": options.cuda_graphs, "gpu_seconds": options.gpu_seconds},
              "calls": options.calls, "rounds": options.rounds, "rows": [], "geomean": {}}
    started = time.perf_counter()
    stem = "cuda_graphs_suite" + (".dry_run" if options.dry_run else "")
    for model, size in selected:
        if time.perf_counter() - started > options.budget_s:
            result["stopped"] = f"budget of {options.budget_s:.0f} s spent before {model}:{size}"
            break
        print(f"cuda_graphs_suite: {model}:{size} ...", flush=True)
        try:
            row = run_case(model, size, device, options, options.dry_run)
            row["speedups"] = speedups(row)
        except Exception as err:  # noqa: BLE001 - one case's failure is a row, not the end of the run
            row = {"model": model, "size": size, "error": f"{type(err).__name__}: {err}",
                   "traceback": traceback.format_exc()[-2000:]}
        result["rows"].append(row)
        result["geomean"] = summary(result["rows"])
        (out / f"{stem}.json").write_text(json.dumps(result, indent=1, default=str))
        (out / f"{stem}.md").write_text(markdown(result))
        print(json.dumps({k: row.get(k) for k in ("model", "size", "us_per_call", "speedups", "error")}), flush=True)
    print(markdown(result))
    return 0 if all("error" not in r for r in result["rows"]) else 1


if __name__ == "__main__":
    sys.exit(main())
