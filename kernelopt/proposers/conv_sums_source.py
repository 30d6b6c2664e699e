"""The helpers a sum-through-conv candidate defines before its `run`: the sums of a convolution's output over boxes of
its positions, from box sums of its input contracted with its weights, and the direct convolution of the planes
the sums cannot stand for (sum_through_conv says what is proven and when each one runs).

Along each spatial dimension, each row of the reduction sums one range of output positions: the whole extent (the
usual global mean), each position alone (a row of a plane, the others whole), or one of equal chunks (the first
half of a split reduction). For a tap, the input positions it meets on its way to a range are a box of a strided
view of the input (`ko_tap_boxes`), so the sums are separable: one box-sum pass per dimension, then one
contraction. A dimension summed whole takes the whole sum less a prefix and a suffix (`ko_box_sums`: the input
read once, in float32 along the first dimension); a dimension of many ranges takes differences of float64 prefix
sums picked by index tensors built once per shape and device (`ko_range_index`: no list is copied to the device
per call, and a CUDA graph captures the same launches every call).
"""

CONV_SUMS_HELPERS = '''
import functools
import math

import triton
import triton.language as tl


def ko_cumsum64(t, dim):
    # t's running sums along `dim` in float64. Along a tensor's last dimension torch's CUDA cumsum runs its
    # innermost-dimension kernel, measured at 1.2 ms for 196,608 rows of one element (H100, torch 2.11: 83 % of a
    # candidate's time); with a trailing dimension of 1 the same sums run its outer-dimension kernel (18 us for
    # 589,824 elements)
    return t.to(torch.float64).unsqueeze(-1).cumsum(dim).squeeze(-1)


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
    prefix = torch.cat([zero, ko_cumsum64(t.narrow(dim, 0, head), dim)], dim)
    suffix = torch.cat([ko_cumsum64(t.narrow(dim, tail, size - tail).flip(dim), dim).flip(dim), zero], dim)
    # the taps' entries picked by slicing: an index tensor made from a list would be a host-to-device copy per call
    before = torch.cat([prefix.narrow(dim, k, 1) for k in low], dim)
    after = torch.cat([suffix.narrow(dim, k - tail, 1) for k in high], dim)
    return total - before - after


def ko_tap_boxes(size, lo, hi, taps, stride, dilation, pad, transposed):
    # per tap k, the input positions it meets on the way to an output position in [lo, hi): start + step * j
    # for j in [low, high) (a box of the view t[start::step], clamped to it)
    boxes = []
    for k in range(taps):
        if transposed:          # output o = i * stride + k * dilation - pad
            c = pad - k * dilation
            start, step, low, high = 0, 1, -(-(lo + c) // stride), -(-(hi + c) // stride)
        else:                   # input i = o * stride + k * dilation - pad
            c = k * dilation - pad
            start, step = c % stride, stride
            shift = (c - start) // stride
            low, high = max(lo, -(c // stride)) + shift, min(hi, -(-(size - c) // stride)) + shift
        length = -(-(size - start) // step) if size > start else 0
        low = min(max(low, 0), length)
        boxes.append((start, step, low, min(max(high, low), length)))
    return boxes


def ko_by_view(boxes):
    # the boxes (ko_tap_boxes) grouped by strided view, in first-seen order: [(start, step, members)], and the
    # members one after the other (the order the groups' sums come in)
    groups = {}
    for i, (start, step, _, _) in enumerate(boxes):
        groups.setdefault((start, step), []).append(i)
    return [(start, step, members) for (start, step), members in groups.items()], sum(groups.values(), [])


@functools.lru_cache(maxsize=256)
def ko_range_index(size, count, length, taps, stride, dilation, pad, transposed, device):
    # the boxes of every (output range r, tap k), r-major (ranges [r * length, r * length + length)), grouped by
    # strided view: (start, step, low, high) with index tensors into the view's prefix sums, and the order that
    # puts the groups' boxes back in place (None: already). Built once per shape and device
    boxes = [box for r in range(count)
             for box in ko_tap_boxes(size, r * length, r * length + length, taps, stride, dilation, pad, transposed)]
    groups, order = ko_by_view(boxes)
    views = [(start, step, torch.tensor([boxes[i][2] for i in members], device=device),
              torch.tensor([boxes[i][3] for i in members], device=device)) for start, step, members in groups]
    back = None if order == sorted(order) else torch.tensor(sorted(range(len(order)), key=order.__getitem__),
                                                            device=device)
    return views, back


def ko_range_sums(t, dim, index):
    # T along `dim` for many output ranges (ko_range_index): each box's sum as the difference of two float64
    # prefix sums of its strided view
    views, back = index
    zero_shape = list(t.shape)
    zero_shape[dim] = 1
    zero = torch.zeros(zero_shape, dtype=torch.float64, device=t.device)
    parts = []
    for start, step, low, high in views:
        view = t[(slice(None),) * dim + (slice(start, None, step),)]
        prefix = torch.cat([zero, ko_cumsum64(view, dim)], dim)
        parts.append(prefix.index_select(dim, high) - prefix.index_select(dim, low))
    sums = torch.cat(parts, dim) if len(parts) > 1 else parts[0]
    return sums if back is None else sums.index_select(dim, back)


def ko_tap_sums(t, dim, boxes):
    # T along `dim`: per tap, the sum over its box (ko_tap_boxes), one box-sum pass per strided view
    groups, order = ko_by_view(boxes)
    parts = []
    for start, step, members in groups:
        view = t[(slice(None),) * dim + (slice(start, None, step),)]
        if view.shape[dim] == 0:
            shape = list(t.shape)
            shape[dim] = len(members)
            parts.append(torch.zeros(shape, dtype=torch.float64, device=t.device))
        else:
            parts.append(ko_box_sums(view, dim, [boxes[k][2] for k in members], [boxes[k][3] for k in members]))
    sums = torch.cat(parts, dim) if len(parts) > 1 else parts[0]
    if order != sorted(order):      # back in tap order, by slicing (no index tensor from the host)
        sums = torch.cat([sums.narrow(dim, order.index(k), 1) for k in range(len(order))], dim)
    return sums


def ko_element_bound(x, w, b, transposed, groups):
    # [N, Cout]: a bound on |conv(x, w, b)[n, co, o]| at every position o, |x[n]|'s largest times the sum of
    # co's |weights| plus |bias[co]| (NaN where x[n] has one)
    dims = tuple(range(1, x.dim()))
    # |x|'s largest per sample, NaN where x has one: one pass over x and no copy (amax and amin took two, 76 us each
    # on a 75 MB channels-last input on the H100)
    largest = torch.linalg.vector_norm(x, float("inf"), dim=dims).float()
    if transposed:              # w: [Cin, Cout / groups, taps]: co's weights are its group's input channels'
        cin = w.shape[0]
        weight_sums = w.float().abs().reshape(groups, cin // groups, w.shape[1], -1).sum((1, 3)).flatten()
    else:                       # w: [Cout, Cin / groups, taps]
        weight_sums = w.float().abs().flatten(1).sum(1)
    bound = largest[:, None] * weight_sums[None, :]
    return bound if b is None else bound + b.float().abs()[None, :]


def ko_conv_sums(x, w, b, stride, padding, dilation, transposed, groups, out_spatial, ranges):
    # S[n, co, box] = the sum of conv(x, w, b) over each box of output positions, in float64 (`ranges`: per spatial
    # dimension, `count` ranges of `length` positions, r-major): the sums of x over the positions each tap meets
    # on its way to each range, contracted with w per group; and whether each sum is good (finite, and no element
    # of its plane may overflow). Dimensions summed whole go first: they shrink x the most
    t, positions = x, 1
    order = sorted(range(len(out_spatial)), key=lambda d: ranges[d][0] > 1)
    for d in order:
        taps, (count, length), size = w.shape[2 + d], ranges[d], x.shape[2 + d]
        if count == 1:
            boxes = ko_tap_boxes(size, 0, length, taps, stride[d], dilation[d], padding[d], transposed)
            t = ko_tap_sums(t, 2 + d, boxes)
        else:
            t = ko_range_sums(t, 2 + d, ko_range_index(size, count, length, taps, stride[d], dilation[d],
                                                       padding[d], transposed, t.device))
        positions *= length
    n, cin = x.shape[0], x.shape[1]
    counts = [count for count, _ in ranges]
    taps = list(w.shape[2:])
    # [N, Cin, count_0 * taps_0, ...] -> [N, groups, Cin / groups, boxes, taps]: the boxes before the taps
    dims = len(counts)
    t = t.reshape(n, cin, *[v for pair in zip(counts, taps) for v in pair])
    t = t.permute(0, 1, *[2 + 2 * d for d in range(dims)], *[3 + 2 * d for d in range(dims)])
    t = t.reshape(n, groups, cin // groups, math.prod(counts), -1)
    w64 = w.to(torch.float64)
    if transposed:              # w: [Cin, Cout / groups, taps]
        cout = w.shape[1] * groups
        s = torch.einsum("ngcqk,gcjk->ngjq", t, w64.reshape(groups, cin // groups, cout // groups, -1))
    else:                       # w: [Cout, Cin / groups, taps]
        cout = w.shape[0]
        s = torch.einsum("ngcqk,gjck->ngjq", t, w64.reshape(groups, cout // groups, cin // groups, -1))
    s = s.reshape(n, cout, -1)
    if b is not None:
        s = s + b.to(torch.float64)[None, :, None] * positions
    bound = ko_element_bound(x, w, b, transposed, groups)
    good = (s.abs() < float("inf")) & (bound * positions < 1e36)[:, :, None]
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


def ko_summed(x, w, b, stride, padding, dilation, transposed, output_padding, groups, out_spatial, summed,
              ranges=None):
    # the sums the rewritten reduction reads and its flags (dense over y's kept dimensions), and the flags of the
    # (n, c) planes ko_conv_planes forms directly. `ranges`: the boxes each plane's rows sum (ko_conv_sums; None:
    # the whole plane)
    n, cout = x.shape[0], (w.shape[1] * groups if transposed else w.shape[0])
    if summed == "channels":
        c, good = ko_channel_sums(x, w, b, stride, padding, dilation, transposed, output_padding, groups)
        flags = (~good).to(torch.int8)
        return (c.to(torch.float32).contiguous(), flags[:, None].expand(c.shape[0], c[0].numel()).contiguous(),
                flags[:, None].expand(n, cout).contiguous())
    ranges = ranges or [(1, extent) for extent in out_spatial]
    s, good = ko_conv_sums(x, w, b, stride, padding, dilation, transposed, groups, out_spatial, ranges)
    if summed == "samples":     # each sample's planes summed; a sample with a flagged plane formed whole
        s, good = s[:, :, 0], good[:, :, 0]
        good = good.all(1) & (s.sum(1).abs() < float("inf"))
        flags = (~good).to(torch.int8)
        return s.sum(1).to(torch.float32).contiguous(), flags.contiguous(), flags[:, None].expand(n, cout).contiguous()
    planes = (~good).any(2).to(torch.int8)        # a plane with a box the sums cannot stand for is formed whole
    flags = planes[:, :, None].expand(s.shape).reshape(n, -1).contiguous()
    return s.to(torch.float32).reshape(n, -1).contiguous(), flags, planes.contiguous()


def ko_spatial3(t):
    # sizes and strides of a tensor's spatial dimensions, padded in front to three
    missing = 3 - (t.dim() - 2)
    return [1] * missing + list(t.shape[2:]), [0] * missing + list(t.stride()[2:])


@triton.jit
def ko_conv_planes(x, w, b, y, flags, COUT, CIN_G, COUT_G, D, H, W, KD, KH, KW, OD, OH, OW, PD, PH, PW,
                   SD, SH, SW, DD, DH, DW, sxn, sxc, sxd, sxh, sxw, sw0, sw1, swd, swh, sww, syn, syc, syd, syh, syw,
                   scale, shift, TRANSPOSED: tl.constexpr, HAS_BIAS: tl.constexpr, HAS_AFFINE: tl.constexpr,
                   Y_DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    # a flagged (n, co) plane of y, computed directly: every tap of every input channel of its group (with
    # HAS_AFFINE, stored as scale[co] * y + shift[co]: the output of a bias kernel after the convolution)
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
            if HAS_AFFINE:
                acc = acc * tl.load(scale + co).to(tl.float32) + tl.load(shift + co).to(tl.float32)
            tl.store(y + n * syn + co * syc + od * syd + oh * syh + ow * syw, acc.to(Y_DTYPE), om)
'''

__all__ = ["CONV_SUMS_HELPERS"]
