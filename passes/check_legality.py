"""check-legality: re-prove every proposed rewrite, then commit it or revert it.

Each `rewrite = {status = "proposed", ...}` left by `agentic-rewrite` is checked again by the
legality gate on fresh seeds (different from those the search used) on every launch it replaces.
Accepted: the status becomes "accepted" with the gate's evidence, and a fusion-group rewrite is
committed to the IR (a `ko.kernel` of kind "candidate" holding the replacement, launched where the
group's last launch ran; the group's launches are removed). Rejected: the rewrite is removed and
`rewrite_rejected` records why. Nothing unproven reaches `emit-python`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from kernelopt.ir.core import Arg, Module, Op, Value
from kernelopt.ir.effects import storage_root

from kernelopt.ir import rewrite_record
from .base import Pass, PassContext
from kernelopt.ir.rewrite_record import RewriteRecord, group_members

FRESH_SEEDS = (1009, 2017, 4099)


@dataclass(frozen=True)
class CheckLegality(Pass):
    name = "check-legality"
    summary = "Re-check every proposed rewrite on fresh inputs; commit the legal ones, revert the rest"
    statistics = ("checked", "accepted", "rejected")
    seeds: list[int] = field(default_factory=lambda: list(FRESH_SEEDS),
                             metadata={"help": "random seeds for the fresh inputs"})

    def apply(self, ctx: PassContext, module: Module) -> None:
        proposed = rewrite_record.with_status(module, rewrite_record.PROPOSED)
        if not proposed:
            return
        evaluator = self._evaluator(ctx, module)
        for op in proposed:
            ctx.stat("checked")
            record = rewrite_record.read(op)
            target = self._target(module, op, record)
            verdict = self._check(evaluator, target, record.source, module)
            if verdict.accepted:
                ctx.stat("accepted")
                self._commit(module, op, verdict)
                ctx.remark(op, f"rewrite of {target.id} accepted ({verdict.cases_run} cases, worst relative "
                               f"error {verdict.worst_rel_err:.3g})")
            else:
                ctx.stat("rejected")
                del op.attrs[rewrite_record.ATTR]
                op.attrs["rewrite_rejected"] = f"{verdict.check}: {verdict.reason}"
                ctx.remark(op, f"rewrite of {target.id} reverted: {verdict.check}: {verdict.reason}")

    @staticmethod
    def _evaluator(ctx: PassContext, module: Module):
        # lazy: start-up: kernelopt-opt imports every pass for its registry; the evaluator pulls torch
        from kernelopt.rewrite.evaluate import ModuleEvaluator

        return ModuleEvaluator.for_module(module, ctx.options.get("inputs"), ctx.device())

    @staticmethod
    def _target(module: Module, op: Op, record: RewriteRecord):
        # lazy: start-up: kernelopt-opt imports every pass for its registry; targets load when it runs
        from kernelopt.rewrite.targets import fusion_target, kernel_target, vendor_target

        if op.name == "ko.kernel":
            return kernel_target(module, op.symbol or "")
        if op.name == "ko.extern" and record.group is None:   # a group's record may sit on its last member, a GEMM
            target, why = vendor_target(module, op)
            if target is None:
                raise ValueError(f"{op.callee} is no longer a vendor target: {why}")
            return target
        target, why = fusion_target(module, int(record.group), record.group_kind)
        if target is None:
            raise ValueError(f"fusion group {record.group} is no longer a valid group: {why}")
        return target

    def _check(self, evaluator, target, source: str, module: Module):
        # lazy: start-up: kernelopt-opt imports every pass for its registry; legality pulls torch
        from kernelopt.legality import check_candidate

        return check_candidate(
            evaluator.original_runner(target), source, evaluator.launch_inputs(target),
            output_args=evaluator.output_positions(target), scratch_args=target.scratch_args,
            precision=str(module.attrs.get("precision", "strict")),
            reference_fn=evaluator.reference_runner(target),     # the same float64 reference the search used
            original_source=target.kernels[0].source, seeds=tuple(self.seeds),
            arg_names=[a.name for a in (target.group_args or target.launches[0].args)])

    @staticmethod
    def _commit(module: Module, op: Op, verdict) -> None:
        record = rewrite_record.read(op).accepted({
            "verdict": verdict.line(), "cases_run": verdict.cases_run, "worst_rel_err": float(verdict.worst_rel_err)})
        if op.name == "ko.kernel":
            rewrite_record.write(op, record)
            return
        if op.name == "ko.extern" and record.group is None:
            _commit_vendor_call(module, op, record)
            return
        # lazy: start-up: kernelopt-opt imports every pass for its registry; targets load when it runs
        from kernelopt.rewrite.targets import member_values

        group = int(record.group)
        members = group_members(module, group)
        slots: dict[int, object] = {}
        for member, where in zip(members, record.group_positions):
            for value, slot in zip(member_values(member), where):
                slots[slot] = value  # the latest name of a slot is the one alive where the group ends
        start = module.body.index(members[0])
        # a prologue group ends with a library call, which has no kernel symbol to name the replacement after
        name = f"{next((m.symbol for m in reversed(members) if m.symbol), 'fused')}_group{group}"
        _add_candidate_kernel(module, name, record)
        launch = Op("ko.launch", symbol=name, args=[Arg(slots[i]) for i in range(len(slots))],
                    attrs={"rewrite_of": list(record.replaces), "fusion_group": group,
                           "replaced": [_figures_of(member) for member in members]}, loc=members[-1].loc)
        module.insert(module.body.index(members[-1]) + 1, launch)
        for member in members:
            if member.name == "ko.extern" and member.results:
                # a library call's result is a slot: an allocation takes it over where the call was
                module.replace(member, [Op("ko.alloc", results=[member.result], loc=member.loc,
                                           attrs={"replaces_call": member.callee})])
            else:
                module.erase(member)
        _defer_frees(module, start, launch)
        for symbol in {m.symbol for m in members if m.symbol}:
            if not any(l.symbol == symbol for l in module.launches()):
                kernel = module.kernel(symbol)
                if kernel is not None:
                    module.erase(kernel)


def _add_candidate_kernel(module: Module, name: str, record: RewriteRecord) -> None:
    """The `ko.kernel` of kind "candidate" that holds a committed replacement (emit-python writes its source)."""
    kept = dataclasses.replace(record, source=None)   # the source is the kernel's own attribute
    module.add_kernel(Op("ko.kernel", symbol=name, attrs={
        "kind": "candidate", "source": record.source, rewrite_record.ATTR: kept.to_attrs()}))


def _defer_frees(module: Module, start: int, launch: Op) -> None:
    """Move the `del`s of buffers the replacement reads from inside the group's span to just after it.

    The replacement runs where the group's last member ran, but Inductor frees a GEMM's operands right
    after the GEMM (`extern_kernels.addmm(...); del arg1_1; ...; gelu.run(buf1)`): left in place, those
    frees would now come before their last use.
    """
    used = set()
    for arg in launch.args:
        if isinstance(arg.value, Value):
            used |= {id(arg.value), id(storage_root(arg.value))}
    end = module.body.index(launch)
    moved = [op for op in module.body[start:end] if op.name == "ko.free" and isinstance(op.args[0].value, Value)
             and (id(op.args[0].value) in used or id(storage_root(op.args[0].value)) in used)]
    module.move_after(launch, moved)


def _commit_vendor_call(module: Module, op: Op, record: RewriteRecord) -> None:
    """Replace a library call that returns its result by an allocation of that result and a launch of
    the replacement writing into it (the target's slots: input, weight, [bias], out)."""
    # lazy: start-up: kernelopt-opt imports every pass for its registry; targets load when it runs
    from kernelopt.rewrite.targets import vendor_slots

    slots = [value for _, value in vendor_slots(op)]
    name = f"{op.callee.split('.')[-1]}_vendor{len(module.kernels)}"
    _add_candidate_kernel(module, name, record)
    # The allocation takes over the call's result (its users keep reading the same value).
    alloc = Op("ko.alloc", results=[op.result], loc=op.loc, attrs={"replaces_call": op.callee})
    launch = Op("ko.launch", symbol=name, args=[Arg(v) for v in slots], loc=op.loc,
                attrs={"rewrite_of": [op.callee], "replaced": [_figures_of(op)]})
    module.replace(op, [alloc, launch])


# What the analysis passes recorded on a launch: kept for the launches a group rewrite removes, so that
# the report can still show what each one cost before.
FIGURES = ("dispatch", "bound", "time_us", "floor_us")


def _figures_of(member: Op) -> dict:
    return {"op": member.symbol or member.callee,
            **{key: member.attrs[key] for key in FIGURES if member.attrs.get(key) is not None}}

