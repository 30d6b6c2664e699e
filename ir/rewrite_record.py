"""The rewrite record and the rewrite target id: one schema for what `agentic-rewrite` proposes,
`check-legality` accepts, and the report and codegen read.

A record lives on the IR as the `rewrite` attribute of the op it replaces (the kernel, the last launch
of a fusion group, or a vendor call) and, once committed, of the candidate kernel holding the
replacement. `RewriteRecord.from_attrs` / `to_attrs` are the only conversions between the two; absent
keys are None fields, and `to_attrs` writes the keys in the order agentic-rewrite always wrote them
(the search's entry, then the group fields, then check-legality's `recheck`), so the printed `.kir`
stays what it was.

A target id names what a search replaced: a kernel (`triton_poi_fused_gelu_0`: all its launches), a
detect-fusion group (`group:N`) or a library call replaced on its own (`vendor:N`, the N-th of
`vendor_ops`). `TargetId.parse` / `str` are its one text form (search progress, remarks, cache).

This module sits in ir/ and imports only the IR core: the passes, the rewrite machinery
(kernelopt/rewrite), the proposers' `RewriteTarget` and the report all import it, never the reverse.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from kernelopt.ir.core import Module, Op

ATTR = "rewrite"
PROPOSED = "proposed"
ACCEPTED = "accepted"

KERNEL, GROUP, VENDOR = "kernel", "group", "vendor"


@dataclass(frozen=True)
class TargetId:
    """What a rewrite replaces: a kernel by name, or a fusion group / vendor call by number."""

    kind: str                # kernel | group | vendor
    name: str = ""           # kind kernel: the kernel's symbol
    index: int = 0           # kind group: the fusion group; kind vendor: the position in vendor_ops()

    @classmethod
    def kernel(cls, name: str) -> "TargetId":
        return cls(KERNEL, name=name)

    @classmethod
    def group(cls, index: int) -> "TargetId":
        return cls(GROUP, index=index)

    @classmethod
    def vendor(cls, index: int) -> "TargetId":
        return cls(VENDOR, index=index)

    @classmethod
    def parse(cls, text: str) -> "TargetId":
        kind, sep, number = text.partition(":")
        if sep and kind in (GROUP, VENDOR):
            return cls(kind, index=int(number))
        return cls.kernel(text)   # a Triton kernel name never holds a ':'

    def __str__(self) -> str:
        return self.name if self.kind == KERNEL else f"{self.kind}:{self.index}"


@dataclass(frozen=True)
class RewriteRecord:
    """One rewrite, as agentic-rewrite proposed it and check-legality re-checked it.

    The field order is the attribute order (see the module docstring); a None field is an absent key.
    """

    status: str | None = None               # proposed | accepted (absent: a hand-written accepted one)
    source: str | None = None               # the candidate's source (candidate format)
    proposer: str | None = None
    strategy: str | None = None
    launch_config: dict | None = None       # a retune: the original kernel under this launch config
    speedup: float | None = None            # original time / candidate time
    time_us: float | None = None
    baseline_us: float | None = None
    timed_by: str | None = None             # cuda-events | static-cost-model
    evidence: Any = None                    # the legality gate's verdict during the search
    candidates: int | None = None           # candidates the search evaluated
    search: str | None = None               # why the search stopped
    group: int | None = None                # a fusion-group rewrite: the group ...
    group_kind: str | None = None           # ... vertical | epilogue | prologue ...
    replaces: list | None = None            # ... and the kernels / calls it replaces (also a vendor call's)
    group_positions: list | None = None     # each member's arguments as slots of the replacement
    recheck: dict | None = None             # check-legality's verdict on fresh seeds
    # Keys this version does not know (e.g. from an older cache entry), kept as they were.
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_attrs(cls, attrs: dict) -> "RewriteRecord":
        known = {f.name for f in dataclasses.fields(cls) if f.name != "extra"}
        return cls(**{k: v for k, v in attrs.items() if k in known},
                   extra={k: v for k, v in attrs.items() if k not in known})

    @classmethod
    def proposed(cls, entry: dict) -> "RewriteRecord":
        """A search's winner, from its (cached) entry; `why` only explains a search without one."""
        return cls.from_attrs({"status": PROPOSED, **{k: v for k, v in entry.items() if k != "why"}})

    def to_attrs(self) -> dict:
        attrs = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                 if f.name != "extra" and getattr(self, f.name) is not None}
        attrs.update(self.extra)
        return attrs

    def __bool__(self) -> bool:
        """False for a record with no field set: no record, as an empty attribute dict was."""
        return bool(self.to_attrs())

    @property
    def is_proposed(self) -> bool:
        return self.status == PROPOSED

    @property
    def is_accepted(self) -> bool:
        return self.status == ACCEPTED

    def accepted(self, recheck: dict) -> "RewriteRecord":
        return dataclasses.replace(self, status=ACCEPTED, recheck=recheck)


def read(op: Op | None) -> RewriteRecord | None:
    """The op's rewrite record; None when it has none."""
    attrs = op.attrs.get(ATTR) if op is not None else None
    return RewriteRecord.from_attrs(attrs) if isinstance(attrs, dict) and attrs else None


def write(op: Op, record: RewriteRecord) -> None:
    op.attrs[ATTR] = record.to_attrs()


def with_status(module: Module, status: str) -> list[Op]:
    """The ops (kernels first, then the body) holding a rewrite record of this status."""
    return [op for op in module.walk() if (record := read(op)) is not None and record.status == status]


# -- where a target's ops are -------------------------------------------------------------------

def group_members(module: Module, group: int) -> list[Op]:
    """The launches and vendor calls of fusion group `group`, in program order."""
    return [op for op in module.body if op.name in ("ko.launch", "ko.extern") and op.attrs.get("fusion_group") == group]


# Vendor calls that return a fresh tensor and that a proposer may replace on their own.
VENDOR_RETURNING = ("extern_kernels.convolution",)


def vendor_ops(module: Module) -> list[Op]:
    """The library calls a vendor target can be built for, in program order (their index is the id)."""
    return [op for op in module.body if op.name == "ko.extern" and op.callee in VENDOR_RETURNING]


def holder(module: Module, target: TargetId) -> Op | None:
    """The op a record of `target` lives on: the kernel, a group's last member, or the vendor call."""
    if target.kind == GROUP:
        members = group_members(module, target.index)
        return members[-1] if members else None
    if target.kind == VENDOR:
        calls = vendor_ops(module)
        return calls[target.index] if target.index < len(calls) else None
    return module.kernel(target.name)

