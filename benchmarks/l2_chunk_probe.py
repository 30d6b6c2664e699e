"""Does a two-pass row kernel group get faster when it runs one L2-sized chunk of rows at a time?

A norm over few long rows (layer norm over 32 rows of 2M fp32) runs as Inductor writes it: partial sums
per (row, split), a combine per row, then a pointwise pass that reads the input again. Each kernel is at
its bandwidth floor, yet the group moves 3N: the second read of x comes from HBM because the whole
tensor (268 MB) is far larger than L2. Run the three launches on a chunk of rows at a time (a chunk small
enough to stay in L2 between the first and the third launch) and the second read should hit L2.

This measures it before any transform is written: the same three Triton kernels launched over the whole
tensor and over chunks of 1, 2, 4 and 8 rows (sliced pointers, nothing else changes), each inside a CUDA
graph (so host launch cost does not count) and launched plainly (plain_ms: where the host sets the
pace), side by side in one process.

    python3 benchmarks/l2_chunk_probe.py --out results.json

Measured on an H100 (2026-12-06, benchmarks/results/2026-12-06-h100-s7/run12/l2_chunk_probe.json): no chunk size
wins. 32 x 2M fp32: whole tensor 0.273 ms, chunks of 8 / 4 / 2 / 1 rows 0.294 / 0.308 / 0.360 / 0.529 ms in a
CUDA graph (launched plainly 0.311 ... 2.58 ms); so no transform was kept for it.
"""
from __future__ import annotations

import argparse
import json

import torch
import triton
import triton.language as tl


@triton.jit
def _partials(x_ptr, part_ptr, row_len, chunk_len, splits, BLOCK: tl.constexpr):
    pid = tl.program_id(0)               # one program per (row, split)
    row, split = pid // splits, pid % splits
    base = row.to(tl.int64) * row_len
    acc = tl.zeros([BLOCK], tl.float32)
    acc2 = tl.zeros([BLOCK], tl.float32)
    for start in range(0, chunk_len, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        pos = split * chunk_len + offs
        v = tl.load(x_ptr + base + pos, mask=(offs < chunk_len) & (pos < row_len), other=0.0)
        acc += v
        acc2 += v * v
    tl.store(part_ptr + 2 * pid, tl.sum(acc, 0))
    tl.store(part_ptr + 2 * pid + 1, tl.sum(acc2, 0))


@triton.jit
def _combine(part_ptr, stat_ptr, splits, row_len, SPLITS: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, SPLITS)
    mask = offs < splits
    s = tl.sum(tl.load(part_ptr + 2 * (row * splits + offs), mask=mask, other=0.0), 0)
    s2 = tl.sum(tl.load(part_ptr + 2 * (row * splits + offs) + 1, mask=mask, other=0.0), 0)
    mean = s / row_len
    var = s2 / row_len - mean * mean
    tl.store(stat_ptr + 2 * row, mean)
    tl.store(stat_ptr + 2 * row + 1, tl.math.rsqrt(var + 1e-5))


@triton.jit
def _normalize(x_ptr, stat_ptr, y_ptr, numel, row_len, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    row = offs // row_len
    mean = tl.load(stat_ptr + 2 * row, mask=mask, other=0.0)
    rstd = tl.load(stat_ptr + 2 * row + 1, mask=mask, other=0.0)
    v = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, (v - mean) * rstd, mask=mask)


def _launch(x, part, stat, y, rows, row_len, splits):
    chunk_len = triton.cdiv(row_len, splits)
    _partials[(rows * splits,)](x, part, row_len, chunk_len, splits, BLOCK=2048, num_warps=8)
    _combine[(rows,)](part, stat, splits, row_len, SPLITS=triton.next_power_of_2(splits), num_warps=1)
    numel = rows * row_len
    _normalize[(triton.cdiv(numel, 1024),)](x, stat, y, numel, row_len, BLOCK=1024, num_warps=4)


def _run(x, part, stat, y, rows, row_len, splits, chunk_rows):
    for r0 in range(0, rows, chunk_rows):
        r1 = min(rows, r0 + chunk_rows)
        _launch(x[r0:r1], part[r0 * splits:], stat[r0:], y[r0:r1], r1 - r0, row_len, splits)


def _time_graph(fn, reps=200):
    fn()
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    for _ in range(10):
        graph.replay()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        graph.replay()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps


def _time_plain(fn, reps=100):
    """Launched from Python each time (Triton's JIT path): where the host, not the GPU, sets the pace."""
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=["32x2097152x64", "32x2097152x17", "16x4194304x64"],
                        help="ROWSxROW_LENxSPLITS (splits: programs per row in the first kernel; Inductor "
                             "chose 17 for the 32 x 2M layer norm)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    results = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
               "cases": []}
    for text in args.cases:
        rows, row_len, splits = (int(v) for v in text.split("x"))
        x = torch.randn(rows, row_len, device="cuda")
        y = torch.empty_like(x)
        part = torch.empty(rows * splits * 2, device="cuda")
        stat = torch.empty(rows * 2, device="cuda")
        expected = torch.nn.functional.layer_norm(x, (row_len,))
        case = {"rows": rows, "row_len": row_len, "splits": splits, "mb": x.numel() * 4 / 1e6, "ms": {}}
        for chunk in (rows, 8, 4, 2, 1):
            if chunk > rows:
                continue
            fn = (lambda c=chunk: _run(x, part, stat, y, rows, row_len, splits, c))
            ms = _time_graph(fn)
            torch.testing.assert_close(y, expected, atol=1e-3, rtol=1e-3)
            case["ms"][f"chunk{chunk}"] = round(ms, 4)
            case.setdefault("plain_ms", {})[f"chunk{chunk}"] = round(_time_plain(fn), 4)
        try:       # Inductor's own module for the same layer norm, in the same kind of graph
            compiled = torch.compile(lambda t: torch.nn.functional.layer_norm(t, (row_len,)),
                                     mode="max-autotune-no-cudagraphs")
            case["ms"]["inductor"] = round(_time_graph(lambda: compiled(x)), 4)
        except Exception as exc:  # noqa: BLE001 - a probe: say why and go on
            case["inductor_error"] = repr(exc)[:200]
        whole = case["ms"][f"chunk{rows}"]
        case["speedup"] = {k: round(whole / v, 3) for k, v in case["ms"].items()}
        case["floor_2n_ms"] = round(2 * x.numel() * 4 / 3.0e12 * 1e3, 4)
        print(json.dumps(case), flush=True)
        results["cases"].append(case)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
