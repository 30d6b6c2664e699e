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
    writes past its end. A broadcast (stride-0) dimension stays broadcast: an input expanded from one row
    (strides (0, 1)) is checked by the module's `assert_size_stride`, which a dense copy (strides (90, 1))
    fails; the copy holds the one row once and is expanded like the original."""
    device = tensor.device if device is None else torch.device(device)
    broadcast_dims = [dim for dim, (size, stride) in enumerate(zip(tensor.size(), tensor.stride()))
                      if stride == 0 and size > 1]
    if broadcast_dims:
        one_slice = tensor
        for dim in broadcast_dims:
            one_slice = one_slice.narrow(dim, 0, 1)
        return layout_copy(one_slice, device).expand(tensor.size())
    if not tensor.is_contiguous():
        try:
            out = torch.empty_strided(tensor.size(), tensor.stride(), dtype=tensor.dtype, device=device)
            return out.copy_(tensor)
        except RuntimeError:           # overlapping strides: no element-wise layout to keep
            pass
    return tensor.to(device, copy=True)


def copy_into(target: torch.Tensor, value: torch.Tensor, non_blocking: bool = False) -> torch.Tensor:
    """`target.copy_(value)`, where a broadcast (stride-0) dimension of `target` (a copy of an input expanded
    from one row) takes the value's first slice: its elements are one memory location, which `copy_` refuses
    to write, and what a kernel reads there is one value whichever of the value's slices it is."""
    written, source = target, value
    for dim, (size, stride) in enumerate(zip(target.size(), target.stride())):
        if stride == 0 and size > 1:
            written, source = written.narrow(dim, 0, 1), source.narrow(dim, 0, 1)
    written.copy_(source, non_blocking=non_blocking)
    return target


def strides_match(tensor: torch.Tensor, strides) -> bool:
    """Whether `tensor` has `strides` where they matter, as an output module's `assert_size_stride` checks:
    the stride of a size-1 dimension is never used to address an element. Equal tuples answer at once (a
    loaded module checks every parameter on each call)."""
    found = tensor.stride()
    return found == tuple(strides) or all(size == 1 or int(a) == int(b)
                                          for size, a, b in zip(tensor.shape, found, strides))


__all__ = ["copy_into", "layout_copy", "strides_match"]
