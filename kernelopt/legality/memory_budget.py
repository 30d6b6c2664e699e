"""How much memory the legality gate may take on its device, and where it keeps each case's copies.

A case needs, besides the original's results (the bases) and the comparisons' chunk temporaries:
the candidate's results (a device copy of the sandbox's shared buffers), snapshots of the bases from
before the run (with the guard masks), float64 copies of every base while the reference runs, and the
float64 reference outputs until the comparison. On a large launch these are many times the model's own
memory (a 7.5 GB fp32 instance norm ran the H200 out of its 140 GB), so the gate plans them against a
budget: what does not fit on the device is kept on the host and moved to the device chunk by chunk
when compared, in this order (cheapest first): the float64 reference outputs, the input snapshots, the
candidate's results. If the float64 run of the reference does not fit even then, the reference is
dropped, with a note that says so; every other check still runs on every element.

The budget: `check_candidate(..., memory_budget=)` (bytes, a size string like "2GiB", or a
MemoryBudget); by default unlimited on the CPU and, on CUDA, the free device memory (including what
PyTorch's allocator holds unused) minus 4 GiB. The environment variable KERNELOPT_DEVICE_MEMORY_BUDGET
overrides both (e.g. "64MB", "2GiB"), so a test or a user can force the degraded paths.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import torch

from kernelopt.errors import UsageError

ENV = "KERNELOPT_DEVICE_MEMORY_BUDGET"
HEADROOM = 4 << 30                  # left free on a GPU for the model's own process and fragmentation
CHUNK_TEMPORARIES = 16              # float64 chunk-sized temporaries a comparison holds at once (compare.py)
# a bitwise scan's chunk: two pieces copied to the device (at most 8 bytes an element) and its bool masks
SCAN_BYTES_PER_ELEMENT = 20

_UNITS = {"": 1, "b": 1, "kb": 10 ** 3, "mb": 10 ** 6, "gb": 10 ** 9, "tb": 10 ** 12,
          "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30,
          "t": 1 << 40, "tib": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes from "1234", "64MB" (10^6), "2GiB" (2^30), "1.5g" (2^30)."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][0-9]+)?)\s*([a-zA-Z]*)\s*", str(text))
    if not match or match.group(2).lower() not in _UNITS:
        raise ValueError(f"not a memory size: {text!r} (e.g. 64MB, 2GiB, 1000000)")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def format_size(nbytes: int) -> str:
    for unit, size in (("GB", 10 ** 9), ("MB", 10 ** 6), ("kB", 10 ** 3)):
        if nbytes >= size:
            return f"{nbytes / size:.1f} {unit}"
    return f"{nbytes} B"


@dataclass(frozen=True)
class MemoryBudget:
    limit: int | None               # bytes the gate may allocate on its device; None: unlimited
    source: str = "given"

    def fits(self, nbytes: int) -> bool:
        return self.limit is None or nbytes <= self.limit

    def describe(self) -> str:
        return "no memory budget" if self.limit is None else f"memory budget {format_size(self.limit)}"


def resolve(budget, device: torch.device) -> MemoryBudget:
    """The budget in force: the environment variable, else the argument, else the device's default."""
    env = os.environ.get(ENV, "").strip()
    if env:
        try:
            return MemoryBudget(parse_size(env), ENV)
        except ValueError as err:     # the user's setting: say which
            raise UsageError(f"{ENV}: {err}") from None
    if isinstance(budget, MemoryBudget):
        return budget
    if isinstance(budget, str):
        return MemoryBudget(parse_size(budget))
    if budget is not None:
        return MemoryBudget(int(budget))
    if device.type != "cuda":
        return MemoryBudget(None, "default (CPU)")
    free, _ = torch.cuda.mem_get_info(device)
    # blocks PyTorch's allocator caches but does not use are free for the gate's tensors too
    free += torch.cuda.memory_reserved(device) - torch.cuda.memory_allocated(device)
    return MemoryBudget(max(0, free - HEADROOM), "free device memory - 4 GiB")


@dataclass
class Placement:
    """Where one layout's per-case copies live (`host` = the CPU); `reference` None: no float64 run."""
    snapshots: torch.device
    candidate: torch.device
    reference: torch.device | None
    notes: list = field(default_factory=list)
    reference_dropped: str = ""        # why the reference cannot run within the budget ("" if it can)


def _nbytes(numel: int, dtype: torch.dtype) -> int:
    return numel * torch.empty((), dtype=dtype).element_size()


def place(budget: MemoryBudget, device: torch.device, layout, outputs, with_reference: bool,
          chunk_elements: int, sandbox_copy: bool = False, native_reference: bool = False) -> Placement:
    """Plan a layout's copies against the budget (see the module docstring). `outputs`: the written
    argument indices (their float64 reference copies are kept until the comparison). `sandbox_copy`:
    the sandboxed child runs the candidate on a device copy of the bases of its own (on a GPU), which
    the budget must hold too: it is device memory of the same job, in another process.
    `native_reference`: the reference reads the read-only bases as they are (no float64 copy of them).
    `chunk_elements`: the comparisons' chunk; value comparisons (float64 temporaries) walk the outputs
    only, bitwise scans (inputs unchanged, guard bands) every base."""
    bases = sum(_nbytes(n, d) for n, d in zip(layout.base_sizes, layout.base_dtypes))
    guards = sum(layout.base_sizes)                       # bool masks, kept with the snapshots
    written = {layout.places[i].base for i in outputs if i in layout.places}
    bases64 = sum(_nbytes(n, torch.float64 if d.is_floating_point else d)
                  for b, (n, d) in enumerate(zip(layout.base_sizes, layout.base_dtypes))
                  if b in written or not native_reference)
    reference = sum(8 * _numel(layout.places[i].sizes) for i in outputs
                    if i in layout.places and layout.base_dtypes[layout.places[i].base].is_floating_point)
    compared = max((_numel(layout.places[i].sizes) for i in outputs if i in layout.places), default=0)
    resident = (bases * (2 if sandbox_copy else 1) + CHUNK_TEMPORARIES * 8 * min(chunk_elements, compared)
                + SCAN_BYTES_PER_ELEMENT * chunk_elements)
    # "device"/"host" labels, not torch devices: on the CPU both are the CPU, yet a (test) budget plans
    # the same way as on a GPU
    where = {"reference": "device", "snapshots": "device", "candidate": "device"}
    size = {"reference": reference if with_reference else 0, "snapshots": bases + guards, "candidate": bases}

    def peaks():
        on_device = resident + sum(size[k] for k in ("snapshots", "candidate") if where[k] == "device")
        kept = size["reference"] if where["reference"] == "device" else 0
        # while the reference runs the float64 bases hold its outputs, of which a copy is kept
        return on_device + kept, (on_device + bases64 + kept if with_reference else 0)

    moved = []
    for item in ("reference", "snapshots", "candidate"):
        if budget.fits(max(peaks())):
            break
        if item != "reference" or with_reference:
            where[item] = "host"
            moved.append(item)
    to = {"device": device, "host": torch.device("cpu")}
    placement = Placement(to[where["snapshots"]], to[where["candidate"]],
                          to[where["reference"]] if with_reference else None)
    texts = {"snapshots": "the input snapshots are kept on the host",
             "candidate": "the candidate's results are compared from the host",
             "reference": "float64 reference on the host"}
    parts = [texts[k] for k in ("snapshots", "candidate", "reference") if k in moved]
    steady, run = peaks()
    if with_reference and not budget.fits(run):
        placement.reference = None
        placement.reference_dropped = (f"{budget.describe()}: the float64 reference needs "
                                       f"{format_size(run)} on the device, more than the budget; dropped")
        parts = [p for p in parts if p != texts["reference"]]
    if not budget.fits(steady):
        parts.append(f"the case buffers alone need {format_size(steady)}: over the budget")
    if parts:
        placement.notes.append(f"{budget.describe()}: " + "; ".join(parts))
    return placement


def _numel(sizes) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n
