"""Which of Inductor's kernels read global memory only 4 bytes at a time, counted without a GPU.

Every Triton kernel of the general problems' H200 captures is compiled for sm_90 with Triton's real compiler at
the launch configuration Inductor's autotuner recorded (as candidates_compile.py compiles candidates), and its
PTX global loads are counted by width: `ld.global...v4` (16 bytes a thread for fp32), `...v2`, and the rest.
A kernel whose loads are all scalar although each thread reads several consecutive elements per step could not
prove its addresses aligned: a split reduction whose chunk is not a multiple of 4 (align-split), an index a
copy permutes (store-remap), a permuted walk (memory-order). It says where to look, not how fast a kernel runs;
a kernel that reads one element per thread per step is scalar whatever its alignment.

    python benchmarks/load_width_census.py [--captures DIR] [--out benchmarks/results/load_width_census.md]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import candidates_compile  # noqa: E402
from templates_census import targets  # noqa: E402

from kernelopt.codegen.configs import apply_recorded_configs  # noqa: E402
from kernelopt.proposers.candidate_source import (NotRetunable, candidate_source, grid_type_of,  # noqa: E402
                                                  recorded_config)

def originals(captures: Path):
    """(problem, kernel, 'original', config label, candidate-format source, arg specs) per recorded kernel."""
    for manifest_path in sorted(captures.rglob("manifest.json")):
        modules = sorted(manifest_path.parent.glob("*.0.py"))
        if not modules:
            continue
        manifest = json.loads(manifest_path.read_text())
        for target in targets(modules[0], lambda m: apply_recorded_configs(m, manifest)):
            if target.kind != "kernel":
                continue
            kernel, launch = target.kernels[0], target.launches[0]
            config = recorded_config(kernel, launch.config or {})
            if config is None:
                continue
            try:
                source = candidate_source(kernel.source, kernel.name, [a.name for a in launch.args], kernel.signature,
                                          grid_type_of(kernel), config)
            except NotRetunable:
                continue
            yield (manifest_path.parent.name, target.id, "original", config.label(), source,
                   candidates_compile._arg_specs(target))


def markdown(rows: list[dict], command: str) -> str:
    lines = ["# Global load widths of Inductor's kernels (sm_90 PTX, recorded configurations)", "",
             f"`{command}`: {len(rows)} kernels compiled on the CPU. *scalar only*: every global load is 4 bytes "
             "or less a thread.", "", "| problem | kernel | config | loads | v4 | v2 | scalar only |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        counts = (r.get("ptx") or [{}])[0]
        loads, v4, v2 = counts.get("ld.global", 0), counts.get("ld.v4", 0), counts.get("ld.v2", 0)
        flag = "**yes**" if loads and not (v4 or v2) else ""
        error = f" (error: {r['error'].strip().splitlines()[-1][:80]})" if r["error"] else ""
        lines.append(f"| {r['problem']} | {r['target']}{error} | {r['strategy']} | {loads} | {v4} | {v2} | {flag} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--captures", type=Path, default=candidates_compile.CAPTURES,
                        help="folder of captures (each a folder with manifest.json and the module)")
    parser.add_argument("--out", type=Path, default=candidates_compile.REPO / "benchmarks" / "results"
                        / "load_width_census.md")
    args = parser.parse_args()
    rows = candidates_compile.compile_all(list(originals(args.captures)))
    args.out.write_text(markdown(rows, "python benchmarks/load_width_census.py"))
    print(f"{args.out}: {len(rows)} kernels, {sum(1 for r in rows if r['error'])} failed to compile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
