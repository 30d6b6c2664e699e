"""Issue 21's warm-start number: how long a restarted process takes from `torch.compile(model, backend=
"kernelopt")` to its first output once KernelOPT's cache holds the model, against Inductor's own warm start
(its caches filled by an earlier process), for the same model in the same way.

    python3 benchmarks/backend_warm_start.py --out benchmarks/results/backend_warm_start.json
    python3 benchmarks/backend_warm_start.py --models mlp,rmsnorm --size small --device cpu --out /tmp/w.json

Per model and variant (Inductor `default`; the kernelopt backend), with fresh cache folders of its own
(TORCHINDUCTOR_CACHE_DIR, and KERNELOPT_CACHE_DIR for the backend), the same child process runs again and
again: the first fills the caches (cold: the backend searches), the next `--warm-starts` (default 3) are the
timed warm starts, alternating between the variants; each variant's figure is its median, and the table gives
the range of the pairwise ratios too (a 1.11x against a 1.10x target means little without it).
A child times from just before `torch.compile` to the first output (synchronized), under `no_grad`, and
prints one JSON line. The target: the backend's warm start at most 1.10x Inductor's (+10 %). On the CPU
the backend runs with the static cost model under TRITON_INTERPRET=1, a smoke run of the same path whose
ratio means nothing (Inductor's own CPU module is C++, the backend's Triton under the interpreter).
Writes --out (JSON) and a markdown table beside it, after every model.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ZOO = REPO / "tests" / "zoo"
MODELS = ("mlp", "rmsnorm", "ln_gelu", "softmax", "transformer_block")
VARIANTS = ("inductor", "kernelopt")
TARGET = 1.10
CHILD_TIMEOUT_S = 600


def child(model_name: str, variant: str, device: str, size: str, gpu_seconds: float) -> dict:
    """One process's first call through torch.compile, timed; with Dynamo's own phase times (the largest) and
    the backend's log lines (cache hit or miss, what ran), so that a slow warm start says where it went."""
    import logging

    import torch

    from kernelopt.capture.models import load_model

    model, inputs, _ = load_model(str(ZOO / f"{model_name}.py"), device=device, seed=0, size=size)
    model.eval()
    if variant == "kernelopt":
        options = {"gpu_seconds": gpu_seconds} if device == "cuda" else {"cost_model": "static", "proposers": []}
        kwargs = {"backend": "kernelopt", "options": options}
    else:
        kwargs = {"mode": "default"}
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    logging.getLogger("kernelopt.backend").addHandler(handler)
    logging.getLogger("kernelopt.backend").setLevel(logging.INFO)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    sync()
    started = time.perf_counter()
    with torch.no_grad():
        compiled = torch.compile(model, dynamic=False, **kwargs)
        compiled(*inputs)
        sync()
        first = time.perf_counter() - started
        started = time.perf_counter()
        compiled(*inputs)
        sync()
        second = time.perf_counter() - started
    from torch._dynamo.utils import counters

    # fxgraph_cache_hit / aot_autograd cache hits, async_compile_cache_miss (kernels loaded): which caches answered
    return {"first_call_s": first, "second_call_s": round(second, 6), "phases_s": _dynamo_phases(),
            "cache_counters": {**dict(counters["inductor"]), **{f"aot_{k}": v for k, v in counters["aot_autograd"].items()}},
            "backend_log": lines}


def _dynamo_phases(top: int = 12) -> dict:
    """The largest of Dynamo's and Inductor's own phase timers (torch._dynamo.utils.compile_times), seconds."""
    from torch._dynamo.utils import compile_times

    try:
        names, values = compile_times(repr="csv", aggregate=True)
    except Exception:  # noqa: BLE001 - a torch without this helper: no breakdown, the timing stands
        return {}
    phases = {name: round(float(value), 3) for name, value in zip(names, values)}
    return dict(sorted(phases.items(), key=lambda kv: -kv[1])[:top])


def run_child(model_name: str, variant: str, args, env: dict, profile: Path | None = None) -> dict:
    """One child process; with `profile`, run under cProfile and write its 40 largest cumulative entries there."""
    child_args = ["--child", model_name, "--variant", variant, "--device", args.device, "--size", args.size,
                  "--gpu-seconds", str(args.gpu_seconds)]
    command = [sys.executable, __file__, *child_args]
    if profile is not None:
        command = [sys.executable, "-c", _PROFILED, str(profile), __file__, *child_args]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    wall = time.perf_counter() - started
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"error": (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"], "wall_s": wall}
    return {**json.loads(lines[-1]), "wall_s": round(wall, 2)}


# Runs this file's main() under cProfile and writes the 40 largest cumulative entries as text.
_PROFILED = """
import cProfile, io, pstats, runpy, sys
out, script = sys.argv[1], sys.argv[2]
sys.argv = sys.argv[2:]
profiler = cProfile.Profile()
try:
    profiler.runcall(runpy.run_path, script, run_name="__main__")
except SystemExit:
    pass
text = io.StringIO()
pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(40)
open(out, "w").write(text.getvalue())
"""


def measure(model_name: str, args) -> dict:
    """Each variant's cold start, then `--warm-starts` restarts of each, alternating between the variants (so
    that a drift of the machine falls on both alike); a variant's figure is its median warm start (the run
    reported in full), and the ratio's spread is the range of the pairwise ratios."""
    row = {}
    with contextlib.ExitStack() as stack:
        envs = {}
        for variant in VARIANTS:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="kernelopt-warm-"))
            envs[variant] = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(Path(folder) / "inductor"),
                                 KERNELOPT_CACHE_DIR=str(Path(folder) / "kernelopt"), PYTHONUNBUFFERED="1")
            if args.device == "cpu":
                envs[variant]["TRITON_INTERPRET"] = "1"
            row[variant] = {"cold": run_child(model_name, variant, args, envs[variant])}
            _progress(model_name, variant, "cold", row[variant]["cold"])
        warms = {variant: [] for variant in VARIANTS}
        for number in range(max(1, args.warm_starts)):
            started = time.monotonic()
            if number and args.deadline and started + round_s > args.deadline:
                print(f"{model_name}: {number} warm start(s) per variant, the budget leaves no time for another",
                      flush=True)
                break
            for variant in VARIANTS:
                if "error" not in row[variant]["cold"]:
                    warms[variant].append(run_child(model_name, variant, args, envs[variant]))
                    _progress(model_name, variant, f"warm {number + 1}", warms[variant][-1])
            round_s = time.monotonic() - started
        for variant in VARIANTS:
            timed = [w for w in warms[variant] if "first_call_s" in w]
            if not timed:
                row[variant]["warm"] = (warms[variant] or [{"error": "cold run failed"}])[0]
                continue
            timed.sort(key=lambda w: w["first_call_s"])
            row[variant]["warm"] = timed[(len(timed) - 1) // 2]
            row[variant]["warm_first_calls_s"] = [round(w["first_call_s"], 3) for w in warms[variant]
                                                  if "first_call_s" in w]
            if args.profile:   # one more, profiled warm start (not a timed one)
                profile = Path(args.out).with_name(f"{Path(args.out).stem}.{model_name}.{variant}.prof.txt")
                run_child(model_name, variant, args, envs[variant], profile=profile)
                row[variant]["profile"] = profile.name
    warm_s = {v: row[v]["warm"].get("first_call_s") for v in VARIANTS}
    if all(warm_s.values()):
        row["warm_ratio"] = round(warm_s["kernelopt"] / warm_s["inductor"], 3)
        row["within_target"] = row["warm_ratio"] <= TARGET
        pairs = [k / i for k, i in zip(row["kernelopt"]["warm_first_calls_s"], row["inductor"]["warm_first_calls_s"])]
        row["warm_ratio_range"] = [round(min(pairs), 3), round(max(pairs), 3)]
    return row


def _progress(model_name: str, variant: str, phase: str, result: dict) -> None:
    """One line per child process, as it ends (a step stopped at its limit still shows what ran)."""
    first = f"first call {result['first_call_s']:.2f} s" if "first_call_s" in result else f"error {result.get('error')}"
    print(f"{model_name} {variant} {phase}: {first} (process {result.get('wall_s', 0):.1f} s)", flush=True)


def markdown(results: dict) -> str:
    lines = [f"# Warm start through torch.compile: kernelopt backend vs Inductor ({results['device_name']}, torch "
             f"{results['torch']}, triton {results['triton']})", "",
             f"`{results['command']}`. First call of a restarted process, the caches filled by an earlier one; "
             f"target: at most {TARGET}x Inductor's.", "",
             "| model | Inductor cold s | Inductor warm s | KernelOPT cold s | KernelOPT warm s | warm ratio | "
             "pairwise range | within |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, row in results["models"].items():
        def s(variant, phase):
            value = row[variant][phase]
            return f"{value['first_call_s']:.2f}" if "first_call_s" in value else f"error: {value.get('error')}"
        lines.append(f"| {name} | {s('inductor', 'cold')} | {s('inductor', 'warm')} | {s('kernelopt', 'cold')} | "
                     f"{s('kernelopt', 'warm')} | {row.get('warm_ratio', '–')} | "
                     f"{'–'.join(str(r) for r in row.get('warm_ratio_range', [])) or '–'} | "
                     f"{'yes' if row.get('within_target') else 'no'} |")
    lines += ["", "Where each warm start went (Dynamo's and Inductor's largest phase timers, nested, in seconds; "
              "the caches that answered; the backend's line):", ""]
    for name, row in results["models"].items():
        for variant in VARIANTS:
            warm = row[variant]["warm"]
            if "phases_s" not in warm:
                continue
            phases = ", ".join(f"{k} {v}" for k, v in list(warm["phases_s"].items())[:6])
            counters = ", ".join(f"{k} {v}" for k, v in warm.get("cache_counters", {}).items())
            lines.append(f"- {name}, {variant}: {phases}; second call {warm['second_call_s'] * 1e3:.1f} ms; {counters}")
            lines += [f"  - {line[:300]}" for line in warm.get("backend_log", [])]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated zoo models (tests/zoo)")
    parser.add_argument("--size", default="small", choices=("small", "large"))
    parser.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    parser.add_argument("--gpu-seconds", type=float, default=30, help="the backend's search budget (cold run)")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "backend_warm_start.json"))
    parser.add_argument("--warm-starts", type=int, default=3,
                        help="restarts timed per variant, alternating; each variant's figure is its median")
    parser.add_argument("--profile", action="store_true",
                        help="after each timed warm start, one more under cProfile: <out>.<model>.<variant>.prof.txt")
    parser.add_argument("--budget-s", type=float, default=None,
                        help="no new round of warm starts once it would end past this many seconds from the start "
                             "(the rounds done so far count)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--variant", choices=VARIANTS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.deadline = time.monotonic() + args.budget_s if args.budget_s else None
    if args.child:
        print(json.dumps(child(args.child, args.variant, args.device, args.size, args.gpu_seconds)))
        return 0
    import torch
    import triton

    results = {"device_name": torch.cuda.get_device_name() if args.device == "cuda" else "CPU (interpreter)",
               "torch": torch.__version__, "triton": triton.__version__, "command": " ".join(sys.argv), "models": {}}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    for name in args.models.split(","):
        results["models"][name] = measure(name, args)
        out.write_text(json.dumps(results, indent=1))
        out.with_suffix(".md").write_text(markdown(results))
        print(markdown(results).splitlines()[-1], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
