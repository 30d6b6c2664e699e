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
    from kernelopt.codegen import emit_python
    from kernelopt.codegen.standalone_module import EmitOptions
    from kernelopt.lift import lift_file

    module = lift_file(str(original))
    source = emit_python(module, "standalone", options=EmitOptions(cuda_graphs=cuda_graphs, config_policy="first"))
    path = folder / f"{original.stem}.{cuda_graphs}.py"
    path.write_text(source)
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


def measure(original: Path, device: str, calls: int, rounds: int, folder: Path) -> dict:
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
    graphs = loaded["emitted_graphs"].namespace.get("cuda_graphs")
    row["graphs"] = graphs.stats() if graphs is not None else None
    row["host_ratio_plain"] = round(row["emitted_plain"]["host_us"] / row["inductor"]["host_us"], 3)
    row["host_ratio_graphs"] = round(row["emitted_graphs"]["host_us"] / row["inductor"]["host_us"], 3)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the rows as JSON here")
    parser.add_argument("--calls", type=int, default=200, help="calls per timed loop (GPU)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (GPU)")
    options = parser.parse_args(argv)
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu":
        os.environ.setdefault("TRITON_INTERPRET", "1")
        modules, calls, rounds = [CPU_MODULE], 2, 1
        print("host_overhead: no CUDA device: checking that the benchmark runs (CPU interpreter figures are "
              "not host costs)", file=sys.stderr)
    else:
        fixtures = REPO / "tests" / "fixtures" / "inductor-2.11-h200"
        modules, calls, rounds = [fixtures / m for m in GPU_MODULES], options.calls, options.rounds
    rows = []
    with tempfile.TemporaryDirectory(prefix="host-overhead-") as folder:
        for module in modules:
            try:
                rows.append(measure(module, device, calls, rounds, Path(folder)))
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
