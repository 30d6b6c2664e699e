"""Fast exponentials in a kernel whose every store writes a 16-bit float (bf16, fp16).

Inductor writes `torch.exp` as `libdevice.exp` (CUDA's correctly range-reduced expf) unless fast math is
on. Compiled for sm_90 that is about nine instructions per element; `tl_math.exp` (`ex2.approx.ftz` of
x * log2(e)) is two or three. Where a kernel also takes `tl_math.exp` of the same value, as the block
form of an online softmax does for its sum (`block_online`), the compiler then computes it once: the
row-on-chip candidate of a bf16 softmax over rows of 512 needs a fifth fewer SASS instructions, one
exponential per element instead of two (`benchmarks/ptx_census.py`, column `sass`; pinned by
`tests/unit/test_ptx_census.py`).

What changes is rounding, not the computation: the fast form is off from expf by at most about
2 ulp + |x| * 2^-24 relative, and flushes results below 2^-126 to zero. Where every value the kernel
writes is rounded to bf16 (half an ulp: 2^-9) or fp16 (2^-11), that sits orders of magnitude inside the
stored precision, except for a value at a rounding boundary, which may round the other way by one ulp of
the stored type, as a reordered sum may. The legality gate, which compares against a float64
reference, decides; a kernel with a store wider than 16 bits keeps `libdevice.exp` (strict precision).
"""
from __future__ import annotations

import ast

from kernelopt.inductor_source import dotted_name, pointer_base

PRECISE_EXP = "libdevice.exp"
NARROW_FLOATS = ("bfloat16", "float16")


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
    """Turn every `libdevice.exp(x)` of `function` into `tl_math.exp(x)`, in place; how many."""
    count = 0
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and dotted_name(node.func) == PRECISE_EXP and len(node.args) == 1 \
                and not node.keywords:
            node.func = ast.Attribute(ast.Name("tl_math", ast.Load()), "exp", ast.Load())
            count += 1
    ast.fix_missing_locations(function)
    return count


def precise_exps(function: ast.FunctionDef) -> int:
    return sum(1 for n in ast.walk(function) if isinstance(n, ast.Call) and dotted_name(n.func) == PRECISE_EXP)


__all__ = ["NARROW_FLOATS", "precise_exps", "wide_store", "with_fast_exp"]
