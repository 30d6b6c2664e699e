"""Host time per call(): Inductor's output module against the emitted one (plain launches, and CUDA graphs).

    python benchmarks/host_overhead.py --out benchmarks/results/host_overhead.json      # on a GPU

Small modules are host-bound: what a call costs is the Python and launch work the host does per call
(issue 22: one plain Triton JIT launch ~12.5 us, an Inductor-compiled one-kernel function ~46.6 us, a
graph replay ~0.23 us on the H200). For each module (the H200 fixtures' default captures: small, so
the GPU waits on the host) the script loads Inductor's module, the emitted module with plain launches
(`--cuda-graphs off`) and with graphs (`--cuda-graphs on`, same buffers every call), warms each up,
and then, in interleaved rounds, measures:
  host_us   perf_counter around N calls issued back to back with no synchronization inside: the host's
            time to issue one call (the GPU runs behind; its queue never fills at these sizes);
  wall_us   the same loop with a final synchronize, per call: what a back-to-back caller gets.
Medians over rounds. On a machine without CUDA it runs the same code on the CPU corpus' rmsnorm through
Triton's interpreter, to check that it runs: those figures say nothing about GPU host cost.

`--through-compile` measures what a torch.compile user pays instead: a tiny RMS norm compiled by
Inductor (`default`) and by `backend="kernelopt"` (no search; on the CPU the static cost model and
Triton's interpreter), each called with Dynamo's guards and AOTAutograd's wrappers, and counts the
Python function calls of one call: in all, and outside the output module (Dynamo, AOTAutograd,
Inductor's CompiledFxGraph and whatever the backend puts between it and the module's `call`). Those
counts are host work on any device, the CPU included: kernels run as the same kind of launch on both
sides, so the outside counts say what the backend's wiring costs per call (issue 22).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GPU_MODULES = ("ln_gelu.default.0.py", "mlp.default.0.py", "rms_swiglu.default.0.py", "block.default.0.py")
CPU_MODULE = REPO / "tests" / "corpus" / "cpu-2.13" / "rmsnorm" / "small.default" / "rmsnorm.default.0.py"


def emitted_path(original: Path, cuda_graphs: str, folder: Path) -> Path:
    """The standalone module `kernelopt emit` writes for `original`: with the configs its capture's manifest
    recorded when one lies beside it (the kernels Inductor's autotuner chose), else each site's first."""
    import subprocess

    path = folder / f"{original.stem}.{cuda_graphs}.py"
    manifest = original.parent / "manifest.json"
    pin = ["--manifest", str(manifest)] if manifest.is_file() else ["--config-policy", "first"]
    subprocess.run([sys.executable, "-m", "kernelopt.cli", "emit", str(original), *pin, "--cuda-graphs", cuda_graphs,
                    "-o", str(path)], check=True, capture_output=True, text=True)
    return path


def per_call_us(call, args, calls: int, device: str) -> tuple[float, float]:
    import torch

    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    sync()
    start = time.perf_counter()
    for _ in range(calls):
        call(list(args))
    issued = time.perf_counter()
    sync()
    done = time.perf_counter()
    return (issued - start) / calls * 1e6, (done - start) / calls * 1e6


def measure(original: Path, device: str, calls: int, rounds: int, folder: Path, profile_calls: int = 0) -> dict:
    import torch

    from kernelopt.runtime.loader import load_output_module

    variants = {"inductor": original, "emitted_plain": emitted_path(original, "off", folder),
                "emitted_graphs": emitted_path(original, "on", folder)}
    loaded = {name: load_output_module(str(path), device, hooks=False) for name, path in variants.items()}
    args = loaded["inductor"].get_args()
    calls_of = {name: module.namespace["call"] for name, module in loaded.items()}
    with torch.no_grad():
        for call in calls_of.values():      # warm-up: compile, autotune, capture
            for _ in range(3):
                call(list(args))
        samples = {name: {"host_us": [], "wall_us": []} for name in variants}
        for _ in range(rounds):
            for name, call in calls_of.items():
                host, wall = per_call_us(call, args, calls, device)
                samples[name]["host_us"].append(host)
                samples[name]["wall_us"].append(wall)
    row = {"module": original.name}
    for name, figures in samples.items():
        row[name] = {k: round(statistics.median(v), 2) for k, v in figures.items()}
    if profile_calls:
        with torch.no_grad():
            row["profile"] = {name: host_events(call, args, profile_calls, device) for name, call in calls_of.items()}
        for name, table in row["profile"].items():
            print(f"{original.name} {name}: host events per call ({profile_calls} calls profiled)")
            for event in table:
                print(f"  {event['us_per_call']:8.2f} us  x{event['count_per_call']:<5} {event['name']}")
    graphs = loaded["emitted_graphs"].namespace.get("cuda_graphs")
    row["graphs"] = graphs.stats() if graphs is not None else None
    row["host_ratio_plain"] = round(row["emitted_plain"]["host_us"] / row["inductor"]["host_us"], 3)
    row["host_ratio_graphs"] = round(row["emitted_graphs"]["host_us"] / row["inductor"]["host_us"], 3)
    return row


def host_events(call, args, calls: int, device: str, top: int = 14) -> list[dict]:
    """The host-side events of `calls` calls under torch's profiler, costliest self time first: which torch
    ops and CUDA runtime calls (launches, allocations, a synchronize) one call spends its host time on."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    with profile(activities=activities) as recorded:
        for _ in range(calls):
            call(list(args))
        if device == "cuda":
            torch.cuda.synchronize()
    events = [e for e in recorded.key_averages() if e.self_cpu_time_total > 0]
    events.sort(key=lambda e: e.self_cpu_time_total, reverse=True)
    return [{"name": e.key[:90], "us_per_call": round(e.self_cpu_time_total / calls, 2),
             "count_per_call": round(e.count / calls, 2)} for e in events[:top]]


def _is_output_module_file(filename: str, skip: tuple[str, ...]) -> bool:
    """A frame of the output module itself (Inductor's, or an emitted one, whose inlined graph runtime counts
    as the module): a .py file outside torch, KernelOPT, the standard library and this script."""
    return filename.endswith(".py") and not filename.startswith(skip)


def python_calls(fn, args) -> dict:
    """Python function calls one `fn(*args)` makes: in all, and outside the output module."""
    import sysconfig

    import torch

    skip = tuple(os.path.realpath(p) for p in (os.path.dirname(torch.__file__), str(REPO / "kernelopt"),
                                               sysconfig.get_paths()["stdlib"], __file__))
    counts = {"all": 0, "outside_module": 0}
    depth, inside = [0], [None]        # call depth, and the depth of the module frame being run (None: out)

    def profile(frame, event, arg):
        if event == "call":
            depth[0] += 1
            counts["all"] += 1
            if inside[0] is None:
                if _is_output_module_file(os.path.realpath(frame.f_code.co_filename), skip):
                    inside[0] = depth[0]
                else:
                    counts["outside_module"] += 1
        elif event == "return":
            if inside[0] == depth[0]:
                inside[0] = None
            depth[0] -= 1
    sys.setprofile(profile)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return counts


def through_compile(device: str, calls: int, rounds: int) -> list[dict]:
    """Per-call Python calls and host time of a tiny RMS norm through torch.compile, Inductor against KernelOPT."""
    import torch

    class TinyRmsNorm(torch.nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.weight = torch.nn.Parameter(1 + 0.1 * torch.randn(dim))

        def forward(self, x):
            return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))

    inductor_options, kernelopt_options = {}, {"gpu_seconds": 0}
    if device == "cpu":
        from kernelopt.runtime.interpret import install_cpu_triton_shims

        install_cpu_triton_shims()      # Inductor writes Triton kernels for the CPU, run by the interpreter
        inductor_options = {"cpu_backend": "triton", "compile_threads": 1}
        kernelopt_options = {"cost_model": "static", "proposers": []}
    torch.manual_seed(0)
    model = TinyRmsNorm(33).to(device).eval()
    x = torch.randn(5, 33, device=device)
    sides = {"inductor default": torch.compile(model, options=inductor_options),
             "kernelopt": torch.compile(model, backend="kernelopt", options=kernelopt_options)}
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    rows = []
    with torch.no_grad():
        for fn in sides.values():
            for _ in range(5):           # compile; first-call work; auto's trials
                fn(x)
        timings = {name: [] for name in sides}
        for _ in range(rounds):
            for name, fn in sides.items():
                sync()
                start = time.perf_counter()
                for _ in range(calls):
                    fn(x)
                sync()
                timings[name].append((time.perf_counter() - start) / calls * 1e6)
        for name, fn in sides.items():
            rows.append({"side": name, "python_calls": python_calls(fn, (x,)),
                         "us_per_call": round(statistics.median(timings[name]), 2)})
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the rows as JSON here")
    parser.add_argument("--calls", type=int, default=200, help="calls per timed loop (GPU)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (GPU)")
    parser.add_argument("--module", action="append", type=Path, default=[], metavar="PATH",
                        help="an Inductor output module to measure instead of the fixtures (repeatable; e.g. a "
                             "`kernelopt capture` folder's module, whose manifest.json pins the emitted configs)")
    parser.add_argument("--profile", type=int, default=0, metavar="CALLS",
                        help="also print, per module and side, the host-side events of CALLS calls under torch's "
                             "profiler (what each call spends its host time on: launches, allocations, syncs)")
    parser.add_argument("--through-compile", action="store_true", help="count the Python calls of one call "
                        "through torch.compile, Inductor's and KernelOPT's backend (see above; CPU or GPU)")
    options = parser.parse_args(argv)
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if options.through_compile:
        if device == "cpu":
            os.environ.setdefault("TRITON_INTERPRET", "1")
        with tempfile.TemporaryDirectory(prefix="host-overhead-cache-") as cache:
            os.environ.setdefault("KERNELOPT_CACHE_DIR", cache)     # a fresh search, not a stale entry
            calls, rounds = (options.calls, options.rounds) if device == "cuda" else (3, 3)
            rows = through_compile(device, calls, rounds)
        result = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "device": torch.cuda.get_device_name() if device == "cuda" else "cpu (interpreter)",
                  "torch": torch.__version__, "mode": "through-compile", "rows": rows}
        if options.out:
            Path(options.out).write_text(json.dumps(result, indent=1))
        print(f"{'side':18} {'python calls':>13} {'outside module':>15} {'us per call':>12}")
        for row in rows:
            print(f"{row['side']:18} {row['python_calls']['all']:13d} {row['python_calls']['outside_module']:15d} "
                  f"{row['us_per_call']:12.1f}")
        return 0
    if device == "cpu":
        os.environ.setdefault("TRITON_INTERPRET", "1")
        modules, calls, rounds = [CPU_MODULE], 2, 1
        print("host_overhead: no CUDA device: checking that the benchmark runs (CPU interpreter figures are "
              "not host costs)", file=sys.stderr)
    else:
        fixtures = REPO / "tests" / "fixtures" / "inductor-2.11-h200"
        modules = options.module or [fixtures / m for m in GPU_MODULES]
        calls, rounds = options.calls, options.rounds
    rows = []
    with tempfile.TemporaryDirectory(prefix="host-overhead-") as folder:
        for module in modules:
            try:
                rows.append(measure(module, device, calls, rounds, Path(folder), options.profile))
            except Exception as err:  # noqa: BLE001 - one module's failure is a row, not the end of the run
                rows.append({"module": module.name, "error": f"{type(err).__name__}: {err}"})
            print(json.dumps(rows[-1]))
    result = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "device": torch.cuda.get_device_name() if device == "cuda" else "cpu (interpreter: not host costs)",
              "torch": torch.__version__, "triton": __import__("triton").__version__, "calls": calls,
              "rounds": rounds, "rows": rows}
    if options.out:
        Path(options.out).write_text(json.dumps(result, indent=1, default=str))
    print(f"{'module':28} {'inductor host us':>17} {'emitted plain':>14} {'emitted graphs':>15}")
    for row in rows:
        if "error" in row:
            print(f"{row['module']:28} error: {row['error']}")
            continue
        print(f"{row['module']:28} {row['inductor']['host_us']:17.1f} {row['emitted_plain']['host_us']:14.1f} "
              f"{row['emitted_graphs']['host_us']:15.1f}")
    return 0 if all("error" not in row for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
