"""Do the proposers' candidates compile for a GPU? Every candidate the schedule transforms and templates
offer on the general problems' H200 modules is launched here on the CPU with Triton's launch recorded
instead of run, and each recorded launch is compiled with Triton's real compiler for sm_90 (an H100 or
H200), with the argument types and constexprs of that launch. No GPU: Triton's wheel carries the
compiler. The interpreter, which every CPU test uses, runs Python as written and accepts kernels that
the compiler rejects (a loop-carried name bound only inside the loop, an fp32-only operation on
float64); such a candidate is rejected on the GPU as an exception, and the transform never wins.

    python benchmarks/candidates_compile.py [--problems a,b] [--per-proposer 2] [--captures DIR] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from templates_census import targets  # noqa: E402

from kernelopt.codegen.configs import apply_recorded_configs  # noqa: E402
from kernelopt.proposers.registry import make_proposer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CAPTURES = REPO / "tests" / "fixtures" / "cuda-2.11-general"
# retune launches the original kernel itself, which Inductor compiled: nothing new to compile
PROPOSERS = ("templates", "fuse", "store-remap", "absorb-consumer", "align-split", "fold-split", "memory-order", "epilogue",
             "diagonal-operand", "sum-through-gemm", "sum-through-conv",
             "conv-layout",
             "outer-tile", "row-on-chip",
             "fold-pass", "hoist-invariant", "block-online", "narrow-math", "split-row")

# Runs in a fresh process (no interpreter, no CPU shims): reads a JSON list of jobs on stdin, each
# {"path": a module file, "sass": whether to count SASS instructions too (ptx_census), and either "run_args":
# argument specs (its run(*args) is called with Triton's launches recorded, and each launch compiled at its
# own types and constexprs) or "kernel": a @triton.jit function of it, compiled with "types" for named
# parameters, "*fp32" for other pointers, "i32" for other scalars and "block" for every constexpr}; prints
# {path: {"launches": n, "error": text or "", "ptx": [counts per launch]}}.
COMPILER = r'''
import importlib.util, json, sys, traceback
import torch, triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.runtime.jit import JITFunction

TYPES = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16", torch.float64: "fp64",
         torch.int64: "i64", torch.int32: "i32", torch.int16: "i16", torch.int8: "i8", torch.uint8: "u8",
         torch.bool: "i1"}
recorded = []

def record(self, *args, grid=None, warmup=False, **kwargs):
    recorded.append((self, args, kwargs))

JITFunction.run = record

def scalar_type(value):
    if isinstance(value, bool):
        return "i1"
    if isinstance(value, int):
        return "i32" if -2**31 <= value < 2**31 else "i64"
    if isinstance(value, float):
        return "fp32"
    return None

# PTX instructions counted per compiled launch (ptx_census.py compares a candidate with the original)
PTX_OPS = {"ex2": r"\bex2\.approx", "lg2": r"\blg2\.approx", "div": r"\bdiv\.(?:rn|full|approx)\.f32",
           "sqrt.rn": r"\bsqrt\.rn\.f32",
           "rcp": r"\brcp\.", "ld.global": r"\bld\.global",
           "ld.v4": r"\bld\.global\S*\.v4", "ld.v2": r"\bld\.global\S*\.v2", "st.global": r"\bst\.global",
           "bar.sync": r"\bbar\.sync"}
ptx_counts = []
count_sass = False

def compile_for_sm90(fn, signature, constexprs, options, attrs=None):
    import re
    kernel = triton.compile(ASTSource(fn, signature, constexprs=constexprs, attrs=attrs or {}),
                            target=GPUTarget("cuda", 90, 32), options=options)
    ptx = kernel.asm["ptx"]
    counts = {op: len(re.findall(pattern, ptx)) for op, pattern in PTX_OPS.items()}
    counts["instructions"] = sum(1 for line in ptx.splitlines() if line.strip().endswith(";")
                                 and not line.strip().startswith((".", "//")))
    if count_sass:
        counts["sass"] = sass_instructions(kernel.asm.get("cubin"))
    ptx_counts.append(counts)

def sass_instructions(cubin):
    # what ptxas made of the PTX, listed by the nvdisasm Triton ships beside it: None where it is missing
    import os, re, subprocess, tempfile
    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "nvdisasm")
    if not cubin or not os.path.exists(tool):
        return None
    with tempfile.NamedTemporaryFile(suffix=".cubin") as file:
        file.write(cubin)
        file.flush()
        listing = subprocess.run([tool, "-c", file.name], capture_output=True, text=True).stdout
    return len(re.findall(r"^\s*/\*[0-9a-f]{4,}\*/\s+\S", listing, flags=re.M))

def compile_launch(fn, args, kwargs):
    # specialised as Triton's launcher specialises on the GPU: tensors 16-byte aligned (torch's allocations
    # are), integers that are multiples of 16 marked so; without it no load is vectorised
    options = {k: kwargs.pop(k) for k in ("num_warps", "num_stages") if k in kwargs}
    signature, constexprs, attrs = {}, {}, {}
    values = dict(zip([p.name for p in fn.params], args))
    values.update(kwargs)
    for i, param in enumerate(fn.params):
        value = values.get(param.name, param.default if param.has_default else None)
        if param.is_constexpr:
            signature[param.name] = "constexpr"
            constexprs[(i,)] = value
        elif isinstance(value, torch.Tensor):
            signature[param.name] = "*" + TYPES[value.dtype]
            attrs[(i,)] = [["tt.divisibility", 16]]
        elif value is None:
            signature[param.name] = "constexpr"
            constexprs[(i,)] = None
        else:
            signature[param.name] = scalar_type(value)
            if isinstance(value, int) and not isinstance(value, bool) and value % 16 == 0:
                attrs[(i,)] = [["tt.divisibility", 16]]
    compile_for_sm90(fn, signature, constexprs, options, attrs)

def compile_kernel(fn, types, block):
    signature, constexprs = {}, {}
    for i, param in enumerate(fn.params):
        if param.is_constexpr:
            signature[param.name] = "constexpr"
            constexprs[(i,)] = block
        else:
            signature[param.name] = types.get(param.name) or ("*fp32" if "ptr" in param.name else "i32")
    compile_for_sm90(fn, signature, constexprs, {})

def tensor(spec):
    if spec["value"] is not None or not spec["is_tensor"]:
        return spec["value"]
    dtype = getattr(torch, spec["dtype"])
    return torch.empty_strided(spec["sizes"], spec["strides"], dtype=dtype)

results = {}
for job in json.loads(sys.stdin.read()):
    recorded.clear()
    ptx_counts.clear()
    count_sass = bool(job.get("sass"))     # disassembling takes as long as compiling: only when asked
    try:
        spec = importlib.util.spec_from_file_location("compiled", job["path"])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if job.get("kernel"):
            compile_kernel(getattr(module, job["kernel"]), job.get("types", {}), job.get("block", 16))
            count = 1
        else:
            module.run(*[tensor(s) for s in job["run_args"]])
            for fn, args, kwargs in recorded:
                compile_launch(fn, args, dict(kwargs))
            count = len(recorded)
        results[job["path"]] = {"launches": count, "error": "", "ptx": list(ptx_counts)}
    except Exception as err:
        error = "".join(traceback.format_exception_only(err))[-2000:]
        results[job["path"]] = {"launches": len(recorded), "error": error, "ptx": list(ptx_counts)}
print(json.dumps(results))
'''


def _arg_specs(target) -> list[dict]:
    args = target.group_args or target.launches[0].args
    return [{"is_tensor": a.is_tensor, "sizes": list(a.sizes), "strides": list(a.strides), "dtype": a.dtype,
             "value": None if a.is_tensor else a.value} for a in args]


def candidates(problems: list[str] | None, per_proposer: int, captures: Path = CAPTURES):
    """(problem, target id, proposer, strategy, source, arg specs) for the first candidates of each, on
    every capture under `captures` (a folder with a manifest.json and the module)."""
    proposers = [make_proposer(name) for name in PROPOSERS]
    for manifest_path in sorted(captures.rglob("manifest.json")):
        folder = manifest_path.parent
        name = folder.relative_to(captures).as_posix()
        modules = sorted(folder.glob("*.0.py"))
        if not modules or (problems and name not in problems and folder.name not in problems):
            continue
        module_path = modules[0]
        manifest = json.loads(manifest_path.read_text())
        for target in targets(module_path, lambda m: apply_recorded_configs(m, manifest)):
            if target.kind == "vendor":
                continue
            for proposer in proposers:
                for index, candidate in enumerate(proposer.propose(target, [])):
                    if index >= per_proposer:
                        break
                    yield name, target.id, proposer.name, candidate.strategy, candidate.source, _arg_specs(target)


def compile_all(found: list[tuple]) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="kernelopt-candidates-compile-") as folder:
        jobs, rows = [], []
        for number, (problem, target, proposer, strategy, source, specs) in enumerate(found):
            path = os.path.join(folder, f"candidate_{number}.py")
            Path(path).write_text(source)
            jobs.append({"path": path, "run_args": specs})
            rows.append({"problem": problem, "target": target, "proposer": proposer, "strategy": strategy,
                         "path": path})
        results = compile_in_fresh_process(jobs, os.path.join(folder, "cache"))
    for row in rows:
        row.update(results[row.pop("path")])
    return rows


def compile_in_fresh_process(jobs: list[dict], cache_dir: str) -> dict:
    """COMPILER's results for `jobs`, run by a Python without TRITON_INTERPRET (the caller may be a test
    process whose CPU shims replace parts of triton.language), its Triton cache in `cache_dir`."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["TRITON_CACHE_DIR"] = cache_dir
    done = subprocess.run([sys.executable, "-c", COMPILER], input=json.dumps(jobs), env=env,
                          capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"the compiling process failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def markdown(rows: list[dict], command: str = "python benchmarks/candidates_compile.py") -> str:
    failed = [r for r in rows if r["error"]]
    lines = ["# Do the proposers' candidates compile for sm_90?", "",
             f"`{command}`: {len(rows)} candidates (the first of each proposer per "
             f"target), {sum(r['launches'] for r in rows)} Triton launches compiled for sm_90 on the CPU; "
             f"**{len(failed)} failed**.", "",
             "| proposer | candidates | compile | fail |", "| --- | --- | --- | --- |"]
    for name in PROPOSERS:
        mine = [r for r in rows if r["proposer"] == name]
        if mine:
            bad = sum(1 for r in mine if r["error"])
            lines.append(f"| {name} | {len(mine)} | {len(mine) - bad} | {bad} |")
    if failed:
        lines += ["", "| problem | target | proposer | strategy | error |", "| --- | --- | --- | --- | --- |"]
        for r in failed:
            error = r["error"].strip().splitlines()[-1][:160].replace("|", "/")
            lines.append(f"| {r['problem']} | {r['target']} | {r['proposer']} | {r['strategy']} | {error} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="", help="comma-separated general problems (default: all)")
    parser.add_argument("--per-proposer", type=int, default=2, help="candidates per proposer and target")
    parser.add_argument("--captures", default=str(CAPTURES),
                        help="folder of captures (each a folder with manifest.json and the module); "
                             "e.g. tests/corpus/cuda-2.11-h200 for the zoo")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "candidates_compile.md"))
    args = parser.parse_args()
    problems = [p for p in args.problems.split(",") if p] or None
    rows = compile_all(list(candidates(problems, args.per_proposer, Path(args.captures))))
    text = markdown(rows, " ".join(["python benchmarks/candidates_compile.py", *sys.argv[1:]]))
    Path(args.out).write_text(text)
    print(text)
    return 1 if any(r["error"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
