"""Turn an Inductor kernel source (`async_compile.triton(name, '''...''')`) into a plain `@triton.jit`.

What changes: the `@triton_heuristics.<kind>(...)` decorator goes (its launch decisions become explicit
launch configurations in the emitted module), the imports go (the emitted module imports `triton`,
`triton.language as tl`, binds `libdevice` / `tl_math` and ships its own `triton_helpers`), and
`triton_helpers.set_driver_to_gpu()` goes. Everything else is kept as Inductor wrote it, byte for
byte: the kernel body is the text between the decorator and the end of the source.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from kernelopt.errors import InputError
from kernelopt.inductor_source import dotted_name, parse_python

_DRIVER_SWITCHES = ("triton_helpers.set_driver_to_gpu", "triton_helpers.set_driver_to_cpu")
# names an Inductor kernel source may take from its imports, and what the emitted module binds them to
PROVIDED_NAMES = {"triton", "tl", "triton_helpers", "triton_heuristics", "libdevice", "tl_math", "math",
                  "AutotuneHint", "ReductionHint", "TileHint", "DeviceProperties"}


@dataclass
class KernelCode:
    name: str
    text: str                         # plain @triton.jit definition(s), ready to paste into the module
    params: list[str]                 # the jit function's parameters, in order
    constexpr_params: list[str]       # of those, the `tl.constexpr` ones
    heuristic: str | None             # the removed decorator's kind (pointwise, reduction, ...)
    heuristic_source: str | None      # the removed decorator call, as text (for configs)
    extra_imports: list[str] = field(default_factory=list)  # imports we cannot drop (rare)
    heuristic_line: int | None = None  # the removed decorator's first line in the source (for messages)





def _is_constexpr(annotation: ast.AST | None) -> bool:
    return annotation is not None and dotted_name(annotation).endswith("constexpr")


def _segment(lines: list[str], node: ast.AST, start_line: int | None = None) -> str:
    first = (start_line if start_line is not None else node.lineno) - 1
    return "\n".join(lines[first:node.end_lineno])


def _dropped_import(node: ast.stmt) -> bool:
    """Imports of triton / Inductor runtime pieces that the emitted module provides itself."""
    if isinstance(node, ast.Import):
        return all(a.name.split(".")[0] == "triton" for a in node.names)
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        return module.startswith(("triton", "torch._inductor.runtime")) and all(
            (a.asname or a.name) in PROVIDED_NAMES for a in node.names)
    return False


def provided_import(line: str) -> bool:
    """An import line (of a candidate module) that takes only what the emitted module provides itself:
    the candidate then runs on the module's own `triton_helpers`, `libdevice` and `tl_math`, not Inductor's."""
    try:
        nodes = ast.parse(line.strip()).body
    except SyntaxError:
        return False
    return len(nodes) == 1 and _dropped_import(nodes[0])


def without_driver_switches(text: str) -> str:
    """The text without top-level `triton_helpers.set_driver_to_gpu()` / `..._cpu()` statements: the
    emitted module's helpers are plain functions, with no driver to switch."""
    return "\n".join(line for line in text.splitlines()
                     if not line.strip().startswith(tuple(f"{s}(" for s in _DRIVER_SWITCHES))
                     or line.startswith((" ", "\t"))) + "\n"


def standalone_kernel(name: str, source: str) -> KernelCode:
    """The plain-jit form of kernel `name` from its Inductor source."""
    try:
        tree = parse_python(source, f"<kernel {name}>")
    except SyntaxError as err:
        raise InputError(f"kernel {name}: its source does not parse: {err.msg} (line {err.lineno})") from None
    lines = source.splitlines()
    kept: list[str] = []
    extra_imports: list[str] = []
    function = None
    heuristic = heuristic_source = heuristic_line = None
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if not _dropped_import(node):
                extra_imports.append(_segment(lines, node))
            continue
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and dotted_name(node.value.func) in _DRIVER_SWITCHES):
            continue
        if isinstance(node, ast.FunctionDef):
            start = node.lineno
            decorators = []
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if dotted_name(target).startswith("triton_heuristics."):
                    heuristic = dotted_name(target).split(".", 1)[1]
                    heuristic_source = _segment(lines, deco)
                    heuristic_line = deco.lineno
                else:
                    decorators.append(_segment(lines, deco, deco.lineno).strip())
            body = "\n".join(lines[start - 1:node.end_lineno])
            kept.append("\n".join("@" + d if not d.startswith("@") else d for d in decorators) + "\n" + body
                        if decorators else body)
            if node.name == name:
                function = node
            continue
        kept.append(_segment(lines, node))
    if function is None:
        raise InputError(f"kernel {name}: no `def {name}(...)` in its source")
    if not any(dotted_name(d.func if isinstance(d, ast.Call) else d) in ("triton.jit", "jit")
               for d in function.decorator_list):
        raise InputError(f"kernel {name}: `def {name}` is not a @triton.jit function")
    params = [a.arg for a in function.args.args]
    constexprs = [a.arg for a in function.args.args if _is_constexpr(a.annotation)]
    return KernelCode(name, "\n\n".join(kept).strip("\n") + "\n", params, constexprs, heuristic,
                      heuristic_source, extra_imports, heuristic_line)
