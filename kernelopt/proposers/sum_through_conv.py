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
  (`summed_reads.summed_dims`, channels-last included): a spatial plane, a sample (channels and positions), or the
  channels at one position.

The candidate computes T (along each spatial dimension, the whole sum less a prefix and a suffix: the input
is read once, summed in float32 along the first dimension, then in float64), the plane sums S [N, Cout] (an
einsum per group, in float64, rounded once to float32), and runs the reduction's own code reading S in each
plane's first element and 0 elsewhere (`summed_reads.read_sums`): the same sums up to the order of the additions.
On a 4 x 16 x 32 x 64 x 64 input and 32 3 x 3 x 3 filters the sums' relative error against float64 was 8.5e-08, a
float32 convolution's 3.7e-07 (CPU).

Special values (a sample, summed whole or over its channels, is flagged whole when any of its planes would be):
a plane whose sum is not finite (an infinity or a NaN in its sample, its weights or its bias), or
whose elements may overflow (|x| max times the sum of |w| plus |bias| over 1e36 / positions), is flagged;
`ko_conv_planes` computes that plane of y directly (float32, every tap, padding read as 0) into y's own buffer,
and the reduction reads it as written. Infinities and NaNs land where the convolution and the sum put them; in a
plane that overflows, which of +inf, -inf and NaN an element becomes may follow the library's own order of
additions, which differs between libraries and devices in the original too.

Declined, with the reason: a reduction that sums other dimensions (the batch, some of the positions) or reads y
in another way, y of another dtype than float32 or bfloat16, and a y read after the reduction.
"""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.ir.rewrite_record import GROUP

from .base import KernelSpec, RewriteTarget
from .candidate_source import TL_DTYPES
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
class ConvSumPlan:
    input: int                   # group slots
    weight: int
    bias: int | None
    out: int
    padding: tuple[int, ...]
    groups: int
    stride: tuple[int, ...]
    dilation: tuple[int, ...]
    transposed: bool
    output_padding: tuple[int, ...]
    summed: str                  # "planes" (each (n, c) plane), "samples" (all of sample n), "channels" (at each
    out_spatial: tuple[int, ...]  # position of sample n, over the channels)
    dtype: str
    kernel: KernelSpec           # the reduction, as written
    rewritten: str               # its source reading the plane sums

    def describe(self) -> str:
        kind = "transposed convolution" if self.transposed else "convolution"
        if self.summed == "channels":
            return (f"the {kind}'s output is only summed over its channels: one {kind} with the weights summed over "
                    f"the output channels of each group")
        what = "plane" if self.summed == "planes" else "sample (channels and positions)"
        return (f"each {' x '.join(map(str, self.out_spatial))} {what} of the {kind}'s output is only summed: "
                f"sums from box sums of the input and the weights")


def plan_sum_through_conv(target: RewriteTarget) -> ConvSumPlan:
    if target.kind != GROUP or len(target.launches) != 2 or not target.group_args:
        raise NotAConvReduction("not a reduction-epilogue group")
    conv = target.launches[0]
    if conv.kernel != CONV:
        raise NotAConvReduction(f"the group starts with {conv.kernel}, not a convolution")
    kernel = group_reduction(target)
    if kernel is None:
        raise NotAConvReduction("the convolution's reader is not a Triton reduction")
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
    padding = shape["padding"]
    groups = kwargs.get("groups", 1)
    out = target.group_args[roles["out"]]
    if not 1 <= spatial <= 3 or not isinstance(groups, int) or out.storage_offset != 0 \
            or not dense_layout(tuple(out.sizes), tuple(out.strides)):
        raise ConvSumDeclined(f"a {len(out.sizes)}-D output with strides {list(out.strides)}: a dense 3-D to 5-D one "
                              f"is handled")
    if roles["out"] not in target.scratch_args:
        raise ConvSumDeclined("the convolution's output is read after the reduction, so it must still be formed")
    dtypes = {target.group_args[roles[r]].dtype for r in ("input", "weight", "out")}
    if len(dtypes) != 1 or out.dtype not in DTYPES:
        raise ConvSumDeclined(f"a convolution of {', '.join(sorted(dtypes))}: float32 or bfloat16 is handled")
    try:
        proof = prove_summed(target, kernel, roles["out"], "convolution's output")
    except NotSummed as why:
        raise ConvSumDeclined(str(why)) from None
    if proof.layout.split is not None:
        raise ConvSumDeclined(f"{kernel.name} sums chunks of the convolution's output (the first half of a split "
                              f"reduction): whole planes, samples or channels are handled")
    positions = tuple(d for d in range(2, 2 + spatial) if out.sizes[d] > 1)
    channel = (1,) if out.sizes[1] > 1 else ()
    kinds = {positions: "planes", channel + positions: "samples", channel: "channels"}
    summed = kinds.get(proof.layout.dims) if proof.layout.dims else None
    if summed is None:
        raise ConvSumDeclined(f"{kernel.name} sums dimensions {list(proof.layout.dims)} of the convolution's output, "
                              f"not the spatial ones {list(positions)}, with or without the channels {list(channel)}, "
                              f"nor the channels alone")
    output_padding = tuple(kwargs.get("output_padding") or (0,) * spatial)
    rewritten = proof.rewritten()
    return ConvSumPlan(roles["input"], roles["weight"], roles.get("bias"), roles["out"], padding, groups,
                       shape["stride"], shape["dilation"], transposed, output_padding, summed, tuple(out.sizes[2:]),
                       out.dtype, kernel, rewritten)


# ---------------------------------------------------------------------------------------------------
# The candidate

_HELPERS = '''
import triton
import triton.language as tl


def ko_box_sums(t, dim, low, high):
    # per tap k, the sum of t along `dim` over [low[k], high[k]) in float64: the whole sum less a prefix and a
    # suffix (only positions before the last box's start and after the first box's end are read twice). The
    # whole sum reads t once, accumulating in float32 (no copy of a float32 t: a sum with another dtype than
    # t's copies t into it first), then in float64 along the dimensions after
    size = t.shape[dim]
    head, tail = max(low), min(high)
    wide = torch.float32 if t.element_size() < 4 else None      # 16-bit inputs summed in float32
    total = t.sum(dim, keepdim=True, dtype=wide).to(torch.float64)
    zero = torch.zeros_like(total)
    prefix = torch.cat([zero, t.narrow(dim, 0, head).to(torch.float64).cumsum(dim)], dim)
    suffix = torch.cat([t.narrow(dim, tail, size - tail).to(torch.float64).flip(dim).cumsum(dim).flip(dim), zero], dim)
    # the taps' entries picked by slicing: an index tensor made from a list would be a host-to-device copy per call
    before = torch.cat([prefix.narrow(dim, k, 1) for k in low], dim)
    after = torch.cat([suffix.narrow(dim, k - tail, 1) for k in high], dim)
    return total - before - after


def ko_tap_boxes(size, out, taps, stride, dilation, pad, transposed):
    # per tap k, the input positions it meets on the way to an output position in [0, out): start + step * j
    # for j in [low, high) (a box of the view t[start::step], clamped to it)
    boxes = []
    for k in range(taps):
        if transposed:          # output o = i * stride + k * dilation - pad
            c = pad - k * dilation
            start, step, low, high = 0, 1, -(-c // stride), -(-(out + c) // stride)
        else:                   # input i = o * stride + k * dilation - pad
            c = k * dilation - pad
            start, step = c % stride, stride
            shift = (c - start) // stride
            low, high = max(0, -(c // stride)) + shift, min(out, -(-(size - c) // stride)) + shift
        length = -(-(size - start) // step) if size > start else 0
        low = min(max(low, 0), length)
        boxes.append((start, step, low, min(max(high, low), length)))
    return boxes


def ko_tap_sums(t, dim, boxes):
    # T along `dim`: per tap, the sum over its box (ko_tap_boxes), one box-sum pass per strided view
    views = list(dict.fromkeys((start, step) for start, step, _, _ in boxes))
    parts, order = [], []
    for start, step in views:
        members = [k for k, box in enumerate(boxes) if box[:2] == (start, step)]
        view = t[(slice(None),) * dim + (slice(start, None, step),)]
        if view.shape[dim] == 0:
            shape = list(t.shape)
            shape[dim] = len(members)
            parts.append(torch.zeros(shape, dtype=torch.float64, device=t.device))
        else:
            parts.append(ko_box_sums(view, dim, [boxes[k][2] for k in members], [boxes[k][3] for k in members]))
        order += members
    sums = torch.cat(parts, dim) if len(parts) > 1 else parts[0]
    if order != sorted(order):      # back in tap order, by slicing (no index tensor from the host)
        sums = torch.cat([sums.narrow(dim, order.index(k), 1) for k in range(len(order))], dim)
    return sums


def ko_element_bound(x, w, b, transposed, groups):
    # [N, Cout]: a bound on |conv(x, w, b)[n, co, o]| at every position o, |x[n]|'s largest times the sum of
    # co's |weights| plus |bias[co]| (NaN where x[n] has one)
    dims = tuple(range(1, x.dim()))
    largest = torch.maximum(x.amax(dim=dims), -x.amin(dim=dims)).float()     # |x|'s largest, NaN if any, no copy
    if transposed:              # w: [Cin, Cout / groups, taps]: co's weights are its group's input channels'
        cin = w.shape[0]
        weight_sums = w.float().abs().reshape(groups, cin // groups, w.shape[1], -1).sum((1, 3)).flatten()
    else:                       # w: [Cout, Cin / groups, taps]
        weight_sums = w.float().abs().flatten(1).sum(1)
    bound = largest[:, None] * weight_sums[None, :]
    return bound if b is None else bound + b.float().abs()[None, :]


def ko_conv_sums(x, w, b, stride, padding, dilation, transposed, groups, out_spatial):
    # S[n, co] = sum over the output positions of conv(x, w, b) in float64: the sums of x over the positions each
    # tap meets, contracted with w per group; and the planes to form directly
    t, positions = x, 1
    for d, (taps, extent) in enumerate(zip(w.shape[2:], out_spatial)):
        boxes = ko_tap_boxes(x.shape[2 + d], extent, taps, stride[d], dilation[d], padding[d], transposed)
        t, positions = ko_tap_sums(t, 2 + d, boxes), positions * extent
    n, cin = x.shape[0], x.shape[1]
    t = t.reshape(n, groups, cin // groups, -1)
    w64 = w.to(torch.float64)
    if transposed:              # w: [Cin, Cout / groups, taps]
        cout = w.shape[1] * groups
        s = torch.einsum("ngck,gcjk->ngj", t, w64.reshape(groups, cin // groups, cout // groups, -1))
    else:                       # w: [Cout, Cin / groups, taps]
        cout = w.shape[0]
        s = torch.einsum("ngck,gjck->ngj", t, w64.reshape(groups, cout // groups, cin // groups, -1))
    s = s.reshape(n, cout)
    if b is not None:
        s = s + b.to(torch.float64)[None, :] * positions
    good = (s.abs() < float("inf")) & (ko_element_bound(x, w, b, transposed, groups) * positions < 1e36)
    return s, good


def ko_channel_sums(x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    # C[n, o] = sum over the output channels of conv(x, w, b) at each output position: one convolution with the
    # weights summed (in float64) over each group's output channels, then over the groups; and each sample's bound
    wide = x if x.element_size() >= 4 else x.float()        # 16-bit inputs convolved in float32
    n_dims = x.dim() - 2
    if transposed:              # w: [Cin, Cout / groups, taps] -> [Cin, 1, taps]
        merged = w.to(torch.float64).sum(1, keepdim=True).to(wide.dtype)
        conv = (torch.nn.functional.conv_transpose1d, torch.nn.functional.conv_transpose2d,
                torch.nn.functional.conv_transpose3d)[n_dims - 1]
        c = conv(wide, merged, None, stride, padding, output_padding, groups, dilation)
    else:                       # w: [Cout, Cin / groups, taps] -> [groups, Cin / groups, taps]
        cout = w.shape[0]
        merged = w.to(torch.float64).reshape(groups, cout // groups, *w.shape[1:]).sum(1).to(wide.dtype)
        conv = (torch.nn.functional.conv1d, torch.nn.functional.conv2d, torch.nn.functional.conv3d)[n_dims - 1]
        c = conv(wide, merged, None, stride, padding, dilation, groups)
    c = c.to(torch.float64).sum(1) if groups > 1 else c[:, 0].to(torch.float64)
    if b is not None:
        c = c + b.to(torch.float64).sum()
    # a sample whose channel sums are not finite, or any of whose elements (or their sum over the channels) may
    # overflow, is formed directly
    bound = ko_element_bound(x, w, b, transposed, groups)
    good = (c.abs() < float("inf")).flatten(1).all(1) & (bound.sum(1) < 1e36)
    return c, good


def ko_summed(x, w, b, stride, padding, dilation, transposed, output_padding, groups, out_spatial, summed):
    # the sums the rewritten reduction reads and its flags (dense over y's kept dimensions), and the flags of the
    # (n, c) planes ko_conv_planes forms directly
    n, cout = x.shape[0], (w.shape[1] * groups if transposed else w.shape[0])
    if summed == "channels":
        c, good = ko_channel_sums(x, w, b, stride, padding, dilation, transposed, output_padding, groups)
        flags = (~good).to(torch.int8)
        return (c.to(torch.float32).contiguous(), flags[:, None].expand(c.shape[0], c[0].numel()).contiguous(),
                flags[:, None].expand(n, cout).contiguous())
    s, good = ko_conv_sums(x, w, b, stride, padding, dilation, transposed, groups, out_spatial)
    if summed == "samples":     # each sample's planes summed; a sample with a flagged plane formed whole
        good = good.all(1) & (s.sum(1).abs() < float("inf"))
        flags = (~good).to(torch.int8)
        return s.sum(1).to(torch.float32).contiguous(), flags.contiguous(), flags[:, None].expand(n, cout).contiguous()
    flags = (~good).to(torch.int8).contiguous()
    return s.to(torch.float32).contiguous(), flags, flags


def ko_spatial3(t):
    # sizes and strides of a tensor's spatial dimensions, padded in front to three
    missing = 3 - (t.dim() - 2)
    return [1] * missing + list(t.shape[2:]), [0] * missing + list(t.stride()[2:])


@triton.jit
def ko_conv_planes(x, w, b, y, flags, COUT, CIN_G, COUT_G, D, H, W, KD, KH, KW, OD, OH, OW, PD, PH, PW,
                   SD, SH, SW, DD, DH, DW, sxn, sxc, sxd, sxh, sxw, sw0, sw1, swd, swh, sww, syn, syc, syd, syh, syw,
                   TRANSPOSED: tl.constexpr, HAS_BIAS: tl.constexpr, Y_DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    # a flagged (n, co) plane of y, computed directly: every tap of every input channel of its group
    plane = tl.program_id(0)
    if tl.load(flags + plane) != 0:
        n = plane // COUT
        co = plane % COUT
        g = co // COUT_G
        for o0 in range(0, OD * OH * OW, BLOCK):
            o = o0 + tl.arange(0, BLOCK)
            om = o < OD * OH * OW
            od = o // (OH * OW)
            oh = (o // OW) % OH
            ow = o % OW
            acc = tl.zeros([BLOCK], dtype=tl.float32)
            for ci in range(0, CIN_G):
                if TRANSPOSED:          # w: [Cin, Cout / groups, taps]
                    w_channel = w + (g * CIN_G + ci) * sw0 + (co % COUT_G) * sw1
                else:                   # w: [Cout, Cin / groups, taps]
                    w_channel = w + co * sw0 + ci * sw1
                for kd in range(0, KD):
                    for kh in range(0, KH):
                        for kw in range(0, KW):
                            if TRANSPOSED:      # o = i * stride + k * dilation - padding: i where it divides
                                nd = od + PD - kd * DD
                                nh = oh + PH - kh * DH
                                nw = ow + PW - kw * DW
                                ok = (nd >= 0) & (nh >= 0) & (nw >= 0)
                                nd = tl.where(ok, nd, 0)
                                nh = tl.where(ok, nh, 0)
                                nw = tl.where(ok, nw, 0)
                                ok = ok & (nd % SD == 0) & (nh % SH == 0) & (nw % SW == 0)
                                i_d = nd // SD
                                i_h = nh // SH
                                i_w = nw // SW
                            else:
                                i_d = od * SD + kd * DD - PD
                                i_h = oh * SH + kh * DH - PH
                                i_w = ow * SW + kw * DW - PW
                                ok = (i_d >= 0) & (i_h >= 0) & (i_w >= 0)
                            inside = om & ok & (i_d < D) & (i_h < H) & (i_w < W)
                            xv = tl.load(x + n * sxn + (g * CIN_G + ci) * sxc + i_d * sxd + i_h * sxh + i_w * sxw,
                                         inside, other=0.0).to(tl.float32)
                            wv = tl.load(w_channel + kd * swd + kh * swh + kw * sww).to(tl.float32)
                            if TRANSPOSED:      # a pair that lands nowhere adds nothing (0 * inf would be NaN)
                                acc += tl.where(inside, xv * wv, 0.0)
                            else:               # padding reads 0 and multiplies, as a convolution's im2col does
                                acc += xv * wv
            if HAS_BIAS:
                acc += tl.load(b + co).to(tl.float32)
            tl.store(y + n * syn + co * syc + od * syd + oh * syh + ow * syw, acc.to(Y_DTYPE), om)
'''


def _prelude(plan: ConvSumPlan, block: int) -> tuple[str, ...]:
    bias = f"args[{plan.bias}]" if plan.bias is not None else "None"

    def front(values, fill):    # per spatial dimension, padded in front to three (as ko_spatial3 pads sizes)
        return ", ".join(map(str, [fill] * (3 - len(values)) + list(values)))
    cin_g = f"ko_w.shape[0] // {plan.groups}" if plan.transposed else "ko_w.shape[1]"
    return (f"ko_x, ko_w, ko_b, ko_y = args[{plan.input}], args[{plan.weight}], {bias}, args[{plan.out}]",
            f"{SUMS}, {FLAGS}, ko_planes = ko_summed(ko_x, ko_w, ko_b, {list(plan.stride)}, {list(plan.padding)}, "
            f"{list(plan.dilation)}, {plan.transposed}, {list(plan.output_padding)}, {plan.groups}, "
            f"{list(plan.out_spatial)}, {plan.summed!r})",
            "(ko_d, ko_h, ko_w_), (ko_sxd, ko_sxh, ko_sxw) = ko_spatial3(ko_x)",
            "(ko_kd, ko_kh, ko_kw), (ko_swd, ko_swh, ko_sww) = ko_spatial3(ko_w)",
            "(ko_od, ko_oh, ko_ow), (ko_syd, ko_syh, ko_syw) = ko_spatial3(ko_y)",
            f"ko_conv_planes[(ko_y.shape[0] * ko_y.shape[1],)](ko_x, ko_w, ko_x if ko_b is None else ko_b, ko_y, "
            f"ko_planes, ko_y.shape[1], {cin_g}, ko_y.shape[1] // {plan.groups}, ko_d, ko_h, ko_w_, ko_kd, ko_kh, "
            f"ko_kw, ko_od, ko_oh, ko_ow, {front(plan.padding, 0)}, {front(plan.stride, 1)}, "
            f"{front(plan.dilation, 1)}, ko_x.stride(0), ko_x.stride(1), "
            f"ko_sxd, ko_sxh, ko_sxw, ko_w.stride(0), ko_w.stride(1), ko_swd, ko_swh, ko_sww, ko_y.stride(0), "
            f"ko_y.stride(1), ko_syd, ko_syh, ko_syw, TRANSPOSED={plan.transposed}, HAS_BIAS={plan.bias is not None}, "
            f"Y_DTYPE={TL_DTYPES[plan.dtype]}, BLOCK={block})")


def candidate_source(target: RewriteTarget, plan: ConvSumPlan, block: int) -> str:
    return reduction_reading_sums(target, plan.kernel, plan.rewritten, f"sum-through-conv: {plan.describe()}",
                                  _prelude(plan, block), _HELPERS)


@dataclass
class SumThroughConvProposer(PlannedProposer):
    name: str = "sum-through-conv"
    summary: str = ("Replace a convolution or a transposed convolution (any stride, padding, dilation and groups) "
                    "whose output a reduction only sums over its spatial positions (proven "
                    "from the reduction's code) by box sums of the input contracted with the weights")

    _plan: LastPlan = plan_field(plan_sum_through_conv, ConvSumDeclined)
    refused = ConvSumDeclined
    build = staticmethod(candidate_source)
    silent = NotAConvReduction

    def options(self, plan: ConvSumPlan) -> list[tuple[str, int]]:
        return [(f"{self.name} {len(plan.out_spatial)}-D {plan.summed}{' (transposed)' if plan.transposed else ''}",
                 BLOCK)]


__all__ = ["ConvSumDeclined", "ConvSumPlan", "SumThroughConvProposer", "candidate_source", "plan_sum_through_conv"]
