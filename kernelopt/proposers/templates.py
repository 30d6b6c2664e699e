"""The `templates` proposer: expert Triton kernels (Jinja2 templates) bound to idioms in Inductor kernels.

`kernelopt.proposers.idioms` decides what a kernel (or the cross-entropy fusion group) computes and
which launch argument plays which role; this module renders the matching template, in a few block-size
/ num_warps variants, as candidate-format sources. The templates live in `templates/kernels/` (package
data of `kernelopt.templates`); `render()` and the `*_source()` helpers are usable on their own.
"""
from __future__ import annotations

import functools
import os
from typing import Iterable

import jinja2

from kernelopt.proposers import idioms
from kernelopt.proposers.base import Attempt, Candidate, KernelSpec, LaunchSpec, RewriteTarget

TEMPLATE_NAMES = ("cross_entropy", "row_softmax", "row_norm", "group_norm", "var_mean", "arg_reduce", "cumsum",
                  "depthwise_conv2d", "row_kl_div")
MAX_ROW_ON_CHIP = 32768      # fp32 elements a program keeps in registers (64 per thread at 16 warps)


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """Templates are found next to the `kernelopt.templates` package, in editable and normal installs."""
    import kernelopt.templates as package

    folder = os.path.join(os.path.dirname(os.path.abspath(package.__file__)), "kernels")
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True, trim_blocks=False)


def render(template: str, **params) -> str:
    """Render `templates/kernels/<template>.py.j2`; `roles` maps role name -> launch argument position."""
    roles = params.pop("roles")
    return environment().get_template(f"{template}.py.j2").render(roles=list(roles.items()), **params)


def next_pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


# ---------------------------------------------------------------------------------------------------
# Source builders, one per template (parameters: shapes known at render time, variant, roles).

def cross_entropy_source(roles: dict, n_cols: int, ignore_index: int = -100, block: int = 4096,
                         num_warps: int = 16, row_on_chip: bool | None = None, store_stats: bool = True,
                         n_rows: int = 1024, num_stages: int | None = None, unroll: int = 1) -> str:
    if row_on_chip is None:
        row_on_chip = next_pow2(n_cols) <= block
    if row_on_chip:
        block = max(block, next_pow2(n_cols))
    finish_block = min(1024, next_pow2(max(n_rows, 16)))
    return render("cross_entropy", roles=roles, ignore_index=ignore_index, block=block, num_warps=num_warps,
                  row_on_chip=row_on_chip, store_stats=store_stats, finish_block=finish_block, finish_warps=4,
                  num_stages=num_stages, unroll=unroll)


def row_softmax_source(mode: str, roles: dict, block: int, num_warps: int = 4, rows: int = 1,
                       row_on_chip: bool = False, scale: float = 1.0, temperature_scale: float = 1.0) -> str:
    """`mode` of K * (C * x) over the last dim, C = scale, K = temperature_scale (see the template)."""
    return render("row_softmax", roles=roles, mode=mode, block=block, num_warps=num_warps, rows=rows,
                  row_on_chip=row_on_chip, scale=repr(float(scale)), k=repr(float(temperature_scale)))


def row_norm_source(kind: str, roles: dict, n_cols: int, eps: float, rows: int = 1, num_warps: int = 4,
                    mean_stride: int = 1, rstd_stride: int = 1, epilogue: idioms.NormEpilogue | None = None) -> str:
    """`epilogue`: elementwise math on the normalised value before the store; its loads are roles."""
    full = {"x": None, "residual": None, "weight": None, "bias": None, "out": None, "mean": None, "rstd": None}
    full.update(roles)
    return render("row_norm", roles=full, kind=kind, n_cols=n_cols, eps=repr(float(eps)), rows=rows,
                  epilogue=epilogue.expression if epilogue else "",
                  epilogue_loads=list(epilogue.loads) if epilogue else [],
                  block=next_pow2(n_cols), num_warps=num_warps, has_residual=full["residual"] is not None,
                  has_weight=full["weight"] is not None, has_bias=full["bias"] is not None,
                  store_mean=full["mean"] is not None, store_rstd=full["rstd"] is not None,
                  mean_stride=mean_stride, rstd_stride=rstd_stride)


def group_norm_source(roles: dict, groups: int, group_len: int, eps: float, num_warps: int = 4,
                      groups_equal_channels: bool = False) -> str:
    full = {"x": None, "weight": None, "bias": None, "out": None, "mean": None, "rstd": None}
    full.update(roles)
    return render("group_norm", roles=full, groups=groups, eps=repr(float(eps)), block=next_pow2(group_len),
                  num_warps=num_warps, has_affine=full["weight"] is not None,
                  groups_equal_channels=groups_equal_channels)


def var_mean_source(roles: dict, block: int, correction: int = 1, rows: int = 1, num_warps: int = 4,
                    row_on_chip: bool = False) -> str:
    return render("var_mean", roles=roles, block=block, correction=correction, rows=rows, num_warps=num_warps,
                  row_on_chip=row_on_chip)


def arg_reduce_source(op: str, roles: dict, block: int, rows: int = 1, num_warps: int = 4) -> str:
    return render("arg_reduce", roles=roles, op=op, block=block, rows=rows, num_warps=num_warps)


def cumsum_source(roles: dict, block: int, rows: int = 1, num_warps: int = 4) -> str:
    return render("cumsum", roles=roles, block=block, rows=rows, num_warps=num_warps)


def row_kl_div_source(roles: dict, *, scale: float, temperature_scale: float, block: int, num_warps: int,
                      unroll: int = 1, out_stride: int = 1) -> str:
    return render("row_kl_div", roles=roles, scale=repr(float(scale)), k=repr(float(temperature_scale)),
                  block=block, num_warps=num_warps, unroll=unroll, out_stride=out_stride)


def depthwise_conv2d_source(roles: dict, *, stride, padding, dilation, kernel_hw, has_bias: bool,
                            block_w: int = 8, block_c: int = 64, num_warps: int = 4, block_h: int = 1) -> str:
    """Depthwise conv2d (groups == C). roles: x, weight, out and, when has_bias, bias (launch positions).
    stride / padding / dilation / kernel_hw: an int or an (h, w) pair; baked into the kernel as constexprs."""
    def pair(value, name):
        h, w = (value, value) if isinstance(value, int) else tuple(value)
        if not (isinstance(h, int) and isinstance(w, int)):
            raise ValueError(f"depthwise_conv2d: {name} must be ints, got {value!r}")
        return h, w

    (sh, sw), (ph, pw), (dh, dw), (kh, kw) = (pair(stride, "stride"), pair(padding, "padding"),
                                              pair(dilation, "dilation"), pair(kernel_hw, "kernel_hw"))
    if min(sh, sw, dh, dw, kh, kw) < 1 or min(ph, pw) < 0:
        raise ValueError("depthwise_conv2d: stride, dilation and kernel sizes must be >= 1, padding >= 0")
    for name, block in (("block_h", block_h), ("block_w", block_w), ("block_c", block_c)):
        if block < 1 or block & (block - 1):
            raise ValueError(f"depthwise_conv2d: {name} must be a power of two, got {block}")
    full = {"x": None, "weight": None, "bias": None, "out": None}
    full.update(roles)
    if has_bias and full["bias"] is None:
        raise ValueError("depthwise_conv2d: has_bias needs a 'bias' role")
    if not has_bias:
        full["bias"] = None
    return render("depthwise_conv2d", roles=full, sh=sh, sw=sw, ph=ph, pw=pw, dh=dh, dw=dw, kh=kh, kw=kw,
                  has_bias=has_bias, block_h=block_h, block_w=block_w, block_c=block_c, num_warps=num_warps,
                  rows=(block_h - 1) * sh + (kh - 1) * dh + 1)


# ---------------------------------------------------------------------------------------------------
# Variant menus (what to try first on an H200-class GPU).

def cross_entropy_variants(n_cols: int) -> list[tuple[bool, int, int, int]]:
    """(row_on_chip, BLOCK, num_warps, UNROLL), likeliest winners first on an H200-class GPU for
    [4096, 32000] bf16 logits, from the sweeps of 2026-12-02 (`benchmarks/ce_sweep.py`; results in
    benchmarks/results/2026-12-02-h200/run3/ce_sweep*.json): 512/4 warps with two chunks in flight per
    thread 0.1005 ms, 1024/8/2 0.1018, 512/8/4 0.1034, 2048/4/4 0.1039, 1024/4/1 0.1064, 2048/8/1
    0.1071, 4096/16/1 0.116, whole row in registers 0.121; Inductor's best module 0.179. num_stages made
    no difference (loads that feed no dot are not pipelined); differences under ~3% are within the
    run-to-run spread. The search has a budget, so the order matters."""
    fits = next_pow2(n_cols) <= MAX_ROW_ON_CHIP
    menu = [(False, 512, 4, 2), (False, 1024, 8, 2), (False, 512, 8, 4), (False, 2048, 4, 4),
            (False, 1024, 4, 1), (False, 2048, 8, 1), (False, 4096, 16, 1), (True, 0, 16, 1)]
    variants = []
    for row_on_chip, block, warps, unroll in menu:
        if row_on_chip:
            if not fits:
                continue
            block = next_pow2(n_cols)
        else:
            block = min(block, next_pow2(n_cols))
            if fits and block >= n_cols:
                continue  # one chunk is the whole row: the row-on-chip variant already covers it
            unroll = min(unroll, max(1, next_pow2(n_cols) // block))
        variant = (row_on_chip, block, warps, unroll)
        if variant not in variants:
            variants.append(variant)
    return variants


def row_softmax_variants(n_cols: int) -> list[tuple[bool, int, int, int]]:
    """(row_on_chip, BLOCK, ROWS, num_warps): the whole row in registers (8..64 fp32 per thread) where
    it fits, likeliest first; then the online two-pass form, which fits any row length. On the H200
    (softmax, bf16 [8192, 8192], run3/zoo.log) the row-on-chip variants were 1.32-1.45x over Inductor's
    three-pass kernel, within ~5% of each other across the two starting modules; two-pass 0.98-1.04x."""
    variants = []
    block = next_pow2(n_cols)
    if block <= MAX_ROW_ON_CHIP:
        for rows, warps in ((1, 8), (1, 16), (1, 4), (2, 8), (4, 4)):
            if 8 <= rows * block / (32 * warps) <= 64:
                variants.append((True, block, rows, warps))
        if not variants:                       # short rows: several per program
            rows = max(1, min(16, 1024 // block))
            variants.append((True, block, rows, max(1, min(8, rows * block // 256))))
    for chunk, warps in ((2048, 8), (1024, 4)):
        chunk = min(chunk, block)
        if (False, chunk, 1, warps) not in variants and chunk < block:
            variants.append((False, chunk, 1, warps))
    return variants


def row_kl_div_variants(n_cols: int) -> list[tuple[int, int, int]]:
    """(BLOCK, num_warps, UNROLL) for one program per row streaming two logit rows; each variant keeps
    5 fp32 lane states per element of BLOCK. On the H200 (kl_div, bf16 [4096, 32000], against Inductor's
    five-pass kernel; benchmarks/results/2026-12-03-h200/run3/zoo.log): 512/4/2 1.27x, 1024/8/2 1.24x,
    256/2/2 1.23x, 1024/4/1 1.19x, 2048/8/1 1.14x, 4096/16/1 0.88x."""
    menu = [(512, 4, 2), (1024, 8, 2), (1024, 4, 1), (2048, 8, 1), (256, 2, 2), (4096, 16, 1)]
    variants = []
    for block, warps, unroll in menu:
        block = min(block, max(16, next_pow2(n_cols)))
        unroll = min(unroll, max(1, next_pow2(n_cols) // block))
        warps = max(1, min(warps, block // 64))
        if (block, warps, unroll) not in variants:
            variants.append((block, warps, unroll))
    return variants


def row_norm_variants(n_cols: int) -> list[tuple[int, int]]:
    """(ROWS, num_warps) with 4..64 fp32 row elements per thread."""
    block = next_pow2(n_cols)
    variants = []
    for rows, warps in ((1, 4), (1, 8), (2, 8), (1, 16), (4, 8), (8, 4), (2, 4)):
        per_thread = rows * block / (32 * warps)
        if 4 <= per_thread <= 64:
            variants.append((rows, warps))
    return variants[:4] or [(1, 4)]


def depthwise_conv2d_variants(out_sizes) -> list[dict]:
    """depthwise_conv2d_source keyword variants (block_h, block_w, block_c, num_warps) for out
    [N, C, OH, OW], likeliest first on an H200. Measured there (fp32 32x256x56x56, 7x7, channels-last)
    with one output row per program: BLOCK_W=8 BLOCK_C=128 was 1.18x over cuDNN and every other shape
    slower than cuDNN, the loads' address/mask arithmetic being the cost; blocking output rows
    (BLOCK_H > 1) divides the loads per output by up to KH, so those come first, with 2K..4K fp32
    accumulators per program (16-32 per thread). Small C, OH or OW shrink the block; a small output
    (at most 64K elements) tries a few large programs first."""
    _, channels, out_h, out_w = (int(size) for size in out_sizes)
    caps = {"block_h": max(1, next_pow2(out_h)), "block_w": max(1, next_pow2(out_w)),
            "block_c": max(4, next_pow2(channels))}
    menu = [(4, 8, 128, 8), (8, 8, 64, 4), (4, 8, 64, 4), (8, 4, 128, 8), (2, 8, 128, 4), (1, 8, 128, 4)]
    if out_h * out_w * channels * int(out_sizes[0]) <= 1 << 16:
        menu.insert(0, (16, 16, 16, 4))     # a small output: a few large programs (launch-bound anyway)
    variants = []
    for block_h, block_w, block_c, warps in menu:
        variant = {"block_h": min(block_h, caps["block_h"]), "block_w": min(block_w, caps["block_w"]),
                   "block_c": min(block_c, caps["block_c"])}
        tile = variant["block_h"] * variant["block_w"] * variant["block_c"]
        variant["num_warps"] = max(1, min(warps, tile // 128))   # at least 4 outputs per thread
        if variant not in variants:
            variants.append(variant)
    return variants


def _stat_stride(target_arg) -> int:
    """Element stride between consecutive rows of a [M] / [M, 1] statistics buffer."""
    strides = [s for size, s in zip(target_arg.sizes, target_arg.strides) if size > 1]
    return strides[0] if len(strides) == 1 else 1


class TemplatesProposer:
    name = "templates"
    summary = ("Expert Triton templates (online cross-entropy, online KL divergence, softmax family, row norms "
               "with epilogues, Welford, arg-reduce, cumsum) bound to idioms recognised in Inductor kernels, and a "
               "depthwise conv2d for cuDNN's")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        tried = {attempt.candidate.strategy for attempt in history}
        for candidate in self._candidates(target):
            if candidate.strategy not in tried:
                yield candidate

    def _candidates(self, target: RewriteTarget) -> Iterable[Candidate]:
        if target.kernels and target.kernels[0].kind == "vendor" and len(target.kernels) == 1:
            yield from self._depthwise_conv(target)
            return
        if len(target.launches) > 1:
            yield from self._cross_entropy(target)
            return
        if len(target.kernels) != 1 or len(target.launches) != 1 or \
                target.launches[0].kernel != target.kernels[0].name:
            return                                # the row templates replace one kernel's one launch
        kernel, launch = target.kernels[0], target.launches[0]
        yield from self._row_norm(kernel, launch)
        yield from self._row_softmax(kernel, launch)
        yield from self._row_kl_div(kernel, launch)

    def _cross_entropy(self, target: RewriteTarget) -> Iterable[Candidate]:
        match = idioms.match_cross_entropy(target)
        if match is None:
            return
        for row_on_chip, block, warps, unroll in cross_entropy_variants(match.n_cols):
            source = cross_entropy_source(match.roles, match.n_cols, match.ignore_index, block=block,
                                          num_warps=warps, row_on_chip=row_on_chip, n_rows=match.n_rows,
                                          unroll=unroll)
            label = ("row-on-chip " if row_on_chip else "") + (f"UNROLL={unroll} " if unroll > 1 else "")
            yield Candidate(
                source=source, proposer=self.name,
                strategy=f"templates:online-cross-entropy {label}BLOCK={block} warps={warps}",
                notes=(f"one pass over logits [{match.n_rows}, {match.n_cols}] {match.logits_dtype}; writes the loss "
                       "and the per-row max / sum-of-exp buffers of the original group; mean over targets != "
                       f"{match.ignore_index}; exp via tl.exp (fp32)"))

    def _depthwise_conv(self, target: RewriteTarget) -> Iterable[Candidate]:
        match = idioms.match_depthwise_conv(target)
        if match is None:
            return
        for variant in depthwise_conv2d_variants(match.out_sizes):
            source = depthwise_conv2d_source(match.roles, stride=match.stride, padding=match.padding,
                                             dilation=match.dilation, kernel_hw=match.kernel_hw,
                                             has_bias=match.roles.get("bias") is not None, **variant)
            yield Candidate(
                source=source, proposer=self.name,
                strategy=(f"templates:depthwise-conv2d {match.kernel_hw[0]}x{match.kernel_hw[1]} "
                          f"BLOCK_H={variant['block_h']} BLOCK_W={variant['block_w']} BLOCK_C={variant['block_c']} "
                          f"warps={variant['num_warps']}"),
                notes=(f"replaces the library call: direct depthwise convolution of {list(match.in_sizes)} "
                       f"{match.dtype}, channels as the fast tile axis, fp32 accumulation"))

    def _row_softmax(self, kernel: KernelSpec, launch: LaunchSpec) -> Iterable[Candidate]:
        match = idioms.match_row_softmax(kernel, launch)
        if match is None:
            return
        for row_on_chip, block, rows, warps in row_softmax_variants(match.n_cols):
            source = row_softmax_source("softmax", match.roles, block=block, num_warps=warps, rows=rows,
                                        row_on_chip=row_on_chip, scale=match.scale,
                                        temperature_scale=match.temperature_scale)
            label = "row-on-chip" if row_on_chip else "online two-pass"
            yield Candidate(
                source=source, proposer=self.name,
                strategy=f"templates:softmax {label} BLOCK={block} rows={rows} warps={warps}",
                notes=(f"softmax of {match.temperature_scale} * ({match.scale} * x) over rows of [{match.n_rows}, "
                       f"{match.n_cols}], {match.out_dtype} out; "
                       + ("input read once" if row_on_chip else "statistics in one pass, a second writes")))

    def _row_kl_div(self, kernel: KernelSpec, launch: LaunchSpec) -> Iterable[Candidate]:
        match = idioms.match_row_kl_div(kernel, launch)
        if match is None:
            return
        out_stride = _stat_stride(launch.args[match.roles["out"]])
        for block, warps, unroll in row_kl_div_variants(match.n_cols):
            source = row_kl_div_source(match.roles, scale=match.scale, temperature_scale=match.temperature_scale,
                                       block=block, num_warps=warps, unroll=unroll, out_stride=out_stride)
            unrolled = f"UNROLL={unroll} " if unroll > 1 else ""
            yield Candidate(
                source=source, proposer=self.name,
                strategy=f"templates:online-kl-div {unrolled}BLOCK={block} warps={warps}",
                notes=(f"one pass over both logit rows [{match.n_rows}, {match.n_cols}] {match.dtype} (the original "
                       f"reads each five times); per-row KL of log_softmax({match.temperature_scale} * x), fp32"))

    def _row_norm(self, kernel: KernelSpec, launch: LaunchSpec) -> Iterable[Candidate]:
        match = idioms.match_row_norm(kernel, launch)
        if match is None or next_pow2(match.n_cols) > MAX_ROW_ON_CHIP:
            return
        title = {"layer": "layernorm", "rms": "rmsnorm"}[match.kind]
        strides = {role: _stat_stride(launch.args[match.roles[role]]) if match.roles[role] is not None else 1
                   for role in ("mean", "rstd")}
        for rows, warps in row_norm_variants(match.n_cols):
            source = row_norm_source(match.kind, match.roles, match.n_cols, match.eps, rows=rows, num_warps=warps,
                                     mean_stride=strides["mean"], rstd_stride=strides["rstd"],
                                     epilogue=match.epilogue)
            yield Candidate(
                source=source, proposer=self.name,
                strategy=(f"templates:{title}{' + epilogue' if match.epilogue else ''} row-on-chip "
                          f"BLOCK={next_pow2(match.n_cols)} rows={rows} warps={warps}"),
                notes=(f"{match.kind} norm of [{match.n_rows}, {match.n_cols}], eps={match.eps}, input read once; "
                       + (f"then out = {match.epilogue.expression}; " if match.epilogue else "")
                       + f"roles {match.roles}"))
