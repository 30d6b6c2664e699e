"""What a schedule transform changes in the code the GPU runs, counted without a GPU: each transform's first
candidate on the general problems' H200 kernels and the original kernel at the same launch configuration
are compiled for sm_90 with Triton's real compiler (as candidates_compile.py does), and the PTX
instructions that bound these kernels are counted side by side: exponentials (`ex2.approx`), divisions,
correctly rounded square roots (`sqrt.rn`, several instructions each once assembled),
global loads and stores, barriers, all PTX instructions, and the SASS instructions ptxas makes of them
(`sass`, listed by the nvdisasm Triton ships; what the GPU's schedulers issue).

The counts are static (instructions in the code, not executed ones): at one launch configuration the loop
body is unrolled alike on both sides, so a halved `ex2` count is half the exponentials per element. It
says what a transform removes, not how fast the kernel runs; the GPU's timings decide that.

    python benchmarks/ptx_census.py [--problems a,b] [--proposers block-online,fold-pass,row-on-chip] [--out FILE]
    python benchmarks/ptx_census.py --captures tests/corpus/cuda-2.11-h200 --out benchmarks/results/ptx_census_zoo.md
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from candidates_compile import CAPTURES, _arg_specs, compile_in_fresh_process  # noqa: E402
from templates_census import targets  # noqa: E402

from kernelopt.codegen.configs import apply_recorded_configs  # noqa: E402
from kernelopt.proposers.candidate_source import (LaunchConfig, block_params_of, candidate_source,  # noqa: E402
                                                  grid_type_of)
from kernelopt.proposers.align_split import with_original_chunks  # noqa: E402
from kernelopt.proposers.memory_order import with_original_kernels  # noqa: E402
from kernelopt.proposers.registry import make_proposer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
PROPOSERS = ("block-online", "fold-pass", "row-on-chip", "memory-order", "align-split", "hoist-invariant",
             "narrow-math")
COLUMNS = ("ex2", "div", "rcp", "sqrt.rn", "ld.global", "ld.v4", "ld.v2", "st.global", "bar.sync", "instructions",
           "sass")
# group transforms: the candidate against the same launches with the original kernels put back
GROUP_ORIGINALS = {"memory-order": with_original_kernels, "align-split": with_original_chunks}


def label_config(strategy: str, kernel) -> LaunchConfig:
    """The launch configuration a candidate's label names (`... XBLOCK=1 R0_BLOCK=2048 num_warps=8 ...`)."""
    values = {k: int(v) for k, v in re.findall(r"\b([A-Z0-9_]+|num_warps|num_stages)=(\d+)", strategy)}
    blocks = tuple((p, values[p]) for p in block_params_of(kernel) if p in values)
    return LaunchConfig(blocks, values.get("num_warps", 4), values.get("num_stages", 1))


def pairs(problems: list[str] | None, proposers: list[str], captures: Path = CAPTURES):
    """(problem, kernel, proposer, strategy, candidate source, original source at its config, arg specs)."""
    made = [make_proposer(name) for name in proposers]
    for manifest_path in sorted(captures.rglob("manifest.json")):
        folder = manifest_path.parent
        modules = sorted(folder.glob("*.0.py"))
        name = folder.relative_to(captures).as_posix()          # `softmax/small.default` in the zoo's corpus
        if not modules or (problems and name not in problems and name.split("/")[0] not in problems):
            continue
        manifest = json.loads(manifest_path.read_text())
        for target in targets(modules[0], lambda m: apply_recorded_configs(m, manifest)):
            if target.kind == "group":
                # the group's launches, its split kernel rewritten, against the same launches as they were
                for proposer in (p for p in proposers if p in GROUP_ORIGINALS):
                    candidate = next(iter(make_proposer(proposer).propose(target, [])), None)
                    if candidate is not None:
                        yield (name, target.id, proposer, candidate.strategy, candidate.source,
                               GROUP_ORIGINALS[proposer](target, candidate.source), _arg_specs(target))
                continue
            if target.kind == "vendor" or len(target.kernels) != 1:
                continue
            kernel, launch = target.kernels[0], target.launches[0]
            for proposer in made:
                candidate = next(iter(proposer.propose(target, [])), None)
                if candidate is None:
                    continue
                config = label_config(candidate.strategy, kernel)
                original = candidate_source(kernel.source, kernel.name, [a.name for a in launch.args],
                                            kernel.signature, grid_type_of(kernel), config, header="original")
                yield (name, kernel.name, proposer.name, candidate.strategy, candidate.source, original,
                       _arg_specs(target))


def census(found: list[tuple]) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="kernelopt-ptx-census-") as folder:
        jobs, rows = [], []
        for number, (problem, kernel, proposer, strategy, source, original, specs) in enumerate(found):
            paths = []
            for side, text in (("candidate", source), ("original", original)):
                path = os.path.join(folder, f"{side}_{number}.py")
                Path(path).write_text(text)
                jobs.append({"path": path, "run_args": specs, "sass": True})
                paths.append(path)
            rows.append({"problem": problem, "kernel": kernel, "proposer": proposer, "strategy": strategy,
                         "paths": paths})
        results = compile_in_fresh_process(jobs, os.path.join(folder, "cache"))
    for row in rows:
        candidate, original = (results[p] for p in row.pop("paths"))
        row["error"] = candidate["error"] or original["error"]
        row["candidate"] = _summed(candidate.get("ptx", []))
        row["original"] = _summed(original.get("ptx", []))
    return rows


def _summed(launches: list[dict]) -> dict:
    total = {}
    for counts in launches:
        for op, n in counts.items():
            total[op] = None if n is None or total.get(op, 0) is None else total.get(op, 0) + n   # sass: None without nvdisasm
    return total


def markdown(rows: list[dict], command: str) -> str:
    lines = ["# What the schedule transforms change in the PTX (sm_90, static counts)", "",
             f"`{command}`: each transform's first candidate against the original kernel at the same launch "
             "configuration, compiled for sm_90 on the CPU, specialised as Triton specialises a launch on the GPU "
             "(tensors 16-byte aligned, integers that are multiples of 16 marked so). Cells: original -> candidate, "
             "instructions in the "
             "code (not executed counts); a candidate of several launches is summed over them.", "",
             "| problem | proposer | strategy | " + " | ".join(COLUMNS) + " |",
             "| --- | --- | --- | " + " | ".join("---" for _ in COLUMNS) + " |"]
    for row in rows:
        if row["error"]:
            cells = ["compile failed: " + row["error"].strip().splitlines()[-1][:80].replace("|", "/")] + [""] * (len(COLUMNS) - 1)
        else:
            cells = [f"{row['original'].get(op, 0)} -> {row['candidate'].get(op, 0)}" for op in COLUMNS]
        lines.append(f"| {row['problem']} | {row['proposer']} | {row['strategy']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="", help="comma-separated general problems (default: all)")
    parser.add_argument("--proposers", default=",".join(PROPOSERS), help="comma-separated proposers")
    parser.add_argument("--captures", default=str(CAPTURES), help="folders of captures, one per problem (default: "
                        "the general problems' H200 captures; the zoo's: tests/corpus/cuda-2.11-h200)")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "ptx_census.md"))
    args = parser.parse_args(argv)
    problems = [p for p in args.problems.split(",") if p] or None
    rows = census(list(pairs(problems, [p for p in args.proposers.split(",") if p], Path(args.captures))))
    text = markdown(rows, " ".join(["python benchmarks/ptx_census.py", *(sys.argv[1:] if argv is None else argv)]))
    Path(args.out).write_text(text)
    print(text)
    return 1 if any(r["error"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
