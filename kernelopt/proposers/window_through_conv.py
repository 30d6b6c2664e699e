"""window-through-conv: a convolution whose output is only averaged in windows is a coarser convolution.

`sigmoid(avg_pool2d(conv2d(x, w), 2)).sum()`, `avg_pool3d(conv3d(x, w), 2) * 2` (KernelBench's Conv..._AvgPool_...
chains): Inductor calls the library convolution and a Triton kernel that loads each window's elements one by one,
adds them and divides. A window's sum needs no convolution at the finer grid. Along each spatial dimension, with
the convolution's stride s and dilation d, window q of size k sums the outputs o = q * k + j (j < k), each
sum_t w[t] x[o * s + t * d - p]; so

    sum_j y[q * k + j] = sum_u w'[u] x[q * (k * s) + u - p],   w'[u] = sum over (j, t) with j * s + t * d = u of w[t],

one convolution with stride k * s, the same padding, no dilation, (k - 1) * s + (K - 1) * d + 1 taps, and the
bias times the window's size. Its output has exactly the pooled positions (floor(Y / k) along each dimension: a
size the window does not divide leaves its last elements in no window, as the pool drops them). Per window it
does prod((k - 1) * s + (K - 1) * d + 1) multiply-adds per input channel against prod(k * K) for the window's
outputs: 16 against 36 for a 3 x 3 convolution pooled 2 x 2, 64 against 216 in 3-D; and the fine output is
never written nor read.

A transposed convolution (o = i * s - p + t * d) pooled in windows k that are multiples of its stride is one
too: window q takes input i = q * (k / s) + j through the taps t with j * s - p + t * d in [0, k), so its sum is
a convolution at stride k / s whose weight at offset j is the sum of those taps (`transposed_taps`), on the input
cropped or padded so that window q's inputs start at q * (k / s). For stride 2, 3 taps, padding 1 and windows of
2: 2 taps per dimension at stride 1 (8 in 3-D, against the transposed convolution's 27 per input element).

The target is a `detect-fusion` epilogue group of `extern_kernels.convolution` and the one Triton kernel reading
its output (pointwise, or a reduction whose lanes each take a window), which nothing reads afterwards. On a GPU the
group usually has a third launch in between: Inductor calls the convolution without its bias and adds it in a
pointwise kernel of its own (in place, or scaled into a padded buffer), so that the pool does not add it once per
window read. `channel_affine` proves that kernel is m = a[c] * y + b[c]; the windows of m sum to a[c] times the
windows of y plus the window's size times b[c], with a and b evaluated per call from the kernel's own loads (C
values), and the flagged planes are formed through a and b. What is
proven, from that kernel's code and never from names:

- its outputs depend on the convolution's output y only through one equal-weight sum of its loads of y per lane,
  a * (y0 + ... + y{k-1}) + c (`window_reads`: the average, then any epilogue);
- each lane's loads read one whole box of y, each element once, within one (n, c) plane: along each spatial
  dimension one chunk of equal length (the window), the whole dimension, or one position
  (`summed_reads.window_layout`, every dimension's chunks at once, in y's own layout, channels-last included).

The candidate forms w' in float64 and the window sums Z with the library convolution at the coarse stride, in
two variants: float32 (w' rounded once; a bfloat16 input convolved in float32), whose fewer, larger products
gave 1.3 to 2.5 times the original's largest error against float64 on the CPU fixtures, and float64 (every
product exact; the input copied at twice its size); the gate keeps what it proves. The kernel runs its own code
with each load of y reading the window's sum in the window's first element and 0 in the others
(`summed_reads.read_sums`): the same sums up to the order of the additions, with the kernel's arithmetic after
them (the division, the epilogue) as is.

Special values: a plane with a window sum that is not finite, or whose elements may overflow (|x|'s largest times
the sum of |w| plus |bias|, times the window's size, over 1e36), is flagged; `ko_conv_planes` forms that plane of
y directly (float32, every tap) and the kernel reads it as written, so infinities and NaNs land where the
original puts them.

Declined, with the reason: a transposed convolution whose windows are not multiples of its stride, a kernel
that reads y in any other way (one element alone, overlapping or weighted windows, a window across channels or
samples), windows whose coarse convolution does no less work than the fine one (a 1 x 1 convolution pooled), y of
another dtype than float32 or bfloat16, y read after the kernel, and more than 2^28 lanes.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from kernelopt.ir.rewrite_record import GROUP

from .base import KernelSpec, RewriteTarget
from .channel_affine import ChannelAffine, NotChannelAffine, read_channel_affine
from .conv_sums_source import CONV_SUMS_HELPERS
from .planned import LastPlan, plan_field
from .sum_through_conv import (BLOCK, CONV, ConvSlots, ConvSumDeclined, ConvSumsProposer, NotAConvReduction,
                               conv_roles, plane_boxes, planes_launch)
from .summed_reads import FLAGS, SUMS, NotSummed, prove_summed, reduction_reading_sums, windowed_reader


@dataclass(frozen=True)
class ConvWindowPlan(ConvSlots):
    windows: tuple[int, ...]     # per spatial dimension, the window's length (1: each position its own)
    out_spatial: tuple[int, ...]
    taps: tuple[int, ...]
    dtype: str
    kernel: KernelSpec           # the reader, as written
    rewritten: str               # its source reading the window sums
    transposed: bool = False
    # A pointwise kernel between the convolution and the reader, m = a[c] * y + b[c] (a bias kernel: `out` is then
    # m's slot, which the flagged planes are formed into), and the group slots of the parameters it loads a and b
    # from
    affine: ChannelAffine | None = None
    affine_slots: tuple[int, ...] = ()

    @property
    def coarse_taps(self) -> tuple[int, ...]:
        """The coarse convolution's taps along each dimension: (k - 1) * s + (K - 1) * d + 1; for a transposed
        convolution, the input positions one window's outputs meet (transposed_taps)."""
        if self.transposed:
            return tuple(high - low for low, high in (transposed_taps(t, s, d, p, k) for t, s, d, p, k in
                                                      zip(self.taps, self.stride, self.dilation, self.padding,
                                                          self.windows)))
        return tuple((k - 1) * s + (t - 1) * d + 1
                     for k, s, t, d in zip(self.windows, self.stride, self.taps, self.dilation))

    @property
    def coarse_stride(self) -> tuple[int, ...]:
        """k * s, or k / s for a transposed convolution (the windows' outputs start k / s input positions apart)."""
        return tuple(k // s if self.transposed else k * s for k, s in zip(self.windows, self.stride))

    def describe(self) -> str:
        window = " x ".join(map(str, self.windows))
        coarse = " x ".join(map(str, self.coarse_taps))
        kind = "transposed convolution" if self.transposed else "convolution"
        return (f"the {kind}'s output is only summed in {window} windows: one convolution with {coarse} taps at "
                f"stride {' x '.join(map(str, self.coarse_stride))} forms the window sums instead")


def plan_window_through_conv(target: RewriteTarget) -> ConvWindowPlan:
    if target.kind != GROUP or len(target.launches) not in (2, 3) or not target.group_args \
            or target.launches[0].kernel != CONV:
        raise NotAConvReduction("not a convolution and one Triton kernel (or two: a bias kernel, then the reader)")
    pair, affine, affine_slots, out_slot = _through_bias_kernel(target)
    kernel = windowed_reader(pair, out_slot)
    if kernel is None:
        raise NotAConvReduction("the convolution's reader loads its output once per lane")
    conv = conv_roles(pair, "kernel")
    if out_slot not in target.scratch_args:
        raise ConvSumDeclined("the bias kernel's output is read after the window kernel, so it must still be formed")
    try:
        proof = prove_summed(pair, kernel, out_slot, "convolution's output", windows=True)
    except NotSummed as why:
        raise ConvSumDeclined(str(why)) from None
    sizes = tuple(conv.out.sizes)
    boxes = plane_boxes(proof.layout, sizes)
    windows = None if boxes is None else tuple(length for _, length in boxes)
    if windows is None:
        raise ConvSumDeclined(f"{kernel.name}'s windows are not boxes of one (n, c) plane of the convolution's "
                              f"output")
    if conv.transposed and any(k % s for k, s in zip(windows, conv.stride)):
        raise ConvSumDeclined(f"{' x '.join(map(str, windows))} windows of a transposed convolution with stride "
                              f"{' x '.join(map(str, conv.stride))}: windows that are multiples of the stride are "
                              f"handled")
    weight = target.group_args[conv.roles["weight"]]
    plan = ConvWindowPlan(conv.roles["input"], conv.roles["weight"], conv.roles.get("bias"), out_slot,
                          conv.padding, conv.groups, conv.stride, conv.dilation, windows, sizes[2:],
                          tuple(weight.sizes[2:]), conv.out.dtype, kernel, proof.rewritten(), conv.transposed,
                          affine, affine_slots)
    # multiply-adds per input channel and output channel: the fine convolution's for the windows' outputs, the
    # coarse one's for their sums
    # (a transposed convolution's taps meet each input position, a convolution's each output position)
    spread = target.group_args[conv.roles["input"]].sizes if conv.transposed else sizes
    fine = math.prod(spread[2:]) * math.prod(plan.taps)
    coarse = math.prod(o // k for o, k in zip(sizes[2:], windows)) * math.prod(plan.coarse_taps)
    if coarse >= fine:
        raise ConvSumDeclined(f"{' x '.join(map(str, windows))} windows of a {'transposed ' * conv.transposed}"
                              f"convolution with {' x '.join(map(str, plan.taps))} taps: the coarse convolution "
                              f"({' x '.join(map(str, plan.coarse_taps))} taps) does no less work than the fine one "
                              f"({coarse} multiply-adds per channel pair against {fine})")
    return plan


def _through_bias_kernel(target: RewriteTarget):
    """(the group as a convolution and its window reader, the bias kernel's proof or None, the slots of the
    parameters that proof loads, the slot of the tensor the reader sums): a group of three has a pointwise kernel
    between them, proven to be m = a[c] * y + b[c] (channel_affine); its launch is dropped from the pair, whose
    reader then sums m."""
    conv_out = next(slot for arg, slot in zip(target.launches[0].args, target.group_positions[0]) if arg.name == "out")
    if len(target.launches) == 2:
        return target, None, (), conv_out
    middle, where = target.launches[1], target.group_positions[1]
    kernel = next((k for k in target.kernels if k.name == middle.kernel and k.kind == "pointwise"), None)
    if kernel is None:
        raise NotAConvReduction("the kernel between the convolution and its reader is not pointwise")
    storage = target.storage_slots or tuple(range(len(target.group_args)))
    reads = [a.name for a, slot in zip(middle.args, where) if storage[slot] == storage[conv_out]]
    written = [(a.name, slot) for a, slot in zip(middle.args, where) if a.written]
    if len(reads) != 1 or len(written) != 1:
        raise ConvSumDeclined(f"{kernel.name} takes the convolution's output as {len(reads)} parameters and writes "
                              f"{len(written)}: one of each is handled")
    (out_param, out_slot), y = written[0], target.group_args[conv_out]
    m = target.group_args[out_slot]
    try:
        affine = read_channel_affine(kernel.source, kernel.name, reads[0], (y.sizes, y.strides, y.storage_offset),
                                     out_param, (m.sizes, m.strides, m.storage_offset))
    except NotChannelAffine as why:
        raise ConvSumDeclined(f"{kernel.name} between the convolution and its reader: {why}") from None
    params = {a.name: slot for a, slot in zip(middle.args, where)}
    return _without_middle(target), affine, tuple(params[load.param] for load in affine.loads), out_slot


def _without_middle(target: RewriteTarget) -> RewriteTarget:
    """A group of three as its convolution and its window reader (the bias kernel's launch dropped: the candidate
    computes what it would have)."""
    if len(target.launches) != 3:
        return target
    reader = next(k for k in target.kernels if k.name == target.launches[2].kernel)
    return dataclasses.replace(target, kernels=(target.kernels[0], reader),
                               launches=(target.launches[0], target.launches[2]),
                               group_positions=(target.group_positions[0], target.group_positions[2]))


def transposed_taps(taps: int, stride: int, dilation: int, padding: int, window: int) -> tuple[int, int]:
    """[low, high): the offsets j, from a window's first input position q * (k / s), of the input positions whose
    taps land in the window: input i = q * (k / s) + j meets window q through tap t when
    j * s - padding + t * dilation lies in [0, k)."""
    ranges = [(-((t * dilation - padding) // stride), -((t * dilation - padding - window) // stride))
              for t in range(taps)]
    return min(a for a, _ in ranges), max(b for _, b in ranges)


# ---------------------------------------------------------------------------------------------------
# The candidate

_WINDOW_HELPERS = '''

def ko_sqrt(v):
    # a bias kernel's square root of a value free of y: per channel (float64) or a number
    return torch.sqrt(v) if isinstance(v, torch.Tensor) else math.sqrt(v)


def ko_rsqrt(v):
    return torch.rsqrt(v) if isinstance(v, torch.Tensor) else 1.0 / math.sqrt(v)

def ko_window_weights(w, stride, dilation, windows):
    # w' (float64): along each spatial dimension, w's taps placed at j * stride + t * dilation for each position j
    # of the window, and added (one convolution at the window's stride then sums each window of conv(x, w))
    w = w.to(torch.float64)
    for d, (s, dil, k) in enumerate(zip(stride, dilation, windows)):
        dim = 2 + d
        span = (w.shape[dim] - 1) * dil + 1
        shape = list(w.shape)
        shape[dim] = (k - 1) * s + span
        coarse = torch.zeros(shape, dtype=torch.float64, device=w.device)
        for j in range(k):
            coarse.narrow(dim, j * s, span)[(slice(None),) * dim + (slice(None, None, dil),)] += w
        w = coarse
    return w


@functools.lru_cache(maxsize=256)
def ko_tap_map(taps, stride, dilation, padding, window, device):
    # a transposed convolution along one dimension: [J, taps] (float64), 1 where tap t takes the input at offset
    # j (from low) into a window of `window` outputs (j * stride - padding + t * dilation in [0, window)), and low
    ranges = [(-((t * dilation - padding) // stride), -((t * dilation - padding - window) // stride))
              for t in range(taps)]
    low = min(a for a, _ in ranges)
    found = torch.zeros(max(b for _, b in ranges) - low, taps, dtype=torch.float64)
    for t, (a, b) in enumerate(ranges):
        found[a - low:b - low, t] = 1.0
    return found.to(device), low


def ko_transposed_window_weights(w, stride, dilation, padding, windows, groups):
    # a transposed convolution's window sums as one convolution: its weights [Cout, Cin / groups, J...] (float64),
    # each the sum of the taps that take one input offset into the window, and the lowest offset per dimension
    w = w.to(torch.float64)                                     # [Cin, Cout / groups, taps...]
    lows = []
    for d, (s, dil, p, k) in enumerate(zip(stride, dilation, padding, windows)):
        taps, low = ko_tap_map(w.shape[2 + d], s, dil, p, k, w.device)
        w = torch.movedim(torch.tensordot(w, taps, dims=([2 + d], [1])), -1, 2 + d)
        lows.append(low)
    cin, cout_g, spatial = w.shape[0], w.shape[1], w.shape[2:]
    w = w.reshape(groups, cin // groups, cout_g, *spatial).transpose(1, 2)
    return w.reshape(groups * cout_g, cin // groups, *spatial), lows


def ko_window_sums(x, w, b, stride, padding, dilation, groups, windows, accumulate, transposed=False, pooled=None,
                   scale=None, shift=None):
    # the window sums Z [N, Cout, pooled positions] (float32, dense), the flags of each window, and the (n, c)
    # planes to form directly: a plane with a sum that is not finite, or whose elements may overflow. The coarse
    # convolution runs in `accumulate` ("float32": 16-bit inputs widened; "float64": every product exact). A
    # transposed convolution's (windows multiples of its stride): the input cropped or padded so that window q's
    # inputs start at q * (k / s), then one convolution at stride k / s. `scale`, `shift` (float64, per output
    # channel): the windows of scale * y + shift are summed instead (a bias kernel between the convolution and the
    # pool): scale times the window sums of y, plus the window's size times shift
    wide = x.to(torch.float64) if accumulate == "float64" else x if x.element_size() >= 4 else x.float()
    size = math.prod(windows)
    if transposed:
        weights, lows = ko_transposed_window_weights(w, stride, dilation, padding, windows, groups)
        steps = [k // s for k, s in zip(windows, stride)]
        pads = []
        for d in reversed(range(len(windows))):                # F.pad takes the last dimension first
            left = -lows[d]
            pads += [left, (pooled[d] - 1) * steps[d] + weights.shape[2 + d] - (x.shape[2 + d] + left)]
        wide = torch.nn.functional.pad(wide, pads)
        coarse_stride, coarse_padding = steps, 0
    else:
        weights = ko_window_weights(w, stride, dilation, windows)
        coarse_stride, coarse_padding = [k * s for k, s in zip(windows, stride)], padding
    bias = None if b is None else (b.to(torch.float64) * size).to(wide.dtype)
    conv = (torch.nn.functional.conv1d, torch.nn.functional.conv2d, torch.nn.functional.conv3d)[x.dim() - 3]
    z = conv(wide, weights.to(wide.dtype), bias, coarse_stride, coarse_padding, 1, groups)
    n, cout = z.shape[:2]
    bound = ko_element_bound(x, w, b, transposed, groups)
    if scale is not None:
        shape = [1, cout] + [1] * (z.dim() - 2)
        z = z.to(torch.float64) * scale.reshape(shape) + size * shift.reshape(shape)
        bound = bound * scale.abs().float()[None, :] + shift.abs().float()[None, :]
    z = z.float()
    bad = ~((z.abs() < float("inf")).reshape(n, cout, -1).all(2) & (bound * size < 1e36))
    planes = bad.to(torch.int8)
    flags = planes.reshape(n, cout, *[1] * (z.dim() - 2)).expand(z.shape).contiguous().reshape(-1)
    return z.contiguous().reshape(-1), flags, planes.contiguous()
'''


def _transposed_args(plan: ConvWindowPlan) -> str:
    """ko_window_sums' arguments for a transposed convolution: the flag and the pooled extents."""
    if not plan.transposed:
        return ""
    return f", transposed=True, pooled={[o // k for o, k in zip(plan.out_spatial, plan.windows)]}"


def _affine_lines(plan: ConvWindowPlan) -> tuple[str, ...]:
    """The bias kernel's slope and intercept per output channel (ko_scale, ko_shift: float64), from its per-channel
    loads (ko_chan0, ...: views of the parameters it loads, one element per channel)."""
    if plan.affine is None:
        return ()
    lines = ["ko_c = ko_w.shape[1] * " + str(plan.groups) if plan.transposed else "ko_c = ko_w.shape[0]"]
    for i, (load, slot) in enumerate(zip(plan.affine.loads, plan.affine_slots)):
        lines.append(f"ko_chan{i} = torch.as_strided(args[{slot}], (ko_c,), ({load.step},), "
                     f"args[{slot}].storage_offset() + {load.base}).to(torch.float64)")
    zeros = "torch.zeros(ko_c, dtype=torch.float64, device=ko_x.device)"
    return (*lines, f"ko_scale = {zeros} + ({plan.affine.slope})", f"ko_shift = {zeros} + ({plan.affine.intercept})")


def _prelude(plan: ConvWindowPlan, accumulate: str) -> tuple[str, ...]:
    bias = f"args[{plan.bias}]" if plan.bias is not None else "None"
    affine = ", scale=ko_scale, shift=ko_shift" if plan.affine is not None else ""
    return (f"ko_x, ko_w, ko_b, ko_y = args[{plan.input}], args[{plan.weight}], {bias}, args[{plan.out}]",
            *_affine_lines(plan),
            f"{SUMS}, {FLAGS}, ko_planes = ko_window_sums(ko_x, ko_w, ko_b, {list(plan.stride)}, "
            f"{list(plan.padding)}, {list(plan.dilation)}, {plan.groups}, {list(plan.windows)}, {accumulate!r}"
            f"{_transposed_args(plan)}{affine})") \
        + planes_launch(plan, BLOCK, affine=plan.affine is not None)


def candidate_source(target: RewriteTarget, plan: ConvWindowPlan, accumulate: str) -> str:
    return reduction_reading_sums(_without_middle(target), plan.kernel, plan.rewritten,
                                  f"window-through-conv: {plan.describe()} (accumulating in {accumulate})",
                                  _prelude(plan, accumulate), CONV_SUMS_HELPERS + _WINDOW_HELPERS, windows=True)


@dataclass
class WindowThroughConvProposer(ConvSumsProposer):
    name: str = "window-through-conv"
    summary: str = ("Replace a convolution whose output a kernel only sums in windows (an average pool, proven from "
                    "the kernel's code) by one convolution at the windows' stride with the windows' summed weights")

    _plan: LastPlan = plan_field(plan_window_through_conv, ConvSumDeclined)
    build = staticmethod(candidate_source)

    def options(self, plan: ConvWindowPlan) -> list[tuple[str, str]]:
        # float32 first: the library's fast path, as accurate as the fine convolution within a small factor (the
        # gate decides); float64 where it is not (every product exact, the input's copy twice its size)
        return [(f"{self.name} {' x '.join(map(str, plan.windows))} windows in {accumulate}", accumulate)
                for accumulate in ("float32", "float64")]


__all__ = ["ConvWindowPlan", "WindowThroughConvProposer", "candidate_source", "plan_window_through_conv"]
