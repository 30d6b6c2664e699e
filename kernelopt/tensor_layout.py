"""Copies of tensors that keep their memory layout, for the capture, the API and the legality gate alike, and
the stride comparison an output module's own checks make.

`clone()` keeps a tensor's strides only when it is dense: a padded buffer or a column slice comes back
contiguous, and code written for the original's strides (a kernel hard-codes them, an output module's
`assert_size_stride` checks them) then runs past the copy's end or refuses it.
"""
from __future__ import annotations

import torch


def layout_copy(tensor: torch.Tensor, device=None) -> torch.Tensor:
    """A copy with the tensor's own strides. A kernel hard-codes its arguments' strides: Inductor's buffer of
    partial sums [64, 9, 221] with strides (2016, 221, 1) leaves a gap after each row of 9 x 221, and
    `clone()` of such a tensor is contiguous (strides (1989, 221, 1)), so a launch replayed on the copy
    writes past its end. Broadcast (stride-0) tensors, which cannot be written element by element, are
    cloned as they are: a kernel reads them, and reads the copy's first elements the same."""
    device = tensor.device if device is None else torch.device(device)
    if not tensor.is_contiguous() and 0 not in tensor.stride():
        try:
            out = torch.empty_strided(tensor.size(), tensor.stride(), dtype=tensor.dtype, device=device)
            return out.copy_(tensor)
        except RuntimeError:           # overlapping strides: no element-wise layout to keep
            pass
    return tensor.to(device, copy=True)


def strides_match(tensor: torch.Tensor, strides) -> bool:
    """Whether `tensor` has `strides` where they matter, as an output module's `assert_size_stride` checks:
    the stride of a size-1 dimension is never used to address an element. Equal tuples answer at once (a
    loaded module checks every parameter on each call)."""
    found = tensor.stride()
    return found == tuple(strides) or all(size == 1 or int(a) == int(b)
                                          for size, a, b in zip(tensor.shape, found, strides))


__all__ = ["layout_copy", "strides_match"]
