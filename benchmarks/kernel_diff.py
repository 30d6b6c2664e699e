"""Why is an emitted module slower than its original? Compare what the GPU actually runs.

    python benchmarks/kernel_diff.py tests/corpus/cuda-2.11-h200/ln_gelu/large.default [--out X.json]

For one capture: emit it with the original's live autotuner choice pinned (as `emit_identity.py` does),
then compare, per kernel, the compiled binaries of both sides (cubin hash, registers, spills, shared
memory, the compile options Triton recorded) and the time of both modules measured four ways in one
process: interleaved back-to-back calls in both orders, and CUDA-graph replays of each module (no host
cost at all). Identical cubins with a graph-replay gap point at memory placement; different cubins at
compilation; a gap only outside graphs at the launch path.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

# Fresh compiler caches, so that every binary this run uses is found on disk afterwards.
_CACHES = Path(tempfile.mkdtemp(prefix="kernel_diff_"))
os.environ.setdefault("TRITON_CACHE_DIR", str(_CACHES / "triton"))
os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", str(_CACHES / "inductor"))

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))


def compiled_binaries(root: Path) -> list[dict]:
    """Every kernel Triton compiled under `root`: its name, options and cubin hash."""
    found = []
    for meta_path in root.rglob("*.json"):
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict) or "name" not in meta:
            continue
        cubin = meta_path.with_suffix(".cubin")
        found.append({
            "name": meta["name"], "dir": meta_path.parent.name[:12],
            "cubin_sha1": hashlib.sha1(cubin.read_bytes()).hexdigest()[:12] if cubin.exists() else None,
            **{k: meta.get(k) for k in ("num_warps", "num_stages", "shared", "debug", "sanitize_overflow",
                                        "enable_fp_fusion", "launch_pdl", "maxnreg", "arch", "ptx_version")},
        })
    return sorted(found, key=lambda m: m["name"])


def emitted_registers(emitted) -> dict[str, dict]:
    """Registers and spills of each kernel the emitted module's JIT compiled."""
    out = {}
    for name, value in vars(emitted).items():
        caches = getattr(value, "device_caches", None)
        if not isinstance(caches, dict):
            continue
        for cache in caches.values():
            kernels = cache[0] if isinstance(cache, tuple) else cache
            for compiled in getattr(kernels, "values", lambda: [])():
                out[name] = {"n_regs": getattr(compiled, "n_regs", None), "n_spills": getattr(compiled, "n_spills", None)}
    return out


def original_registers(original) -> dict[str, dict]:
    """Registers and spills of each launcher the original's autotuner kept."""
    out = {}
    for name, value in vars(original).items():
        for launcher in getattr(value, "launchers", None) or []:
            out[name] = {k: getattr(launcher, k, None) for k in ("n_regs", "n_spills", "shared")}
    return out


def graph_ms(fn, args, calls: int = 20, replays: int = 15) -> float:
    """Median milliseconds per call of `fn` replayed from a CUDA graph (no host work in the timing)."""
    import torch

    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(2):
            fn(list(args))
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn(list(args))
    samples = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) / calls)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("capture", help="a capture folder (holds manifest.json)")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved timing rounds (default 9)")
    parser.add_argument("--out", help="write the findings as JSON here")
    args = parser.parse_args(argv)

    import torch

    import emit_identity as ei
    from kernelopt.capture.inductor import kernel_configs
    from kernelopt.codegen import emit_python
    from kernelopt.codegen.standalone_module import EmitOptions
    from kernelopt.codegen.configs import apply_recorded_configs
    from kernelopt.lift import lift_file
    from kernelopt.runtime.loader import load_output_module

    capture = Path(args.capture)
    manifest = json.loads((capture / "manifest.json").read_text())
    original_path = capture / manifest["graphs"][0]["module"]
    original = ei._import(original_path)
    inputs = ei._inputs(capture, load_output_module(str(original_path), "cuda"), "cuda")
    fresh = lambda: [a.clone() if isinstance(a, torch.Tensor) else a for a in inputs]  # noqa: E731
    with torch.no_grad():
        original.call(fresh())
        torch.cuda.synchronize()
        live = kernel_configs(original)
        module = lift_file(str(original_path))
        apply_recorded_configs(module, {"kernels": live})
        emitted_path = _CACHES / "emitted.py"
        # the live choice, and plain launches: the interleaved calls compare launch paths and kernels (the graph
        # path is emit_identity's and the guard's to time; with `auto` here a graph path's costs showed as the
        # launches' on 2026-12-07)
        emitted_path.write_text(emit_python(module, options=EmitOptions(retime_recorded=False, cuda_graphs="off")))
        emitted = ei._import(emitted_path)
        for _ in range(3):
            emitted.call(fresh())
            original.call(fresh())
        torch.cuda.synchronize()
        calls = {"original": original.call, "emitted": emitted.call}
        swapped = {"emitted": emitted.call, "original": original.call}
        per_round = 50
        timings = {
            "interleaved_original_first": ei._time_interleaved(calls, inputs, args.rounds, per_round),
            "interleaved_emitted_first": ei._time_interleaved(swapped, inputs, args.rounds, per_round),
            "graph_replay": {name: graph_ms(fn, inputs) for name, fn in calls.items()},
        }
    findings = {
        "capture": str(capture), "live_configs": live,
        # what the capture recorded (what `kernelopt optimize` pins the emitted module to): a difference from
        # the live choice is a configuration the emitted module runs that the original does not
        "recorded_configs": {name: entry.get("chosen") for name, entry in manifest["graphs"][0]["kernels"].items()},
        "launch_path": ei._launch_path(emitted),
        "binaries": compiled_binaries(_CACHES),
        "registers": {"original": original_registers(original), "emitted": emitted_registers(emitted)},
        "timings_ms": timings,
        "ratios": {k: round(v["emitted"] / v["original"], 4) for k, v in timings.items()},
    }
    text = json.dumps(findings, indent=1, default=str)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
