"""Modules KernelOPT emitted, read back like Inductor's (so they lift, check and re-optimize the same way).

An emitted standalone module (templates/module/standalone.py.j2) differs from Inductor's in three places:
- each kernel is a top-level `@triton.jit def NAME(...)`, not `NAME = async_compile.triton('NAME', '''...''')`;
  the `@triton_heuristics` decorator Inductor gave it is kept as text in `_INDUCTOR_DECORATORS`;
- each launch site is an object, `launch_NAME = _Launch('NAME', grid=..., meta={...}, options={...}, ...)`;
- `call()` launches through it: `launch_NAME(stream0, *args)`, or `launch_NAME.with_grid(stream0, grid, *args)`;
- an accepted rewrite of kernel (or fusion group's kernel) NAME is its candidate source with every top-level name
  prefixed `_rw_NAME_`, called as `_rw_NAME_run(*args)`; it lifts back to a `ko.kernel @NAME` of kind
  "candidate" holding the candidate source (as check-legality's commit made it) and a `ko.launch @NAME`.
This module finds those pieces in the syntax tree (never executing the module): the kernels as the
Inductor-style source `lift_kernel` reads, and the launch objects with the config each one pins.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from kernelopt.inductor_source import dotted_name

from .pyexpr import literal

DECORATORS_NAME = "_INDUCTOR_DECORATORS"
_LAUNCH_CLASS = "_Launch"


def is_emitted_module_text(text: str) -> bool:
    """Whether `text` looks like a module KernelOPT emitted (standalone style)."""
    return "_KERNELS = globals()" in text and (f"{_LAUNCH_CLASS}(" in text or f"def {REWRITE_PREFIX}" in text)


@dataclass
class LaunchObject:
    """One `launch_NAME = _Launch(...)` line: the kernel it launches and the config it pins."""

    kernel: str
    grid: list | None           # None: the grid is passed at each call (`.with_grid`)
    config: dict[str, Any]      # block sizes and launch options, the IR's `config` attribute form
    source: str                 # how the emitter chose the config (its `# config: ...` comment)


def launch_objects(tree: ast.Module, lines: list[str]) -> dict[str, LaunchObject]:
    """Launch-object name -> LaunchObject, for every module-level `_Launch(...)` assignment."""
    found = {}
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call) and dotted_name(stmt.value.func) == _LAUNCH_CLASS
                and stmt.value.args):
            continue
        kernel = literal(stmt.value.args[0])
        keywords = {k.arg: literal(k.value) for k in stmt.value.keywords if k.arg}
        if not isinstance(kernel, str):
            continue
        grid = keywords.get("grid")
        config = dict(keywords.get("meta") or {})
        config.update(keywords.get("options") or {})
        if isinstance(grid, (list, tuple)):
            config["grid"] = list(grid)
        line = lines[stmt.lineno - 1] if stmt.lineno <= len(lines) else ""
        source = line.split("# config:", 1)[1].strip() if "# config:" in line else "emitted"
        found[stmt.targets[0].id] = LaunchObject(kernel, list(grid) if isinstance(grid, (list, tuple)) else None,
                                                 config, source)
    return found


def kernel_definitions(tree: ast.Module, lines: list[str], launched: set[str]) -> dict[str, tuple[ast.Call, int]]:
    """Kernel name -> (an `async_compile.triton('NAME', source)` call, its line): the launched `@triton.jit`
    functions with the Inductor decorator recorded for them, as the Inductor module defined them."""
    decorators: dict[str, str] = {}
    functions: dict[str, ast.FunctionDef] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == DECORATORS_NAME
                                                for t in stmt.targets):
            value = literal(stmt.value)
            if isinstance(value, dict):
                decorators = {str(k): str(v) for k, v in value.items()}
        elif isinstance(stmt, ast.FunctionDef) and stmt.name in launched:
            functions[stmt.name] = stmt
    found = {}
    for name, function in functions.items():
        first = min([d.lineno for d in function.decorator_list] + [function.lineno])
        text = "\n".join(lines[first - 1:function.end_lineno])
        decorator = decorators.get(name)
        source = f"{decorator}\n{text}\n" if decorator else f"{text}\n"
        call = ast.parse(f"async_compile.triton({name!r}, {source!r})", mode="eval").body
        found[name] = (call, function.lineno)
    return found


REWRITE_PREFIX = "_rw_"
_SKIPPED_CALLS = ("_fast_launches",)     # the emitter's wrapping of a rewrite's kernels: it is emitted again


def rewrite_runs(tree: ast.Module, lines: list[str]) -> dict[str, tuple[str, str]]:
    """`_rw_NAME_run` -> (NAME, the rewrite's candidate source): its top-level definitions with the prefix taken
    off, after the module's own top-level imports (the emitter hoisted the candidate's imports out of it)."""
    imports = ["\n".join(lines[node.lineno - 1:node.end_lineno]) for node in tree.body
               if isinstance(node, (ast.Import, ast.ImportFrom))]
    runs = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)
            and node.name.startswith(REWRITE_PREFIX) and node.name.endswith("_run")]
    found = {}
    for run in runs:
        prefix = run[:-len("run")]
        parts = []
        for node in tree.body:
            if _is_skipped_call(node) or not any(name.startswith(prefix) for name in _defined_names(node)):
                continue
            first = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
            parts.append("\n".join(lines[first - 1:node.end_lineno]))
        body = re.sub(rf"(?<![\w.]){re.escape(prefix)}(\w)", r"\1", "\n\n\n".join(parts))
        found[run] = (prefix[len(REWRITE_PREFIX):-1], "\n".join(imports) + "\n\n\n" + body + "\n")
    return found


def _defined_names(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    return []


def _is_skipped_call(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
        and dotted_name(node.value.func) in _SKIPPED_CALLS


def launch_call(call: ast.Call, objects: dict[str, LaunchObject]) -> tuple[LaunchObject, ast.AST, ast.AST | None,
                                                                         list[ast.AST]] | None:
    """For `launch_NAME(stream, *args)` / `launch_NAME.with_grid(stream, grid, *args)`: (the launch object,
    the stream expression, the grid expression or None, the kernel arguments); None for any other call."""
    func = call.func
    with_grid = isinstance(func, ast.Attribute) and func.attr == "with_grid"
    target = func.value if with_grid else func
    if not (isinstance(target, ast.Name) and target.id in objects) or not call.args:
        return None
    if with_grid:
        if len(call.args) < 2:
            return None
        return objects[target.id], call.args[0], call.args[1], list(call.args[2:])
    return objects[target.id], call.args[0], None, list(call.args[1:])
