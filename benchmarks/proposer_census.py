"""Which proposer offers what on the general problems' H200 modules: per problem and target, the number of
candidates each built-in proposer yields in its first round, or the reason it declines. No GPU: the
proposers only read the kernels (lift, detect-fusion, propose); nothing is run or timed.

    python benchmarks/proposer_census.py [--out benchmarks/results/proposer_census.md]
    python benchmarks/proposer_census.py --captures DIR --out census.md   # any `kernelopt capture` folders

It shows where the general search has something to try before any device time is spent, and where a
problem gets nothing but retunes (the places a new transform would have to come from).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from templates_census import targets  # noqa: E402

from kernelopt.codegen.configs import apply_recorded_configs  # noqa: E402
from kernelopt.proposers.registry import make_proposer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CAPTURES = REPO / "tests" / "fixtures" / "cuda-2.11-general"
PROPOSERS = ("templates", "fuse", "store-remap", "absorb-consumer", "align-split", "fold-split", "memory-order", "epilogue",
             "diagonal-operand", "sum-through-gemm", "sum-through-conv",
             "conv-layout",
             "outer-tile", "row-on-chip",
             "fold-pass", "hoist-invariant", "block-online", "narrow-math", "split-row", "retune")


def census(captures: Path = CAPTURES) -> list[dict]:
    """One row per target of each capture folder's default module. A proposer that raises is recorded as
    `raised` (a proposer must decline with a reason, never fail the search)."""
    proposers = [make_proposer(name) for name in PROPOSERS]
    rows = []
    for folder in sorted(p for p in captures.iterdir() if p.is_dir()):
        module_path = next(folder.glob("*.default.0.py"), None)
        if module_path is None:
            continue
        manifest = json.loads((folder / "manifest.json").read_text()) if (folder / "manifest.json").exists() else {}
        for target in targets(module_path, lambda m: apply_recorded_configs(m, manifest)):
            offered, declined = {}, {}
            for proposer in proposers:
                try:
                    count = sum(1 for _ in proposer.propose(target, []))
                    why = getattr(proposer, "declined", lambda t: "")(target)
                except Exception as error:  # noqa: BLE001 - the census reports it; the search would have failed
                    count, why = 0, f"raised {type(error).__name__}: {error}"
                if count:
                    offered[proposer.name] = count
                if why and not count:
                    declined[proposer.name] = why
            rows.append({"problem": folder.name, "target": target.id, "offered": offered, "declined": declined})
    return rows


def markdown(rows: list[dict], title: str = "the general problems' H200 modules",
             command: str = "python benchmarks/proposer_census.py") -> str:
    problems = sorted({r["problem"] for r in rows})
    by_proposer = {name: sorted({r["problem"] for r in rows if name in r["offered"]}) for name in PROPOSERS}
    raised = [r for r in rows if any(v.startswith("raised ") for v in r["declined"].values())]
    lines = [f"# Proposer census over {title}",
             "",
             f"`{command}`: {len(problems)} problems, {len(rows)} targets (kernels and fusion "
             "groups; first-round candidates, nothing run).",
             "",
             "| proposer | problems with a candidate | which |", "| --- | --- | --- |"]
    for name, found in by_proposer.items():
        lines.append(f"| {name} | {len(found)} | {', '.join(found) or '–'} |")
    only_retune = [p for p in problems if not any(p in found for name, found in by_proposer.items() if name != "retune")]
    if raised:
        lines += ["", f"**Proposers raised on {len(raised)} target(s)** (see `raised` below)."]
    lines += ["", f"Problems where no schedule transform or template applies, only `retune` or nothing "
              f"({len(only_retune)}): {', '.join(only_retune) or '–'}.",
              "", "| problem | target | offered (candidates) | declined (why) |", "| --- | --- | --- | --- |"]
    for r in rows:
        offered = ", ".join(f"{k} {v}" for k, v in r["offered"].items()) or "–"
        declined = "; ".join(f"{k}: {v[:90]}" for k, v in r["declined"].items()) or "–"
        lines.append(f"| {r['problem']} | {r['target']} | {offered} | {declined.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "proposer_census.md"))
    parser.add_argument("--captures", type=Path, default=CAPTURES,
                        help="folders of `kernelopt capture` output, one per problem (default: the general problems' "
                             "H200 captures)")
    args = parser.parse_args()
    if not args.captures.is_dir():
        parser.error(f"--captures {args.captures}: no such folder")
    if args.captures == CAPTURES:
        text = markdown(census())
    else:
        text = markdown(census(args.captures), f"the captures in {args.captures.name}/",
                        f"python benchmarks/proposer_census.py --captures {args.captures}")
    Path(args.out).write_text(text)
    print(text.split("\n| problem |")[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
