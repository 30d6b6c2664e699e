"""Row norms (LayerNorm / RMSNorm) with an optional residual add, weight, bias, mean / rstd outputs and
an elementwise epilogue (e.g. GELU(LayerNorm(x + r)) * 0.5 + r), the whole row in registers."""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.proposers.base import ArgSpec, KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.idioms import (FLOAT_DTYPES, Expr, KernelFacts, analyse, index_is, is_row_major,
                                        launch_position, numel, outermost, replaced, row_index, signature_dtype, unify)
from kernelopt.templates.kernel_template import (MAX_ROW_ON_CHIP, KernelTemplate, next_pow2, render_kernel,
                                                 single_launch, stat_stride)

# ---------------------------------------------------------------------------------------------------
# Matcher

@dataclass(frozen=True)
class RowNormMatch:
    kind: str                     # "layer" | "rms"
    n_rows: int
    n_cols: int
    eps: float
    roles: dict[str, int | None]  # x, residual, weight, bias, out, mean, rstd, epilogue loads -> launch position
    out_dtype: str
    epilogue: "NormEpilogue | None" = None
    mean_stride: int = 1          # element stride between rows of the mean / rstd outputs
    rstd_stride: int = 1


@dataclass(frozen=True)
class NormEpilogue:
    """Elementwise math applied to the normalised value `y` before the store (e.g. GELU(y) * 0.5 + r),
    as a Triton expression; `loads` are (local name, "row" | "col") read by it, bound as roles."""

    expression: str
    loads: tuple[tuple[str, str], ...]


_EPILOGUE_BINARY = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
_EPILOGUE_UNARY = {"erf": "tl.math.erf", "exp": "tl.exp", "abs": "tl.abs", "sqrt": "tl.sqrt", "rsqrt": "tl.rsqrt",
                   "log": "tl.log", "sigmoid": "tl.sigmoid"}


def _row_value(expr: Expr, n: int) -> tuple[str, str | None] | None:
    """x = load(a, row) or load(a, row) + load(b, row): returns (a, b)."""
    row = row_index(n)
    if expr[0] == "load" and index_is(expr[2], row):
        return expr[1], None
    if expr[0] == "add" and all(e[0] == "load" and index_is(e[2], row) for e in expr[1:]):
        return expr[1][1], expr[2][1]
    return None


def match_row_norm(kernel: KernelSpec, launch: LaunchSpec) -> RowNormMatch | None:
    facts = analyse(kernel)
    if facts is None or facts.has_assert or "xnumel" not in facts.sizes or "r0_numel" not in facts.sizes:
        return None
    n, m = facts.sizes["r0_numel"], facts.sizes["xnumel"]
    for ptr, _, _ in facts.stores:
        if not ptr.startswith("out_ptr"):
            return None                       # in-place outputs (in_out_ptr) are not modelled
    outputs = _norm_outputs(facts, n)
    if outputs is None:
        return None
    kind, x_expr, eps, stored = outputs
    row = _row_value(x_expr, n)
    if row is None:
        return None
    roles: dict[str, int | None] = {"x": launch_position(launch, row[0]),
                                    "residual": launch_position(launch, row[1]) if row[1] else None}
    for role in ("weight", "bias", "out", "mean", "rstd"):
        param = stored.get(role)
        roles[role] = launch_position(launch, param) if param else None
    if roles["x"] is None or roles["out"] is None or (row[1] and roles["residual"] is None):
        return None
    if any(stored.get(r) and roles[r] is None for r in ("weight", "bias", "mean", "rstd")):
        return None
    epilogue = stored.get("epilogue")
    for name, load_kind in epilogue.loads if epilogue else ():
        roles[name] = launch_position(launch, stored[name])
        if roles[name] is None or not _epilogue_arg_fits(launch.args[roles[name]], load_kind, m, n):
            return None
    if not _norm_args_fit(launch, roles, m, n):
        return None
    out_dtype = signature_dtype(kernel, stored["out"]).lstrip("*")
    strides = {role: stat_stride(launch.args[roles[role]]) if roles[role] is not None else 1
               for role in ("mean", "rstd")}
    return RowNormMatch(kind, m, n, eps, roles, out_dtype, epilogue, strides["mean"], strides["rstd"])


def _epilogue_arg_fits(arg: ArgSpec, load_kind: str, m: int, n: int) -> bool:
    if not arg.is_tensor or arg.dtype not in FLOAT_DTYPES:
        return False
    if load_kind == "row":
        return is_row_major(arg, n) and numel(arg) == m * n
    return numel(arg) == n and (len(arg.strides) == 0 or arg.strides[-1] == 1)


def _render_epilogue(expr: Expr, n: int, loads: dict[str, tuple[str, str]]) -> str | None:
    """Triton source for an elementwise expression of `y`, constants and row / column loads (None when
    it holds anything else: a reduction, a round-trip through a narrower dtype, an index)."""
    op = expr[0]
    if expr == ("var", "y"):
        return "y"
    if op == "const" and isinstance(expr[1], (int, float)) and not isinstance(expr[1], bool):
        return repr(float(expr[1]))
    if op in _EPILOGUE_BINARY:
        a, b = (_render_epilogue(e, n, loads) for e in expr[1:])
        return None if a is None or b is None else f"({a} {_EPILOGUE_BINARY[op]} {b})"
    if op == "neg" or op in _EPILOGUE_UNARY:
        a = _render_epilogue(expr[1], n, loads)
        return None if a is None else (f"(-{a})" if op == "neg" else f"{_EPILOGUE_UNARY[op]}({a})")
    if op == "load":
        kind = "row" if index_is(expr[2], row_index(n)) else "col" if index_is(expr[2], ("var", "r")) else None
        if kind is None or (expr[1] in loads and loads[expr[1]][1] != kind):
            return None
        loads.setdefault(expr[1], (f"e{len(loads)}", kind))
        return loads[expr[1]][0]
    return None


def _match_norm_epilogue(value: Expr, n: int):
    """value = f(normalised value) for an elementwise f: (what _match_norm_value found for the normalised
    value, the epilogue, {epilogue local name: kernel parameter it loads})."""
    split = outermost(value, lambda e: _match_norm_value(e, n))
    if split is None:
        return None
    norm_expr, found = split
    loads: dict[str, tuple[str, str]] = {}
    rest = replaced(value, norm_expr, ("var", "y"))
    source = _render_epilogue(rest, n, loads)
    if source is None or source == "y":
        return None
    epilogue = NormEpilogue(source, tuple(loads.values()))
    return found, epilogue, {name: param for param, (name, _) in loads.items()}


def _norm_outputs(facts: KernelFacts, n: int):
    """Explain every store as the normalised output (possibly through an elementwise epilogue), the
    mean, or the rstd of one row value."""
    stored: dict[str, str] = {}
    kind = x_expr = eps = None
    for ptr, index, value in facts.stores:
        found = _match_norm_value(value, n)
        if found is None and index_is(index, row_index(n)):
            with_epilogue = _match_norm_epilogue(value, n)
            if with_epilogue is not None:
                found, epilogue, params = with_epilogue
                stored.update({"epilogue": epilogue, **params})
        if found is None or not index_is(index, row_index(n)):
            stats = _match_stat_store(value, n, index)
            if stats is None:
                return None
            stat_kind, stat_x, stat_eps, role = stats
            if role in stored:
                return None
            stored[role] = ptr
            found_kind, found_x, found_eps = stat_kind, stat_x, stat_eps
        else:
            found_kind, found_x, found_eps, weight, bias = found
            if "out" in stored:
                return None
            stored.update({"out": ptr, **({"weight": weight} if weight else {}), **({"bias": bias} if bias else {})})
        if kind is None:
            kind, x_expr, eps = found_kind, found_x, found_eps
        elif (found_kind, found_x) != (kind, x_expr) or \
                (found_eps is not None and eps is not None and found_eps != eps):
            return None
        eps = eps if eps is not None else found_eps
    if "out" not in stored or eps is None:
        return None
    return kind, x_expr, eps, stored


def _rstd_pattern(kind: str, n: int) -> Expr:
    stat = ("mean", ("mul", "?x", "?x")) if kind == "rms" else ("div", ("m2", "?x"), ("const", float(n)))
    return ("rsqrt", ("add", stat, ("const", "?eps")))


def _match_norm_value(value: Expr, n: int):
    for kind in ("layer", "rms"):
        centred = ("sub", "?x", ("mean", "?x")) if kind == "layer" else "?x"
        normed = ("mul", centred, _rstd_pattern(kind, n))
        for with_w, with_b in ((True, True), (True, False), (False, False)):
            pattern = normed
            if with_w:
                pattern = ("mul", pattern, ("load", "?w", ("var", "r")))
            if with_b:
                pattern = ("add", pattern, ("load", "?b", ("var", "r")))
            binds = unify(pattern, value, {})
            if binds is not None and isinstance(binds["?eps"], float):
                weight = binds["?w"] if with_w else None
                bias = binds["?b"] if with_b else None
                return kind, binds["?x"], binds["?eps"], weight, bias
    return None


def _match_stat_store(value: Expr, n: int, index: Expr):
    if not index_is(index, ("var", "x")):
        return None
    binds = unify(("mean", "?x"), value, {})
    if binds is not None:
        return "layer", binds["?x"], None, "mean"
    for kind in ("layer", "rms"):
        binds = unify(_rstd_pattern(kind, n), value, {})
        if binds is not None:
            return kind, binds["?x"], binds["?eps"], "rstd"
    return None


def _norm_args_fit(launch: LaunchSpec, roles: dict[str, int | None], m: int, n: int) -> bool:
    args = launch.args
    for role in ("x", "residual", "out"):
        pos = roles[role]
        if pos is not None and not (is_row_major(args[pos], n) and numel(args[pos]) == m * n):
            return False
    for role in ("weight", "bias"):
        pos = roles[role]
        if pos is not None and not (args[pos].is_tensor and numel(args[pos]) == n and
                                    (len(args[pos].strides) == 0 or args[pos].strides[-1] == 1)):
            return False
    for role in ("mean", "rstd"):
        pos = roles[role]
        if pos is not None and not (args[pos].is_tensor and numel(args[pos]) == m):
            return False
    return True


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

def row_norm_source(kind: str, roles: dict, n_cols: int, eps: float, rows: int = 1, num_warps: int = 4,
                    mean_stride: int = 1, rstd_stride: int = 1, epilogue: idioms.NormEpilogue | None = None) -> str:
    """`epilogue`: elementwise math on the normalised value before the store; its loads are roles."""
    full = {"x": None, "residual": None, "weight": None, "bias": None, "out": None, "mean": None, "rstd": None}
    full.update(roles)
    return render_kernel("row_norm", roles=full, kind=kind, n_cols=n_cols, eps=repr(float(eps)), rows=rows,
                         epilogue=epilogue.expression if epilogue else "",
                         epilogue_loads=list(epilogue.loads) if epilogue else [],
                         block=next_pow2(n_cols), num_warps=num_warps, has_residual=full["residual"] is not None,
                         has_weight=full["weight"] is not None, has_bias=full["bias"] is not None,
                         store_mean=full["mean"] is not None, store_rstd=full["rstd"] is not None,
                         mean_stride=mean_stride, rstd_stride=rstd_stride)


def row_norm_variants(n_cols: int) -> list[tuple[int, int]]:
    """(ROWS, num_warps) with 4..64 fp32 row elements per thread."""
    block = next_pow2(n_cols)
    variants = []
    for rows, warps in ((1, 4), (1, 8), (2, 8), (1, 16), (4, 8), (8, 4), (2, 4)):
        per_thread = rows * block / (32 * warps)
        if 4 <= per_thread <= 64:
            variants.append((rows, warps))
    return variants[:4] or [(1, 4)]


class RowNormTemplate(KernelTemplate):
    name = "row_norm"
    order = 10

    def match(self, target: RewriteTarget) -> RowNormMatch | None:
        match = match_row_norm(*single_launch(target))
        return match if match is not None and next_pow2(match.n_cols) <= MAX_ROW_ON_CHIP else None

    def variants(self, match: RowNormMatch) -> list[tuple[int, int]]:
        return row_norm_variants(match.n_cols)

    def render(self, match: RowNormMatch, variant: tuple[int, int]) -> str:
        rows, warps = variant
        return row_norm_source(match.kind, match.roles, match.n_cols, match.eps, rows=rows, num_warps=warps,
                               mean_stride=match.mean_stride, rstd_stride=match.rstd_stride,
                               epilogue=match.epilogue)

    def strategy(self, match: RowNormMatch, variant: tuple[int, int]) -> str:
        rows, warps = variant
        title = {"layer": "layernorm", "rms": "rmsnorm"}[match.kind]
        return (f"{title}{' + epilogue' if match.epilogue else ''} row-on-chip "
                f"BLOCK={next_pow2(match.n_cols)} rows={rows} warps={warps}")

    def notes(self, match: RowNormMatch, variant: tuple[int, int]) -> str:
        return (f"{match.kind} norm of [{match.n_rows}, {match.n_cols}], eps={match.eps}, input read once; "
                + (f"then out = {match.epilogue.expression}; " if match.epilogue else "")
                + f"roles {match.roles}")
