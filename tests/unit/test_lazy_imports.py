"""Imports sit at module level; an import inside a function says why with a `# lazy: <why>` comment.

An import inside a function hides an edge of the dependency graph (issue 17), so one is kept only
where it buys something: CLI start-up time (`kernelopt --help` imports every command, kernelopt-opt
every pass), an optional dependency (ray, matplotlib, transformers), triton loading only after the CPU
shims set TRITON_INTERPRET, the numpy-dependent CPU shims staying out of GPU runs, or an import cycle.

The comment goes on the import's line or the line above it; the imports written directly below a
commented one (no blank line between) share its reason.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT_FOLDERS = ("kernelopt", "ir", "passes", "templates")  # pyproject.toml's package-dir
MARKER = "# lazy:"
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
IMPORTS = (ast.Import, ast.ImportFrom)


def _function_level_imports(tree: ast.AST) -> list[tuple[ast.stmt, list[ast.stmt]]]:
    """(import, the statement list holding it) for every import inside a function, however nested."""
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if isinstance(block, list) and in_function:
                found.extend((stmt, block) for stmt in block if isinstance(stmt, IMPORTS))
        for child in ast.iter_child_nodes(node):
            visit(child, in_function or isinstance(child, FUNCTIONS))

    visit(tree, False)
    return sorted(found, key=lambda pair: pair[0].lineno)


def _reason(lines: list[str], line: int) -> str | None:
    """The text after `# lazy:` on 1-based `line` or the line above it, else None."""
    for text in (lines[line - 1], lines[line - 2] if line > 1 else ""):
        if MARKER in text:
            return text.split(MARKER, 1)[1].strip()
    return None


def unexplained_lazy_imports(source: str, filename: str = "<source>") -> list[str]:
    """'file:line: import' for each function-level import without a non-empty `# lazy:` reason."""
    lines = source.splitlines()
    problems = []
    for stmt, block in _function_level_imports(ast.parse(source, filename)):
        reason = _reason(lines, stmt.lineno)
        position = block.index(stmt)
        # Directly below another import of the same block (no blank line): that one's reason covers it.
        while reason is None and position > 0:
            above = block[position - 1]
            if not isinstance(above, IMPORTS) or above.end_lineno != block[position].lineno - 1:
                break
            position -= 1
            reason = _reason(lines, above.lineno)
        if not reason:
            problems.append(f"{filename}:{stmt.lineno}: {ast.unparse(stmt)}")
    return problems


def _product_files() -> list[Path]:
    return [path for folder in PRODUCT_FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))]


def test_every_function_level_import_of_the_product_says_why_it_is_lazy():
    files = _product_files()
    assert len(files) > 100  # the walk really sees the product
    problems = [problem for path in files
                for problem in unexplained_lazy_imports(path.read_text(), str(path.relative_to(ROOT)))]
    assert problems == [], (
        "imports inside functions without a reason: move each to module level, or, where it must stay "
        "lazy (CLI start-up, an optional dependency, triton after the CPU shims, a cycle), add "
        f"'{MARKER} <why>' on its line or the line above:\n  " + "\n  ".join(problems))


def test_a_reason_covers_its_line_the_line_below_and_the_imports_grouped_under_it():
    source = '''
def above():
    # lazy: start-up
    import torch
    import triton
    from kernelopt import guard

    import json


def trailing():
    import ray  # lazy: optional dependency (extra 'ray')


def empty_reason():
    # lazy:
    import openai


def nested():
    def inner():
        if True:
            import numpy
    import os  # a comment that is not a reason
    return inner


import sys  # module level: never needs a reason
'''
    assert unexplained_lazy_imports(source, "m.py") == [
        "m.py:8: import json",          # a blank line ends the group
        "m.py:17: import openai",       # a marker without a reason
        "m.py:23: import numpy",
        "m.py:24: import os",
    ]


def _fresh_python(code: str) -> subprocess.CompletedProcess:
    env = {"PYTHONWARNINGS": "ignore", "PATH": "/usr/bin:/bin"}  # no TRITON_INTERPRET from the test run
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def _loaded_after(code: str, modules: tuple[str, ...]) -> list[str]:
    """Which of `modules` a fresh interpreter has imported after running `code`."""
    done = _fresh_python(f"import sys\n{code}\nprint(','.join(sorted(m for m in {modules!r} if m in sys.modules)))\n")
    assert done.returncode == 0, done.stderr
    return [name for name in done.stdout.strip().split(",") if name]


def test_cli_start_up_loads_neither_torch_nor_the_heavy_libraries():
    loaded = _loaded_after("from kernelopt.cli import build_parser\n"
                           "from kernelopt.opt import build_parser as build_opt_parser\n"
                           "from kernelopt.passes.registry import registry\n"
                           "build_parser(); build_opt_parser(); registry()",
                           ("torch", "triton", "jinja2", "openai", "numpy"))
    assert loaded == [], f"kernelopt --help / kernelopt-opt start-up imported {loaded}"


def test_importing_every_product_module_loads_no_triton():
    # triton picks JIT or interpreter for its own @jit helpers when first imported: loaded before
    # install_cpu_triton_shims sets TRITON_INTERPRET, kernels on the CPU fail ("Cannot call @triton.jit'd
    # outside of the scope of a kernel"). So no module may import it at module level.
    done = _fresh_python(
        "import importlib, pkgutil, sys\n"
        "import kernelopt, kernelopt.ir, kernelopt.passes, kernelopt.templates\n"
        "names = [info.name for package in (kernelopt, kernelopt.ir, kernelopt.passes, kernelopt.templates)\n"
        "         for info in pkgutil.walk_packages(package.__path__, package.__name__ + '.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "print(len(names), 'triton' in sys.modules, 'openai' in sys.modules)\n")
    assert done.returncode == 0, done.stderr
    count, triton_loaded, openai_loaded = done.stdout.split()
    assert int(count) > 100
    assert (triton_loaded, openai_loaded) == ("False", "False")


def test_the_dynamo_backend_loads_the_search_only_on_a_cache_miss():
    # A warm start (every graph a cache hit) pays for what the backend imports on every compile: the search's
    # modules (the optimize job, every proposer, the background search) load only when a graph is searched.
    # On an H100 the backend's warm start was 1.43x Inductor's; these imports were 0.3 s of it on a fast CPU.
    loaded = _loaded_after("from kernelopt.backend.dynamo import kernelopt_backend\n"
                           "from kernelopt.backend.options import backend_options, key_options\n"
                           "key_options(backend_options({'gpu_seconds': 5, 'cuda_graphs': 'off'}))",
                           ("kernelopt.optimize_job", "kernelopt.proposers.registry", "kernelopt.backend.background_search",
                            "kernelopt.capture", "kernelopt.legality"))
    assert loaded == [], f"the backend's every-compile path imported {loaded}"
