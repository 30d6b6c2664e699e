"""The exponentials the block forms write, and where a kernel's precise ones may become the same.

Three ways to write exp(x) in a Triton kernel, as compiled for sm_90:

- `libdevice.exp(x)`, Inductor's `torch.exp` unless fast math is on: CUDA's expf, correctly range-reduced
  (about 2 ulp), about nine instructions;
- `tl_math.exp(x)`, Inductor's online-softmax helper: `ex2.approx.f32` of x * log2(e), five instructions,
  three of them keeping results below 2^-126 (subnormal) instead of flushing them to zero;
- `flushed_exp(x)` = `tl.math.exp2(x * log2(e))`: `ex2.approx.ftz.f32`, two instructions; the same value
  as `tl_math.exp` (the same product, the same approximation) except that results below 2^-126 are zero.

**Terms of an online softmax's sum** (the block forms, `block_online`): the running sum always holds the
term of the row's current max, exp(0) = 1, so a flushed term or rescale factor (under 2^-126, at most
2^15 of them a row) moves the sum by less than 2^-111 of itself, a hundred million times under an fp32
ulp: the block forms take `flushed_exp` in every kernel, whatever it stores.

**Fast exponentials where every store writes a 16-bit float** (`+fast-exp`): a kernel's `libdevice.exp`
made `flushed_exp` is off by at most about 2 ulp + |x| * 2^-24 relative, or by under 2^-126 absolute:
orders of magnitude inside half an ulp of bf16 (2^-9) or fp16 (2^-11), except for a value at a rounding
boundary, which may round the other way by one ulp of the stored type, as a reordered sum may. With the
row in registers the compiler then computes the output's exponential and the sum's once: the row-on-chip
candidate of a bf16 softmax over rows of 512 needs a third fewer SASS instructions than with precise ones,
one exponential per element instead of two (`benchmarks/ptx_census.py`, column `sass`; pinned by
`tests/unit/test_ptx_census.py`). A kernel with a store wider than 16 bits keeps `libdevice.exp` (strict
precision). The legality gate, which compares against a float64 reference, decides either way.
"""
from __future__ import annotations

import ast

from kernelopt.inductor_source import dotted_name, pointer_base

PRECISE_EXP = "libdevice.exp"
NARROW_FLOATS = ("bfloat16", "float16")
LOG2E = "1.4426950408889634"    # rounds to the fp32 constant tl_math.exp multiplies by (0x3FB8AA3B)


def flushed_exp(argument: str) -> str:
    """`exp(argument)` as one multiply and `ex2.approx.ftz` (see the module docstring)."""
    return f"tl.math.exp2(({argument}) * {LOG2E})"


def wide_store(function: ast.FunctionDef, element_types: dict[str, str]) -> str:
    """Why the kernel may not take fast exponentials: '' when every `tl.store` writes a 16-bit float
    (`element_types`: each pointer parameter's torch dtype name), else the store that does not."""
    stores = [n for n in ast.walk(function) if isinstance(n, ast.Call) and dotted_name(n.func) == "tl.store"]
    if not stores:
        return "it stores nothing"
    for store in stores:
        base = pointer_base(store.args[0] if store.args else None)
        dtype = element_types.get(base[0]) if base else None
        if dtype not in NARROW_FLOATS:
            where = base[0] if base else ast.unparse(store.args[0]) if store.args else "?"
            return f"line {store.lineno}: it stores {dtype or 'an unknown type'} to {where}, wider than 16 bits"
    return ""


def with_fast_exp(function: ast.FunctionDef) -> int:
    """Turn every `libdevice.exp(x)` of `function` into `flushed_exp(x)`, in place; how many."""
    count = 0

    class Fast(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            nonlocal count
            self.generic_visit(node)
            if dotted_name(node.func) == PRECISE_EXP and len(node.args) == 1 and not node.keywords:
                count += 1
                return ast.parse(flushed_exp(ast.unparse(node.args[0])), mode="eval").body
            return node

    Fast().visit(function)
    ast.fix_missing_locations(function)
    return count


def precise_exps(function: ast.FunctionDef) -> int:
    return sum(1 for n in ast.walk(function) if isinstance(n, ast.Call) and dotted_name(n.func) == PRECISE_EXP)


__all__ = ["LOG2E", "NARROW_FLOATS", "flushed_exp", "precise_exps", "wide_store", "with_fast_exp"]
