"""sum-through-conv: a convolution whose output is only summed over its spatial positions is a small contraction.

`bn(conv(x)).sum((2, 3, 4))` with batch norm in eval mode, a global average pool after a convolution or a transposed
convolution and a scaling: Inductor calls the library convolution (N x Cout x positions x Cin x taps multiply-adds)
and a reduction kernel summing each (n, c) plane of its output. The sum of a plane needs no convolution:

    sum_o conv(x)[n, co, o] = sum_{ci, k} w[co, ci, k] * T[n, ci, k] + bias[co] * positions,

where T[n, ci, k] is the sum of x[n, ci] over the input positions tap k meets on its way to an output position
inside the output (zero padding adds nothing). Each (input position, tap) pair lands on at most one output
position, and along each spatial dimension the positions a tap meets are, for a convolution (i = o * stride +
k * dilation - padding), every stride-th input position within a range: a box of the strided view starting at
(k * dilation - padding) mod stride; for a transposed convolution (o = i * stride + k * dilation - padding), a box of
the input itself, cropped where the output's border (padding, output padding) cuts the tap's outputs off. So T is
a box sum along each spatial dimension, on strided views. A reduction that sums the channels too (a global mean
over channels and positions) reads each sample's sum of its plane sums; one that sums the channels alone, at each
position, reads one convolution whose weights are summed (in float64) over each group's output channels: C[n, o] =
conv(x, sum_co w[co])[n, o] + sum_co bias[co], Cout times fewer multiply-adds. The target is a `detect-fusion`
reduction-epilogue group (`extern_kernels.convolution`, then the one reduction launch reading its result, which
nothing reads afterwards).
What is proven, from the reduction kernel's code and never from names:

- its outputs depend on the convolution's output y only through sums over r of a * y + c, with a slope a that
  does not vary along r (`linear_reads`: a batch norm in eval mode is such a y, a shift and a per-channel scale);
- every row of the kernel reads exactly one whole block of y, each element once, in y's own layout
  (`summed_reads.summed_dims`, channels-last included): a spatial plane, a sample (channels and positions), the
  channels at one position, or one box of a plane: along each spatial dimension the whole extent, one position, or
  one of equal chunks (the first half of a split reduction, which GPUs get: each row sums a few rows of a plane, or
  one, and a second kernel adds them up).

The candidate computes T (along each spatial dimension, the whole sum less a prefix and a suffix: the input
is read once, summed in float32 along the first dimension, then in float64), the plane sums S [N, Cout] (an
einsum per group, in float64, rounded once to float32), and runs the reduction's own code reading S in each
plane's first element and 0 elsewhere (`summed_reads.read_sums`): the same sums up to the order of the additions.
Boxes of a plane take T per box and tap (`conv_sums_source`: float64 prefix sums along the dimensions of many
ranges), and S [N, Cout, boxes].
On a 4 x 16 x 32 x 64 x 64 input and 32 3 x 3 x 3 filters the sums' relative error against float64 was 8.5e-08, a
float32 convolution's 3.7e-07 (CPU).

Special values (a sample, summed whole or over its channels, is flagged whole when any of its planes would be):
a plane whose sum is not finite (an infinity or a NaN in its sample, its weights or its bias), or
whose elements may overflow (|x| max times the sum of |w| plus |bias| over 1e36 / positions), is flagged;
`ko_conv_planes` computes that plane of y directly (float32, every tap, padding read as 0) into y's own buffer,
and the reduction reads it as written. Infinities and NaNs land where the convolution and the sum put them; in a
plane that overflows, which of +inf, -inf and NaN an element becomes may follow the library's own order of
additions, which differs between libraries and devices in the original too.

Declined, with the reason: a reduction that sums other dimensions (the batch, positions that are no box: chunks
of a plane's flattened positions that cut its rows) or reads y in another way, boxes of fewer than MIN_BOX
positions or whose box sums would outgrow the input BOX_SUMS_GROWTH times (the convolution is then no dearer), y
of another dtype than float32 or bfloat16, and a y read after the reduction.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from kernelopt.ir.rewrite_record import GROUP

from .base import KernelSpec, RewriteTarget
from .candidate_source import TL_DTYPES
from .conv_sums_source import CONV_SUMS_HELPERS
from .planned import LastPlan, PlannedProposer, plan_field
from .summed_reads import (FLAGS, SUMS, NotSummed, dense_layout, group_reduction, prove_summed,
                           reduction_reading_sums)

CONV = "extern_kernels.convolution"
DTYPES = ("float32", "bfloat16")
BLOCK = 256                      # output positions per step of a flagged plane's direct convolution


class ConvSumDeclined(Exception):
    """The group's reduction cannot be proven to read the convolution's output through plane sums (why)."""


class NotAConvReduction(ConvSumDeclined):
    """Not a convolution followed by a reduction launch: nothing this proposer reads (no remark)."""


@dataclass(frozen=True)
class ConvSlots:
    """A convolution's operands as group slots, and its shape: what every plan replacing one starts from."""

    input: int
    weight: int
    bias: int | None
    out: int
    padding: tuple[int, ...]
    groups: int
    stride: tuple[int, ...]
    dilation: tuple[int, ...]


@dataclass(frozen=True)
class ConvSumPlan(ConvSlots):
    transposed: bool
    output_padding: tuple[int, ...]
    summed: str                  # "planes" (each (n, c) plane, or boxes of it), "samples" (all of sample n),
    out_spatial: tuple[int, ...]  # "channels" (at each position of sample n, over the channels)
    dtype: str
    kernel: KernelSpec           # the reduction, as written
    rewritten: str               # its source reading the plane sums
    ranges: tuple[tuple[int, int], ...] = ()    # planes: per spatial dimension, the output ranges each row's box
                                                # spans there, (count, length): [r * length, r * length + length)
    reordering: tuple[str, ...] = ()    # lines putting the sums in the rows' order (SummedReduction.rewritten_by_row)

    @property
    def boxes(self) -> int:
        """The boxes each plane's rows sum (1: the whole plane)."""
        return math.prod(count for count, _ in self.ranges) if self.ranges else 1

    def describe(self) -> str:
        kind = "transposed convolution" if self.transposed else "convolution"
        if self.summed == "channels":
            return (f"the {kind}'s output is only summed over its channels: one {kind} with the weights summed over "
                    f"the output channels of each group")
        what = "plane" if self.summed == "planes" else "sample (channels and positions)"
        if self.boxes > 1:
            box = " x ".join(str(length) for _, length in self.ranges)
            return (f"each {box} box of the {' x '.join(map(str, self.out_spatial))} planes of the {kind}'s output "
                    f"({self.boxes} per plane) is only summed: sums from box sums of the input and the weights")
        return (f"each {' x '.join(map(str, self.out_spatial))} {what} of the {kind}'s output is only summed: "
                f"sums from box sums of the input and the weights")


@dataclass(frozen=True)
class ConvRoles:
    """A library convolution's operands as group slots, and its shape, where its output is a dense float32 or
    bfloat16 tensor that only the group's second launch reads."""

    roles: dict                  # argument name -> group slot
    stride: tuple[int, ...]
    dilation: tuple[int, ...]
    padding: tuple[int, ...]
    output_padding: tuple[int, ...]
    groups: int
    transposed: bool
    out: object                  # the output's ArgSpec


def conv_roles(target: RewriteTarget, reader: str) -> ConvRoles:
    """The roles and shape of the group's leading convolution (`reader`: what reads its output, for reasons);
    ConvSumDeclined where its shape or output is not handled."""
    conv = target.launches[0]
    roles = {arg.name: slot for arg, slot in zip(conv.args, target.group_positions[0])}
    kwargs = conv.config.get("kwargs") or {}
    spatial = len(target.group_args[roles["out"]].sizes) - 2
    transposed = kwargs.get("transposed", False)
    if not isinstance(transposed, bool):
        raise ConvSumDeclined(f"transposed={transposed!r}: True or False is handled")
    shape = {}
    for name, least in (("stride", 1), ("dilation", 1), ("padding", 0)):
        values = kwargs.get(name)
        if not isinstance(values, (list, tuple)) or len(values) != spatial \
                or not all(isinstance(v, int) and v >= least for v in values):
            raise ConvSumDeclined(f"{name} {values}: one integer of at least {least} per spatial dimension is handled")
        shape[name] = tuple(values)
    groups = kwargs.get("groups", 1)
    out = target.group_args[roles["out"]]
    if not 1 <= spatial <= 3 or not isinstance(groups, int) or out.storage_offset != 0 \
            or not dense_layout(tuple(out.sizes), tuple(out.strides)):
        raise ConvSumDeclined(f"a {len(out.sizes)}-D output with strides {list(out.strides)}: a dense 3-D to 5-D one "
                              f"is handled")
    if roles["out"] not in target.scratch_args:
        raise ConvSumDeclined(f"the convolution's output is read after the {reader}, so it must still be formed")
    dtypes = {target.group_args[roles[r]].dtype for r in ("input", "weight", "out")}
    if len(dtypes) != 1 or out.dtype not in DTYPES:
        raise ConvSumDeclined(f"a convolution of {', '.join(sorted(dtypes))}: float32 or bfloat16 is handled")
    output_padding = tuple(kwargs.get("output_padding") or (0,) * spatial)
    return ConvRoles(roles, shape["stride"], shape["dilation"], shape["padding"], output_padding, groups, transposed,
                     out)


def plan_sum_through_conv(target: RewriteTarget) -> ConvSumPlan:
    if target.kind != GROUP or len(target.launches) != 2 or not target.group_args:
        raise NotAConvReduction("not a reduction-epilogue group")
    if target.launches[0].kernel != CONV:
        raise NotAConvReduction(f"the group starts with {target.launches[0].kernel}, not a convolution")
    kernel = group_reduction(target)
    if kernel is None:
        raise NotAConvReduction("the convolution's reader is not a Triton reduction")
    conv = conv_roles(target, "reduction")
    roles, out, spatial = conv.roles, conv.out, len(conv.out.sizes) - 2
    try:
        proof = prove_summed(target, kernel, roles["out"], "convolution's output")
    except NotSummed as why:
        raise ConvSumDeclined(str(why)) from None
    positions = tuple(d for d in range(2, 2 + spatial) if out.sizes[d] > 1)
    channel = (1,) if out.sizes[1] > 1 else ()
    kinds = {positions: "planes", channel + positions: "samples", channel: "channels"}
    summed = kinds.get(proof.layout.dims) if proof.layout.dims and proof.layout.split is None else None
    ranges = plane_boxes(proof.layout, tuple(out.sizes)) if summed in (None, "planes") else None
    if ranges is not None:
        summed = "planes"
        if any(count > 1 for count, _ in ranges):
            _worth_it(ranges, target.group_args[roles["input"]], target.group_args[roles["weight"]])
    elif summed is None:
        raise ConvSumDeclined(f"{kernel.name} sums dimensions {list(proof.layout.dims)} of the convolution's output"
                              f"{_split_text(proof.layout)}: boxes of its (n, c) planes, whole samples or the "
                              f"channels alone are handled")
    source, reordering = proof.rewritten_by_row()
    return ConvSumPlan(roles["input"], roles["weight"], roles.get("bias"), roles["out"], conv.padding, conv.groups,
                       conv.stride, conv.dilation, conv.transposed, conv.output_padding, summed, tuple(out.sizes[2:]),
                       out.dtype, kernel, source, ranges or (), reordering)


def plane_boxes(layout, sizes: tuple[int, ...]) -> tuple[tuple[int, int], ...] | None:
    """Per spatial dimension, the (count, length) of the output ranges each row of the reduction sums, where every
    row sums one box of one (n, c) plane: the dimension whole (1, size), each position alone (size, 1), or equal
    chunks of it (a split dimension); None where the rows sum something else (a channel, a sample)."""
    splits = dict(layout.splits)
    summed = set(layout.dims)
    if layout.view_dim(0) in summed or layout.view_dim(1) in summed:
        return None
    ranges = []
    for d in range(2, len(sizes)):
        at = layout.view_dim(d)
        if d in splits:
            if at in summed or at + 1 not in summed:
                return None
            ranges.append((sizes[d] // splits[d], splits[d]))
        else:
            ranges.append((1, sizes[d]) if at in summed else (sizes[d], 1))
    return tuple(ranges)


MIN_BOX = 8                      # positions a box sums, at least: below, the input's box sums cost the convolution's
BOX_SUMS_GROWTH = 4              # the box sums' elements over the input's, at most


def _worth_it(ranges: tuple[tuple[int, int], ...], x, w) -> None:
    """ConvSumDeclined where the boxes are too small or too many for their sums to be cheaper than the convolution:
    each box at least MIN_BOX positions, and the input's box sums (per input channel, box and tap) at most
    BOX_SUMS_GROWTH times the input (`x`, `w`: the input's and the weights' ArgSpecs)."""
    box = math.prod(length for _, length in ranges)
    if box < MIN_BOX:
        raise ConvSumDeclined(f"each row sums {box} output position(s) of a plane: at least {MIN_BOX} are handled "
                              f"(fewer, and the box sums cost the convolution's own work)")
    boxes = math.prod(count for count, _ in ranges)
    if x.sizes[0] * x.sizes[1] * boxes * math.prod(w.sizes[2:]) > BOX_SUMS_GROWTH * math.prod(x.sizes):
        raise ConvSumDeclined(f"{boxes} boxes per plane: their box sums would exceed {BOX_SUMS_GROWTH} times the "
                              f"input")


def _split_text(layout) -> str:
    if not layout.splits:
        return ""
    return " in a view with " + " and ".join(f"dimension {dim} split in chunks of {length}"
                                            for dim, length in layout.splits)


# ---------------------------------------------------------------------------------------------------
# The candidate


def _ranges_arg(plan: ConvSumPlan) -> str:
    """ko_summed's `ranges` argument where the rows sum boxes of the planes (none where they sum whole planes)."""
    return f", {[list(r) for r in plan.ranges]}" if plan.boxes > 1 else ""


def _prelude(plan: ConvSumPlan, block: int) -> tuple[str, ...]:
    bias = f"args[{plan.bias}]" if plan.bias is not None else "None"
    return (f"ko_x, ko_w, ko_b, ko_y = args[{plan.input}], args[{plan.weight}], {bias}, args[{plan.out}]",
            f"{SUMS}, {FLAGS}, ko_planes = ko_summed(ko_x, ko_w, ko_b, {list(plan.stride)}, {list(plan.padding)}, "
            f"{list(plan.dilation)}, {plan.transposed}, {list(plan.output_padding)}, {plan.groups}, "
            f"{list(plan.out_spatial)}, {plan.summed!r}{_ranges_arg(plan)})", *plan.reordering) \
        + planes_launch(plan, block)


def planes_launch(plan, block: int, affine: bool = False) -> tuple[str, ...]:
    """The lines that form the flagged planes of y (`ko_planes`) directly: ko_conv_planes over every (n, c) plane,
    for a plan with the convolution's slots and shape (input, weight, bias, out, padding, stride, dilation, groups,
    transposed, dtype), once ko_x, ko_w, ko_b and ko_y are bound. With `affine`, each plane is mapped through
    ko_scale and ko_shift (per channel) as it is stored: ko_y is a bias kernel's output."""
    def front(values, fill):    # per spatial dimension, padded in front to three (as ko_spatial3 pads sizes)
        return ", ".join(map(str, [fill] * (3 - len(values)) + list(values)))
    cin_g = f"ko_w.shape[0] // {plan.groups}" if plan.transposed else "ko_w.shape[1]"
    return ("(ko_d, ko_h, ko_w_), (ko_sxd, ko_sxh, ko_sxw) = ko_spatial3(ko_x)",
            "(ko_kd, ko_kh, ko_kw), (ko_swd, ko_swh, ko_sww) = ko_spatial3(ko_w)",
            "(ko_od, ko_oh, ko_ow), (ko_syd, ko_syh, ko_syw) = ko_spatial3(ko_y)",
            f"ko_conv_planes[(ko_y.shape[0] * ko_y.shape[1],)](ko_x, ko_w, ko_x if ko_b is None else ko_b, ko_y, "
            f"ko_planes, ko_y.shape[1], {cin_g}, ko_y.shape[1] // {plan.groups}, ko_d, ko_h, ko_w_, ko_kd, ko_kh, "
            f"ko_kw, ko_od, ko_oh, ko_ow, {front(plan.padding, 0)}, {front(plan.stride, 1)}, "
            f"{front(plan.dilation, 1)}, ko_x.stride(0), ko_x.stride(1), "
            f"ko_sxd, ko_sxh, ko_sxw, ko_w.stride(0), ko_w.stride(1), ko_swd, ko_swh, ko_sww, ko_y.stride(0), "
            f"ko_y.stride(1), ko_syd, ko_syh, ko_syw, {'ko_scale, ko_shift' if affine else 'ko_x, ko_x'}, "
            f"TRANSPOSED={plan.transposed}, HAS_BIAS={plan.bias is not None}, HAS_AFFINE={affine}, "
            f"Y_DTYPE={TL_DTYPES[plan.dtype]}, BLOCK={block})")


def candidate_source(target: RewriteTarget, plan: ConvSumPlan, block: int) -> str:
    return reduction_reading_sums(target, plan.kernel, plan.rewritten, f"sum-through-conv: {plan.describe()}",
                                  _prelude(plan, block), CONV_SUMS_HELPERS)


class ConvSumsProposer(PlannedProposer):
    """A proposer replacing a convolution by sums of its input: quiet where the group is no convolution and its one
    reader."""

    refused = ConvSumDeclined
    silent = NotAConvReduction


@dataclass
class SumThroughConvProposer(ConvSumsProposer):
    name: str = "sum-through-conv"
    summary: str = ("Replace a convolution or a transposed convolution (any stride, padding, dilation and groups) "
                    "whose output a reduction only sums over its spatial positions (proven "
                    "from the reduction's code) by box sums of the input contracted with the weights")

    _plan: LastPlan = plan_field(plan_sum_through_conv, ConvSumDeclined)
    build = staticmethod(candidate_source)

    def options(self, plan: ConvSumPlan) -> list[tuple[str, int]]:
        what = f"{plan.boxes} boxes per plane" if plan.boxes > 1 else plan.summed
        return [(f"{self.name} {len(plan.out_spatial)}-D {what}{' (transposed)' if plan.transposed else ''}", BLOCK)]


__all__ = ["ConvRoles", "ConvSlots", "ConvSumDeclined", "ConvSumPlan", "ConvSumsProposer", "NotAConvReduction",
           "SumThroughConvProposer",
           "candidate_source", "conv_roles", "plan_sum_through_conv", "plane_boxes", "planes_launch"]
