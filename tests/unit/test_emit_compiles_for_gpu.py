"""The emitted helpers compile with Triton's real compiler for an H100/H200 (sm_90), not only in the
interpreter. The interpreter runs Python as written, so a helper that Triton's compiler rejects (a name
a loop assigns and later code reads, unbound before the loop) passes every CPU test and then fails on the
GPU: the emitted module falls back. Compiling needs no GPU: Triton's wheel carries the whole toolchain.
Every kernel of the H200 general-problem captures that calls one of Inductor's helpers is compiled
standalone with the helpers the emitter writes, and so is the float64 reference the gate builds of every
kernel (its read-only inputs in their own dtype: a reference that does not compile is dropped on the GPU,
and the gate falls back to the bare tolerance), in a fresh process (this one runs Triton's interpreter,
whose CPU shims replace parts of triton.language), by the compiler of benchmarks/candidates_compile.py."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from suite_helpers import load_suite

from kernelopt.codegen.helpers import helpers_source, used_helpers
from kernelopt.codegen.plain_jit import standalone_kernel
from kernelopt.inductor_source import float64_native_inputs_variant, kernel_sources

GENERAL = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general"
BLOCK = 16        # every block size: small tensors compile fast, and no helper depends on the size

def _kernels_calling_helpers():
    found = {}
    for path in sorted(GENERAL.glob("*/*.default.0.py")):
        for name, source in kernel_sources(path.read_text()).items():
            helpers = used_helpers([source])
            if helpers and frozenset(helpers) not in found:        # one kernel per set of helpers
                found[frozenset(helpers)] = (path.parent.name, name, source)
    return sorted(found.values())


def _float64_references():
    """(problem, kernel, variant source, its signature) for every general kernel with a native variant."""
    found = []
    for path in sorted(GENERAL.glob("*/*.default.0.py")):
        for name, source in kernel_sources(path.read_text()).items():
            variant = float64_native_inputs_variant(source)
            if variant is not None:
                match = re.search(r"'signature': (\{[^}]*\})", variant)
                found.append((path.parent.name, name, variant, ast.literal_eval(match.group(1))))
    return found


def _recorded_block(problem: str, name: str) -> int:
    """BLOCK, except for a split scan: its float64 reference builds only where its chunks' float64 carries fit
    the workspace Inductor sized for fp32 (a static_assert), so it compiles at the block the capture recorded."""
    if not name.startswith("triton_spl_"):
        return BLOCK
    manifest = json.loads((GENERAL / problem / "manifest.json").read_text())
    return max(manifest["graphs"][0]["kernels"][name]["chosen"]["kwargs"].values())


KERNELS = _kernels_calling_helpers()
REFERENCES = _float64_references()


def _module_text(name: str, source: str) -> str:
    return "\n".join(["import types", "import triton", "import triton.language as tl",
                      "from triton.language.extra import libdevice", "tl_math = tl.math",
                      helpers_source(used_helpers([source]), "2.11.0"), standalone_kernel(name, source).text])


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sm90")
    jobs = []
    for problem, name, source in KERNELS:
        path = folder / f"{problem}_{name}.py"
        path.write_text(_module_text(name, source))
        jobs.append({"path": str(path), "kernel": name, "block": BLOCK})
    for problem, name, variant, signature in REFERENCES:
        path = folder / f"{problem}_{name}_float64.py"
        path.write_text(_module_text(name, variant))
        jobs.append({"path": str(path), "kernel": name, "types": signature, "block": _recorded_block(problem, name)})
    results = load_suite("candidates_compile").compile_in_fresh_process(jobs, str(folder / "cache"))
    return {path: result["error"] for path, result in results.items()}, folder


@pytest.mark.parametrize("problem, name, source", KERNELS, ids=lambda v: v if len(str(v)) < 60 else "src")
def test_kernel_with_emitted_helpers_compiles_for_sm90(problem, name, source, compiled):
    results, folder = compiled
    error = results[str(folder / f"{problem}_{name}.py")]
    assert error == "", error


@pytest.mark.parametrize("problem, name", [(p, n) for p, n, _, _ in REFERENCES])
def test_float64_reference_with_native_inputs_compiles_for_sm90(problem, name, compiled):
    results, folder = compiled
    error = results[str(folder / f"{problem}_{name}_float64.py")]
    assert error == "", error
