"""Depthwise conv2d (groups == channels) replacing the library call, channels as the fast tile axis."""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.proposers.base import RewriteTarget
from kernelopt.proposers.idioms import FLOAT_DTYPES
from kernelopt.templates.kernel_template import KernelTemplate, next_pow2, render_kernel

# ---------------------------------------------------------------------------------------------------
# Matcher

@dataclass(frozen=True)
class DepthwiseConvMatch:
    roles: dict                       # x, weight, out and (or None) bias -> slot of the vendor target
    in_sizes: tuple
    out_sizes: tuple
    dtype: str
    kernel_hw: tuple
    stride: tuple
    padding: tuple
    dilation: tuple


def match_depthwise_conv(target) -> DepthwiseConvMatch | None:
    """A vendor target (`targets.vendor_target`) that is a 2-D depthwise convolution: `groups` equal to
    the input channels, one filter per channel (weight [C, 1, KH, KW]), not transposed, a float dtype."""
    launch = target.launches[0] if len(target.launches) == 1 else None
    if launch is None or launch.kernel != "extern_kernels.convolution" or not launch.config.get("returns"):
        return None
    slots = {arg.name: index for index, arg in enumerate(target.group_args)}
    args = {arg.name: arg for arg in target.group_args}
    if not {"input", "weight", "out"} <= slots.keys():
        return None
    kwargs = launch.config.get("kwargs") or {}
    x, weight, out = args["input"], args["weight"], args["out"]
    if len(x.sizes) != 4 or len(weight.sizes) != 4 or len(out.sizes) != 4:
        return None
    channels = x.sizes[1]
    if kwargs.get("groups") != channels or weight.sizes[:2] != (channels, 1) or out.sizes[1] != channels:
        return None
    if kwargs.get("transposed") or any(kwargs.get("output_padding") or []):
        return None
    pairs = [tuple(kwargs.get(key) or ()) for key in ("stride", "padding", "dilation")]
    if any(len(pair) != 2 or not all(isinstance(v, int) for v in pair) for pair in pairs):
        return None
    if x.dtype not in FLOAT_DTYPES or out.dtype != x.dtype:
        return None
    roles = {"x": slots["input"], "weight": slots["weight"], "bias": slots.get("bias"), "out": slots["out"]}
    return DepthwiseConvMatch(roles, x.sizes, out.sizes, x.dtype, tuple(weight.sizes[2:]), *pairs)


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

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
    return render_kernel("depthwise_conv2d", roles=full, sh=sh, sw=sw, ph=ph, pw=pw, dh=dh, dw=dw, kh=kh, kw=kw,
                         has_bias=has_bias, block_h=block_h, block_w=block_w, block_c=block_c, num_warps=num_warps,
                         rows=(block_h - 1) * sh + (kh - 1) * dh + 1)


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


class DepthwiseConv2dTemplate(KernelTemplate):
    name = "depthwise_conv2d"
    scope = "vendor"

    def match(self, target: RewriteTarget) -> DepthwiseConvMatch | None:
        return match_depthwise_conv(target)

    def variants(self, match: DepthwiseConvMatch) -> list[dict]:
        return depthwise_conv2d_variants(match.out_sizes)

    def render(self, match: DepthwiseConvMatch, variant: dict) -> str:
        return depthwise_conv2d_source(match.roles, stride=match.stride, padding=match.padding,
                                       dilation=match.dilation, kernel_hw=match.kernel_hw,
                                       has_bias=match.roles.get("bias") is not None, **variant)

    def strategy(self, match: DepthwiseConvMatch, variant: dict) -> str:
        return (f"depthwise-conv2d {match.kernel_hw[0]}x{match.kernel_hw[1]} "
                f"BLOCK_H={variant['block_h']} BLOCK_W={variant['block_w']} BLOCK_C={variant['block_c']} "
                f"warps={variant['num_warps']}")

    def notes(self, match: DepthwiseConvMatch, variant: dict) -> str:
        return (f"replaces the library call: direct depthwise convolution of {list(match.in_sizes)} "
                f"{match.dtype}, channels as the fast tile axis, fp32 accumulation")
