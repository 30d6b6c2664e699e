"""Kernel definitions: `name = async_compile.triton('name', '''source''', device_str=...)` -> `ko.kernel`.

The Triton source is parsed with `ast` (never executed) to read its `@triton_heuristics.<kind>(...)`
decorator: the decorator name is the kernel kind, its keyword arguments the heuristics.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from kernelopt.inductor_source import dotted_name, parse_python
from kernelopt.ir.core import Location, Op

from .pyexpr import literal

# async_compile methods and the kind their kernels get (a Triton kernel's kind comes from its decorator).
_NON_TRITON_KINDS = {"cpp_pybinding": "cpp", "cpp": "cpp", "cuda": "cuda", "rocm": "rocm", "halide": "halide",
                     "mps": "mps", "cutedsl": "cutedsl", "nv_universal_gemm": "nv_universal_gemm"}
# Decorator keywords that get their own kernel attribute (the rest go to `heuristics`).
_OWN_ATTRS = ("size_hints", "triton_meta", "inductor_meta")
_SKIPPED_KEYWORDS = ("filename",)


@dataclass
class KernelInfo:
    op: Op
    warnings: list[str] = field(default_factory=list)


def is_async_compile_call(value: ast.AST) -> bool:
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and dotted_name(value.func.value) == "async_compile" and value.func.attr not in ("wait",))


def lift_kernel(name: str, call: ast.Call, loc: Location) -> KernelInfo:
    """Build the `ko.kernel` op for one async_compile call (assigned to `name`)."""
    method = call.func.attr  # type: ignore[union-attr]
    strings = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    keywords = {k.arg: literal(k.value) for k in call.keywords if k.arg}
    source = max(strings, key=len) if strings else ""
    warnings: list[str] = []
    if method == "triton":
        attrs = _triton_attrs(source, name, warnings)
    else:
        attrs = {"kind": _NON_TRITON_KINDS.get(method, method), "source": source}
        other = [literal(a) for a in call.args if not (isinstance(a, ast.Constant) and a.value == source)]
        if other:
            attrs["compile_args"] = other
    attrs["async_compile"] = method
    for key, value in keywords.items():
        attrs[key] = value
    return KernelInfo(Op("ko.kernel", symbol=name, attrs=attrs, loc=loc), warnings)


def _triton_attrs(source: str, name: str, warnings: list[str]) -> dict[str, Any]:
    attrs: dict[str, Any] = {"kind": "unknown", "source": source}
    try:
        tree = parse_python(source, f"<kernel {name}>")
    except SyntaxError as err:
        warnings.append(f"the source of kernel {name} is not valid Python ({err.msg}, kernel line "
                        f"{err.lineno}); kept verbatim with kind \"unknown\"")
        return attrs
    function = _jit_function(tree, name)
    if function is None:
        warnings.append(f"no @triton.jit function found in the source of kernel {name}; kind \"unknown\"")
        return attrs
    attrs["function"] = function.name
    attrs["params"] = [a.arg for a in function.args.args]
    decorator = _heuristics_decorator(function)
    if decorator is None:
        attrs["kind"] = "jit"
        return attrs
    kind_name = dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator) or "unknown"
    attrs["kind"] = kind_name.rsplit(".", 1)[-1]
    if isinstance(decorator, ast.Call):
        _decorator_attrs(decorator, attrs)
    return attrs


def _jit_function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    for fn in functions:
        if fn.name == name:
            return fn
    jitted = [fn for fn in functions if any("jit" in dotted_name(d.func if isinstance(d, ast.Call) else d)
                                          for d in fn.decorator_list)]
    return (jitted or functions or [None])[-1]


def _heuristics_decorator(function: ast.FunctionDef) -> ast.AST | None:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = dotted_name(target)
        if "jit" in name.rsplit(".", 1)[-1]:
            continue
        return decorator
    return None


def _decorator_attrs(decorator: ast.Call, attrs: dict[str, Any]) -> None:
    values = {k.arg: literal(k.value) for k in decorator.keywords if k.arg}
    triton_meta = values.get("triton_meta") if isinstance(values.get("triton_meta"), dict) else {}
    inductor_meta = values.get("inductor_meta") if isinstance(values.get("inductor_meta"), dict) else {}
    if isinstance(triton_meta.get("signature"), dict):
        attrs["signature"] = {str(k): str(v) for k, v in triton_meta["signature"].items()}
    if isinstance(triton_meta.get("constants"), dict):
        attrs["constants"] = {str(k): v for k, v in triton_meta["constants"].items()}
    if "size_hints" in values:
        attrs["size_hints"] = values["size_hints"]
    for key in ("kernel_name", "mutated_arg_names", "num_load", "num_store", "num_reduction"):
        if key in inductor_meta:
            attrs[key] = inductor_meta[key]
    for key in ("config_args", "grid_type", "fixed_grid", "extra_launcher_args"):
        if key in inductor_meta:
            attrs[key] = inductor_meta[key]
    if isinstance(triton_meta.get("device"), dict):
        attrs["device_props"] = triton_meta["device"]
    heuristics = {k: v for k, v in values.items() if k not in _OWN_ATTRS and k not in _SKIPPED_KEYWORDS}
    if decorator.args:
        heuristics["args"] = [literal(a) for a in decorator.args]
    if heuristics:
        attrs["heuristics"] = heuristics
    if "triton_meta" in values:
        attrs["triton_meta"] = values["triton_meta"]
    if "inductor_meta" in values:
        attrs["inductor_meta"] = values["inductor_meta"]


def extra_launcher_args(kernel: Op | None) -> list[str]:
    """Names of the trailing `.run(...)` arguments that are not kernel parameters (template grids)."""
    if kernel is None:
        return []
    extra = kernel.attrs.get("extra_launcher_args")
    return [str(e) for e in extra] if isinstance(extra, list) else []
