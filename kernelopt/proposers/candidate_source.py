"""Make a candidate-format module out of an Inductor kernel source and an explicit launch config.

Inductor's kernels carry a `@triton_heuristics.<kind>(...)` decorator that autotunes at load time;
a candidate instead launches the plain `@triton.jit` function with one explicit configuration and
Inductor's grid rule (`Grid1D`: one program per XBLOCK elements of x; `Grid2D`: x by y). Kernels
with other grid types (fixed grids of templates, combo kernels) are not handled here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kernelopt.inductor_source import strip_heuristics, unmasked_block_overrun

BLOCK_PARAMS = ("XBLOCK", "YBLOCK", "ZBLOCK", "R0_BLOCK", "R1_BLOCK")
# torch dtype name -> how a kernel spells it, for the code proposers write into a kernel
TL_DTYPES = {"float32": "tl.float32", "float16": "tl.float16", "bfloat16": "tl.bfloat16", "float64": "tl.float64",
             "int64": "tl.int64", "int32": "tl.int32", "int16": "tl.int16", "int8": "tl.int8", "uint8": "tl.uint8",
             "bool": "tl.int1"}
_GRID_DIMS = (("xnumel", "XBLOCK"), ("ynumel", "YBLOCK"), ("znumel", "ZBLOCK"))


class NotRetunable(Exception):
    """The kernel's shape is one this module cannot relaunch by itself (the reason says why)."""


@dataclass(frozen=True)
class LaunchConfig:
    blocks: tuple[tuple[str, int], ...]   # (("XBLOCK", 64), ("R0_BLOCK", 512))
    num_warps: int
    num_stages: int = 1

    def label(self) -> str:
        parts = [f"{k}={v}" for k, v in self.blocks] + [f"num_warps={self.num_warps}",
                                                        f"num_stages={self.num_stages}"]
        return " ".join(parts)


def block_params_of(kernel) -> list[str]:
    """The block-size constexprs the kernel takes (XBLOCK, R0_BLOCK, ...), in BLOCK_PARAMS order."""
    return [p for p in BLOCK_PARAMS if kernel.signature.get(p) == "constexpr"]


def recorded_config(kernel, recorded: dict) -> LaunchConfig | None:
    """The launch configuration a capture recorded for the kernel (the one its original runs at), when the
    record names every block size and the warps; None otherwise."""
    block_params = block_params_of(kernel)
    if not (all(p in recorded for p in block_params) and recorded.get("num_warps")):
        return None
    return LaunchConfig(tuple((p, int(recorded[p])) for p in block_params), int(recorded["num_warps"]),
                        int(recorded.get("num_stages") or 1))


def config_overruns(kernel_source: str, config: LaunchConfig) -> str:
    """Why `config` would run past the tensors ('' when it does not): see unmasked_block_overrun."""
    return unmasked_block_overrun(kernel_source, dict(config.blocks))


def grid_type_of(kernel) -> str:
    """The `grid_type` of a kernel's inductor_meta (a KernelSpec), Grid1D when its source does not say."""
    match = re.search(r"'grid_type':\s*'(\w+)'", kernel.source)
    return match.group(1) if match else "Grid1D"


MAX_Y_GRID = 65535              # a CUDA grid's y (and z) extent, at most


def grid_rule(signature: dict, grid_type: str) -> list[tuple[str, str | None]]:
    """(numel parameter, block parameter or None) for each grid dimension, from the signature."""
    if grid_type == "SplitScanGrid":
        # Inductor's split scan: axis 0 walks a row's R0_BLOCK chunks (their carries chained through the
        # workspace), axis 1 the rows, one program per row (XBLOCK is 1)
        return [("r0_numel", "R0_BLOCK"), ("xnumel", None)]
    if grid_type not in ("Grid1D", "Grid2D", "Grid3D", ""):
        raise NotRetunable(f"grid type {grid_type} is relaunched only by Inductor's runtime")
    dims = []
    for numel, block in _GRID_DIMS:
        if numel in signature:
            dims.append((numel, block if block in signature else None))
    if not dims:
        raise NotRetunable("the kernel has no xnumel parameter")
    return dims


def candidate_source(kernel_source: str, kernel_name: str, params: list[str], signature: dict,
                     grid_type: str, config: LaunchConfig, header: str = "") -> str:
    """A candidate-format module: the plain jit kernel plus `run(*args)` launching it with `config`."""
    body = strip_heuristics(kernel_source, kernel_name, missing=NotRetunable)
    grid = grid_text(params, signature, grid_type, config)
    meta = ", ".join(f"{k}={v}" for k, v in config.blocks)
    meta = f"{meta}, " if meta else ""
    return (
        f"# {header or 'KernelOPT candidate'}: {kernel_name} with {config.label()}\n"
        f"{body}\n\n"
        "def run(*args):\n"
        f"    grid = {grid}\n"
        f"    {kernel_name}[grid](*args, {meta}num_warps={config.num_warps}, num_stages={config.num_stages})\n"
    )


def grid_text(params: list[str], signature: dict, grid_type: str, config: LaunchConfig) -> str:
    """The launch grid of a candidate's `run(*args)`, as source: `(triton.cdiv(args[i], XBLOCK), 1, 1)`."""
    blocks = dict(config.blocks)
    grid_terms = []
    overflow = grid_type == "Grid2DWithYZOverflow"
    for numel, block in grid_rule(signature, "Grid2D" if overflow else grid_type):
        if numel not in params:
            raise NotRetunable(f"{numel} is not passed at launch")
        position = params.index(numel)
        grid_terms.append(f"triton.cdiv(args[{position}], {blocks[block]})" if block else f"args[{position}]")
    if overflow and len(grid_terms) == 2:
        # Inductor's y axis past the hardware's 65535 programs: the kernel takes its y program as
        # program_id(1) + program_id(2) * num_programs(1), so the y programs are spread over y and z, as
        # Inductor's own Grid2DWithYZOverflow spreads them
        rows = grid_terms.pop()
        spread = f"max(1, triton.cdiv({rows}, {MAX_Y_GRID}))"
        grid_terms += [f"triton.cdiv({rows}, {spread})", spread]
    while len(grid_terms) < 3:
        grid_terms.append("1")
    return f"({', '.join(grid_terms)})"
