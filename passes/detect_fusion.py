"""detect-fusion: mark groups of launches that could run as one kernel.

Reads the data-flow graph (`module.dataflow()`: RAW/WAR/WAW edges on storage, from `ir.effects`)
and grows disjoint groups in program order:
- `vertical`: a Triton launch and the Triton launches consuming what it wrote (producer → consumers);
- `epilogue`: a vendor GEMM/convolution and the Triton pointwise launches consuming its output;
- `prologue`: a Triton pointwise launch and the vendor GEMM that is the only op reading what it wrote
  (formed after the vertical and epilogue groups, from launches and GEMMs those left alone: a GEMM
  operand that a kernel builds, such as a diagonal matrix, may make the GEMM itself unnecessary);
- `reduction-epilogue`: a vendor GEMM or convolution and the one Triton reduction launch reading its output,
  when nothing else reads it (formed after the prologue groups, from what the earlier sweeps left: a sum of
  the library op's outputs over some of its dimensions may make the op itself unnecessary). Where that reduction
  is split in two (partial results, then one reduction merging them), the group takes the first half, before the
  vertical sweep could pair the halves: the merge stays outside. Before the vertical sweep too: a vendor GEMM or
  convolution and its one Triton reader (pointwise or reduction) where that reader sums windows of its output,
  equal-weight sums of several loads per lane (an average pool: its windows may make the library op coarser),
  as an `epilogue` or `reduction-epilogue` group of two (a convolution's readers read the value it returns,
  not an `out=` buffer, so the epilogue sweep, which follows storage, never pairs them), or of three where a
  pointwise launch sits between them (a GPU module adds a convolution's bias in a kernel of its own);
- `horizontal`: Triton launches, independent of each other, reading the same input.
A group is legal only when no op outside it, between its first and last member, writes a buffer the
group reads or writes, or reads a buffer a later member writes (the fused kernel would change what
that op sees). Intermediates a group's members pass along that are also read after the group (or
returned) escape: the fused kernel must still write them; they are listed in `escapes`.
Sets on members: `fusion_group`, `fusion_role` (producer | consumer | sibling), `fusion_kind`;
on the group's first member also `escapes`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kernelopt.ir.core import Module, Op, Value
from kernelopt.ir.effects import effects, storage_root
from kernelopt.ir.types import TensorType

from .base import Pass, PassContext
from .classify_dispatch import classify_kernel, classify_library_call

EPILOGUE_PRODUCERS = ("vendor.cublas", "vendor.cudnn")
PROLOGUE_CONSUMERS = ("vendor.cublas",)
REDUCTION_EPILOGUES = ("triton.reduction", "triton.persistent_reduction")


@dataclass
class _OpFacts:
    index: int
    op: Op
    dispatch: str
    reads: set[int]          # id() of storage roots
    writes: set[int]


@dataclass
class _Group:
    kind: str
    members: list[_OpFacts] = field(default_factory=list)

    @property
    def indices(self) -> set[int]:
        return {m.index for m in self.members}


def _describe(op: Op) -> str:
    if op.name == "ko.launch":
        return f"@{op.symbol}"
    if op.callee:
        return f'{op.name} "{op.callee}"'
    return op.name


def _where(op: Op) -> str:
    return f" (line {op.loc.line})" if op.loc is not None else ""


def _kernel_params(module: Module, launch: Op) -> tuple[str, object, list[str]] | None:
    """(the launched kernel's source, its function's AST, its parameter names), or None where its source is missing
    or does not parse."""
    # lazy: the kernel analysis loads only where a library call has a Triton reader
    from kernelopt.proposers.index_values import parse_kernel
    from kernelopt.proposers.linear_reads import NotLinear

    kernel = module.kernel_table().get(launch.symbol or "")
    source = kernel.attrs.get("source") if kernel is not None else None
    if not isinstance(source, str):
        return None
    try:
        _, function = parse_kernel(source, launch.symbol, NotLinear)
    except NotLinear:
        return None
    return source, function, [a.arg for a in function.args.args]


def _written(module: Module, library: Op) -> set[int]:
    """The storages a library op writes: an `out=` GEMM's buffer, a convolution's returned output."""
    return {id(storage_root(v)) for v in [*effects(library, module).writes, *library.results]}


def _channel_affine(module: Module, library: Op, launch: Op) -> bool:
    """Whether `launch` maps what `library` wrote to m = a[c] * y + b[c], element by element (channel_affine): a
    bias or a batch norm in eval mode, which a window's sum goes through. Anything else between a library op and
    its pool (an activation) is left to the vertical sweep, which may fuse it with the pool."""
    # lazy: the kernel analysis loads only where a library call has a Triton reader
    from kernelopt.proposers.channel_affine import NotChannelAffine, read_channel_affine

    parsed = _kernel_params(module, launch)
    if parsed is None:
        return False
    source, _, params = parsed
    written = _written(module, library)
    changed = {id(storage_root(v)) for v in effects(launch, module).writes}
    tensors = [(params[i], v) for i, v in enumerate(launch.positional())
               if i < len(params) and isinstance(v, Value) and isinstance(v.type, TensorType)]
    reads = [(name, v) for name, v in tensors if id(storage_root(v)) in written]
    # in place, the one parameter both reads y and writes m
    outs = [(name, v) for name, v in tensors if id(storage_root(v)) in changed]
    if len(reads) != 1 or len(outs) != 1:
        return False

    def layout(value) -> tuple:
        return tuple(value.type.sizes), tuple(value.type.strides), value.type.offset

    try:
        read_channel_affine(source, launch.symbol, reads[0][0], layout(reads[0][1]), outs[0][0], layout(outs[0][1]))
    except NotChannelAffine:
        return False
    return True


def _sums_windows(module: Module, library: Op, launch: Op) -> bool:
    """Whether `launch` passes what `library` wrote to a kernel parameter that the kernel loads more than once per
    lane and reads only through one equal-weight sum of those loads (window_reads)."""
    # lazy: the kernel analysis loads only where a library call has a Triton reader
    from kernelopt.proposers.linear_reads import NotLinear
    from kernelopt.proposers.window_reads import window_loads, window_reads

    parsed = _kernel_params(module, launch)
    written = _written(module, library)
    if parsed is None or not written:
        return False
    _, function, params = parsed
    for index, value in enumerate(launch.positional()):
        if index < len(params) and isinstance(value, Value) and id(storage_root(value)) in written \
                and window_loads(function, params[index]) > 1:
            try:
                window_reads(function, params[index])
            except NotLinear:
                return False
            return True
    return False


@dataclass(frozen=True)
class DetectFusion(Pass):
    name = "detect-fusion"
    summary = ("Mark groups of launches that could run as one kernel (vertical, epilogue, prologue, "
               "reduction-epilogue, horizontal)")
    statistics = ("groups", "vertical", "epilogue", "prologue", "reduction-epilogue", "horizontal")
    max_group: int = field(default=4, metadata={"help": "largest number of ops in one group"})

    def apply(self, ctx: PassContext, module: Module) -> None:
        graph = module.dataflow()
        facts = self._facts(module)
        names = {id(storage_root(v)): storage_root(v).name for op in module.body for v in op.operands()}
        assigned: set[int] = set()
        groups: list[_Group] = []
        # one sweep per kind, in this order: a later kind takes only what the earlier ones left
        sweeps = ((lambda i: facts[i].dispatch in EPILOGUE_PRODUCERS,
                   lambda i: self._grow_reduction_epilogue(module, graph, facts, i, assigned, split_only=True)),
                  (lambda i: facts[i].dispatch in EPILOGUE_PRODUCERS,
                   lambda i: self._grow_windowed(module, graph, facts, i, assigned)),
                  (lambda i: True, lambda i: self._grow_vertical(ctx, graph, facts, i, assigned)),
                  (lambda i: True, lambda i: self._grow_prologue(module, graph, facts, i, assigned)),
                  (lambda i: facts[i].dispatch in EPILOGUE_PRODUCERS,
                   lambda i: self._grow_reduction_epilogue(module, graph, facts, i, assigned)),
                  (lambda i: facts[i].dispatch.startswith("triton."),
                   lambda i: self._grow_horizontal(ctx, graph, facts, i, assigned)))
        for eligible, grow in sweeps:
            for index in sorted(facts):
                if index in assigned or not eligible(index):
                    continue
                group = grow(index)
                if group is not None:
                    groups.append(group)
                    assigned |= group.indices
        groups.sort(key=lambda g: min(g.indices))
        for number, group in enumerate(groups):
            self._mark(ctx, module, graph, facts, names, number, group)

    # -- facts -----------------------------------------------------------------------------------
    @staticmethod
    def _facts(module: Module) -> dict[int, _OpFacts]:
        kernels = module.kernel_table()
        table = {}
        for index, op in enumerate(module.body):
            if op.name == "ko.launch":
                dispatch = classify_kernel(kernels.get(op.symbol or ""))
            elif op.name in ("ko.extern", "ko.call"):
                dispatch = classify_library_call(op.callee or "")
            else:
                continue
            eff = effects(op, module)
            table[index] = _OpFacts(index, op, dispatch, {id(storage_root(v)) for v in eff.reads},
                                    {id(storage_root(v)) for v in eff.writes})
        return table

    # -- growing groups --------------------------------------------------------------------------
    def _grow_vertical(self, ctx, graph, facts, start: int, assigned: set[int]) -> _Group | None:
        first = facts[start]
        if first.dispatch in EPILOGUE_PRODUCERS:
            kind = "epilogue"
        elif first.dispatch.startswith("triton."):
            kind = "vertical"
        else:
            return None
        group = _Group(kind, [first])
        frontier = [start]
        while frontier:
            producer = frontier.pop(0)
            for consumer in sorted(s for s in graph.successors(producer)
                                   if "raw" in graph.edges[producer, s]["kinds"] and s in facts):
                if consumer in assigned or consumer in group.indices:
                    continue
                if not self._accepts(ctx, group, facts[consumer], facts, graph):
                    continue
                group.members.append(facts[consumer])
                frontier.append(consumer)
        return group if len(group.members) > 1 else None

    def _accepts(self, ctx, group: _Group, candidate: _OpFacts, facts, graph) -> bool:
        lead = group.members[0].op
        if not candidate.dispatch.startswith("triton."):
            return False  # a library call runs its own kernel: it can only start a group
        if group.kind == "epilogue" and candidate.dispatch != "triton.pointwise":
            ctx.remark(candidate.op, f"not fusing {_describe(candidate.op)} as an epilogue of "
                                     f"{_describe(lead)}{_where(lead)}: only pointwise kernels fold into a "
                                     f"vendor {group.members[0].dispatch.split('.')[1]} epilogue")
            return False
        if len(group.members) >= self.max_group:
            ctx.remark(candidate.op, f"not fusing {_describe(candidate.op)} into the group of "
                                     f"{_describe(lead)}{_where(lead)}: the group already has "
                                     f"max-group={self.max_group} ops")
            return False
        blocker = self._blocker(group.members + [candidate], facts)
        if blocker is not None:
            # the group may grow past this op later: name its members as they were when this op was refused,
            # or a later "the group already has max-group ops" reads as a contradiction
            so_far = f" (the group then: {', '.join(_describe(m.op) for m in group.members)})" \
                if len(group.members) > 1 else ""
            ctx.remark(candidate.op, f"not fusing {_describe(candidate.op)} with {_describe(lead)}{_where(lead)}"
                                     f"{so_far}: {blocker}")
            return False
        return True

    def _grow_prologue(self, module, graph, facts, start: int, assigned: set[int]) -> _Group | None:
        """A pointwise launch and the one vendor GEMM that reads what it wrote, when no other op reads it (nor
        returns it) after the GEMM either."""
        first = facts[start]
        if first.dispatch != "triton.pointwise":
            return None
        readers = [s for s in graph.successors(start) if s in facts and "raw" in graph.edges[start, s]["kinds"]]
        if len(readers) != 1 or readers[0] in assigned or facts[readers[0]].dispatch not in PROLOGUE_CONSUMERS:
            return None
        gemm = facts[readers[0]]
        if self._blocker([first, gemm], facts) is not None or self._escapes(module, [first, gemm]):
            return None
        return _Group("prologue", [first, gemm])

    def _grow_reduction_epilogue(self, module, graph, facts, start: int, assigned: set[int],
                                 split_only: bool = False) -> _Group | None:
        """A vendor GEMM or convolution and the one Triton reduction launch that reads its output, when no other op
        reads it (nor returns it) afterwards. With `split_only`, only where that reduction is the first half of a
        split one (its results read by one Triton reduction alone, which merges them): that sweep runs before the
        vertical one, which would otherwise take the two halves together, leaving the library op no reader to pair
        with (the merge then runs as written, after the group)."""
        gemm = facts[start]
        readers = self._readers(graph, facts, start)
        if len(readers) != 1 or readers[0] in assigned or facts[readers[0]].dispatch not in REDUCTION_EPILOGUES:
            return None
        if split_only:
            merges = self._readers(graph, facts, readers[0])
            if len(merges) != 1 or merges[0] in assigned or facts[merges[0]].dispatch not in REDUCTION_EPILOGUES:
                return None
        reduction = facts[readers[0]]
        if self._blocker([gemm, reduction], facts) is not None or self._escapes(module, [gemm, reduction]):
            return None
        return _Group("reduction-epilogue", [gemm, reduction])

    def _grow_windowed(self, module, graph, facts, start: int, assigned: set[int]) -> _Group | None:
        """A vendor GEMM or convolution and the one Triton launch (pointwise or reduction) reading its output, where
        that launch reads it only through equal-weight sums of several loads per lane (an average pool's windows,
        proven by window_reads): taken before the vertical sweep, which would pair the pool with what reads it
        next (a softmax of the pooled values), since the pool's windows may make the library op itself cheaper.
        Between the two there may be one pointwise launch that alone reads the library op's output and that the
        window reader alone reads after it: on a GPU, Inductor adds a convolution's bias in a kernel of its own
        (in place, or into a new buffer) when a pool reads each element several times (a group of three; the
        proposer proves what that kernel computes)."""
        library = facts[start]
        readers = self._readers(graph, facts, start)
        if not readers or len(readers) > 2 or any(r in assigned for r in readers):
            return None
        first = facts[min(readers)]
        if len(readers) == 1 and first.dispatch in ("triton.pointwise", *REDUCTION_EPILOGUES) \
                and _sums_windows(module, library.op, first.op):
            members = [library, first]
        else:
            # an in-place bias kernel leaves the pool reading the library op's storage too (two readers)
            after = self._readers(graph, facts, first.index)
            if first.dispatch != "triton.pointwise" or len(after) != 1 or after[0] in assigned \
                    or (len(readers) == 2 and max(readers) != after[0]):
                return None
            members = [library, first, facts[after[0]]]
            if members[2].dispatch not in ("triton.pointwise", *REDUCTION_EPILOGUES) \
                    or not _sums_windows(module, first.op, members[2].op) \
                    or not _channel_affine(module, library.op, first.op):
                return None
        if self._blocker(members, facts) is not None or self._escapes(module, members):
            return None
        return _Group("epilogue" if members[-1].dispatch == "triton.pointwise" else "reduction-epilogue", members)

    @staticmethod
    def _readers(graph, facts, start: int) -> list[int]:
        """The launches and calls that read what op `start` wrote: an `out=` GEMM's or a launch's readers read its
        storage (raw); a convolution's read the value it returns (ssa), directly or through a buffer reused under
        another name (`buf1 = buf0; del buf0  # reuse`, which an in-place bias kernel then updates)."""
        found, seen, frontier = set(), {start}, [start]
        while frontier:
            at = frontier.pop()
            for s in graph.successors(at):
                kinds = graph.edges[at, s]["kinds"]
                if s in facts and kinds & {"raw", "ssa"}:
                    found.add(s)
                elif s not in facts and s not in seen and "ssa" in kinds and graph.nodes[s].get("op") is not None \
                        and graph.nodes[s]["op"].name == "ko.reuse":
                    seen.add(s)
                    frontier.append(s)
        return sorted(found)

    def _grow_horizontal(self, ctx, graph, facts, start: int, assigned: set[int]) -> _Group | None:
        first = facts[start]
        group = _Group("horizontal", [first])
        shared = set(first.reads) - set(first.writes)
        for index in sorted(facts):
            other = facts[index]
            if index <= start or index in assigned or not other.dispatch.startswith("triton."):
                continue
            if not (shared & other.reads):
                continue
            if any(self._dependent(m, other) for m in group.members):
                continue
            if len(group.members) >= self.max_group:
                ctx.remark(other.op, f"not grouping {_describe(other.op)} with {_describe(first.op)}"
                                     f"{_where(first.op)}: the group already has max-group={self.max_group} ops")
                break
            blocker = self._blocker(group.members + [other], facts)
            if blocker is not None:
                ctx.remark(other.op, f"not grouping {_describe(other.op)} with {_describe(first.op)}"
                                     f"{_where(first.op)}: {blocker}")
                continue
            group.members.append(other)
            shared &= other.reads
        return group if len(group.members) > 1 else None

    @staticmethod
    def _dependent(a: _OpFacts, b: _OpFacts) -> bool:
        return bool(a.writes & (b.reads | b.writes) or b.writes & a.reads)

    @staticmethod
    def _blocker(members: list[_OpFacts], facts) -> str | None:
        """Why these ops cannot run as one kernel, or None when they can (see the module docstring)."""
        indices = sorted(m.index for m in members)
        touched = set().union(*(m.reads | m.writes for m in members))
        for between in range(indices[0] + 1, indices[-1]):
            if between in indices:
                continue
            other = facts.get(between)
            if other is None:
                continue  # glue and metadata ops have no effects on storage
            clash = other.writes & touched
            if clash:
                return f"{_describe(other.op)}{_where(other.op)} writes a buffer the group uses in between"
            later_writes = set().union(*(m.writes for m in members if m.index > between))
            if other.reads & later_writes:
                return (f"{_describe(other.op)}{_where(other.op)} reads, in between, a buffer a later "
                        f"member overwrites")
        return None

    # -- marking ---------------------------------------------------------------------------------
    def _mark(self, ctx, module, graph, facts, names, number: int, group: _Group) -> None:
        ordered = sorted(group.members, key=lambda m: m.index)
        for position, member in enumerate(ordered):
            member.op.attrs["fusion_group"] = number
            member.op.attrs["fusion_kind"] = group.kind
            member.op.attrs["fusion_role"] = ("sibling" if group.kind == "horizontal"
                                              else "producer" if position == 0 else "consumer")
        ordered[0].op.attrs["escapes"] = [names.get(s, "?") for s in self._escapes(module, ordered)]
        ctx.stat("groups")
        ctx.stat(group.kind)

    @staticmethod
    def _escapes(module: Module, ordered: list[_OpFacts]) -> list[int]:
        """Storages written by a member, read by a later member, and read again after the group."""
        intermediates: list[int] = []
        for position, member in enumerate(ordered):
            for storage in member.writes:
                if storage not in intermediates and any(storage in later.reads for later in ordered[position + 1:]):
                    intermediates.append(storage)
        last = ordered[-1].index
        escaping = []
        for storage in intermediates:
            for op in module.body[last + 1:]:
                eff = effects(op, module)
                if storage in {id(storage_root(v)) for v in eff.reads}:
                    escaping.append(storage)
                    break
                if storage in {id(storage_root(v)) for v in eff.writes}:
                    break  # overwritten before anyone reads it again
        return escaping
