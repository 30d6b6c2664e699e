"""Run the legality gate's adversarial suite and write a results table.

    python benchmarks/legality_suite.py [--device cpu|cuda] [--out benchmarks/results/legality_suite.<device>.md]
                                        [--only SUBSTRING] [--large ROWSxVOCAB [--large-kernels torch]
                                        [--reorder ELEMENTS [--reorder-seeds N]] [--skip-suite]]

Every candidate in tests/adversarial/candidates/ is checked against its real captured kernel (shrunk);
a row passes when the verdict is the one the candidate's EXPECT line names. On the CPU, TRITON_INTERPRET
is set here; on a GPU the same small shapes run natively, and the GPU_ONLY rows (streams, TF32) show
what the dynamic checks add there. Each row says where its time went (the gate's Verdict.timings):
compilation, the candidate's runs, preparing cases (inputs, original, float64 reference), moving data
to and from the sandbox, and comparing.

`--large 4096x32000` adds one row at a real size: the cross-entropy softmax-stats kernel on a bf16
[ROWS, VOCAB] input with a correct online-softmax candidate (block sizes the interpreter can run on
the CPU), and prints its per-case timings: the gate's data path at hundreds of MB per case. With
`--large-kernels torch` the original, reference and candidate of that row are torch code instead of
Triton kernels, so that on the CPU the interpreter's time does not hide the gate's own.
`--reorder 1e7` adds, per op (layer norm, RMS norm, softmax, cross-entropy gradient, row sum), a
reorder-only retune on an output of that many elements (tests/adversarial/reordered_reductions.py: the
op's fp32 additions in the order of another R0_BLOCK, as torch code on the device) checked by the gate on
its realistic case (rows of very different conditioning), `--reorder-seeds` random seeds (default 20)
and its adversarial cases: ACCEPT means every one passed. Beside each, the same candidate with one
element off by 1e-3 relative, which must be rejected.
Exit status 0 when every row passes.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLUMNS = ("target", "candidate", "expected", "verdict", "ok", "failing case", "s", "compile s", "run s",
           "prepare s", "transfer s", "compare s", "reason")


def _seconds(timings: dict, *keys) -> str:
    return f"{sum(timings.get(k, 0.0) for k in keys):.2f}"


def _row(target, name, expect, verdict, passed, seconds) -> str:
    t = verdict.timings
    got = "ACCEPT" if verdict.accepted else verdict.check
    reason = verdict.line().replace("|", "/")
    cells = (target, name, expect, got, "pass" if passed else "FAIL", verdict.evidence.get("case", ""),
             f"{seconds:.1f}", _seconds(t, "compile"), _seconds(t, "run"),
             _seconds(t, "inputs", "original", "reference"), _seconds(t, "to_child", "setup", "from_child"),
             _seconds(t, "compare"), reason[:160])
    return "| " + " | ".join(str(c) for c in cells) + " |"


_TORCH_STATS = """
import torch


def run(logits, row_max, row_sum, xnumel, r0_numel):
    x = logits.to(row_max.dtype)
    high = x.amax(1, keepdim=True)
    row_max.copy_(high)
    row_sum.copy_((x - high).exp().sum(1, keepdim=True))
"""


def _torch_stats():
    namespace: dict = {}
    exec(_TORCH_STATS, namespace)      # noqa: S102 - our own source, the same text the candidate runs
    return namespace["run"]


def _large_case(shape: str, device: str, kernels: str = "triton"):
    """The CE softmax-stats kernel at a real size and a correct candidate for it."""
    from kernelopt.legality import LaunchInputs
    from tests.adversarial.suite import CANDIDATES
    from tests.adversarial.targets import CE_STATS, Target
    import torch

    rows, vocab = (int(n) for n in shape.lower().split("x"))
    # the interpreter runs one Python step per program and loop iteration: wide blocks on the CPU
    xblock, rblock = (1, 2048) if device == "cuda" else (32, 4096)
    target = Target("ce_softmax_stats", CE_STATS.fixture, CE_STATS.kernel, {4096: rows, 32000: vocab},
                    {"XBLOCK": xblock, "R0_BLOCK": rblock}, None)
    with open(os.path.join(CANDIDATES, "ce_softmax_stats__accept_online_softmax.py")) as handle:
        source = handle.read()
    for old, new in (("XBLOCK=2, R0_BLOCK=128", f"XBLOCK={xblock}, R0_BLOCK={rblock}"),
                     ("triton.cdiv(xnumel, 2)", f"triton.cdiv(xnumel, {xblock})")):
        assert old in source, f"the online-softmax candidate changed: {old!r} not found"
        source = source.replace(old, new)
    generator = torch.Generator().manual_seed(0)
    logits = (torch.randn(rows, vocab, generator=generator) * 3).to(torch.bfloat16).to(device)

    def row_buffer():
        return torch.empty_strided((rows, 1), (1, rows), dtype=torch.float32, device=device)
    launch = LaunchInputs((logits, row_buffer(), row_buffer(), rows, vocab), label=f"[{rows}, {vocab}] bf16")
    if kernels == "torch":
        return _torch_stats(), _TORCH_STATS, _torch_stats(), launch, target
    return target.original(), source, target.reference(), launch, target


def run_large(shape: str, device: str, kernels: str = "triton") -> tuple[str, bool]:
    from kernelopt.legality import check_candidate
    from kernelopt.legality import gate

    time_line = getattr(gate, "time_line", None)      # absent before the gate had timings
    original, source, reference, launch, target = _large_case(shape, device, kernels)
    start = time.perf_counter()
    verdict = check_candidate(original, source, [launch], output_args=target.output_args(),
                              reference_fn=reference, original_source=target.source(), arg_names=target.params())
    seconds = time.perf_counter() - start
    timings = getattr(verdict, "timings", {})
    print(f"large case {shape} ({kernels}): {verdict.line()}; {seconds:.1f} s; {time_line(timings) if timings else ''}")
    for case in timings.get("cases", []):
        print("   ", ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else str(v) for k, v in case.items()))
    name = f"accept_online_softmax at {shape}" + (" (torch)" if kernels == "torch" else "")
    if not timings:
        return f"| ce_softmax_stats | {name} | accept | {verdict.line()} | | | {seconds:.1f} |", verdict.accepted
    row = _row("ce_softmax_stats", name, "accept", verdict, verdict.accepted, seconds)
    return row, verdict.accepted


def run_reorder(elements: int, device: str, seeds: int) -> list[tuple[str, bool]]:
    """Per op: the reorder-only retune (must be accepted on every case) and one element off (rejected)."""
    from kernelopt.legality import check_candidate
    from tests.adversarial import reordered_reductions as R

    rows = []
    for op, retune in R.RETUNES.items():
        for off in (0.0, 1e-3):
            # the realistic case's captured inputs: seed 3, rows of very different conditioning
            case = R.gate_case(op, 3, elements, device, one_element_off=off)
            start = time.perf_counter()
            verdict = check_candidate(case.original, case.source, [case.launch], output_args=case.output_args,
                                      reference_fn=case.reference, arg_names=case.arg_names,
                                      seeds=tuple(range(seeds)))
            seconds = time.perf_counter() - start
            blocks = f"R0_BLOCK {retune.original_block or 'persistent'} -> {retune.candidate_block or 'persistent'}"
            if off:
                name, expect, passed = f"{blocks}, one element off by {off:g} at {elements:.0e}", "mismatch", \
                    not verdict.accepted
            else:
                name, expect, passed = f"{blocks} at {elements:.0e}, {seeds} seeds", "accept", verdict.accepted
            rows.append((_row(f"reorder {op}", name, expect, verdict, passed, seconds), passed))
            print(rows[-1][0], flush=True)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where kernels run")
    parser.add_argument("--out", help="markdown file for the table (default: benchmarks/results/...)")
    parser.add_argument("--only", help="substring filter on candidate names")
    parser.add_argument("--large", metavar="ROWSxVOCAB", help="add the data-path row at this size (e.g. 4096x32000)")
    parser.add_argument("--skip-suite", action="store_true", help="only the --large / --reorder rows")
    parser.add_argument("--reorder", type=float, metavar="ELEMENTS",
                        help="add the reorder-only retunes (and one-element cheats) on outputs of this many elements")
    parser.add_argument("--reorder-seeds", type=int, default=20, help="random cases per reorder row (default 20)")
    parser.add_argument("--large-kernels", choices=("triton", "torch"), default="triton",
                        help="what the --large row runs: the Triton kernels (default) or torch code")
    args = parser.parse_args(argv)
    if args.device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"
    else:
        os.environ.pop("TRITON_INTERPRET", None)
    sys.path.insert(0, ROOT)
    import torch
    import triton
    from tests.adversarial.suite import run_case, suite_cases

    suite_start = time.perf_counter()
    rows, failures = [], 0
    for case in suite_cases():
        if args.skip_suite or (args.only and args.only not in case.name):
            continue
        result = run_case(case, device=args.device)
        failures += not result.passed
        rows.append(_row(case.target, case.name.split("__", 1)[1], " ".join(case.expect), result.verdict,
                         result.passed, result.seconds))
        print(rows[-1], flush=True)
    suite_seconds = time.perf_counter() - suite_start
    if args.large:
        row, ok = run_large(args.large, args.device, args.large_kernels)
        rows.append(row)
        failures += not ok
        print(row, flush=True)
    if args.reorder:
        for row, ok in run_reorder(int(args.reorder), args.device, args.reorder_seeds):
            rows.append(row)
            failures += not ok
    device_name = torch.cuda.get_device_name() if args.device == "cuda" else platform.processor() or "cpu"
    header = [f"# Legality gate adversarial suite ({args.device})", "",
              f"{datetime.date.today()} · {device_name} · torch {torch.__version__} · triton {triton.__version__}", "",
              f"{len(rows) - failures}/{len(rows)} candidates got the expected verdict; the suite took "
              f"{suite_seconds:.1f} s (the first row includes starting the sandbox's zygote).", "",
              "Times per row (s): the whole check; the candidate's compilation (Triton compile and kernel "
              "load, not counted against the run's time limit) and its runs; preparing the cases (inputs, "
              "original, float64 reference); moving data to and from the sandbox; comparing.", "",
              "| " + " | ".join(COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
    out = args.out or os.path.join(ROOT, "benchmarks", "results", f"legality_suite.{args.device}.md")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as handle:
        handle.write("\n".join(header + rows) + "\n")
    print(f"suite: {suite_seconds:.1f} s; wrote {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
