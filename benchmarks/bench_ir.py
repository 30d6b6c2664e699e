"""Parse + verify + print a module of N ops (default 2,000); prints seconds and writes JSON.

    python benchmarks/bench_ir.py [--ops 2000] [--out benchmarks/results/ir-<date>.json]

Target (issue: compiler infrastructure): under 1 s for 2,000 ops on a 2-core development machine.
The module is shaped like real Inductor output: kernels with multi-KB sources, allocs, views,
launches, vendor calls and frees.
"""
from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import sys
import time
from pathlib import Path

from kernelopt.ir.parser import parse_module
from kernelopt.ir.printer import print_module
from kernelopt.ir.verifier import verify

SOURCE = ("@triton.jit\\ndef k(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):\\n" +
          "    x = tl.load(in_ptr0 + xindex, xmask)\\n" * 60)


def synthetic_module(n_ops: int) -> str:
    lines = ['ko.module @bench version 1 attributes {device = "cuda:0"} {']
    groups = max(n_ops // 5, 1)
    kernels = max(groups // 10, 1)
    for k in range(kernels):
        lines.append(f'  ko.kernel @k{k} {{kind = "pointwise", source = "{SOURCE}", signature = '
                     '{in_ptr0 = "*bf16", out_ptr0 = "*bf16", xnumel = "i32", XBLOCK = "constexpr"}, '
                     'size_hints = {x = 4096}}')
    lines.append("  %arg0_1 = ko.arg 0 : tensor<64x64xbf16, [64, 1]>")
    prev = "arg0_1"
    for i in range(groups):
        lines.append(f"  %buf{i} = ko.alloc : tensor<64x64xbf16, [64, 1]>")
        lines.append(f"  ko.launch @k{i % kernels}(%{prev}, %buf{i}, 4096) "
                     "{config = {XBLOCK = 1024, num_warps = 4, num_stages = 1}, provenance = \"Original ATen: [aten.add]\"}")
        lines.append(f"  %buf{i}_v0 = ko.view %buf{i} : tensor<64x64xbf16, [1, 64]>")
        lines.append(f'  ko.extern "extern_kernels.mm"(%buf{i}_v0, %buf{i}, out=%buf{i})')
        if i:
            lines.append(f"  ko.free %{prev}")
        prev = f"buf{i}"
    lines.append(f"  ko.return %{prev}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=2000, help="number of body ops (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed repetitions (median reported)")
    parser.add_argument("--out", help="write the result as JSON here")
    args = parser.parse_args()
    text = synthetic_module(args.ops)
    parse_module(text)  # warm-up: builds the lark parser once
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        module = parse_module(text, "bench.kir")
        diags = verify(module)
        out = print_module(module)
        times.append(time.perf_counter() - start)
    assert not diags.errors and out == text, "benchmark module must verify and round-trip"
    n_ops = len(module.body) + len(module.kernels)
    result = {
        "benchmark": "parse+verify+print", "ops": n_ops, "bytes": len(text),
        "median_s": round(statistics.median(times), 4), "min_s": round(min(times), 4),
        "target_s": 1.0, "python": platform.python_version(), "machine": platform.machine(),
        "cpus": __import__("os").cpu_count(), "date": datetime.date.today().isoformat(),
    }
    print(f"parse+verify+print of {n_ops} ops ({len(text) / 1e6:.2f} MB): median {result['median_s']:.3f} s "
          f"(target < 1 s)")
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["median_s"] < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
