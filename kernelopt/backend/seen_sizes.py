"""`options={"specialize": "seen"}`: static specializations of a symbolic-size graph for the sizes it is called with.

KernelOPT optimizes static-shape modules, and Inductor's module for a graph with symbolic sizes keeps
running for every size. With this option the graph gets a `SeenSizesDispatch` instead: it runs
Inductor's dynamic module, counts calls per concrete size, and once a size has been called
`specialize_after` times compiles the graph for exactly that size (the FX graph Dynamo gave, copied
before Inductor touched it, compiled by the whole backend with that call's arguments as example
inputs) and sends every later call of that size to it. Other sizes keep running the dynamic module.

A size is what varies between calls of the graph: the values of its integer inputs (Dynamo passes
symbolic sizes as such) and the sizes, strides, dtype and device of its tensors with symbolic sizes
(Dynamo's own guards pin everything else). At most `specialize_max` specializations are made per
graph (8 by default: each costs a compile and holds its module), and at most MAX_COUNTED_SIZES
sizes are counted, so a graph called with ever new sizes holds bounded memory.
"""
from __future__ import annotations

import copy
import logging
import threading
from typing import Callable, Sequence

import torch

log = logging.getLogger("kernelopt.backend")

MAX_COUNTED_SIZES = 1024


def has_symbolic_sizes(example_inputs: Sequence) -> bool:
    return any(_is_symbolic(x) for x in example_inputs)


def _is_symbolic(value) -> bool:
    if isinstance(value, torch.Tensor):
        return any(isinstance(s, torch.SymInt) for s in (*value.shape, *value.stride()))
    return isinstance(value, torch.SymInt)


class SeenSizesDispatch:
    """The graph's compiled callable: the dynamic module, or the specialization for the call's size."""

    def __init__(self, gm: torch.fx.GraphModule, example_inputs: Sequence, graph: str, *,
                 compile_dynamic: Callable, compile_static: Callable, after: int, limit: int) -> None:
        # Inductor rewrites the graph it compiles in place: keep the graph as Dynamo gave it.
        self.pristine = torch.fx.GraphModule(gm, copy.deepcopy(gm.graph))
        self.varying = [i for i, x in enumerate(example_inputs) if _is_symbolic(x)]
        self.graph, self.compile_static, self.after, self.limit = graph, compile_static, after, limit
        self.dynamic = compile_dynamic(gm, example_inputs)
        self._boxed_call = getattr(self.dynamic, "_boxed_call", False)
        self.counts: dict[tuple, int] = {}
        self.specialized: dict[tuple, Callable] = {}
        self.failed: set[tuple] = set()       # sizes whose specialization failed: not tried again
        self._lock = threading.Lock()

    def __call__(self, *args):
        # A boxed call passes one list, which the callee empties: read the size before calling.
        flat = args[0] if self._boxed_call and len(args) == 1 and isinstance(args[0], list) else args
        size = tuple(_size_of(flat[i]) for i in self.varying)
        run = self.specialized.get(size)
        if run is None:
            run = self._count(size, flat)
        return run(*args)

    def _count(self, size: tuple, flat: Sequence) -> Callable:
        if len(self.specialized) >= self.limit or (size not in self.counts and len(self.counts) >= MAX_COUNTED_SIZES):
            return self.dynamic
        with self._lock:
            self.counts[size] = self.counts.get(size, 0) + 1
            if self.counts[size] < self.after or size in self.specialized or size in self.failed:
                return self.specialized.get(size, self.dynamic)
            return self._specialize(size, flat)

    def _specialize(self, size: tuple, flat: Sequence) -> Callable:
        log.info("kernelopt: %s: size %s called %d times: compiling a static specialization (%d of at most %d)",
                 self.graph, _describe(size), self.after, len(self.specialized) + 1, self.limit)
        gm = torch.fx.GraphModule(self.pristine, copy.deepcopy(self.pristine.graph))
        try:
            run = self.compile_static(gm, list(flat))
        except Exception as err:  # noqa: BLE001 - a failed specialization must not break the user's program
            log.warning("kernelopt: %s: the specialization for size %s failed (%s: %s): that size keeps running "
                        "Inductor's dynamic module", self.graph, _describe(size), type(err).__name__,
                        str(err).splitlines()[0] if str(err) else "")
            self.failed.add(size)
            return self.dynamic
        self.specialized[size] = run
        log.info("kernelopt: %s: calls of size %s run its static specialization from now on", self.graph,
                 _describe(size))
        if len(self.specialized) == self.limit:
            log.info("kernelopt: %s: %d specializations (specialize_max): other sizes run Inductor's dynamic module",
                     self.graph, self.limit)
        return run


def _size_of(value):
    if isinstance(value, torch.Tensor):
        return tuple(value.shape), value.stride(), value.dtype, value.device
    return value


def _describe(size: tuple) -> str:
    """The varying tensors' shapes (their sizes are what the integer inputs carry), else those integers."""
    shapes = [str(part[0]) for part in size if isinstance(part, tuple)]
    return " ".join(shapes) if shapes else str(size)
