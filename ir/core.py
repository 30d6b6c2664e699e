"""Core IR data structures: values, operations and the module.

The IR is flat and SSA-like: a module holds kernel definitions and a body, a straight-line list of
ops in program order (Inductor's `call()` has no control flow). Every op is an `Op` with a name
(`ko.launch`, `ko.extern`, ...), result values, an ordered argument list (each argument a `Value` or
a literal attribute, optionally with a keyword), an optional symbol (`@kernel`), an optional callee
string (`"extern_kernels.mm"`), and attributes. One generic class keeps the parser, printer and
passes uniform; `ir.ops` says which parts each op kind has.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from .types import Type


@dataclass(frozen=True)
class Location:
    """Where an op came from: a line (and column) in a `.kir` file or in a lifted `.py` module."""

    file: str
    line: int
    column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" + (f":{self.column}" if self.column is not None else "")


class Value:
    """An SSA value: defined once (by an op result), used by any number of op arguments."""

    __slots__ = ("name", "type", "owner", "uses")

    def __init__(self, name: str, type: Type | None = None, owner: "Op | None" = None):
        self.name = name
        self.type = type
        self.owner = owner
        self.uses: list[tuple[Op, int]] = []   # (user op, argument index)

    def __repr__(self) -> str:
        return f"%{self.name}"


@dataclass
class Arg:
    """One argument of an op: a value or a literal, with an optional keyword (`out=%buf2`)."""

    value: Any                      # Value or an attribute literal (int, float, None, str, ...)
    keyword: str | None = None

    @property
    def is_value(self) -> bool:
        return isinstance(self.value, Value)


@dataclass(eq=False)
class Op:
    name: str
    results: list[Value] = field(default_factory=list)
    args: list[Arg] = field(default_factory=list)
    symbol: str | None = None
    callee: str | None = None
    attrs: dict[str, Any] = field(default_factory=dict)
    result_types: list[Type | None] = field(default_factory=list)
    loc: Location | None = None
    parent: "Module | None" = field(default=None, repr=False)

    def __post_init__(self) -> None:
        for result in self.results:
            result.owner = self
        for index, arg in enumerate(self.args):
            if isinstance(arg.value, Value):
                arg.value.uses.append((self, index))

    # -- reading -------------------------------------------------------------------------------
    @property
    def result(self) -> Value:
        if len(self.results) != 1:
            raise ValueError(f"{self.name} has {len(self.results)} results, not 1")
        return self.results[0]

    def operands(self) -> list[Value]:
        """The SSA values among the arguments, in order (keyword arguments included)."""
        return [a.value for a in self.args if isinstance(a.value, Value)]

    def positional(self) -> list[Any]:
        return [a.value for a in self.args if a.keyword is None]

    def keyword(self, name: str, default: Any = None) -> Any:
        for arg in self.args:
            if arg.keyword == name:
                return arg.value
        return default

    @property
    def dialect_name(self) -> str:
        """`ko.launch` -> `launch`."""
        return self.name.split(".", 1)[-1]

    # -- editing -------------------------------------------------------------------------------
    def set_arg(self, index: int, value: Any) -> None:
        """Replace argument `index`, keeping use lists right."""
        old = self.args[index].value
        if isinstance(old, Value):
            old.uses.remove((self, index))
        self.args[index].value = value
        if isinstance(value, Value):
            value.uses.append((self, index))

    def drop_uses(self) -> None:
        for index, arg in enumerate(self.args):
            if isinstance(arg.value, Value):
                arg.value.uses.remove((self, index))


@dataclass(eq=False)
class Module:
    name: str
    attrs: dict[str, Any] = field(default_factory=dict)
    kernels: list[Op] = field(default_factory=list)     # ko.kernel definitions, in source order
    body: list[Op] = field(default_factory=list)        # everything else, in program order
    loc: Location | None = None

    def __post_init__(self) -> None:
        for op in self.kernels + self.body:
            op.parent = self

    # -- symbols -------------------------------------------------------------------------------
    def kernel(self, name: str) -> Op | None:
        for op in self.kernels:
            if op.symbol == name:
                return op
        return None

    def kernel_table(self) -> dict[str, Op]:
        return {op.symbol: op for op in self.kernels if op.symbol}

    # -- walking -------------------------------------------------------------------------------
    def walk(self) -> Iterator[Op]:
        yield from self.kernels
        yield from self.body

    def ops_named(self, *names: str) -> list[Op]:
        wanted = {n if n.startswith("ko.") else f"ko.{n}" for n in names}
        return [op for op in self.body if op.name in wanted]

    def launches(self) -> list[Op]:
        return self.ops_named("ko.launch")

    # -- editing -------------------------------------------------------------------------------
    def add_kernel(self, op: Op) -> Op:
        op.parent = self
        self.kernels.append(op)
        return op

    def append(self, op: Op) -> Op:
        op.parent = self
        self.body.append(op)
        return op

    def insert(self, index: int, op: Op) -> Op:
        op.parent = self
        self.body.insert(index, op)
        return op

    def erase(self, op: Op) -> None:
        """Remove an op whose results are no longer used."""
        for result in op.results:
            if result.uses:
                users = ", ".join(u.name for u, _ in result.uses)
                raise ValueError(f"cannot erase {op.name}: %{result.name} is still used by {users}")
        op.drop_uses()
        (self.kernels if op.name == "ko.kernel" else self.body).remove(op)
        op.parent = None

    def replace(self, op: Op, new_ops: list[Op]) -> None:
        """Put `new_ops` where body op `op` was. A result of `op` that is still used must have been
        taken over by one of them (built with it among its `results`), so its users stay linked."""
        for result in op.results:
            if result.uses and not any(result.owner is new for new in new_ops):
                users = ", ".join(u.name for u, _ in result.uses)
                raise ValueError(f"cannot replace {op.name}: %{result.name} is still used by {users} "
                                 "and no new op defines it")
        index = self.body.index(op)
        op.drop_uses()
        self.body[index:index + 1] = new_ops
        for new in new_ops:
            new.parent = self
        op.parent = None

    def move_after(self, anchor: Op, ops: list[Op]) -> None:
        """Move body ops, keeping their order, to just after `anchor` (their def-use links stay as they are)."""
        for op in ops:
            self.body.remove(op)
        at = self.body.index(anchor) + 1
        self.body[at:at] = ops

    # -- views ---------------------------------------------------------------------------------
    def dataflow(self):
        """A networkx view of the data flow between body ops (see `ir.effects.dataflow_graph`)."""
        # lazy: cycle: ir.effects imports ir.core
        from .effects import dataflow_graph

        return dataflow_graph(self)

    def __str__(self) -> str:
        # lazy: cycle: ir.printer imports ir.core
        from .printer import print_module

        return print_module(self)
