"""emit-python code generation: IR module -> Python module.

- `emit_python(module, style="standalone"|"patched", ...)`: the module source.
- `configs`: launch-config selection (`apply_recorded_configs`, `heuristic_configs`).
- `grid`: Inductor-compatible launch grids.
- `plain_jit`, `helpers`: plain-jit kernels and the self-contained `triton_helpers` replacement.
"""
from __future__ import annotations

from kernelopt.codegen.patched import emit_patched
from kernelopt.codegen.standalone_module import emit_standalone
from kernelopt.errors import InputError

STYLES = ("standalone", "patched")


def emit_python(module, style: str = "standalone", *, options=None, remark=None,
                original_source: str | None = None) -> str:
    if style == "standalone":
        return emit_standalone(module, options, remark)
    if style == "patched":
        return emit_patched(module, original_source, options, remark)
    raise InputError(f"unknown emit style {style!r}: use one of {', '.join(STYLES)}")
