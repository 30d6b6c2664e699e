"""Test cases for one launch: guarded buffers, poison, and the inputs the gate feeds a launch.

Every tensor argument lives inside a larger *base* buffer (arguments that share storage in the real
launch share one base, so in-place aliasing is preserved). Elements of a base that no argument covers
(the guard bands around each storage span, and gaps of padded strides) are poisoned and must be
unchanged afterwards; write-only outputs are poisoned too, so an element the candidate leaves
unwritten still holds the poison afterwards. Float poison is a signalling-NaN bit pattern that no
arithmetic produces (arithmetic NaNs are quiet), integers get an odd sentinel.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch

from kernelopt.tensor_layout import copy_into, layout_copy

GUARD_MIN = 256
GUARD_MAX = 1 << 16

_FLOAT_POISON_BITS = {
    torch.float64: (torch.int64, 0x7FF4A5A5A5A5A5A5),
    torch.float32: (torch.int32, 0x7FA5A5A5),
    torch.float16: (torch.int16, 0x7DA5),
    torch.bfloat16: (torch.int16, 0x7FA5),
}
_INT_SENTINEL = {
    torch.int64: -0x5A5A5A5A5A5A5A5B, torch.int32: -0x5A5A5A5B, torch.int16: -0x5A5B,
    torch.int8: -0x5B, torch.uint8: 0xA5,
}


@dataclass
class LaunchInputs:
    """The positional arguments of one launch (tensors and scalars, `.run(...)` order), as captured.

    `int_bounds` optionally gives the valid value range (inclusive) of an integer tensor argument for
    random inputs (e.g. class indices); without it random integers are drawn from the captured values.
    """
    args: tuple
    label: str = ""
    int_bounds: dict[int, tuple[int, int]] = field(default_factory=dict)
    # Where the launch runs, when its captured values were parked elsewhere (a multi-GB capture is kept
    # on the host so that the gate's own buffers fit the job's memory bound); None: the args' device.
    device: torch.device | None = None

    def run_device(self) -> torch.device:
        if self.device is not None:
            return torch.device(self.device)
        return next((a.device for a in self.args if isinstance(a, torch.Tensor)), torch.device("cpu"))

    def signature(self) -> tuple:
        return tuple((tuple(a.shape), tuple(a.stride()), a.storage_offset(), a.dtype) if
                     isinstance(a, torch.Tensor) else ("scalar", a) for a in self.args)


def host_copy(tensor: torch.Tensor) -> torch.Tensor:
    """A copy of a device tensor on the host, kept there to free device memory at real sizes: pinned where
    contiguous, so that copying it back to the device runs at full speed."""
    if not tensor.is_contiguous():     # (torch 2.11 tensors have no is_non_overlapping_and_dense)
        return layout_copy(tensor, "cpu")
    return torch.empty(tensor.size(), dtype=tensor.dtype, pin_memory=True).copy_(tensor)


def poison_(tensor: torch.Tensor) -> torch.Tensor:
    """Fill with the poison pattern of the dtype (in place)."""
    if tensor.dtype in _FLOAT_POISON_BITS:
        int_dtype, bits = _FLOAT_POISON_BITS[tensor.dtype]
        tensor.view(int_dtype).fill_(bits)
    elif tensor.dtype in _INT_SENTINEL:
        tensor.fill_(_INT_SENTINEL[tensor.dtype])
    elif tensor.dtype == torch.bool:
        tensor.fill_(True)
    else:
        tensor.view(torch.uint8).fill_(0xA5)
    return tensor


def is_poison(tensor: torch.Tensor) -> torch.Tensor:
    """Elementwise: still the exact poison bit pattern."""
    if tensor.dtype in _FLOAT_POISON_BITS:
        int_dtype, bits = _FLOAT_POISON_BITS[tensor.dtype]
        return tensor.view(int_dtype) == bits
    if tensor.dtype in _INT_SENTINEL:
        return tensor == _INT_SENTINEL[tensor.dtype]
    return torch.zeros_like(tensor, dtype=torch.bool)


def poisonable(dtype: torch.dtype) -> bool:
    return dtype in _FLOAT_POISON_BITS or dtype in _INT_SENTINEL


def bits(tensor: torch.Tensor) -> torch.Tensor:
    """An integer view for bitwise comparison (NaN == NaN when the bits match)."""
    size = tensor.element_size()
    if tensor.dtype == torch.bool:
        return tensor.to(torch.uint8)
    return tensor.view({8: torch.int64, 4: torch.int32, 2: torch.int16, 1: torch.uint8}[size])


@dataclass
class TensorPlace:
    base: int
    offset: int          # storage offset inside the base
    sizes: tuple
    strides: tuple


@dataclass
class Layout:
    """Where each tensor argument lives inside the guarded bases."""
    base_sizes: list[int]
    base_dtypes: list[torch.dtype]
    places: dict[int, TensorPlace]
    scalars: dict[int, Any]
    nargs: int
    _guards: dict = field(default_factory=dict, repr=False, compare=False)

    def views(self, bases: list[torch.Tensor]) -> list:
        args = []
        for i in range(self.nargs):
            if i in self.places:
                p = self.places[i]
                args.append(torch.as_strided(bases[p.base], p.sizes, p.strides, p.offset))
            else:
                args.append(self.scalars[i])
        return args

    def wire_views(self) -> list:
        return [("tensor", self.places[i].base, self.places[i].offset, self.places[i].sizes,
                 self.places[i].strides) if i in self.places else ("scalar", self.scalars[i])
                for i in range(self.nargs)]

    def covered(self, base_index: int, device) -> torch.Tensor:
        """Mask of the base elements some argument covers (everything else is guard)."""
        mask = torch.zeros(self.base_sizes[base_index], dtype=torch.bool, device=device)
        for p in self.places.values():
            if p.base == base_index:
                torch.as_strided(mask, p.sizes, p.strides, p.offset).fill_(True)
        return mask

    def guard(self, base_index: int, device) -> torch.Tensor:
        """Mask of the guard elements of a base (read-only, cached: every case of the layout checks it)."""
        key = (base_index, str(torch.device(device)))
        if key not in self._guards:
            self._guards[key] = ~self.covered(base_index, device)
        return self._guards[key]

    def key(self) -> tuple:
        return (tuple(self.base_sizes), tuple(str(d) for d in self.base_dtypes),
                tuple(sorted((i, p.base, p.offset, p.sizes, p.strides) for i, p in self.places.items())))


def _span(t: torch.Tensor) -> tuple[int, int]:
    if t.numel() == 0:
        return t.storage_offset(), t.storage_offset()
    extent = sum((s - 1) * st for s, st in zip(t.shape, t.stride()))
    return t.storage_offset(), t.storage_offset() + extent + 1


def make_layout(launch: LaunchInputs) -> Layout:
    groups: dict[tuple, list[int]] = {}
    scalars = {}
    for i, arg in enumerate(launch.args):
        if isinstance(arg, torch.Tensor):
            key = (arg.untyped_storage().data_ptr(), arg.dtype) if arg.untyped_storage().data_ptr() else ("own", i)
            groups.setdefault(key, []).append(i)
        else:
            scalars[i] = arg
    base_sizes, base_dtypes, places = [], [], {}
    for members in groups.values():
        spans = [_span(launch.args[i]) for i in members]
        low, high = min(s[0] for s in spans), max(s[1] for s in spans)
        guard = max(GUARD_MIN, min(GUARD_MAX, high - low))
        index = len(base_sizes)
        base_sizes.append(guard + (high - low) + guard)
        base_dtypes.append(launch.args[members[0]].dtype)
        for i in members:
            arg = launch.args[i]
            places[i] = TensorPlace(index, guard + arg.storage_offset() - low, tuple(arg.shape), tuple(arg.stride()))
    return Layout(base_sizes, base_dtypes, places, scalars, len(launch.args))


def build_bases(layout: Layout, values: dict[int, torch.Tensor], device) -> list[torch.Tensor]:
    """Poisoned bases with `values` (arg index -> tensor of the arg's shape) written in place."""
    bases = [torch.empty(n, dtype=d, device=device) for n, d in zip(layout.base_sizes, layout.base_dtypes)]
    return fill_bases(layout, bases, values.items())


def fill_bases(layout: Layout, bases: list[torch.Tensor], items) -> list[torch.Tensor]:
    """Poison existing bases and write the (arg index, tensor) pairs of `items` in place, one at a
    time: with a lazy `items` (iter_generated_values) one argument's fresh values exist at once."""
    for base in bases:
        poison_(base)
    views = layout.views(bases)
    for i, value in items:
        copy_into(views[i], value)   # a broadcast argument: its values once
    return bases


# ----------------------------------------------------------------------------- input generation

ADVERSARIAL = ("large", "negative", "tiny")


def _float_values(like: torch.Tensor, kind: str, generator: torch.Generator) -> torch.Tensor:
    # float32 draws (float64 only for float64 arguments): a quarter of the time of float64 ones on a
    # CPU, and exact enough for every lower-precision dtype the values end up in
    dtype = torch.float64 if like.dtype == torch.float64 else torch.float32
    normal = torch.randn(like.shape, generator=generator, dtype=dtype, device=generator.device)
    finfo = torch.finfo(like.dtype)
    if kind == "random":
        values = normal
    elif kind == "large":        # exp/softmax/logsumexp overflow unless the max is subtracted
        values = normal.mul_(min(1e4, finfo.max / 1e3))
    elif kind == "negative":
        values = normal.abs_().mul_(-30).sub_(1)
    elif kind == "tiny":
        values = normal.mul_(max(1e-30, finfo.tiny * 1e3))
    else:
        raise ValueError(kind)
    return values.to(like.dtype)


def _int_values(like: torch.Tensor, captured: torch.Tensor, bounds, generator) -> torch.Tensor:
    device = generator.device
    if like.dtype == torch.bool:
        return torch.rand(like.shape, generator=generator, device=device) < 0.5
    if bounds is not None:
        low, high = bounds
        return torch.randint(low, high + 1, like.shape, generator=generator, dtype=torch.int64,
                             device=device).to(like.dtype)
    pool = captured.detach().reshape(-1).to(device)
    if pool.numel() == 0:
        return torch.zeros(like.shape, dtype=like.dtype, device=device)
    picks = torch.randint(0, pool.numel(), like.shape, generator=generator, device=device)
    return pool[picks].to(like.dtype)


def generated_values(launch: LaunchInputs, arg_indices, kind: str, seed: int, device=None) -> dict[int, torch.Tensor]:
    """Fresh values for the given tensor arguments: floats random/adversarial, integers drawn from
    the captured values (indices stay valid). Drawn where the launch's tensors live (default), so a
    GPU case never makes hundreds of MB on the CPU first; a seed gives the same values on the same
    kind of device (a CPU and a GPU draw different ones)."""
    return dict(iter_generated_values(launch, arg_indices, kind, seed, device))


def iter_generated_values(launch: LaunchInputs, arg_indices, kind: str, seed: int, device=None):
    """generated_values as (arg index, tensor) pairs drawn one at a time (the same values)."""
    if device is None:
        device = launch.run_device()
    generator = torch.Generator(device=device).manual_seed(seed)
    for i in arg_indices:
        arg = launch.args[i]
        if arg.dtype.is_floating_point:
            yield i, _float_values(arg, kind, generator)
        else:
            yield i, _int_values(arg, arg, launch.int_bounds.get(i), generator)
