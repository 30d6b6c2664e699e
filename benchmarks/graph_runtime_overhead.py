"""The graph runtime's own host cost per call, path by path, with no GPU: what `GraphReplay.run` adds in Python.

The runtime's replay and copy paths (kernelopt/runtime/graph_replay.py) run on a backend whose capture, replay and
timing cost nothing, over CPU tensors, so what is timed is the runtime's bookkeeping alone: the key (signatures and
data pointers), the lent outputs' idle check and hand-out, the copy path's input copies (a memcpy here, one
kernel launch each on a GPU). On a GPU the same work runs, plus the CUDA calls (the stream, the replay) that this
backend leaves out, so these figures are a floor of the graph path's host cost, to compare before and after a
change to the runtime, on one machine.

    python3 benchmarks/graph_runtime_overhead.py [--args 8] [--outputs 2] [--calls 20000] [--json out.json]

Regimes: `same` (one input buffer every call: replays), `ring` (a ring of 64 input buffers: copies into the copy
graph's buffers), each with the caller dropping its outputs before the next call (`drop`: the same graph's memory
is lent again) or holding the last ones (`hold`: `y = f(x)`, the twin graphs take turns).
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import torch

from kernelopt.runtime.graph_replay import GraphReplay

RING = 64


class NullBackend:
    """GraphReplay's backend with nothing behind it: a capture runs the call once, a replay does nothing."""

    def unavailable(self):
        return None

    def capturing(self):
        return False

    def current_device(self):
        return 0

    def stream(self):
        return 0

    def order_after(self, previous):
        pass

    def capture(self, run):
        return object(), run(), 0

    def replay(self, graph):
        pass

    def release(self, graph):
        pass

    def start_timing(self):
        return [time.perf_counter()]

    def stop_timing(self, token):
        token.append(time.perf_counter())
        return token

    def cost_seconds(self, token):
        return token[1] - token[0]


def module_call(outputs: int):
    """A plain call(args) that allocates its outputs and launches nothing (the runtime's cost is what is timed)."""
    def call(args):
        args.clear()
        return tuple(torch.empty(4, 64) for _ in range(outputs))
    return call


def time_regime(regime: str, keep: str, n_args: int, outputs: int, calls: int, repeats: int = 5) -> dict:
    params = [torch.randn(64, 64) for _ in range(n_args - 1)]
    ring = [torch.randn(4, 64) for _ in range(RING if regime == "ring" else 1)]
    replay = GraphReplay(module_call(outputs), mode="on", backend=NullBackend(), mutated=())
    held = None
    for i in range(2 * RING):                       # captures, the copy graph and the twins: out of the timing
        held = replay.run(params + [ring[i % len(ring)]])
        if keep == "drop":
            held = None
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for i in range(calls):
            held = replay.run(params + [ring[i % len(ring)]])
            if keep == "drop":
                held = None
        samples.append((time.perf_counter() - start) / calls * 1e6)
    stats = replay.stats()
    return {"regime": regime, "outputs_kept": keep, "us_per_call": round(statistics.median(samples), 2),
            "replays": stats["replay"], "copies": stats["copy"], "plain": stats["plain"],
            "captures": stats["capture"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--args", type=int, default=8, help="arguments per call (parameters and one input)")
    parser.add_argument("--outputs", type=int, default=2, help="outputs per call")
    parser.add_argument("--calls", type=int, default=20000, help="calls per timed round (5 rounds, the median)")
    parser.add_argument("--json", help="also write the rows to this file")
    options = parser.parse_args(argv)
    plain = module_call(options.outputs)
    start = time.perf_counter()
    for _ in range(options.calls):
        plain([None] * options.args)
    baseline = (time.perf_counter() - start) / options.calls * 1e6
    rows = [time_regime(regime, keep, options.args, options.outputs, options.calls)
            for regime in ("same", "ring") for keep in ("drop", "hold")]
    print(f"# graph runtime host cost ({platform.processor() or platform.machine()}, torch {torch.__version__}, "
          f"{options.args} args, {options.outputs} outputs)\n")
    print(f"for scale, the plain call alone (allocating its outputs, launching nothing): {baseline:.2f} us\n")
    print("| regime | outputs | us per call | replays | copies | plain | captures |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(f"| {row['regime']} | {row['outputs_kept']} | {row['us_per_call']:.2f} | {row['replays']} | "
              f"{row['copies']} | {row['plain']} | {row['captures']} |")
    if options.json:
        with open(options.json, "w") as out:
            json.dump({"plain_us": round(baseline, 2), "rows": rows}, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
