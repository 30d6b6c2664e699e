"""The emitted helpers compile with Triton's real compiler for an H100/H200 (sm_90), not only in the
interpreter. The interpreter runs Python as written, so a helper that Triton's compiler rejects (a name
a loop assigns and later code reads, unbound before the loop) passes every CPU test and then fails on the
GPU: the emitted module falls back. Compiling needs no GPU: Triton's wheel carries the whole toolchain.
Every kernel of the H200 general-problem captures that calls one of Inductor's helpers is compiled
standalone with the helpers the emitter writes."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import triton

from kernelopt.codegen.helpers import helpers_source, used_helpers
from kernelopt.codegen.plain_jit import standalone_kernel
from kernelopt.inductor_source import kernel_sources

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


def _compile_for_sm90(kernel):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    signature, constexprs = {}, {}
    for i, param in enumerate(kernel.params):
        if param.is_constexpr:
            signature[param.name] = "constexpr"
            constexprs[(i,)] = BLOCK
        else:
            signature[param.name] = "*fp32" if "ptr" in param.name else "i32"
    return triton.compile(ASTSource(kernel, signature, constexprs=constexprs), target=GPUTarget("cuda", 90, 32))


@pytest.mark.parametrize("problem, name, source", _kernels_calling_helpers(), ids=lambda v: v if len(str(v)) < 60 else "src")
def test_kernel_with_emitted_helpers_compiles_for_sm90(problem, name, source, monkeypatch, tmp_path):
    monkeypatch.setenv("TRITON_INTERPRET", "0")                 # real JIT functions, not interpreted ones
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    text = "\n".join(["import types", "import triton", "import triton.language as tl",
                      "from triton.language.extra import libdevice", "tl_math = tl.math",
                      helpers_source(used_helpers([source]), "2.11.0"), standalone_kernel(name, source).text])
    path = tmp_path / f"{problem}_{name}.py"          # the compiler reads the source back from a file
    path.write_text(text)
    namespace = {"__name__": f"emitted_{problem}", "__file__": str(path)}
    exec(compile(text, str(path), "exec"), namespace)
    _compile_for_sm90(namespace[name])
