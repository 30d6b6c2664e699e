"""Vectorised stand-ins for Inductor's `triton_helpers` reductions, for the Triton interpreter.

`triton_helpers.max2(a, dim)` is `tl.reduce(a, dim, maximum)` with a @triton.jit combine function;
the interpreter runs such a reduction one element at a time in Python (seconds for a 16x64 block).
These compute the same result on the whole block with numpy, with Inductor's semantics:
NaN propagates through max/min, argmax/argmin take the lowest index of a NaN or of the extreme value.
They replace the helpers only under the interpreter (`interpret.install_cpu_triton_shims`).
"""
from __future__ import annotations

import numpy as np


def _axis(dim) -> int:
    return int(getattr(dim, "value", dim))


def _wrap(data: np.ndarray, dtype):
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    data = np.asarray(data)
    shape = list(data.shape)
    block = tl.block_type(dtype, shape) if shape else dtype
    if not shape:
        data = data.reshape(1)  # the interpreter keeps scalars as one-element arrays
    return tl.tensor(TensorHandle(data, dtype), block)


def _reduce_values(a, dim, numpy_fn):
    return _wrap(numpy_fn(a.handle.data, axis=_axis(dim)), a.dtype.scalar)


def max2(a, dim):
    return _reduce_values(a, dim, np.max)  # np.max propagates NaN, as triton_helpers.maximum


def min2(a, dim):
    return _reduce_values(a, dim, np.min)


def prod(input, axis):
    return _reduce_values(input, axis, np.prod)


def any(a, dim):  # noqa: A001  (the helper's own name)
    return _reduce_values(a, dim, np.any)


def _arg_extreme(value, index, dim, numpy_extreme):
    """Inductor's maximum/minimum_with_index folded over the lanes: NaN beats any number (NaNs tie),
    and among tied values the lowest *index* wins. In a looped reduction lane k holds index k only in
    the first iteration, so the first lane holding the extreme is not the first index."""
    data = value.handle.data
    axis = _axis(dim)
    indices = np.broadcast_to(index.handle.data, data.shape)
    ties = data == np.expand_dims(numpy_extreme(data, axis=axis), axis)
    if np.issubdtype(data.dtype, np.floating):
        nan = np.isnan(data)
        ties = np.where(nan.any(axis=axis, keepdims=True), nan, ties)
    largest = np.iinfo(indices.dtype).max if np.issubdtype(indices.dtype, np.integer) else np.inf
    chosen = np.expand_dims(np.argmin(np.where(ties, indices, largest), axis=axis), axis)
    values = np.take_along_axis(data, chosen, axis=axis).squeeze(axis)
    picked = np.take_along_axis(indices, chosen, axis=axis).squeeze(axis)
    return _wrap(values, value.dtype.scalar), _wrap(picked, index.dtype.scalar)


def max_with_index(value, index, dim):
    return _arg_extreme(value, index, dim, np.max)


def min_with_index(value, index, dim):
    return _arg_extreme(value, index, dim, np.min)


def welford(mean, m2, weight, dim):
    """Combine per-lane Welford partials (Chan et al.), as welford_combine does pairwise."""
    axis = _axis(dim)
    m, q, w = (np.asarray(t.handle.data) for t in (mean, m2, weight))
    total = w.sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        kept_total = np.expand_dims(total, axis)
        share = np.where(w == 0, 0, w / np.where(kept_total == 0, 1, kept_total))
        new_mean = (share * np.where(w == 0, 0, m)).sum(axis=axis)
        delta = np.where(w == 0, 0, m - np.expand_dims(new_mean, axis))
        delta = np.where(np.isinf(m) & (m == np.expand_dims(new_mean, axis)), 0, delta)
        new_m2 = (q + w * delta * delta).sum(axis=axis)
    dtype = mean.dtype.scalar
    np_dtype = m.dtype
    return (_wrap(new_mean.astype(np_dtype), dtype), _wrap(new_m2.astype(np_dtype), dtype),
            _wrap(total.astype(w.dtype), weight.dtype.scalar))


FAST_HELPERS = {"max2": max2, "min2": min2, "prod": prod, "any": any,
                "max_with_index": max_with_index, "min_with_index": min_with_index, "welford": welford}
