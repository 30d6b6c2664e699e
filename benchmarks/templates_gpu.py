"""Time the `templates` proposer's kernels against the Inductor kernels they replace, on a GPU.

    python benchmarks/templates_gpu.py --out $OUT/templates.json

- cross-entropy: the ce fixture modules (default and max-autotune-no-cudagraphs) loaded as Inductor wrote
  them, timed through their `call`, against every online-cross-entropy template variant;
- rms_swiglu / block: the RMSNorm and LayerNorm kernels of those fixtures, launched as the fixture's
  `call` launches them, against the row-norm template variants; ln_gelu is reported as not applicable
  (its kernel has a GELU epilogue the row-norm template does not model);
- depthwise: the zoo's depthwise_conv convolution (fp32 [32, 256, 56, 56] channels-last, 7x7, padding 3,
  groups 256), `torch.convolution` as Inductor's `extern_kernels.convolution` calls it (cuDNN), against
  every depthwise-conv2d template variant the proposer tries, plus a few more row blockings.
Everything runs side by side in one process; times are triton.testing.do_bench medians over rotating
input sets larger than L2. Each candidate is checked against the original before it is timed.
Needs only kernelopt, torch and triton (API of triton 3.6).
"""
from __future__ import annotations

import argparse
import datetime
import importlib.util
import itertools
import json
import sys
import traceback
from pathlib import Path

import torch
import triton
import triton.testing

from kernelopt.templates.kernel_template import next_pow2
from kernelopt.templates.kernels.cross_entropy import cross_entropy_source, cross_entropy_variants
from kernelopt.templates.kernels.depthwise_conv2d import depthwise_conv2d_source, depthwise_conv2d_variants
from kernelopt.templates.kernels.row_norm import row_norm_source, row_norm_variants

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "inductor-2.11-h200"
L2_BYTES = 60 * 2**20


def load_module(path: Path):
    spec = importlib.util.spec_from_file_location(f"ko_fixture_{path.stem.replace('.', '_').replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_candidate(source: str, tag: str):
    path = Path(f"/tmp/ko_bench_{tag}_{abs(hash(source))}.py")
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run


def rotation(bytes_per_set: int) -> int:
    """How many input sets make one pass over them exceed L2 twice (so no timed run starts L2-warm)."""
    return max(2, min(8, (2 * L2_BYTES) // max(bytes_per_set, 1) + 1))


def bench(fn_for_set, n_sets: int) -> float:
    counter = itertools.count()

    def step():
        fn_for_set(next(counter) % n_sets)

    for i in range(n_sets):          # compile / autotune outside the timed region
        fn_for_set(i)
    torch.cuda.synchronize()
    return triton.testing.do_bench(step, warmup=50, rep=300, return_mode="median")


def rel_err(actual: torch.Tensor, expected: torch.Tensor) -> float:
    a, e = actual.double(), expected.double()
    return float((a - e).norm() / e.norm().clamp_min(1e-30))


# ---------------------------------------------------------------------------------------------------
# cross-entropy

def cross_entropy_inputs(n: int = 4096, v: int = 32000):
    """The ce fixture's inputs, rotated: (n_sets, logits sets, target sets, torch's fp32 loss on set 0).
    Logits bf16 N(0, 4^2); every 17th target is the ignore index."""
    gen = torch.Generator(device="cuda").manual_seed(0)
    n_sets = rotation(n * v * 2)
    logits = [torch.randn(n, v, device="cuda", dtype=torch.bfloat16, generator=gen) * 4 for _ in range(n_sets)]
    targets = []
    for _ in range(n_sets):
        t = torch.randint(0, v, (n,), device="cuda", generator=gen)
        t[::17] = -100
        targets.append(t)
    reference = torch.nn.functional.cross_entropy(logits[0].float(), targets[0], ignore_index=-100)
    return n_sets, logits, targets, reference


def bench_cross_entropy(rows: list) -> None:
    n, v = 4096, 32000
    n_sets, logits, targets, reference = cross_entropy_inputs(n, v)
    baselines = {}
    for mode in ("default", "max-autotune-no-cudagraphs"):
        try:
            module = load_module(FIXTURES / f"ce.{mode}.0.py")
            out = module.call([logits[0], targets[0]])[0]
            err = rel_err(out, reference)
            ms = bench(lambda i, m=module: m.call([logits[i], targets[i]]), n_sets)
            baselines[mode] = ms
            rows.append(dict(case="ce", variant=f"inductor {mode}", ms=ms, rel_err_vs_torch=err))
        except Exception as exc:  # a broken baseline must not hide the other results
            rows.append(dict(case="ce", variant=f"inductor {mode}", error=_short(exc)))
    row_max = torch.empty_strided((n, 1), (1, n), device="cuda", dtype=torch.float32)   # as the fixture's buf0
    row_sum = torch.empty_strided((n, 1), (1, n), device="cuda", dtype=torch.float32)
    loss = torch.empty((), device="cuda", dtype=torch.float32)
    roles = {"logits": 0, "row_max": 1, "row_sum": 2, "loss": 3, "target": 4}
    for row_on_chip, block, warps, unroll in cross_entropy_variants(v):
        label = (f"online-cross-entropy {'row-on-chip ' if row_on_chip else ''}BLOCK={block} warps={warps}"
                 f" unroll={unroll}")
        try:
            run = load_candidate(cross_entropy_source(roles, v, -100, block=block, num_warps=warps,
                                                      row_on_chip=row_on_chip, n_rows=n, unroll=unroll), "ce")
            run(logits[0], row_max, row_sum, loss, targets[0])
            torch.cuda.synchronize()
            err = rel_err(loss, reference)
            ms = bench(lambda i: run(logits[i], row_max, row_sum, loss, targets[i]), n_sets)
            rows.append(dict(case="ce", variant="templates:" + label, ms=ms, rel_err_vs_torch=err,
                             **_speedups(ms, baselines)))
        except Exception as exc:
            rows.append(dict(case="ce", variant="templates:" + label, error=_short(exc)))


# ---------------------------------------------------------------------------------------------------
# row norms: the fixture's own kernel object, launched with the fixture's arguments

NORM_CASES = [
    # fixture, kernel attribute, kind, eps, (M, N), roles of the launch (x, [residual], weight, [bias], out)
    ("rms_swiglu", "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0", "rms", 1e-6, (4096, 2048),
     {"x": 0, "weight": 1, "out": 2}),
    ("block", "triton_per_fused_native_layer_norm_0", "layer", 1e-5, (8192, 1024),
     {"x": 0, "weight": 1, "bias": 2, "out": 3}),
    ("block", "triton_per_fused_add_native_layer_norm_view_1", "layer", 1e-5, (8192, 1024),
     {"x": 0, "residual": 1, "weight": 2, "bias": 3, "out": 4}),
]


def _norm_args(roles: dict, m: int, n: int, gen) -> list:
    args = [None] * (max(roles.values()) + 1)
    for role, pos in roles.items():
        shape = (n,) if role in ("weight", "bias") else (m, n)
        args[pos] = torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=gen)
    return args


def _norm_reference(kind: str, eps: float, roles: dict, args: list) -> torch.Tensor:
    x = args[roles["x"]].float() + (args[roles["residual"]].float() if "residual" in roles else 0)
    if kind == "layer":
        y = torch.nn.functional.layer_norm(x, x.shape[-1:], eps=eps)
    else:
        y = x * torch.rsqrt((x * x).mean(-1, keepdim=True) + eps)
    y = y * args[roles["weight"]].float()
    return y + args[roles["bias"]].float() if "bias" in roles else y


def bench_norms(rows: list) -> None:
    gen = torch.Generator(device="cuda").manual_seed(1)
    modules = {}
    for case, attr, kind, eps, (m, n), roles in NORM_CASES:
        tag = f"{case}:{attr}"
        try:
            if case not in modules:
                modules[case] = load_module(FIXTURES / f"{case}.default.0.py")
            kernel = getattr(modules[case], attr)
            n_sets = rotation(m * n * 2 * (3 if "residual" in roles else 2))
            sets = [_norm_args(roles, m, n, gen) for _ in range(n_sets)]
            out_pos = roles["out"]
            expected = _norm_reference(kind, eps, roles, sets[0])

            def original(i):
                kernel.run(*sets[i], m, n, stream=torch.cuda.current_stream().cuda_stream)

            original(0)
            torch.cuda.synchronize()
            base_err = rel_err(sets[0][out_pos], expected)
            base = bench(original, n_sets)
            rows.append(dict(case=case, kernel=attr, variant="inductor default", ms=base, rel_err_vs_torch=base_err))
        except Exception as exc:
            rows.append(dict(case=case, kernel=attr, variant="inductor default", error=_short(exc)))
            continue
        for rows_per_prog, warps in row_norm_variants(n):
            label = f"templates:{'layernorm' if kind == 'layer' else 'rmsnorm'} row-on-chip BLOCK={next_pow2(n)} " \
                    f"rows={rows_per_prog} warps={warps}"
            try:
                run = load_candidate(row_norm_source(kind, roles, n, eps, rows=rows_per_prog, num_warps=warps),
                                     "norm")
                sets[0][out_pos].fill_(float("nan"))
                run(*sets[0])
                torch.cuda.synchronize()
                err = rel_err(sets[0][out_pos], expected)
                ms = bench(lambda i: run(*sets[i]), n_sets)
                rows.append(dict(case=case, kernel=attr, variant=label, ms=ms, rel_err_vs_torch=err,
                                 speedup_vs_default=base / ms))
            except Exception as exc:
                rows.append(dict(case=case, kernel=attr, variant=label, error=_short(exc)))
    rows.append(dict(case="ln_gelu", kernel="triton_red_fused_add_gelu_mul_native_layer_norm_0",
                     variant="templates", error="not applicable: GELU epilogue after the LayerNorm"))


# ---------------------------------------------------------------------------------------------------
# depthwise convolution: cuDNN (as the zoo's Inductor module calls it) against the template variants

DEPTHWISE = dict(n=32, c=256, h=56, w=56, k=7, padding=3)
EXTRA_DEPTHWISE_VARIANTS = [dict(block_h=h, block_w=w, block_c=c, num_warps=nw)
                            for h, w, c, nw in [(8, 8, 128, 8), (16, 4, 64, 8), (4, 16, 64, 8), (8, 16, 32, 8)]]


def bench_depthwise(rows: list) -> None:
    n, c, h, w, k, pad = (DEPTHWISE[key] for key in ("n", "c", "h", "w", "k", "padding"))
    gen = torch.Generator(device="cuda").manual_seed(2)
    n_sets = rotation(n * c * h * w * 4 * 2)
    xs = [torch.randn(n, c, h, w, device="cuda", generator=gen).to(memory_format=torch.channels_last)
          for _ in range(n_sets)]
    weight = torch.randn(c, 1, k, k, device="cuda", generator=gen)
    expected = torch.nn.functional.conv2d(xs[0].double(), weight.double(), None, 1, pad, 1, c)
    conv = dict(stride=(1, 1), padding=(pad, pad), dilation=(1, 1), transposed=False, output_padding=(0, 0), groups=c)
    try:
        err = rel_err(torch.convolution(xs[0], weight, None, **conv), expected)
        base = bench(lambda i: torch.convolution(xs[i], weight, None, **conv), n_sets)
        rows.append(dict(case="depthwise", variant="cudnn (extern_kernels.convolution)", ms=base, rel_err_vs_torch=err))
    except Exception as exc:
        rows.append(dict(case="depthwise", variant="cudnn (extern_kernels.convolution)", error=_short(exc)))
        return
    out = torch.empty_like(xs[0])
    roles = {"x": 0, "weight": 1, "out": 2}
    for variant in depthwise_conv2d_variants(out.shape) + EXTRA_DEPTHWISE_VARIANTS:
        label = ("templates:depthwise-conv2d BLOCK_H={block_h} BLOCK_W={block_w} BLOCK_C={block_c} "
                 "warps={num_warps}").format(**variant)
        try:
            run = load_candidate(depthwise_conv2d_source(roles, stride=1, padding=pad, dilation=1, kernel_hw=k,
                                                         has_bias=False, **variant), "depthwise")
            out.fill_(float("nan"))
            run(xs[0], weight, out)
            torch.cuda.synchronize()
            err = rel_err(out, expected)
            ms = bench(lambda i: run(xs[i], weight, out), n_sets)
            rows.append(dict(case="depthwise", variant=label, ms=ms, rel_err_vs_torch=err, speedup_vs_default=base / ms))
        except Exception as exc:
            rows.append(dict(case="depthwise", variant=label, error=_short(exc)))


def _speedups(ms: float, baselines: dict) -> dict:
    keys = {"default": "speedup_vs_default", "max-autotune-no-cudagraphs": "speedup_vs_max_autotune"}
    return {keys[mode]: base / ms for mode, base in baselines.items()}


def _short(exc: Exception) -> str:
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text[-600:]


def print_table(rows: list) -> None:
    print(f"{'case':<11} {'variant':<66} {'ms':>8} {'x dflt':>8} {'x m-a':>8} {'rel_err':>9}")
    for row in rows:
        name = row["variant"] + (f" [{row['kernel'][:30]}]" if "kernel" in row and row["variant"].startswith("inductor") else "")
        if "error" in row:
            print(f"{row['case']:<11} {name[:66]:<66} {'-':>8} {'-':>8} {'-':>8} {'-':>9}  {row['error'][:100]}")
            continue
        speeds = [row.get(k) for k in ("speedup_vs_default", "speedup_vs_max_autotune")]
        cells = " ".join(f"{s:8.3f}" if s is not None else f"{'':8}" for s in speeds)
        print(f"{row['case']:<11} {name[:66]:<66} {row['ms']:8.4f} {cells} {row.get('rel_err_vs_torch', float('nan')):9.2e}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="path of the JSON file to write")
    parser.add_argument("--only", choices=["ce", "norms", "depthwise"], help="run one group of benchmarks only")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("templates_gpu.py needs a CUDA GPU", file=sys.stderr)
        return 2
    rows: list = []
    if args.only in (None, "ce"):
        bench_cross_entropy(rows)
    if args.only in (None, "norms"):
        bench_norms(rows)
    if args.only in (None, "depthwise"):
        bench_depthwise(rows)
    print_table(rows)
    report = dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__, triton=triton.__version__,
                  date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  method="triton.testing.do_bench median, rotating inputs > 2x L2, one process", rows=rows)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
