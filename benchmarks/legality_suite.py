"""Run the legality gate's adversarial suite and write a results table.

    python benchmarks/legality_suite.py [--device cpu|cuda] [--out benchmarks/results/legality_suite.<device>.md]

Every candidate in tests/adversarial/candidates/ is checked against its real captured kernel (shrunk);
a row passes when the verdict is the one the candidate's EXPECT line names. On the CPU, TRITON_INTERPRET
is set here; on a GPU the same small shapes run natively, and the GPU_ONLY rows (streams, TF32) show
what the dynamic checks add there. Exit status 0 when every row passes.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where kernels run")
    parser.add_argument("--out", help="markdown file for the table (default: benchmarks/results/...)")
    parser.add_argument("--only", help="substring filter on candidate names")
    args = parser.parse_args(argv)
    if args.device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"
    else:
        os.environ.pop("TRITON_INTERPRET", None)
    sys.path.insert(0, ROOT)
    import torch
    import triton
    from tests.adversarial.suite import run_case, suite_cases

    rows, failures = [], 0
    for case in suite_cases():
        if args.only and args.only not in case.name:
            continue
        result = run_case(case, device=args.device)
        got = "ACCEPT" if result.verdict.accepted else result.verdict.check
        failures += not result.passed
        reason = result.verdict.line().replace("|", "/")
        where = result.verdict.evidence.get("case", "")
        rows.append(f"| {case.target} | {case.name.split('__', 1)[1]} | {' '.join(case.expect)} | {got} | "
                    f"{'pass' if result.passed else 'FAIL'} | {where} | {result.seconds:.1f} | {reason[:160]} |")
        print(rows[-1], flush=True)
    device_name = torch.cuda.get_device_name() if args.device == "cuda" else platform.processor() or "cpu"
    header = [f"# Legality gate adversarial suite ({args.device})", "",
              f"{datetime.date.today()} · {device_name} · torch {torch.__version__} · triton {triton.__version__}", "",
              f"{len(rows) - failures}/{len(rows)} candidates got the expected verdict.", "",
              "| target | candidate | expected | verdict | ok | failing case | s | reason |",
              "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    out = args.out or os.path.join(ROOT, "benchmarks", "results", f"legality_suite.{args.device}.md")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as handle:
        handle.write("\n".join(header + rows) + "\n")
    print(f"wrote {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
