"""Imports flow one way: `kernelopt.ir` <- `kernelopt.passes` <- the rest.

Every import statement of every module is read from the source (AST: module level and inside
functions alike), so a lazy import cannot hide an edge. The layers:

- `ir` imports nothing of kernelopt outside `kernelopt.ir`.
- `passes` imports `ir`, itself and the libraries under `kernelopt/` that passes call (codegen,
  legality, rewrite, profile, runtime, ...), never an entry point.
- the libraries under `kernelopt/` (and `kernelopt.templates`) import neither `kernelopt.passes` nor
  an entry point, so no path leads from a library back into the passes that call it.
- the entry points are the only modules that assemble pipelines: ENTRY_POINTS below.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Folder -> package, as pyproject.toml's `package-dir` maps them.
PACKAGE_DIRS = {"kernelopt": "kernelopt", "ir": "kernelopt.ir", "passes": "kernelopt.passes",
                "templates": "kernelopt.templates"}

# The modules that assemble and run pass pipelines (or forward to one that does): the CLIs, the
# optimize job, the Python API (`kernelopt.optimize()` in the package's __init__ forwards to it) and the
# Dynamo backend (`torch.compile(backend="kernelopt")` runs the optimize job on each graph), and the job's
# options (`OptimizeOptions.passes()` assembles its pipeline).
ENTRY_POINTS = ("kernelopt", "kernelopt.api", "kernelopt.backend", "kernelopt.cli", "kernelopt.commands",
                "kernelopt.opt", "kernelopt.optimize_job", "kernelopt.optimize_options")


def _module_name(path: Path) -> str:
    folder, *rest = path.relative_to(ROOT).with_suffix("").parts
    if rest[-1] == "__init__":
        rest = rest[:-1]
    return ".".join([PACKAGE_DIRS[folder], *rest])


def _imports(path: Path) -> list[tuple[str, int]]:
    """(imported kernelopt module or name, line) for every import statement in the file."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from pkg import sub` may name a submodule: keep both spellings.
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names]
            found.append((target, node.lineno))
    return [(target, line) for target, line in found if _within(target, "kernelopt")]


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _is_entry_point(name: str) -> bool:
    return name == "kernelopt" or any(_within(name, e) for e in ENTRY_POINTS if e != "kernelopt")


MODULES = {_module_name(p): p for folder in PACKAGE_DIRS for p in sorted((ROOT / folder).rglob("*.py"))}
EDGES = {name: _imports(path) for name, path in MODULES.items()}


def _layer(name: str) -> str:
    if _within(name, "kernelopt.ir"):
        return "ir"
    if _within(name, "kernelopt.passes"):
        return "passes"
    return "entry" if _is_entry_point(name) else "library"


def _violations(layer: str, forbidden) -> list[str]:
    return [f"{MODULES[name].relative_to(ROOT)}:{line}: imports {target}"
            for name, edges in EDGES.items() if _layer(name) == layer
            for target, line in edges if forbidden(target)]


def test_every_layer_is_scanned():
    assert {_layer(name) for name in MODULES} == {"ir", "passes", "library", "entry"}
    # The scan sees lazy imports too: the optimize command imports the job inside a function.
    assert any(_within(t, "kernelopt.optimize_job") for t, _ in EDGES["kernelopt.commands.optimize"])


def test_ir_imports_nothing_outside_ir():
    assert _violations("ir", lambda t: t != "kernelopt" and not _within(t, "kernelopt.ir")) == []


@pytest.mark.parametrize("layer", ["passes", "library"])
def test_nothing_below_the_entry_points_imports_them(layer):
    # `kernelopt` alone is the package being imported for one of its submodules, not its __init__'s API.
    assert _violations(layer, lambda t: t != "kernelopt" and _is_entry_point(t)) == []


def test_the_libraries_never_import_the_passes():
    assert _violations("library", lambda t: _within(t, "kernelopt.passes")) == []
