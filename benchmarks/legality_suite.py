"""Run the legality gate's adversarial suite and write a results table.

    python benchmarks/legality_suite.py [--device cpu|cuda] [--out benchmarks/results/legality_suite.<device>.md]
                                        [--only SUBSTRING] [--large ROWSxVOCAB]

Every candidate in tests/adversarial/candidates/ is checked against its real captured kernel (shrunk);
a row passes when the verdict is the one the candidate's EXPECT line names. On the CPU, TRITON_INTERPRET
is set here; on a GPU the same small shapes run natively, and the GPU_ONLY rows (streams, TF32) show
what the dynamic checks add there. Each row says where its time went (the gate's Verdict.timings):
compilation, the candidate's runs, preparing cases (inputs, original, float64 reference), moving data
to and from the sandbox, and comparing.

`--large 4096x32000` adds one row at a real size: the cross-entropy softmax-stats kernel on a bf16
[ROWS, VOCAB] input with a correct online-softmax candidate (block sizes the interpreter can run on
the CPU), and prints its per-case timings: the gate's data path at hundreds of MB per case.
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


def _large_case(shape: str, device: str):
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
    return target, source, launch


def run_large(shape: str, device: str) -> tuple[str, bool]:
    from kernelopt.legality import check_candidate
    from kernelopt.legality.gate import time_line

    target, source, launch = _large_case(shape, device)
    start = time.perf_counter()
    verdict = check_candidate(target.original(), source, [launch], output_args=target.output_args(),
                              reference_fn=target.reference(), original_source=target.source(),
                              arg_names=target.params())
    seconds = time.perf_counter() - start
    print(f"large case {shape}: {verdict.line()}; {time_line(verdict.timings)}")
    for case in verdict.timings.get("cases", []):
        print("   ", ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else str(v) for k, v in case.items()))
    row = _row("ce_softmax_stats", f"accept_online_softmax at {shape}", "accept", verdict, verdict.accepted, seconds)
    return row, verdict.accepted


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where kernels run")
    parser.add_argument("--out", help="markdown file for the table (default: benchmarks/results/...)")
    parser.add_argument("--only", help="substring filter on candidate names")
    parser.add_argument("--large", metavar="ROWSxVOCAB", help="add the data-path row at this size (e.g. 4096x32000)")
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
        if args.only and args.only not in case.name:
            continue
        result = run_case(case, device=args.device)
        failures += not result.passed
        rows.append(_row(case.target, case.name.split("__", 1)[1], " ".join(case.expect), result.verdict,
                         result.passed, result.seconds))
        print(rows[-1], flush=True)
    suite_seconds = time.perf_counter() - suite_start
    if args.large:
        row, ok = run_large(args.large, args.device)
        rows.append(row)
        failures += not ok
        print(row, flush=True)
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
