"""Turn IR launches into `RewriteTarget`s for the proposers, and rank them.

A target is one kernel with all its launches (a rewrite replaces every launch of a kernel), or a
detect-fusion group of launches. Ranking follows the profile: `gap_us * share` when the kernel was
timed, else the static floor (bytes moved) as a stand-in; kernels already within 10% of their floor
are skipped.
"""
from __future__ import annotations

import dataclasses
import math

from kernelopt.ir.core import Module, Op, Value
from kernelopt.ir.effects import effects, launch_params, storage_root
from kernelopt.ir.types import TensorType
from kernelopt.ir.rewrite_record import VENDOR_RETURNING, TargetId, group_members, vendor_ops
from kernelopt.proposers.base import ArgSpec, KernelSpec, LaunchSpec, RewriteTarget


def kernel_spec(kernel: Op) -> KernelSpec:
    attrs = kernel.attrs
    return KernelSpec(
        name=kernel.symbol or "",
        kind=str(attrs.get("kind", "")),
        source=str(attrs.get("source", "")),
        signature=dict(attrs.get("signature") or {}),
        size_hints={str(k): int(v) for k, v in (attrs.get("size_hints") or {}).items() if isinstance(v, int)},
        provenance=str(attrs.get("provenance", "")),
    )


def launch_spec(launch: Op, kernel: Op) -> LaunchSpec:
    params = launch_params(kernel) or []
    mutated = set(kernel.attrs.get("mutated_arg_names") or [])
    args = []
    for index, arg in enumerate(launch.args):
        name = params[index] if index < len(params) else f"arg{index}"
        written = name.startswith(("out_ptr", "in_out_ptr")) or name in mutated
        value = arg.value
        if isinstance(value, Value) and isinstance(value.type, TensorType):
            t = value.type
            args.append(ArgSpec(name, True, t.sizes, t.strides, t.offset, t.dtype, written=written))
        else:
            args.append(ArgSpec(name, False, value=value if not isinstance(value, Value) else None))
    return LaunchSpec(kernel.symbol or "", tuple(args), dict(launch.attrs.get("config") or {}))


def kernel_target(module: Module, kernel_name: str) -> RewriteTarget:
    kernel = module.kernel(kernel_name)
    if kernel is None:
        raise KeyError(kernel_name)
    launches = [op for op in module.launches() if op.symbol == kernel_name]
    times = [op.attrs.get("time_us") for op in launches]
    floors = [op.attrs.get("floor_us") for op in launches]
    provenance = next((str(op.attrs["provenance"]) for op in launches if "provenance" in op.attrs), "")
    spec = kernel_spec(kernel)
    if provenance and not spec.provenance:
        spec = KernelSpec(spec.name, spec.kind, spec.source, spec.signature, spec.size_hints, provenance)
    specs = tuple(launch_spec(op, kernel) for op in launches)
    return RewriteTarget(
        id=str(TargetId.kernel(kernel_name)),
        kernels=(spec,),
        launches=specs,
        scratch_args=_kernel_scratch(module, launches, specs),
        zeroed_args=_kernel_zeroed(module, launches),
        time_us=sum(t for t in times if isinstance(t, (int, float))) or None,
        floor_us=sum(f for f in floors if isinstance(f, (int, float))) or None,
        bound=str(launches[0].attrs.get("bound", "")) if launches else "",
        precision=str(module.attrs.get("precision", "strict")),
        gpu=str(module.attrs.get("gpu", "")),
    )


def _kernel_scratch(module: Module, launches: list[Op], specs: tuple[LaunchSpec, ...]) -> tuple[int, ...]:
    """Argument positions that are scratch at every launch of the kernel (see _scratch_slots): a split scan's
    workspace, which Inductor allocates, zeroes, passes and frees. A candidate at another chunk size uses
    another part of it, which nothing observes; comparing it rejected every retune of a scan."""
    if not launches:
        return ()
    each = [set(_scratch_slots(module, [op], [tuple(range(len(op.args)))], list(spec.args)))
            for op, spec in zip(launches, specs)]
    return tuple(sorted(set.intersection(*each)))


def _kernel_zeroed(module: Module, launches: list[Op]) -> tuple[int, ...]:
    """Argument positions the module zeroes right before every launch of the kernel (see _zeroed_slots)."""
    if not launches:
        return ()
    each = [set(_zeroed_slots(module, [op], [tuple(range(len(op.args)))])) for op in launches]
    return tuple(sorted(set.intersection(*each)))


def member_values(op: Op) -> list:
    """A group member's argument values in the order of its LaunchSpec's args (what its slots hold): a launch's or
    an `out=` GEMM's arguments as called; a library call that returns its result, its tensor operands by role and
    then the result (`vendor_slots`)."""
    if op.name == "ko.extern" and op.callee in VENDOR_RETURNING:
        return [value for _, value in vendor_slots(op)]
    return [arg.value for arg in op.args]


def _zeroed_slots(module: Module, members: list[Op], positions: list[tuple]) -> tuple[int, ...]:
    """Slots whose storage a `ko.zero` sets to zero last before the first member that uses it: Inductor zeroes
    a split scan's workspace right before the scan, and each call of the module does so again."""
    first_use: dict[int, tuple[int, Value]] = {}
    for op, where in zip(members, positions):
        at = module.body.index(op)
        for value, slot in zip(member_values(op), where):
            if isinstance(value, Value) and isinstance(value.type, TensorType):
                first_use.setdefault(slot, (at, value))
    zeroed = []
    for slot, (at, value) in sorted(first_use.items()):
        root = id(storage_root(value))
        touching = [op for op in module.body[:at]
                    if any(id(storage_root(v)) == root for v in op.operands()) and op.name != "ko.alloc"]
        if touching and touching[-1].name == "ko.zero":
            zeroed.append(slot)
    return tuple(zeroed)


def priority(module: Module, kernel_name: str) -> float:
    """Larger first. Measured: gap_us * share; static: floor_us (the bytes a launch must move)."""
    launches = [op for op in module.launches() if op.symbol == kernel_name]
    score = 0.0
    for op in launches:
        gap, share = op.attrs.get("gap_us"), op.attrs.get("share")
        if isinstance(gap, (int, float)) and isinstance(share, (int, float)):
            score += gap * share
        elif isinstance(op.attrs.get("floor_us"), (int, float)):
            score += 1e-3 * op.attrs["floor_us"]
        else:
            score += 1e-6
    return score


def rank_kernels(module: Module, near_optimal: float = 0.10) -> list[tuple[str, str | None]]:
    """Kernel names worth rewriting, best first, each with None or the reason it was skipped."""
    ranked = []
    for kernel in module.kernels:
        name = kernel.symbol or ""
        launches = [op for op in module.launches() if op.symbol == name]
        if not launches:
            continue
        reason = None
        if not all(op.attrs.get("optimizable", True) for op in launches):
            reason = str(launches[0].attrs.get("reason", "not optimizable"))
        elif all(_near_floor(op, near_optimal) for op in launches):
            reason = f"already within {near_optimal:.0%} of its floor"
        elif (share := _measured_share(launches)) < NEGLIGIBLE_SHARE:
            reason = (f"{share:.1%} of the module's time: even gone, the module would be under "
                      f"{NEGLIGIBLE_SHARE:.0%} faster")
        ranked.append((name, reason))
    ranked.sort(key=lambda item: (item[1] is not None, -priority(module, item[0])))
    return ranked


# A kernel taking less of the module's measured time than this is not searched: its search would take the
# job's time from the kernels that matter (conv + group norm + mean on the H100 gave a 1.3 us launch-bound
# kernel, 0.1 % of the module, the half of the search that its fusion group then lacked).
NEGLIGIBLE_SHARE = 0.01


def _measured_share(launches: list[Op]) -> float:
    """The launches' part of the module's measured time; 1.0 where annotate-profile timed nothing (static)."""
    shares = [op.attrs.get("share") for op in launches]
    if not all(isinstance(share, (int, float)) for share in shares):
        return 1.0
    return float(sum(shares))


def _near_floor(op: Op, tolerance: float) -> bool:
    time_us, floor_us = op.attrs.get("time_us"), op.attrs.get("floor_us")
    if not isinstance(time_us, (int, float)) or not isinstance(floor_us, (int, float)) or floor_us <= 0:
        return False
    return time_us <= floor_us * (1 + tolerance)


def group_target(module: Module, group: int) -> tuple[RewriteTarget | None, str]:
    """A target for the launches of `detect-fusion` group `group`, or None and the reason why not.

    The group's arguments are the union of its launches' arguments in first-use order: a tensor
    value appears once (by SSA identity); every scalar gets its own slot. The replacement runs where
    the group's last launch ran, so no op between the first and the last launch may read what an
    earlier launch of the group wrote.
    """
    members = [op for op in module.launches() if op.attrs.get("fusion_group") == group]
    if len(members) < 2:
        return None, "fewer than two launches"
    if any(module.kernel(op.symbol or "") is None for op in members):
        return None, "a launch of an unknown kernel"
    problem = _read_in_between(module, members)
    if problem:
        return None, problem
    specs = [_with_occurrence(module, op, launch_spec(op, module.kernel(op.symbol or ""))) for op in members]
    group_args, positions = _assign_slots(members, specs, lambda value: id(value))
    target = _group_rewrite_target(module, group, members, specs, group_args, positions, [])
    scratch = _scratch_slots(module, members, positions, group_args)
    return dataclasses.replace(target, scratch_args=scratch, zeroed_args=_zeroed_slots(module, members, positions),
                               storage_slots=_storage_slots(members, positions, len(group_args))), ""


def _storage_slots(members: list[Op], positions: list[tuple], count: int) -> tuple[int, ...]:
    """Per slot, the first slot whose tensor has the same storage root (itself for scalars and unshared ones)."""
    first: dict[int, int] = {}
    found = list(range(count))
    for op, where in zip(members, positions):
        for value, slot in zip(member_values(op), where):
            if isinstance(value, Value) and isinstance(value.type, TensorType):
                found[slot] = first.setdefault(id(storage_root(value)), slot)
    return tuple(found)


# Ops whose result is storage the module made for itself: an allocation, or a library call's output (a
# convolution's, which a group may update in place). Never a module argument, which the caller sees.
MODULE_MADE = ("ko.alloc", "ko.extern")


def _scratch_slots(module: Module, members: list[Op], positions: list[tuple], group_args: list[ArgSpec]) -> tuple:
    """Written slots that hold a group's dead intermediate: storage the module made (MODULE_MADE) and that no
    op after the group uses except to free it (no read, no view, no return). Whatever a replacement leaves
    there, nothing can observe it."""
    values: dict[int, Value] = {}
    for op, where in zip(members, positions):
        for value, slot in zip(member_values(op), where):
            if isinstance(value, Value) and isinstance(value.type, TensorType):
                values.setdefault(slot, value)
    later = module.body[module.body.index(members[-1]) + 1:]
    used_later = {id(storage_root(v)) for op in later if op.name != "ko.free" for v in op.operands()}
    scratch = []
    for slot, value in sorted(values.items()):
        root = storage_root(value)
        if group_args[slot].written and root.owner is not None and root.owner.name in MODULE_MADE \
                and id(root) not in used_later:
            scratch.append(slot)
    return tuple(scratch)


def _read_in_between(module: Module, members: list[Op]) -> str:
    """Why the group cannot run at its last op's place ('' when it can)."""
    first, last = module.body.index(members[0]), module.body.index(members[-1])
    written: set[int] = set()
    for op in module.body[first:last + 1]:
        if op in members:
            written |= {id(storage_root(v)) for v in effects(op, module).writes}
        elif any(id(storage_root(v)) in written for v in effects(op, module).reads):
            return f"{op.name} at line {op.loc.line if op.loc else '?'} reads the group's results in between"
    return ""


def _with_occurrence(module: Module, op: Op, spec: LaunchSpec) -> LaunchSpec:
    """Record which captured call of the same kernel/callee holds this op's arguments (layers repeat)."""
    same = (lambda other: other.name == "ko.launch" and other.symbol == op.symbol) if op.name == "ko.launch" \
        else (lambda other: other.name == op.name and other.callee == op.callee)
    earlier = sum(1 for other in module.body[:module.body.index(op)] if same(other))
    return LaunchSpec(spec.kernel, spec.args, {**spec.config, "occurrence": earlier})


def _assign_slots(members: list[Op], specs: list[LaunchSpec], tensor_key) -> tuple[list[ArgSpec], list[tuple]]:
    """The group's argument slots in first-use order, and each member's arguments as slot numbers.

    `tensor_key(value)` says which tensor values share a slot; every scalar gets a slot of its own.
    A slot is `written` when any member writes it.
    """
    slots: dict[object, int] = {}
    group_args: list[ArgSpec] = []
    positions = []
    for op, spec in zip(members, specs):
        where = []
        for value, arg_spec in zip(member_values(op), spec.args):
            key = tensor_key(value) if isinstance(value, Value) else object()
            if key not in slots:
                slots[key] = len(group_args)
                group_args.append(arg_spec)
            elif arg_spec.written and not group_args[slots[key]].written:
                old = group_args[slots[key]]
                group_args[slots[key]] = ArgSpec(old.name, old.is_tensor, old.sizes, old.strides,
                                                 old.storage_offset, old.dtype, old.value, True)
            where.append(slots[key])
        positions.append(tuple(where))
    return group_args, positions


def _group_rewrite_target(module: Module, group: int, members: list[Op], specs, group_args, positions,
                          kernels: list[KernelSpec]) -> RewriteTarget:
    for op in members:
        if op.name != "ko.launch":
            continue
        spec = kernel_spec(module.kernel(op.symbol or ""))
        if spec.name not in [k.name for k in kernels]:
            kernels.append(spec)
    times = [op.attrs.get("time_us") for op in members]
    return RewriteTarget(
        id=str(TargetId.group(group)), kernels=tuple(kernels), launches=tuple(specs), group_args=tuple(group_args),
        group_positions=tuple(positions),
        time_us=sum(t for t in times if isinstance(t, (int, float))) or None,
        precision=str(module.attrs.get("precision", "strict")), gpu=str(module.attrs.get("gpu", "")),
    )


def fusion_groups(module: Module) -> dict[int, str | None]:
    """detect-fusion's groups: group index -> its kind ("vertical", "epilogue", ...)."""
    return {op.attrs["fusion_group"]: op.attrs.get("fusion_kind") for op in module.body
            if isinstance(op.attrs.get("fusion_group"), int)}


def fusion_target(module: Module, group: int, kind: str | None) -> tuple[RewriteTarget | None, str]:
    """The target of fusion group `group` of kind `kind`: an epilogue group (a vendor GEMM and the launch after
    it), a prologue group (a launch and the GEMM after it) and a reduction-epilogue group (a GEMM or a convolution
    and the reduction reading its output) have one Triton launch, which group_target declines, so they are built by
    epilogue_target (both library-first kinds) and prologue_target."""
    build = {"epilogue": epilogue_target, "prologue": prologue_target,
             "reduction-epilogue": epilogue_target}.get(kind or "", group_target)
    return build(module, group)


VENDOR_POSITIONAL = {"extern_kernels.mm": ("mat1", "mat2"), "extern_kernels.addmm": ("input", "mat1", "mat2")}


def epilogue_target(module: Module, group: int) -> tuple[RewriteTarget | None, str]:
    """A target for `detect-fusion` epilogue or reduction-epilogue group `group`: a vendor GEMM (or convolution) and
    the Triton launches after it.

    `kernels[0]` is a KernelSpec of kind "vendor" named after the callee ("extern_kernels.addmm");
    `launches[0]` is the GEMM with its arguments in call order (addmm: input, mat1, mat2, alpha,
    beta, out; mm: mat1, mat2, out), then the group's Triton launches. `group_args` is the union in
    first-use order, so the GEMM's operands come first, then its `out`, then what the launches add
    (tensors the GEMM does not touch, scalars). Tensors are one slot per storage and layout, where
    all contiguous views of one storage with the same offset and element count are one layout, so
    the launch's in-place view of the GEMM output (`buf1 = buf0  # reuse`, or a reinterpret_tensor
    reshaping it) is the GEMM's `out` slot (with the GEMM's sizes and strides).
    Each LaunchSpec's config carries `occurrence`: how many earlier calls of the same callee or
    kernel the module makes (which captured call holds this one's arguments). `scratch_args` and
    `storage_slots` are a vertical group's: the call's output, where nothing reads it after the group,
    is scratch, so a replacement that never forms it (sum-through-gemm, window-through-gemm) is
    compared on the launches' results alone.
    """
    members = group_members(module, group)
    if len(members) < 2 or members[0].name != "ko.extern" or any(op.name != "ko.launch" for op in members[1:]):
        return None, "not a vendor call followed by Triton launches"
    specs, why = _library_group_specs(module, members)
    if specs is None:
        return None, why
    group_args, positions = _assign_slots(members, specs, _layout_slot)
    gemm = members[0]
    kernels = [KernelSpec(gemm.callee, "vendor", "", provenance=str(gemm.attrs.get("provenance", "")))]
    target = _group_rewrite_target(module, group, members, specs, group_args, positions, kernels)
    return dataclasses.replace(
        target, scratch_args=_scratch_slots(module, members, list(positions), list(group_args)),
        storage_slots=_storage_slots(members, list(positions), len(group_args))), ""


def prologue_target(module: Module, group: int) -> tuple[RewriteTarget | None, str]:
    """A target for `detect-fusion` prologue group `group`: a Triton pointwise launch, then the vendor GEMM
    that reads what it wrote.

    `launches` are the launch, then the GEMM with its arguments in call order (mm: mat1, mat2, out); slots are
    assigned as in epilogue_target (one per storage and layout). `kernels` are the launch's kernel, then a
    KernelSpec of kind "vendor" named after the callee. `scratch_args` and `storage_slots` are a vertical
    group's: the operand the launch built is scratch where nothing reads it after the GEMM, and a view of it
    the GEMM reads in another layout (a transposed `reinterpret_tensor`) shares the launch's storage slot.
    """
    members = group_members(module, group)
    if [op.name for op in members] != ["ko.launch", "ko.extern"]:
        return None, "not a Triton launch followed by a vendor GEMM"
    specs, why = _library_group_specs(module, members)
    if specs is None:
        return None, why
    group_args, positions = _assign_slots(members, specs, _layout_slot)
    gemm = members[1]
    target = _group_rewrite_target(module, group, members, specs, group_args, positions, [])
    vendor = KernelSpec(gemm.callee, "vendor", "", provenance=str(gemm.attrs.get("provenance", "")))
    return dataclasses.replace(
        target, kernels=target.kernels + (vendor,), scratch_args=_scratch_slots(module, members, positions, group_args),
        storage_slots=_storage_slots(members, positions, len(group_args))), ""


def _layout_slot(value: Value) -> object:
    """The slot key of a library group's tensors: one per storage and layout (see epilogue_target)."""
    return _layout_key(value, storage_root(value)) if isinstance(value.type, TensorType) else object()


def _library_group_specs(module: Module, members: list[Op]) -> tuple[list[LaunchSpec] | None, str]:
    """The LaunchSpecs of a group of Triton launches and one vendor GEMM or convolution (in program order), or None
    and why: an `out=` GEMM's arguments in call order, a convolution's as its vendor target has them (operands by
    role, then its result as `out`, `returns: True`), each spec's config with its `occurrence`."""
    specs = []
    for op in members:
        if op.name == "ko.launch":
            kernel = module.kernel(op.symbol or "")
            if kernel is None:
                return None, "a launch of an unknown kernel"
            specs.append(_with_occurrence(module, op, launch_spec(op, kernel)))
            continue
        if op.callee in VENDOR_RETURNING:
            spec, why = _returning_launch(module, op)
            if spec is None:
                return None, why
            specs.append(spec)
            continue
        if op.callee not in VENDOR_POSITIONAL:
            return None, f"{op.callee} is not a GEMM this target handles"
        positional = VENDOR_POSITIONAL[op.callee]
        if sum(1 for a in op.args if a.keyword is None) != len(positional) or op.keyword("out") is None:
            return None, f"{op.callee} is called with other arguments than {', '.join(positional)}, ..., out="
        gemm_args = []
        for index, arg in enumerate(op.args):
            name = arg.keyword or positional[index]
            value = arg.value
            if isinstance(value, Value) and isinstance(value.type, TensorType):
                t = value.type
                gemm_args.append(ArgSpec(name, True, t.sizes, t.strides, t.offset, t.dtype, written=name == "out"))
            else:
                gemm_args.append(ArgSpec(name, False, value=None if isinstance(value, Value) else value))
        specs.append(_with_occurrence(module, op, LaunchSpec(op.callee, tuple(gemm_args))))
    problem = _read_in_between(module, members)
    return (None, problem) if problem else (specs, "")


def _layout_key(value: Value, root: Value) -> tuple:
    """Tensors with equal keys address the same elements in the same order (see epilogue_target)."""
    t = value.type
    expected, contiguous = 1, True
    for size, stride in reversed(list(zip(t.sizes, t.strides))):
        if size != 1 and stride != expected:
            contiguous = False
        expected *= size
    if contiguous:
        return (id(root), "contiguous", math.prod(t.sizes), t.offset, t.dtype)
    return (id(root), t.sizes, t.strides, t.offset, t.dtype)


def vendor_operands(positional, keywords: dict) -> dict:
    """A vendor call's tensor operands by role, from its positional arguments and keywords (IR values
    or captured tensors alike): input, weight and bias, which Inductor passes positionally or as a
    keyword (None when there is none)."""
    bias = positional[2] if len(positional) > 2 else keywords.get("bias")
    return {"input": positional[0], "weight": positional[1], "bias": bias}


def vendor_slots(op: Op) -> list[tuple[str, Value]]:
    """A vendor target's slots in order (see vendor_target): its tensor operands, then its result."""
    operands = vendor_operands([a.value for a in op.args if a.keyword is None],
                               {a.keyword: a.value for a in op.args if a.keyword is not None})
    return [(role, value) for role, value in operands.items() if value is not None] + [("out", op.result)]


def vendor_target(module: Module, op: Op) -> tuple[RewriteTarget | None, str]:
    """A target for one library call that returns its result (`buf1 = extern_kernels.convolution(...)`).

    `kernels[0]` is a KernelSpec of kind "vendor" named after the callee; `launches[0]` has the tensor
    operands by role — `input`, `weight`, `bias` when given — then `out`, a written slot with the
    result's sizes, strides and dtype; its config carries the call's literal keywords (`kwargs`),
    `returns: True` and the call's `occurrence` among calls of the same callee. A candidate writes the
    result into `out`, which the committed rewrite allocates where the call was; the evaluator replays
    the original as the call followed by a copy into `out`.
    """
    launch, why = _returning_launch(module, op)
    if launch is None:
        return None, why
    args = launch.args
    number = vendor_ops(module).index(op)
    return RewriteTarget(
        id=str(TargetId.vendor(number)),
        kernels=(KernelSpec(op.callee, "vendor", "", provenance=str(op.attrs.get("provenance", ""))),),
        launches=(launch,), group_args=args, group_positions=(tuple(range(len(args))),),
        time_us=op.attrs.get("time_us") if isinstance(op.attrs.get("time_us"), (int, float)) else None,
        floor_us=op.attrs.get("floor_us") if isinstance(op.attrs.get("floor_us"), (int, float)) else None,
        bound=str(op.attrs.get("bound", "")), precision=str(module.attrs.get("precision", "strict")),
        gpu=str(module.attrs.get("gpu", "")),
    ), ""


def _returning_launch(module: Module, op: Op) -> tuple[LaunchSpec | None, str]:
    """The LaunchSpec of a library call that returns its result (see vendor_target), or None and why."""
    if op.callee not in VENDOR_RETURNING:
        return None, f"{op.callee} is not a library call a vendor target handles"
    if len(op.results) != 1 or not isinstance(op.result.type, TensorType):
        return None, f"{op.callee} does not return one tensor"
    positional = [a.value for a in op.args if a.keyword is None]
    if len(positional) not in (2, 3) or not all(isinstance(v, Value) and isinstance(v.type, TensorType)
                                                for v in positional[:2]):
        return None, f"{op.callee} is not called as (input, weight, [bias], **literals)"
    kwargs = {a.keyword: a.value for a in op.args if a.keyword is not None and a.keyword != "bias"}
    if any(isinstance(v, Value) for v in kwargs.values()):
        return None, f"{op.callee} takes a tensor keyword other than bias"
    bias = vendor_operands(positional, {"bias": op.keyword("bias")})["bias"]
    if bias is not None and not isinstance(bias, Value):
        return None, f"{op.callee} has a bias that is not a tensor"
    args = tuple(ArgSpec(name, True, v.type.sizes, v.type.strides, v.type.offset, v.type.dtype, written=name == "out")
                 for name, v in vendor_slots(op))
    config = {"kwargs": {k: (list(v) if isinstance(v, tuple) else v) for k, v in kwargs.items()}, "returns": True}
    return _with_occurrence(module, op, LaunchSpec(op.callee, args, config)), ""

