"""Count the `templates` proposer's candidates over every capture of the corpus (kernel, group and vendor
targets), to check that a matcher change loses none:

    python benchmarks/templates_census.py OUT.json [--against BEFORE.json] [-v]

OUT.json maps "capture::target" to the strategies offered; with --against, every strategy BEFORE.json
lists that OUT.json lacks is printed and the exit status is 1. Runs on the CPU in seconds (lift +
matching only, no kernel runs)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.templates import TemplatesProposer
from kernelopt.rewrite.targets import fusion_groups, fusion_target, kernel_target, vendor_ops, vendor_target

REPO = Path(__file__).resolve().parent.parent
CAPTURES = ("tests/corpus/*/*/*/*.py", "tests/fixtures/cpu-2.13-templates/*/*.default.0.py")


def targets(path: Path, prepare=None):
    """Every kernel, fusion-group and vendor target of the capture; `prepare(module)` runs after lifting."""
    module = lift_file(str(path))
    if prepare is not None:
        prepare(module)
    ctx = PassContext()
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    launched = {op.symbol for op in module.launches()}
    found = [kernel_target(module, k.symbol) for k in module.kernels if k.symbol in launched]
    # each group built as agentic-rewrite builds it (an epilogue group by epilogue_target)
    found += [t for t, _ in (fusion_target(module, g, kind) for g, kind in sorted(fusion_groups(module).items()))
              if t is not None]
    found += [t for t, _ in (vendor_target(module, op) for op in vendor_ops(module)) if t is not None]
    return found


def census(verbose: bool) -> dict[str, list[str]]:
    offered = {}
    for pattern in CAPTURES:
        for path in sorted(REPO.glob(pattern)):
            proposer = TemplatesProposer()
            for target in targets(path):
                key = f"{path.relative_to(REPO)}::{target.id}"
                offered[key] = [c.strategy for c in proposer.propose(target, [])]
                if verbose and (offered[key] or target.id in proposer.refusals):
                    print(len(offered[key]), key, proposer.refusals.get(target.id, ""))
    return offered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--against")
    parser.add_argument("-v", action="store_true")
    args = parser.parse_args()
    offered = census(args.v)
    Path(args.out).write_text(json.dumps(offered, indent=1))
    print(f"{sum(map(len, offered.values()))} candidates over {len(offered)} targets")
    if not args.against:
        return 0
    before = json.loads(Path(args.against).read_text())
    lost = {key: sorted(set(strategies) - set(offered.get(key, []))) for key, strategies in before.items()}
    lost = {key: strategies for key, strategies in lost.items() if strategies}
    for key, strategies in lost.items():
        print("lost", key, strategies)
    print(f"before: {sum(map(len, before.values()))} candidates; lost: {sum(map(len, lost.values()))}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
