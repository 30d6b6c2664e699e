"""GroupNorm over (C / G) * HxW groups, optionally affine, with an optional elementwise epilogue (the
SiLU of a diffusion U-Net block), the whole group in registers: x read once, out written once."""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.proposers.base import ArgSpec, RewriteTarget
from kernelopt.proposers.idioms import (FLOAT_DTYPES, Expr, KernelFacts, analyse, index_is, is_row_major, numel,
                                        outermost, replaced, row_index, row_stride, unify)
from kernelopt.templates.kernel_template import (MAX_ROW_ON_CHIP, KernelTemplate, Refusal, next_pow2, render_kernel,
                                                 target_scope)

# ---------------------------------------------------------------------------------------------------
# Matcher.
#
# Inductor writes GroupNorm of a contiguous x [N, C, *spatial] (S elements per channel, G groups of
# CG = C / G channels, L = CG * S elements per group) in one of three forms:
#   - one persistent reduction over the N*G groups that also normalises (kernel scope);
#   - a statistics kernel (mean and m2 of each group, persistent or Welford) and a normalise kernel,
#     1D over the elements or 2D-tiled over (N*C, S) (torch 2.11; a fusion group);
#   - the statistics kernel, a kernel of per-(n, c) scale = rstd * w and shift = b - mean * scale,
#     and out = x * scale + shift (torch 2.13; a fusion group).
# Whatever the form, every index a kernel uses is rewritten as a linear form over the digits of the
# element's position, n in [0, N), g in [0, G), j in [0, CG) (channel c = g * CG + j) and s in
# [0, S): x is read at the element, the statistics at the group (n, g), the weight and bias at the
# channel (g, j), the scale / shift buffers at (n, g, j). Loads of buffers an earlier kernel of the
# group stored are replaced by what it stored, so every form reduces to one value per element, an
# expression of x, the group's mean and m2, the weight and the bias: a normalised value, possibly
# under an elementwise epilogue.

Linear = dict[str, int]           # digit -> coefficient; an index is sum(coefficient * digit)


@dataclass(frozen=True)
class GroupNormMatch:
    n_batch: int
    n_channels: int
    groups: int
    group_len: int                # L = C / groups * prod(spatial)
    eps: float
    roles: dict[str, int | None]  # x, weight, bias, out, mean, rstd, m2, scale, shift -> argument position
    epilogue: str = ""            # Triton expression of the normalised `y`, "" for none
    mean_stride: int = 1
    m2_stride: int = 1


@dataclass(frozen=True)
class _Shape:
    n: int
    c: int
    g: int
    s: int

    @property
    def cg(self) -> int:
        return self.c // self.g

    @property
    def radix(self) -> dict[str, int]:
        return {"n": self.n, "g": self.g, "j": self.cg, "s": self.s}

    def form(self, **coefficients: int) -> Linear:
        """A linear form without the digits that are always 0 (radix 1) or weigh nothing."""
        return {d: k for d, k in coefficients.items() if k and self.radix[d] > 1}

    def element(self) -> Linear:
        return self.form(n=self.c * self.s, g=self.cg * self.s, j=self.s, s=1)

    def group(self, stride: int = 1) -> Linear:
        return self.form(n=self.g * stride, g=stride)

    def channel(self) -> Linear:
        return self.form(g=self.cg, j=1)

    def batch_channel(self) -> Linear:
        return self.form(n=self.c, g=self.cg, j=1)


def _largest(form: Linear, shape: _Shape) -> int:
    return sum(k * (shape.radix[d] - 1) for d, k in form.items())


def _linear(expr: Expr, space: dict[str, Linear], shape: _Shape) -> Linear | None:
    """The index as a linear form over the digits, or None when it is not one (a division that
    splits a digit, a product of two indices, ...): then nothing matches."""
    op = expr[0]
    if op == "var":
        return space.get(expr[1])
    if op == "const" and isinstance(expr[1], int) and not isinstance(expr[1], bool):
        return {} if expr[1] == 0 else None
    if op == "add":
        a, b = (_linear(e, space, shape) for e in expr[1:])
        if a is None or b is None:
            return None
        return shape.form(**{d: a.get(d, 0) + b.get(d, 0) for d in set(a) | set(b)})
    if op == "mul":
        for k, other in ((expr[1], expr[2]), (expr[2], expr[1])):
            if k[0] == "const" and isinstance(k[1], int) and k[1] > 0:
                inner = _linear(other, space, shape)
                return None if inner is None else {d: v * k[1] for d, v in inner.items()}
        return None
    if op in ("floordiv", "mod") and expr[2][0] == "const" and isinstance(expr[2][1], int) and expr[2][1] > 0:
        inner, k = _linear(expr[1], space, shape), expr[2][1]
        if inner is None:
            return None
        # v = k * high + low with 0 <= low < k: v // k = high and v % k = low, exactly
        high = {d: v // k for d, v in inner.items() if v % k == 0}
        low = {d: v for d, v in inner.items() if v % k}
        if _largest(low, shape) >= k:
            return None
        return high if op == "floordiv" else low
    return None


def _spaces(facts: KernelFacts, shape: _Shape, group_len: int) -> dict[str, Linear] | None:
    """What the kernel's index variables are, in digits, from the sizes it runs over."""
    x, y, r = (facts.sizes.get(k) for k in ("xnumel", "ynumel", "r0_numel"))
    n_groups, n_rows = shape.n * shape.g, shape.n * shape.c
    if r is not None:                       # one program row per group, r along the group
        if (x, r, y) != (n_groups, group_len, None):
            return None
        return {"x": shape.group(), "r": shape.form(j=shape.s, s=1)}
    if y is not None:                       # a 2D tile: y the (n, c) row, x the position in the channel
        return {"y": shape.batch_channel(), "x": shape.form(s=1)} if (y, x) == (n_rows, shape.s) else None
    if x == n_rows * shape.s:
        return {"x": shape.element()}
    if x == n_rows:
        return {"x": shape.batch_channel()}
    return None


class _Symbols:
    """Rewrites the kernels' values into leaves the patterns name: ("x",), ("mean",), ("m2",) and
    ("w", slot) for a per-channel load, through the data the group's kernels pass each other."""

    def __init__(self, shape: _Shape, x_slot: int):
        self.shape = shape
        self.x_slot = x_slot
        self.stored: dict[int, tuple[Linear, Expr]] = {}   # slot -> (index, value) an earlier kernel stored

    def value(self, expr: Expr, space: dict[str, Linear], slots: dict[str, int]) -> Expr | None:
        op = expr[0] if isinstance(expr, tuple) else None
        if op == "load":
            return self._load(expr, space, slots)
        if op in ("mean", "m2"):
            inner = self.value(expr[1], space, slots)
            return (op,) if inner == ("x",) else None
        if op in ("var", "param", "where", "sum", "max", "min", "any", "cumsum", "sumexp", "argmax", "argmin"):
            return None                             # an index, a select or another reduction: not this idiom
        if op == "const":
            return expr
        parts = [self.value(e, space, slots) if isinstance(e, tuple) else e for e in expr[1:]]
        return None if any(p is None for p in parts) else (op, *parts)

    def _load(self, expr: Expr, space: dict[str, Linear], slots: dict[str, int]) -> Expr | None:
        slot, index = slots.get(expr[1]), _linear(expr[2], space, self.shape)
        if slot is None or index is None:
            return None
        if slot in self.stored:                     # written earlier in the group: what was written
            where, value = self.stored[slot]
            return value if where == index else None
        if slot == self.x_slot:
            return ("x",) if index == self.shape.element() else None
        if index == self.shape.channel():
            return ("w", slot)
        return None


def _rstd(group_len: int) -> Expr:
    return ("rsqrt", ("add", ("div", ("m2",), ("const", float(group_len))), ("const", "?eps")))


def _normalised_patterns(group_len: int) -> list[tuple[Expr, bool, bool]]:
    """(pattern, with weight, with bias): (x - mean) * rstd [* w] [+ b] as torch 2.11 writes it, and
    x * scale + shift with scale = rstd [* w], shift = -mean * scale [+ b] as torch 2.13 does."""
    rstd, x, mean, w, b = _rstd(group_len), ("x",), ("mean",), ("w", "?w"), ("w", "?b")
    patterns = []
    for with_w, with_b in ((True, True), (True, False), (False, False)):
        centred = ("mul", ("sub", x, mean), rstd)
        if with_w:
            centred = ("mul", centred, w)
        if with_b:
            centred = ("add", centred, b)
        scale = ("mul", rstd, w) if with_w else rstd
        shift = ("mul", ("neg", mean), scale)
        if with_b:
            shift = ("add", shift, b)
        patterns += [(centred, with_w, with_b), (("add", ("mul", x, scale), shift), with_w, with_b)]
    return patterns


def _normalised(expr: Expr, group_len: int) -> dict | None:
    for pattern, with_w, with_b in _normalised_patterns(group_len):
        binds = unify(pattern, expr, {})
        if binds is not None and isinstance(binds["?eps"], float):
            return {"eps": binds["?eps"], "weight": binds.get("?w"), "bias": binds.get("?b"),
                    "with_w": with_w, "with_b": with_b}
    return None


_BINARY = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
_UNARY = {"exp": "tl.exp", "sigmoid": "tl.sigmoid", "abs": "tl.abs", "sqrt": "tl.sqrt", "rsqrt": "tl.rsqrt",
          "log": "tl.log", "erf": "tl.math.erf"}


def _epilogue_source(expr: Expr) -> str | None:
    """Triton source of an elementwise function of `y` and constants, None when it reads anything else."""
    if expr == ("y",):
        return "y"
    op = expr[0]
    if op == "const" and isinstance(expr[1], (int, float)) and not isinstance(expr[1], bool):
        return repr(float(expr[1]))
    if op in _BINARY:
        a, b = (_epilogue_source(e) for e in expr[1:])
        return None if a is None or b is None else f"({a} {_BINARY[op]} {b})"
    if op == "neg" or op in _UNARY:
        a = _epilogue_source(expr[1])
        return None if a is None else (f"(-{a})" if op == "neg" else f"{_UNARY[op]}({a})")
    return None


def _launch_slots(target: RewriteTarget) -> list[dict[str, int]] | None:
    """For each launch, kernel parameter -> argument position of the candidate's run(*args)."""
    if target_scope(target) == "kernel":
        return [{a.name: i for i, a in enumerate(target.launches[0].args)}]
    if len(target.group_positions) != len(target.launches):
        return None
    return [{a.name: slot for a, slot in zip(launch.args, where)}
            for launch, where in zip(target.launches, target.group_positions)]


def _statistics(facts: KernelFacts) -> dict[str, str] | None:
    """{"mean" | "m2": stored parameter} of a kernel that stores nothing but the mean and the m2 of
    each row of one loaded tensor (GroupNorm's statistics kernel)."""
    n = facts.sizes.get("r0_numel")
    stored: dict[str, str] = {}
    loaded = set()
    for ptr, index, value in facts.stores:
        if n is None or value[0] not in ("mean", "m2") or value[0] in stored or index != ("var", "x"):
            return None
        if value[1][0] != "load" or not index_is(value[1][2], row_index(n)):
            return None
        stored[value[0]] = ptr
        loaded.add(value[1][1])
    return stored if len(loaded) == 1 and set(stored) == {"mean", "m2"} else None


def _row_load(facts: KernelFacts) -> str | None:
    """The tensor whose rows a (group) reduction kernel reduces: the operand of its mean / m2."""
    n = facts.sizes.get("r0_numel")
    found = set()

    def walk(expr: Expr) -> None:
        if isinstance(expr, tuple):
            if expr[0] in ("mean", "m2") and expr[1][0] == "load" and index_is(expr[1][2], row_index(n)):
                found.add(expr[1][1])
            for child in expr[1:]:
                walk(child)
    for _, _, value in facts.stores:
        walk(value)
    return found.pop() if len(found) == 1 else None


def match_group_norm(target: RewriteTarget) -> GroupNormMatch | Refusal | None:
    scope = target_scope(target)
    if scope not in ("kernel", "group") or any(k.kind == "vendor" for k in target.kernels):
        return None
    kernels = {k.name: k for k in target.kernels}
    facts = [analyse(kernels[launch.kernel]) if launch.kernel in kernels else None for launch in target.launches]
    slots = _launch_slots(target)
    if slots is None or any(f is None or f.has_assert for f in facts):
        return None
    args = target.group_args if scope == "group" else target.launches[0].args
    first = facts[0]
    group_len, n_groups = first.sizes.get("r0_numel"), first.sizes.get("xnumel")
    x_param = _row_load(first) if group_len else None
    if x_param is None or x_param not in slots[0]:
        return None                                  # no per-group statistics first: not a GroupNorm
    x_slot = slots[0][x_param]
    x = args[x_slot]
    if not x.is_tensor or len(x.sizes) < 2 or not x.sizes[0] or n_groups % x.sizes[0]:
        return None
    shape = _Shape(x.sizes[0], x.sizes[1], n_groups // x.sizes[0], numel(x) // (x.sizes[0] * x.sizes[1] or 1))
    if shape.c % shape.g or shape.cg * shape.s != group_len or not is_row_major(x, group_len):
        return None                                  # rows of x are not its contiguous channel groups
    if x.dtype not in FLOAT_DTYPES:
        return Refusal(f"x is {x.dtype}: the template normalises bf16/fp16/fp32")
    found = _explain(facts, slots, args, shape, x_slot, group_len)
    if isinstance(found, (Refusal, type(None))):
        return found
    if next_pow2(group_len) > MAX_ROW_ON_CHIP:
        return Refusal(f"groups of {group_len} elements: the template keeps a group in registers, at most "
                       f"{MAX_ROW_ON_CHIP}")
    return found


def _explain(facts: list[KernelFacts], slots: list[dict[str, int]], args, shape: _Shape,
             x_slot: int, group_len: int) -> GroupNormMatch | Refusal | None:
    """Account for every store of the target: the GroupNorm output, or an intermediate of the split
    forms the template writes too (per-group mean and m2, per-(n, c) scale and shift); anything else
    and nothing matches."""
    stat_strides: dict[int, int] = {}
    symbols = _Symbols(shape, x_slot)
    roles: dict[str, int | None] = {"x": x_slot}
    batch_channel: list[tuple[int, Expr]] = []       # (slot, value) stored per (n, c): scale or shift
    out_value = None
    for number, (kernel_facts, slot_of) in enumerate(zip(facts, slots)):
        space = _spaces(kernel_facts, shape, group_len)
        if space is None:
            return None
        stats = _statistics(kernel_facts) if number == 0 and len(facts) > 1 else None
        for ptr, index, value in kernel_facts.stores:
            slot, where = slot_of.get(ptr), _linear(index, space, shape)
            if slot is None or where is None or slot == x_slot:
                return None
            if stats is not None:                       # the statistics kernel: mean / m2 of each group
                role = "mean" if stats["mean"] == ptr else "m2"
                stride = row_stride(args[slot], shape.n * shape.g)
                if stride is None or where != shape.group():
                    return None
                roles[role], stat_strides[slot] = slot, stride
                symbols.stored[slot] = (where, (role,))
                continue
            rewritten = symbols.value(value, space, slot_of)
            if rewritten is None:
                return None
            if rewritten[0] == "round" and args[slot].dtype == rewritten[1]:
                rewritten = rewritten[2]                # the cast to the output dtype the template does too
            if where == shape.element() and out_value is None:
                roles["out"], out_value = slot, rewritten
            elif where == shape.batch_channel() and number < len(facts) - 1:
                symbols.stored[slot] = (where, rewritten)
                batch_channel.append((slot, rewritten))
            else:
                return None
    if out_value is None:
        return None
    return _finish(out_value, roles, batch_channel, shape, group_len, args, stat_strides)


def _finish(out_value: Expr, roles: dict, batch_channel: list[tuple[int, Expr]], shape: _Shape, group_len: int,
            args, stat_strides: dict[int, int]) -> GroupNormMatch | Refusal | None:
    split = outermost(out_value, lambda e: _normalised(e, group_len))
    if split is None:
        return None
    norm_expr, found = split
    if found["with_w"] != found["with_b"]:
        return Refusal("a weight without a bias: the template applies both or neither")
    if not found["with_w"] and "mean" not in roles:
        return None                                  # one kernel, no affine: a row LayerNorm, row_norm's idiom
    epilogue = ""
    if norm_expr != out_value:
        epilogue = _epilogue_source(replaced(out_value, norm_expr, ("y",)))
        if epilogue is None:
            return Refusal("the epilogue after the normalisation reads more than the normalised value (e.g. a "
                           "residual): the template's epilogue is elementwise in it")
    roles.update({"weight": found["weight"], "bias": found["bias"], "rstd": None})
    binds = {"?eps": found["eps"], "?w": found["weight"], "?b": found["bias"]}
    scale = ("mul", _rstd(group_len), ("w", "?w")) if found["with_w"] else _rstd(group_len)
    shift = ("mul", ("neg", ("mean",)), scale)
    if found["with_b"]:
        shift = ("add", shift, ("w", "?b"))
    for slot, value in batch_channel:
        role = "scale" if unify(scale, value, binds) is not None else \
            "shift" if unify(shift, value, binds) is not None else None
        if role is None or role in roles:
            return None
        roles[role] = slot
    if ("scale" in roles) != ("shift" in roles):
        return None
    for role in ("mean", "m2", "scale", "shift"):
        roles.setdefault(role, None)
    refusal = _args_refusal(args, roles, shape, group_len)
    if refusal is not None:
        return refusal
    mean_stride = stat_strides.get(roles["mean"], 1)
    m2_stride = stat_strides.get(roles["m2"], 1)
    return GroupNormMatch(shape.n, shape.c, shape.g, group_len, found["eps"], roles, epilogue, mean_stride, m2_stride)


def _args_refusal(args, roles: dict, shape: _Shape, group_len: int) -> Refusal | None:
    out = args[roles["out"]]
    if out.dtype not in FLOAT_DTYPES or not is_row_major(out, group_len) or numel(out) != numel(args[roles["x"]]):
        return Refusal(f"out {out.sizes}/{out.strides} {out.dtype} is not a contiguous float tensor like x")
    for role in ("weight", "bias"):
        arg: ArgSpec | None = args[roles[role]] if roles[role] is not None else None
        if arg is not None and not (arg.is_tensor and arg.dtype in FLOAT_DTYPES and numel(arg) == shape.c
                                    and row_stride(arg, shape.c) == 1):
            return Refusal(f"the {role} {arg.sizes}/{arg.strides} {arg.dtype} is not {shape.c} contiguous floats")
    for role in ("scale", "shift"):
        arg = args[roles[role]] if roles[role] is not None else None
        if arg is not None and not (arg.dtype in FLOAT_DTYPES and row_stride(arg, shape.n * shape.c) == 1):
            return Refusal(f"the {role} buffer {arg.sizes}/{arg.strides} is not {shape.n * shape.c} contiguous floats")
    for role in ("mean", "m2"):
        arg = args[roles[role]] if roles[role] is not None else None
        if arg is not None and arg.dtype not in FLOAT_DTYPES:
            return Refusal(f"the {role} buffer is {arg.dtype}, not a float")
    return None


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

def group_norm_source(roles: dict, groups: int, group_len: int, eps: float, num_warps: int = 4,
                      groups_equal_channels: bool = False, epilogue: str = "", mean_stride: int = 1,
                      rstd_stride: int = 1, m2_stride: int = 1, channels_per_group: int = 1) -> str:
    """`epilogue`: a Triton expression of the normalised `y` applied before the store; `m2`, `scale`
    and `shift` roles receive the intermediates of Inductor's split form (see the kernel's header)."""
    full = {"x": None, "weight": None, "bias": None, "out": None, "mean": None, "rstd": None, "m2": None,
            "scale": None, "shift": None}
    full.update(roles)
    return render_kernel("group_norm", roles=full, groups=groups, eps=repr(float(eps)), block=next_pow2(group_len),
                         cblock=next_pow2(channels_per_group), num_warps=num_warps,
                         has_affine=full["weight"] is not None, groups_equal_channels=groups_equal_channels,
                         epilogue=epilogue, mean_stride=mean_stride, rstd_stride=rstd_stride, m2_stride=m2_stride)


def group_norm_variants(group_len: int) -> list[int]:
    """num_warps with 4..64 fp32 group elements per thread (at least one)."""
    block = next_pow2(group_len)
    return [w for w in (4, 8, 16) if 4 <= block / (32 * w) <= 64] or [max(1, min(4, block // 128))]


class GroupNormTemplate(KernelTemplate):
    name = "group_norm"
    scope = ("kernel", "group")
    order = 20

    def match(self, target: RewriteTarget) -> GroupNormMatch | Refusal | None:
        return match_group_norm(target)

    def variants(self, match: GroupNormMatch) -> list[int]:
        return group_norm_variants(match.group_len)

    def render(self, match: GroupNormMatch, variant: int) -> str:
        return group_norm_source(match.roles, match.groups, match.group_len, match.eps, num_warps=variant,
                                 groups_equal_channels=match.groups == match.n_channels, epilogue=match.epilogue,
                                 mean_stride=match.mean_stride, m2_stride=match.m2_stride,
                                 channels_per_group=match.n_channels // match.groups)

    def strategy(self, match: GroupNormMatch, variant: int) -> str:
        return (f"groupnorm{' + epilogue' if match.epilogue else ''} group-on-chip "
                f"BLOCK={next_pow2(match.group_len)} warps={variant}")

    def notes(self, match: GroupNormMatch, variant: int) -> str:
        return (f"GroupNorm of [{match.n_batch}, {match.n_channels}, ...] in {match.groups} groups of "
                f"{match.group_len}, eps={match.eps}, input read once"
                + (f"; then out = {match.epilogue}" if match.epilogue else "") + f"; roles {match.roles}")
