"""Launch grids, computed the way Inductor's launcher computes them (`inductor_meta["grid_type"]`).

`launch_grid(kernel, launch, config, params)` binds the launch's `.run(...)` arguments to the kernel's
parameter names (plus `extra_launcher_args`, e.g. a template's `_grid_0.._grid_2`), then applies the
grid rule of the kernel's grid type. With static shapes every entry folds to an int; a symbolic
numel (a value, not a literal) gives a Python expression over `numel_exprs` instead. Grid types
without a rule here are evaluated by Inductor's own `GridExpr` at emit time when torch has it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from kernelopt.codegen.configs import LaunchConfig, decorator_of, kernel_decorator
from kernelopt.codegen.grid_arithmetic import GridExpressionRefused, fold_grid_entry
from kernelopt.errors import InputError
from kernelopt.inductor_source import text_excerpt
from kernelopt.ir.core import Location, Op, Value

MAX_Y_GRID = 65535  # CUDA's limit on gridDim.y (and z)

Dim = "int | str"


def _cdiv(numel, block) -> Any:
    if block is None or block == 1:
        return numel
    if isinstance(numel, int) and isinstance(block, int):
        return -(numel // -block)
    return f"-(({numel}) // -({block}))"


@lru_cache(maxsize=256)
def _decorator_inductor_meta(name: str, source: str, loc: Location | None) -> dict:
    decorator = decorator_of(name, source, loc)
    meta = decorator.keywords(skip_unevaluable=True).get("inductor_meta") if decorator else None
    return dict(meta) if isinstance(meta, dict) else {}


def inductor_meta(kernel: Op) -> dict:
    """The kernel's inductor_meta: the IR attr when the lifter kept a dict, else from its decorator."""
    meta = kernel.attrs.get("inductor_meta")
    if isinstance(meta, dict) and "grid_type" in meta:
        return meta
    return _decorator_inductor_meta(kernel.symbol or "", str(kernel.attrs.get("source", "")), kernel.loc)


def positional_names(params: list[str], config: LaunchConfig, meta: dict) -> list[str]:
    """Names of a launch's positional arguments: the jit parameters the config does not set, then
    Inductor's extra launcher arguments."""
    fixed = set(config.meta)
    return [p for p in params if p not in fixed] + list(meta.get("extra_launcher_args") or ())


def bind_launch(kernel: Op, launch: Op, config: LaunchConfig, params: list[str],
                numel_exprs: dict[str, str] | None = None) -> dict[str, Any]:
    """Parameter name -> the launch's argument (an int, or the Python expression of a value)."""
    meta = inductor_meta(kernel)
    names = positional_names(params, config, meta)
    values = launch.positional()
    extra = list(meta.get("extra_launcher_args") or ())
    if extra and len(values) == len(names) - len(extra):
        names = names[:len(values)]   # the lifter moved the grid arguments into the launch's `grid` attr
    if len(values) != len(names):
        raise InputError(f"launch of @{kernel.symbol}: {len(values)} arguments, the kernel takes {len(names)} "
                         f"({', '.join(names)})")
    bound = {}
    for name, value in zip(names, values):
        if isinstance(value, Value):
            bound[name] = (numel_exprs or {}).get(value.name, value.name)
        else:
            bound[name] = value
    return bound


def launch_grid(kernel: Op, launch: Op, config: LaunchConfig, params: list[str],
                numel_exprs: dict[str, str] | None = None) -> list:
    """The (x, y, z) grid of this launch under `config`."""
    meta = inductor_meta(kernel)
    bound = bind_launch(kernel, launch, config, params, numel_exprs)
    recorded = launch.attrs.get("grid") or (launch.attrs.get("config") or {}).get("grid")
    if isinstance(recorded, (list, tuple)) and len(recorded) == 3:
        bound["__launch_grid__"] = list(recorded)
    blocks = config.meta
    grid_type = meta.get("grid_type")
    if grid_type is None:
        raise InputError(f"kernel @{kernel.symbol}: no grid_type in its inductor_meta")
    if not isinstance(grid_type, str):
        raise InputError(f"{_grid_origin(kernel, 'grid_type')}: kernel @{kernel.symbol}: grid_type "
                         f"`{text_excerpt(repr(grid_type))}` is not a name, as Inductor writes it")
    rule = _RULES.get(grid_type)
    key = _GRID_META_KEY.get(grid_type, "grid_type")
    try:
        if rule is None:
            return _inductor_grid_expr(meta, blocks, bound, kernel)
        # every entry is checked, folded or not: one that stays text is pasted into the emitted module
        return [fold_grid_entry(d) for d in rule(meta, blocks, bound)]
    except GridExpressionRefused as err:
        raise InputError(f"{_grid_origin(kernel, key)}: kernel @{kernel.symbol}: {err}") from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as err:
        # the rules read the input's inductor_meta as Inductor writes it: another shape is bad input
        missing = f"no {err.args[0]!r}" if isinstance(err, KeyError) and err.args else str(err)
        raise InputError(f"{_grid_origin(kernel, key)}: kernel @{kernel.symbol}: its inductor_meta does not "
                         f"describe a {grid_type} grid as Inductor writes it ({text_excerpt(missing)})") from None


# The inductor_meta entry a grid type's text comes from (the rest come from `grid_type` alone).
_GRID_META_KEY = {"FixedGrid": "fixed_grid", "PrecomputedGrid": "precomputed_grids",
                  "SequentialComboKernelGrid": "combo_grid_meta"}


def _grid_origin(kernel: Op, key: str) -> str:
    """Where a refused grid came from, `file:line:col` as every input error: entry `key` of the kernel's
    inductor_meta in its decorator (the inductor_meta itself when `key` is missing), else the kernel."""
    try:
        decorator = kernel_decorator(kernel) if kernel.loc is not None else None
    except InputError:   # a decorator refused here: name the kernel instead
        decorator = None
    if decorator is not None:
        return decorator.where_keyword("inductor_meta", key)
    return str(kernel.loc) if kernel.loc is not None else f"<kernel {kernel.symbol}>"


def _numel(bound: dict, name: str):
    if name not in bound:
        raise InputError(f"grid needs {name}, which the launch does not pass")
    return bound[name]


def _grid_1d(meta, blocks, bound):
    return [_cdiv(_numel(bound, "xnumel"), blocks.get("XBLOCK")), 1, 1]


def _grid_2d(meta, blocks, bound):
    return [_cdiv(_numel(bound, "xnumel"), blocks.get("XBLOCK")),
            _cdiv(_numel(bound, "ynumel"), blocks.get("YBLOCK")), 1]


def _grid_3d(meta, blocks, bound):
    return [_cdiv(_numel(bound, "xnumel"), blocks.get("XBLOCK")),
            _cdiv(_numel(bound, "ynumel"), blocks.get("YBLOCK")),
            _cdiv(_numel(bound, "znumel"), blocks.get("ZBLOCK"))]


def _batch_matmul_3d(meta, blocks, bound):
    x, y, z = _grid_3d(meta, blocks, bound)
    return [z, y, x]


def _split_y_overflow(y_blocks):
    """Inductor folds a y extent above the CUDA limit into z: y = cdiv(raw, div), z = div."""
    if isinstance(y_blocks, int):
        div = -(y_blocks // -MAX_Y_GRID)
        return (0 if div == 0 else -(y_blocks // -div)), div
    div = f"-(({y_blocks}) // -{MAX_Y_GRID})"
    return f"(0 if {div} == 0 else -(({y_blocks}) // -({div})))", div


def _grid_2d_yz_overflow(meta, blocks, bound):
    y, z = _split_y_overflow(_cdiv(_numel(bound, "ynumel"), blocks.get("YBLOCK")))
    return [_cdiv(_numel(bound, "xnumel"), blocks.get("XBLOCK")), y, z]


def _cooperative(meta, blocks, bound):
    return [blocks["RSPLIT"], _cdiv(_numel(bound, "xnumel"), blocks.get("XBLOCK")), 1]


def _split_scan(meta, blocks, bound):
    return [_cdiv(_numel(bound, "r0_numel"), blocks.get("R0_BLOCK")), _numel(bound, "xnumel"), 1]


def _mix_order(meta, blocks, bound):
    return [_cdiv(_numel(bound, "xnumel"), blocks["RSPLIT_SIZE"]), 1, 1]


def _fixed(meta, blocks, bound):
    dims = []
    for entry in meta["fixed_grid"]:
        if isinstance(entry, str) and entry in bound:
            dims.append(bound[entry])
        elif isinstance(entry, str) and "__launch_grid__" in bound:
            dims.append(bound["__launch_grid__"][len(dims)])
        else:
            dims.append(entry)
    return dims


def _precomputed(meta, blocks, bound):
    for candidate in meta["precomputed_grids"]:
        if all(blocks.get(k) == v for k, v in candidate["config"].items()):
            return [_substitute(d, bound) for d in candidate["python"]]
    raise InputError(f"no precomputed grid for config {blocks}")


def _substitute(expr, bound):
    return fold_grid_entry(expr, bound)


def _sequential_combo(meta, blocks, bound):
    combo = meta["combo_grid_meta"]
    blocks = {**(combo.get("default_config") or {}), **blocks}
    x_total: list = []
    for i in range(combo["num_kernels"]):
        xnumel = combo.get(f"xnumel_{i}") or bound.get(f"xnumel_{i}", f"xnumel_{i}")
        x_total.append(_cdiv(xnumel, 1 if combo.get(f"no_x_dim_{i}") else blocks.get("XBLOCK")))
    ints = sum(x for x in x_total if isinstance(x, int))
    rest = [str(x) for x in x_total if not isinstance(x, int)]
    x = ints if not rest else " + ".join(rest + [str(ints)])
    if combo.get("min_blocks"):
        x = max(x, combo["min_blocks"]) if isinstance(x, int) else f"max({x}, {combo['min_blocks']})"
    ynumels = [combo.get(f"ynumel_{i}") or bound.get(f"ynumel_{i}") for i in range(combo["num_kernels"])
               if f"ynumel_{i}" in combo]
    if not ynumels:
        return [x, 1, 1]
    if not all(isinstance(v, int) for v in ynumels):
        raise InputError("combo kernel with symbolic ynumel: not supported by the emitter")
    y, z = _split_y_overflow(_cdiv(max(ynumels), blocks.get("YBLOCK")))
    return [x, y, z]


_RULES = {
    "Grid1D": _grid_1d, "Grid2D": _grid_2d, "Grid3D": _grid_3d, "BatchMatmulGrid3D": _batch_matmul_3d,
    "Grid2DWithYZOverflow": _grid_2d_yz_overflow, "CooperativeReductionGrid": _cooperative,
    "SplitScanGrid": _split_scan, "MixOrderReductionGrid": _mix_order, "FixedGrid": _fixed,
    "PrecomputedGrid": _precomputed, "SequentialComboKernelGrid": _sequential_combo,
}


def _inductor_grid_expr(meta: dict, blocks: dict, bound: dict, kernel: Op) -> list:
    """Grid types without a rule here: the installed Inductor's GridExpr writes the grid as text (static
    shapes only), folded here like every grid entry (its own `eval_slow` would exec that text, parts of
    which come from the input's inductor_meta)."""
    try:
        # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
        from torch._inductor.runtime import triton_heuristics
    except ImportError:
        triton_heuristics = None
    grid_type = str(meta.get("grid_type"))
    grid_class = (getattr(triton_heuristics, grid_type, None)
                  if triton_heuristics is not None and grid_type.isidentifier() and not grid_type.startswith("_")
                  else None)
    if not (isinstance(grid_class, type) and issubclass(grid_class, triton_heuristics.GridExpr)) \
            or not all(isinstance(v, int) for v in bound.values()):
        raise InputError(f"kernel @{kernel.symbol}: grid type {grid_type} is not supported")
    try:
        expr = triton_heuristics.GridExpr.from_meta(meta, dict(blocks))
    except Exception as err:
        raise InputError(f"kernel @{kernel.symbol}: cannot compute its {grid_type} grid: {err}") from None
    scope: dict[str, Any] = {**bound, **blocks}
    for line in expr.prefix:   # `name = expression` lines, in order
        name, _, value = line.partition(" = ")
        if not name.isidentifier():
            raise GridExpressionRefused(f"grid line `{line}` is not an assignment to a name")
        scope[name] = fold_grid_entry(value, scope)
    dims = [fold_grid_entry(d, scope) for d in (expr.x_grid, expr.y_grid, expr.z_grid)]
    if not all(isinstance(d, int) for d in dims):
        raise InputError(f"kernel @{kernel.symbol}: cannot compute its {grid_type} grid: it does not fold to "
                         f"ints ({', '.join(map(str, dims))})")
    return dims
