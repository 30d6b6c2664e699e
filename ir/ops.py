"""The op kinds of the `ko` dialect: which parts each has, and what it means.

This table is the single place the verifier, the parser and the documentation read op shapes from.
Adding an op kind means adding a row here (and, if it has effects, a rule in `ir.effects`).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OpKind:
    name: str
    summary: str
    results: str = "none"        # none | one | optional | any
    symbol: bool = False         # has `@symbol`
    callee: bool = False         # has a `"callee"` string
    min_args: int = 0
    max_args: int | None = None  # None: unbounded
    required_attrs: tuple[str, ...] = ()


OP_KINDS: dict[str, OpKind] = {k.name: k for k in [
    OpKind("ko.kernel", "Defines a Triton kernel: its source verbatim and its heuristics as attributes",
           symbol=True, max_args=0, required_attrs=("kind", "source")),
    OpKind("ko.arg", "A graph argument of call(args), by position", results="one", min_args=1, max_args=1),
    OpKind("ko.alloc", "Allocates a fresh buffer (empty_strided / alloc_from_pool)", results="one", max_args=1),
    OpKind("ko.view", "A view of another buffer with the result's sizes/strides/offset (reinterpret_tensor)",
           results="one", min_args=1, max_args=1),
    OpKind("ko.reuse", "Takes over a dead buffer's storage (`buf4 = buf2; del buf2  # reuse`)",
           results="one", min_args=1, max_args=1),
    OpKind("ko.launch", "Launches a Triton kernel defined in this module", symbol=True),
    OpKind("ko.extern", "Calls a vendor library (cuBLAS, cuDNN) through extern_kernels", results="optional",
           callee=True),
    OpKind("ko.call", "Calls another library op (torch.ops.aten.*, ...); results may be tuples",
           results="optional", callee=True),
    OpKind("ko.getitem", "Takes element N of a tuple value", results="one", min_args=2, max_args=2),
    OpKind("ko.copy", "Copies one tensor into another (dst, src)", min_args=2, max_args=2),
    OpKind("ko.zero", "Sets every element of a tensor to zero (a split scan's workspace)", min_args=1, max_args=1),
    OpKind("ko.free", "Ends a buffer's lifetime (`del buf`)", min_args=1, max_args=1),
    OpKind("ko.assert_size_stride", "Checks a tensor's sizes and strides at run time", min_args=1,
           max_args=1, required_attrs=("sizes", "strides")),
    OpKind("ko.assert_alignment", "Checks a tensor's alignment at run time", min_args=1, max_args=1,
           required_attrs=("alignment",)),
    OpKind("ko.return", "Returns values from call()"),
    OpKind("ko.generic", "A construct not modelled yet: keeps the original Python source",
           results="any", required_attrs=("source",)),
]}


def kind_of(name: str) -> OpKind | None:
    return OP_KINDS.get(name)
