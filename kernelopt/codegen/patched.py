"""The patched emitter: the input module's own text, with only the rewritten kernels changed.

Everything Inductor wrote stays (its runtime, its autotuned launchers, its comments); for each kernel
with an accepted rewrite, the candidate's code (its `run(*args)` and kernels, names prefixed) is
inserted before `async_compile.wait(globals())`, and each launch of that kernel,
`name.run(ARGS, stream=streamN)`, becomes `_rw_name_run(ARGS)` on the same line. A short comment
header names KernelOPT and the evidence for each rewrite. `diff` against the input shows exactly that.
"""
from __future__ import annotations

import re
from pathlib import Path

from kernelopt.codegen.standalone_module import (KERNELOPT_VERSION, EmitOptions, RemarkFn, candidate_source,
                                          prefix_top_level_names, rewrite_evidence)
from kernelopt.errors import InputError
from kernelopt.ir.core import Module, Op


def _original_text(module: Module, original_source: str | None) -> str:
    if original_source is not None:
        return original_source
    kept = module.attrs.get("original_source")
    if isinstance(kept, str):
        return kept
    path = module.attrs.get("file")
    if not path:
        raise InputError(f"module @{module.name}: --style patched needs the original source "
                         "(module attr `file`, or pass it explicitly)")
    try:
        return Path(str(path)).read_text()
    except OSError as err:
        raise InputError(f"{path}: cannot read the original module for --style patched: {err.strerror}") from None


def _insertion_line(lines: list[str]) -> int:
    for i, line in enumerate(lines):
        if line.startswith("async_compile.wait("):
            return i
    for i, line in enumerate(lines):
        if line.startswith(("def call(", "class Runner")):
            return i
    raise InputError("the original module has neither async_compile.wait(...) nor call(): cannot patch it")


def _patch_launch(lines: list[str], launch: Op, kernel: str, runner: str) -> None:
    pattern = re.compile(rf"\b{re.escape(kernel)}\.run\((?P<args>.*?)(?:,\s*stream=\w+)?\)\s*$")
    candidates = []
    if launch.loc is not None and 0 < launch.loc.line <= len(lines):
        candidates.append(launch.loc.line - 1)
    candidates += [i for i, line in enumerate(lines) if pattern.search(line)]
    for index in candidates:
        match = pattern.search(lines[index])
        if match:
            lines[index] = lines[index][:match.start()] + f"{runner}({match.group('args')})"
            return
    raise InputError(f"cannot find the launch of {kernel} (line {launch.loc.line if launch.loc else '?'}) "
                     "in the original module")


def emit_patched(module: Module, original_source: str | None = None, options: EmitOptions | None = None,
                 remark: RemarkFn | None = None) -> str:
    text = _original_text(module, original_source)
    lines = text.splitlines()
    remark = remark or (lambda op, message: None)
    blocks: list[str] = []
    header = [f"# Patched by KernelOPT {KERNELOPT_VERSION} (emit-python, style patched): only rewritten kernels "
              "and their launches differ from the Inductor module.",
              f"# Precision policy: {module.attrs.get('precision', 'strict')}"]
    patched = 0
    launches = module.launches()
    for kernel in module.kernels:
        source = candidate_source(kernel)
        if source is None:
            continue
        name = kernel.symbol or ""
        mine = [op for op in launches if op.symbol == name]
        replaced = list(kernel.attrs.get("rewrite", {}).get("replaces") or [])
        if replaced:
            raise InputError(f"kernel @{name} replaces a fused group ({', '.join(replaced)}): a group rewrite "
                             "changes several launches; use --style standalone")
        body, imports, renamed = prefix_top_level_names(source, f"_rw_{name}_")
        if "run" not in renamed:
            raise InputError(f"kernel @{name}: its rewrite defines no run(*args)")
        blocks.append("\n".join([f"# ---- KernelOPT rewrite of {name} ----", *imports, body.rstrip("\n"), ""]))
        for launch in mine:
            _patch_launch(lines, launch, name, renamed["run"])
        header.append(f"# Rewritten: {name}: " + ", ".join(
            f"{k}={v}" for k, v in rewrite_evidence(kernel.attrs.get("rewrite") or {}).items()))
        remark(kernel, f"@{name}: patched in ({len(mine)} launch(es))")
        patched += 1
    if patched:
        at = _insertion_line(lines)
        lines[at:at] = ["\n\n".join(blocks), ""]
    else:
        header.append("# Rewritten: none (the module is unchanged)")
    return "\n".join(header + lines) + "\n"
