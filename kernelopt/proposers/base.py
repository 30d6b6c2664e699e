"""The contract between the `agentic-rewrite` search driver and the proposers.

The driver describes what to replace as a `RewriteTarget` (one kernel, or one fusion group of launches)
and asks each proposer for `Candidate`s. A candidate is a Python source file in the *candidate format*:
it defines `run(*args)`, called with the original launch's positional arguments (tensors and ints, in
the original `.run(...)` order; for a group, the union of the group's arguments in first-use order)
and must leave the same results in the same output tensors. It may define any Triton kernels it needs.
The driver feeds each evaluated candidate back to the proposers as an `Attempt`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol

from kernelopt.ir.rewrite_record import TargetId


@dataclass(frozen=True)
class ArgSpec:
    """One positional argument of a launch: a tensor (sizes/strides/dtype) or a plain scalar value."""

    name: str                       # the kernel parameter name (in_ptr0, out_ptr1, in_out_ptr0, xnumel, ...)
    is_tensor: bool
    sizes: tuple[int, ...] = ()
    strides: tuple[int, ...] = ()
    storage_offset: int = 0
    dtype: str = ""                 # torch dtype name without prefix: "float32", "bfloat16", "int64"
    value: Any = None               # for scalars
    written: bool = False           # the original launch writes this argument (out_ptr*, in_out_ptr*)


@dataclass(frozen=True)
class LaunchSpec:
    kernel: str                     # kernel symbol
    args: tuple[ArgSpec, ...]
    config: dict[str, Any] = field(default_factory=dict)  # grid, XBLOCK/R0_BLOCK..., num_warps, num_stages


@dataclass(frozen=True)
class KernelSpec:
    name: str
    kind: str                       # pointwise | reduction | persistent_reduction | template | foreach | ...
    source: str                     # the original Triton source, verbatim
    signature: dict[str, str] = field(default_factory=dict)   # triton_meta signature: param -> type
    size_hints: dict[str, int] = field(default_factory=dict)
    provenance: str = ""            # "Original ATen: [...]" text, useful for idiom matching


@dataclass(frozen=True)
class RewriteTarget:
    """What to replace: one kernel (all its launches) or a fusion group (an ordered list of launches)."""

    id: str                                  # str(TargetId): kernel name, "group:N" or "vendor:N"
    kernels: tuple[KernelSpec, ...]
    launches: tuple[LaunchSpec, ...]         # for a group, in program order
    group_args: tuple[ArgSpec, ...] = ()     # for a group: the union of arguments, first-use order
    group_positions: tuple[tuple[int, ...], ...] = ()  # for a group: each launch's args as group_args slots
    # For a group: written slots that nothing reads after the group (an intermediate buffer the module
    # allocated, passed from one member to the next and then freed). A candidate may leave them unwritten
    # (a fused kernel need not store what no one reads); the gate does not compare them.
    scratch_args: tuple[int, ...] = ()
    # Slots the module zeroes just before the target (a split scan's workspace, whose flags the scan's
    # programs wait on). Timing zeroes them before every run, as each call of the module does: a scan timed
    # on the flags its previous run left waits for no predecessor and times a scan no call runs.
    zeroed_args: tuple[int, ...] = ()
    # For a group: per slot, the first slot with the same storage (a slot's own number where none before it
    # shares its memory). Slots are tensor *values*: `buf6 = buf4  # reuse` makes two slots of one storage,
    # which a transform that moves stores between launches must not treat as independent.
    storage_slots: tuple[int, ...] = ()
    time_us: float | None = None
    floor_us: float | None = None
    bound: str = ""                          # memory | compute | launch | near-optimal
    precision: str = "strict"                # strict | allow-tf32 | allow-bf16
    gpu: str = ""                            # e.g. "NVIDIA H200", "" on a CPU

    @property
    def ref(self) -> TargetId:
        """The id, typed: its kind (kernel, group or vendor) and name or number."""
        return TargetId.parse(self.id)

    @property
    def kind(self) -> str:
        return self.ref.kind


@dataclass(frozen=True)
class Candidate:
    source: str                     # candidate-format Python source
    proposer: str
    strategy: str                   # short human-readable label, e.g. "retune XBLOCK=64 num_warps=8"
    notes: str = ""
    # Set when the candidate is the original kernel's own code under another launch configuration
    # (retune), as (key, value) items of the IR config attr: codegen then launches the original kernel
    # with it on the module's fast launch path instead of calling the candidate's run(), which goes
    # through Triton's JIT dispatch (~10 µs more host time per launch).
    launch_config: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Attempt:
    candidate: Candidate
    accepted: bool
    reason: str                     # "ACCEPT" or the rejection reason from the legality gate
    speedup: float | None = None    # original time / candidate time, when timed


class Proposer(Protocol):
    """Optional: `declined(target) -> str`, the reason the proposer offers nothing for a target it is
    made for ("" when it applies, or when the target is not its kind at all); agentic-rewrite puts that
    reason in its remarks, so a user sees which transforms were tried and why they did not fit."""

    name: str
    summary: str

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        """Yield candidates for `target`; `history` holds earlier attempts on it (feedback)."""
        ...
