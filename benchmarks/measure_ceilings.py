"""Measure the roofline ceilings of the GPU this runs on (for kernelopt/profile/ceilings.json).

    python benchmarks/measure_ceilings.py --out ceilings-h200.json

Measured, each the median of CUDA-event timings after warm-up, on random data (zeros run faster):
- copy bandwidth: device-to-device `copy_` of a 2 GiB buffer, bytes counted read + write;
- dense GEMM rates through cuBLAS (torch.mm 8192^3): bf16, fp16, fp32 with TF32 on (tf32), fp32
  with TF32 off (fp32), 2*M*N*K FLOPs per product;
- launch overhead: the host-to-completion time of an empty Triton kernel launch.
"""
from __future__ import annotations

import argparse
import datetime
import json
import statistics

import torch
import triton
import triton.language as tl


def _median_ms(fn, reps: int = 20, warmup: int = 3) -> float:
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def copy_bandwidth() -> float:
    src = torch.randn(512 * 1024 * 1024, device="cuda")  # 2 GiB fp32
    dst = torch.empty_like(src)
    ms = _median_ms(lambda: dst.copy_(src))
    return 2 * src.numel() * src.element_size() / (ms * 1e-3)


def gemm_rate(dtype: torch.dtype, tf32: bool, n: int = 8192) -> float:
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    ms = _median_ms(lambda: torch.mm(a, b), reps=10)
    torch.backends.cuda.matmul.allow_tf32 = False
    return 2 * n ** 3 / (ms * 1e-3)


@triton.jit
def _empty(ptr):
    pass


def launch_overhead_us() -> float:
    x = torch.empty(1, device="cuda")
    _empty[(1,)](x)
    torch.cuda.synchronize()
    import time

    samples = []
    for _ in range(200):
        t = time.perf_counter()
        _empty[(1,)](x)
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t) * 1e6)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="JSON file to write")
    args = parser.parse_args()
    result = {
        "gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
        "date": datetime.date.today().isoformat(),
        "copy_bytes_per_s": copy_bandwidth(),
        "bf16_flops_per_s": gemm_rate(torch.bfloat16, False),
        "fp16_flops_per_s": gemm_rate(torch.float16, False),
        "tf32_flops_per_s": gemm_rate(torch.float32, True),
        "fp32_flops_per_s": gemm_rate(torch.float32, False),
        "empty_triton_launch_us": launch_overhead_us(),
    }
    for key, value in result.items():
        print(f"{key:24} {value:.4g}" if isinstance(value, float) else f"{key:24} {value}")
    with open(args.out, "w") as handle:
        json.dump(result, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
