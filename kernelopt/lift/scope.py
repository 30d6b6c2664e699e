"""What a Python name in a lifted function stands for while its statements are lifted."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernelopt.ir.core import Value


@dataclass(frozen=True)
class Stream:
    """`stream0 = get_raw_stream(0)`: a stream handle, by device index (None on the CPU)."""

    index: Any


@dataclass(frozen=True)
class Symbol:
    """A symbolic size expression (`ps0 = s77*s27`), kept as its text."""

    text: str


@dataclass
class ArgList:
    """`partition0_args = [buf3, arg0_1]`: the arguments handed to a graph partition."""

    values: list[Any]


@dataclass
class Scope:
    """Names of one function being lifted (`call`, or a graph partition inlined into it)."""

    params: list[str]
    partition: int | None = None          # graph partition index, None for call() itself
    inputs: list[Any] | None = None       # a partition's argument values, in order
    env: dict[str, Any] = field(default_factory=dict)
    device_index: int | None = None       # from `with torch.cuda._DeviceGuard(i):`
    returned: list[Any] | None = None     # a partition's returned values
    tuples: set[str] = field(default_factory=set)   # names later taken apart with `name[i]`

    def lookup(self, name: str) -> Any:
        return self.env.get(name)

    def pending_handoff(self, value: Any) -> bool:
        """True when `value` sits in an argument list not yet passed to its partition: a `del` of
        its name then hands the reference over instead of ending the buffer's life."""
        return any(isinstance(b, ArgList) and any(v is value for v in b.values) for b in self.env.values())

    def values(self) -> list[Value]:
        return [v for v in self.env.values() if isinstance(v, Value)]
