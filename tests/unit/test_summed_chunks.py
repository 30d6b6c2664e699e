"""summed_reads on the first half of a split reduction: rows that each sum one chunk of a dimension of `y`.

The proof evaluates a reduction's load addresses at every lane and must find the chunking exactly: every row one
whole chunk of equal length, the chunks tiling the dimension, each element read once; and it must refuse rows
that read ragged, overlapping or misaligned chunks (a rewrite reading one sum per chunk would then be wrong). The
kernels here are Inductor's looped-reduction form with the load address written out for each case, over a space
of shapes (Hypothesis): columns of y [M, N] summed in chunks of M (Inductor's split column sum: row x = n + N * q
reads y[q * C + r, n]) and rows summed in chunks of N (x = m * Q + q reads y[m, q * C + r])."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelopt.proposers.base import ArgSpec, LaunchSpec
from kernelopt.proposers.index_values import parse_kernel
from kernelopt.proposers.linear_reads import linear_reads
from kernelopt.proposers.summed_reads import NotSummed, split_view, summed_dims, view_coords

SOURCE = '''
@triton.jit
def k(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = {x_numel}
    r0_numel = {r_numel}
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    _tmp1 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        tmp0 = tl.load(in_ptr0 + ({offset}), {mask}, other=0.0)
        tmp2 = _tmp1 + tmp0
        _tmp1 = tl.where(r0_mask & xmask, tmp2, _tmp1)
    tmp1 = tl.sum(_tmp1, 1)[:, None]
    tl.store(out_ptr0 + (xindex), tmp1, xmask)
'''


def layout_of(offset: str, x_numel: int, r_numel: int, sizes: tuple[int, int], mask: str = "r0_mask & xmask",
              tail: bool = False):
    """summed_dims on the kernel whose rows load `in_ptr0 + (offset)` under `mask` from a row-major y of `sizes`
    (`tail`: chunks may leave a row's last elements unread)."""
    source = SOURCE.format(x_numel=x_numel, r_numel=r_numel, offset=offset, mask=mask)
    _, function = parse_kernel(source, "k", NotSummed)
    launch = LaunchSpec("k", (ArgSpec("in_ptr0", True, sizes, (sizes[1], 1), dtype="float32"),
                              ArgSpec("out_ptr0", True, (x_numel,), (1,), dtype="float32", written=True),
                              ArgSpec("xnumel", False, value=x_numel), ArgSpec("r0_numel", False, value=r_numel)))
    return summed_dims(function, linear_reads(function, "in_ptr0"), launch, sizes, (sizes[1], 1), tail=tail)


dims = st.integers(1, 12)


@settings(max_examples=40, deadline=None)
@given(n=dims, chunks=st.integers(2, 6), length=st.integers(2, 9))
def test_column_chunks_are_found_with_their_length(n, chunks, length):
    m = chunks * length
    layout = layout_of(f"(xindex % {n}) + {n}*(r0_index + {length}*(xindex // {n}))", n * chunks, length, (m, n))
    assert layout.split == (0, length)
    assert layout.sizes == (chunks, length, n) and layout.strides == (length * n, n, 1)
    assert layout.dims == (1,) and layout.by_row     # row x = n + N * q is the kept index q * N + n, lane 0 first


@settings(max_examples=40, deadline=None)
@given(m=dims, chunks=st.integers(2, 6), length=st.integers(2, 9))
def test_row_chunks_are_found_with_their_length(m, chunks, length):
    n = chunks * length
    layout = layout_of(f"r0_index + {length}*(xindex % {chunks}) + {n}*(xindex // {chunks})", m * chunks, length,
                       (m, n))
    assert layout.split == (1, length) and layout.sizes == (m, chunks, length) and layout.dims == (2,)


@settings(max_examples=40, deadline=None)
@given(n=dims, chunks=st.integers(2, 6), length=st.integers(3, 9), data=st.data())
def test_ragged_overlapping_or_misaligned_chunks_are_refused(n, chunks, length, data):
    m = chunks * length
    case = data.draw(st.sampled_from(["ragged", "overlapping", "shifted"]))
    columns = f"(xindex % {n}) + {n}*(r0_index + {length}*(xindex // {n}))"
    if case == "ragged":        # a column one short: the last chunk's last lane is masked off (Inductor's guard)
        mask = f"r0_mask & xmask & (r0_index + {length}*(xindex // {n}) < {m - 1})"
        arguments = (columns, n * chunks, length, (m - 1, n), mask)
    elif case == "overlapping":  # chunk q starts at q * (length - 1): neighbours share an element
        arguments = (f"(xindex % {n}) + {n}*(r0_index + {length - 1}*(xindex // {n}))", n * chunks, length,
                     (m - chunks + 1, n))
    else:                        # every chunk one element late: none starts at a multiple of its length
        arguments = (f"(xindex % {n}) + {n}*(1 + r0_index + {length}*(xindex // {n}))", n * chunks, length,
                     (m + 1, n))
    with pytest.raises(NotSummed):
        layout_of(*arguments)


@settings(max_examples=40, deadline=None)
@given(m=dims, chunks=st.integers(1, 6), length=st.integers(2, 9), data=st.data())
def test_row_chunks_may_leave_a_tail_unread_only_when_allowed_and_never_read_it(m, chunks, length, data):
    """An average pool of a width its window does not divide: N = chunks * length + tail, row x = m * Q + q reads
    y[m, q * C + r], and no row reads the last `tail` elements of a row. Found (in the split view, whose rows are
    longer than their chunks) where a tail is allowed, refused otherwise; chunks shifted into the tail are refused."""
    tail = data.draw(st.integers(1, length - 1))
    n = chunks * length + tail
    offset = f"r0_index + {length}*(xindex % {chunks}) + {n}*(xindex // {chunks})"
    layout = layout_of(offset, m * chunks, length, (m, n), tail=True)
    assert layout.split == (1, length) and layout.dims == (2,)
    assert layout.sizes == (m, chunks, length) and layout.strides == (n, length, 1)
    with pytest.raises(NotSummed):
        layout_of(offset, m * chunks, length, (m, n))
    shifted = f"{tail} + r0_index + {length}*(xindex % {chunks}) + {n}*(xindex // {chunks})"   # the tail read first
    with pytest.raises(NotSummed):
        layout_of(shifted, m * chunks, length, (m, n), tail=True)


def test_whole_rows_keep_the_tensor_s_own_view():
    layout = layout_of("r0_index + 7*xindex", 5, 7, (5, 7))
    assert layout.split is None and layout.sizes == (5, 7) and layout.dims == (1,)


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 6), length=st.integers(2, 24), step=st.integers(1, 24), start=st.integers(0, 23))
def test_a_row_read_in_any_order_is_whole_and_one_read_twice_is_refused(rows, length, step, start):
    """Lane r reads element (start + step * r) % length of its row: every element once exactly when step and the
    row's length have no common factor (a permutation of the row); otherwise some element is read twice."""
    offset = f"(({start} + {step}*r0_index) % {length}) + {length}*xindex"
    if math.gcd(step, length) == 1:
        assert layout_of(offset, rows, length, (rows, length)).dims == (1,)
    else:
        with pytest.raises(NotSummed, match="each element once"):
            layout_of(offset, rows, length, (rows, length))


@settings(max_examples=80, deadline=None)
@given(sizes=st.lists(st.integers(1, 7), min_size=1, max_size=3), data=st.data())
def test_coordinates_in_a_view_split_in_windows_along_several_dimensions_are_the_elements_own(sizes, data):
    # y [N, C, *sizes], contiguous or channels-last, each spatial dimension split in windows of a length that may
    # not divide it (an average pool leaves the last elements in no window): every element in a window gets its
    # own (chunk, position in the chunk) coordinates, and every element in none a coordinate past its view's size.
    # A larger stride need not be a multiple of the next smaller one (5 x 6 x 6 planes in 2 x 2 x 2 windows: 180
    # against 72), so a coordinate is the offset's remainder by every larger stride, not by the next one alone.
    windows = [data.draw(st.integers(1, size)) for size in sizes]
    shape = (2, 3, *sizes)
    channels_last = data.draw(st.booleans()) and len(sizes) >= 2
    y = np.empty(shape)
    strides = tuple(s // y.itemsize for s in y.strides)
    if channels_last:                       # C innermost, then the spatial dimensions, then N
        inner = math.prod(sizes)
        strides = (3 * inner, 1) + tuple(3 * math.prod(sizes[d + 1:]) for d in range(len(sizes)))
    view = (shape, strides)
    for d in reversed(range(len(sizes))):
        if windows[d] < sizes[d]:
            view = split_view(*view, 2 + d, windows[d])
    index = np.indices(shape).reshape(len(shape), -1)           # each element's own coordinates
    offsets = sum(i * s for i, s in zip(index, strides))
    got = view_coords(offsets, *view)
    want = []
    for d, coords in enumerate(index):
        spatial = d - 2
        if spatial < 0 or windows[spatial] == sizes[spatial]:
            want.append(coords)
        else:
            want += [coords // windows[spatial], coords % windows[spatial]]
    inside = np.ones(offsets.shape, bool)
    for d, size in enumerate(sizes):
        inside &= index[2 + d] < size - size % windows[d]
    for g, w, size in zip(got, want, view[0]):
        assert (g[inside] == w[inside]).all()
    assert np.logical_or.reduce([g >= size for g, size in zip(got, view[0])])[~inside].all()
