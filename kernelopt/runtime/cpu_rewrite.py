"""Rewrite an output module's syntax tree so that a module captured for CUDA runs on CPU tensors.

We rewrite the AST, not lines of text: every replacement is anchored on a dotted name
(`torch.cuda._DeviceGuard`), a keyword (`device='cuda:0'`) or a top-level binding
(`get_raw_stream = ...`, `async_compile = AsyncCompile()`), wherever and however it is written.
Replacements point at `__kernelopt_rt__`, a namespace of CPU stand-ins (`cpu_shims.py`) that the
loader puts into the module's globals before executing it.
"""
from __future__ import annotations

import ast

from kernelopt.inductor_source import dotted_name

RUNTIME_NAME = "__kernelopt_rt__"

# dotted name in the module -> attribute of the runtime namespace
DOTTED_REPLACEMENTS = {
    "torch.cuda._DeviceGuard": "DeviceGuard",
    "torch.cuda.device": "DeviceGuard",
    "torch.cuda.set_device": "noop",
    "torch._C._cuda_setDevice": "noop",      # how an emitted module sets its device (set_device's own C call)
    "torch.cuda.synchronize": "noop",
    "torch.cuda.current_stream": "current_stream",
    "torch.cuda.default_stream": "current_stream",
    "torch.cuda.current_device": "current_device",
    "torch._C._cuda_getCurrentRawStream": "get_raw_stream",
    "torch._C._dynamo.guards._empty_strided_cuda": "empty_strided_cpu",
    "triton_helpers.set_driver_to_gpu": "noop",
    "triton_helpers.set_driver_to_cpu": "noop",
}
ATTENTION_OPS = ("_scaled_dot_product_cudnn_attention", "_scaled_dot_product_flash_attention",
                 "_scaled_dot_product_efficient_attention", "_scaled_dot_product_flash_attention_for_cpu")
for _op in ATTENTION_OPS[:3]:
    for _prefix in ("torch.ops.aten.", "aten."):
        DOTTED_REPLACEMENTS[f"{_prefix}{_op}"] = _op
        DOTTED_REPLACEMENTS[f"{_prefix}{_op}.default"] = _op

# top-level names rebound to a CPU stand-in right after the statement that binds them
NAME_REBINDINGS = {
    "get_raw_stream": "get_raw_stream",
    "empty_strided_cuda": "empty_strided_cpu",
    "AsyncCompile": "AsyncCompile",
}
DEVICE_KEYWORDS = ("device", "device_str", "device_type")


def _runtime_attr(attr: str, like: ast.AST) -> ast.AST:
    node = ast.Attribute(value=ast.Name(id=RUNTIME_NAME, ctx=ast.Load()), attr=attr, ctx=ast.Load())
    return ast.copy_location(node, like)


def _is_cuda_string(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("cuda")


class _CpuRewriter(ast.NodeTransformer):
    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        dotted = dotted_name(node)
        if isinstance(node.ctx, ast.Load) and dotted in DOTTED_REPLACEMENTS:
            return _runtime_attr(DOTTED_REPLACEMENTS[dotted], node)
        return self.generic_visit(node)

    def visit_keyword(self, node: ast.keyword) -> ast.keyword:
        self.generic_visit(node)
        if node.arg in DEVICE_KEYWORDS and _is_cuda_string(node.value):
            node.value = ast.copy_location(ast.Constant("cpu"), node.value)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if dotted_name(node.func) in ("device", "torch.device") and node.args and _is_cuda_string(node.args[0]):
            node.args = [ast.copy_location(ast.Constant("cpu"), node.args[0])]
        if dotted_name(node.func) in ("device", "torch.device"):
            for kw in node.keywords:
                if kw.arg == "type" and _is_cuda_string(kw.value):
                    kw.value = ast.Constant("cpu")
            if any(kw.arg == "type" for kw in node.keywords):
                node.keywords = [kw for kw in node.keywords if kw.arg != "index"]
        return node


def _bound_names(statement: ast.stmt) -> list[str]:
    names: list[str] = []
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        names = [(alias.asname or alias.name).split(".")[0] for alias in statement.names]
    elif isinstance(statement, ast.Assign):
        for target in statement.targets:
            names += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    elif isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
        names = [statement.name]
    return names


def _rebind_after(statement: ast.stmt) -> list[ast.stmt]:
    extra = []
    for name in _bound_names(statement):
        if name in NAME_REBINDINGS:
            assign = ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                                value=_runtime_attr(NAME_REBINDINGS[name], statement))
            extra.append(ast.copy_location(assign, statement))
    return extra


def rewrite_for_cpu(tree: ast.Module) -> ast.Module:
    """Return `tree` rewritten in place so that it runs with CPU tensors (see the module doc)."""
    tree = _CpuRewriter().visit(tree)
    body: list[ast.stmt] = []
    for statement in tree.body:
        rebinding = _rebind_after(statement)
        if isinstance(statement, (ast.Import, ast.ImportFrom)) and rebinding:
            # A CUDA build's name (`_cuda_getCurrentRawStream`) may not exist here: don't import it.
            statement.names = [a for a in statement.names
                               if (a.asname or a.name).split(".")[0] not in NAME_REBINDINGS]
            if not statement.names:
                statement = None
        if statement is not None:
            body.append(statement)
        body.extend(rebinding)
    tree.body = body
    return ast.fix_missing_locations(tree)
