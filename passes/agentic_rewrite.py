"""agentic-rewrite: find faster, legal replacements for the Triton kernels that matter.

Targets are ranked by `gap_us * share` from `annotate-profile` (the static floor without a GPU);
kernels within 10% of their floor are skipped. Vendor calls are kept except where a proposer offers a
replacement for one on its own (a convolution outside any fusion group: `targets.vendor_target`) and
the replacement is measured faster. Each target (a kernel with all its launches, a `detect-fusion`
group, or such a vendor call) gets a budgeted beam search over the proposers; candidates go
through the legality gate on the launches' real inputs and the legal ones are timed side by side with
the original. The winner is recorded on the IR as `rewrite = {status = "proposed", ...}` — on the
kernel, or for a group on its last launch — and `check-legality` then re-checks it and commits or
reverts it. Without a GPU nothing is timed, so nothing is proposed, unless `cost-model=static` is
set (tests of the search).
"""
from __future__ import annotations

import collections
import dataclasses
import sys
import time
from dataclasses import dataclass, field

from kernelopt.ir.core import Module

from kernelopt.ir import rewrite_record
from kernelopt.ir.user_errors import UsageError
from .base import Pass, PassContext, PassFailure
from kernelopt.ir.rewrite_record import GROUP, VENDOR, RewriteRecord, TargetId, group_members


# the cost models candidates are ranked by: measured on a GPU, or the deterministic static one (runs on the CPU)
COST_MODELS = ("measure", "static")


@dataclass(frozen=True)
class AgenticRewrite(Pass):
    name = "agentic-rewrite"
    summary = "Search for faster legal replacements of the costliest Triton kernels and fusion groups"
    statistics = ("targets", "skipped", "candidates", "accepted-candidates", "rewrites", "cache-hits",
                  "second-sweep-targets")

    # These fields are the defaults of `kernelopt optimize` too (its flags and OptimizeOptions read them).
    # The default proposer list is written here only: the built-ins, cheapest and most targeted first. Where
    # several apply to one kernel, the order is where its search time goes first. In the committed H100 and
    # H200 logs row-on-chip won 15 of its 23 candidates and block-online 29 of 49; outer-tile won where it
    # alone applied against Inductor's default (argmax over dim 0 2.14x), none of its 26 in jobs starting
    # from max-autotune's module, where a softmax over dim 1 spent 24 s on two outer-tile tiles before
    # row-on-chip's 1.32x. So the row transforms come first; the second sweep reaches outer-tile where time
    # is left. align-split sits with the group rewrites before them: it offers at most four candidates, and
    # only for a split reduction whose chunk is unaligned (no other transform rewrites those partials);
    # fold-split too: it offers at most four, only for a split maximum followed by a split sum of exponentials;
    # and absorb-consumer, only for a persistent reduction and the pointwise kernel reading its results;
    # diagonal-operand only sees prologue groups (a kernel building a GEMM operand), sum-through-gemm and
    # sum-through-conv only reduction-epilogue groups (a reduction reading a GEMM's or a convolution's output),
    # window-through-gemm and window-through-conv only a GEMM's or a convolution's epilogue or reduction-epilogue
    # group whose kernel loads the library op's output more than once per lane (a window's elements).
    proposers: list[str] = field(default_factory=lambda: ["templates", "fuse", "store-remap", "absorb-consumer",
                                                          "align-split",
                                                          "fold-split", "memory-order", "epilogue", "diagonal-operand",
                                                          "sum-through-gemm", "sum-through-conv",
                                                          "window-through-gemm", "window-through-conv",
                                                          "conv-layout",
                                                          "row-on-chip", "fold-pass", "hoist-invariant", "block-online", "outer-tile",
                                                          "narrow-math", "split-row", "retune", "llm"],
                                 metadata={"help": "comma-separated proposers, asked in this order (built-ins, "
                                                   "and plugins from the kernelopt.proposers entry points)"})
    gpu_seconds: float = field(default=240.0, metadata={"help": "GPU-seconds budget of the rewrite search, for "
                                                                "the whole module"})
    max_candidates: int = field(default=24, metadata={"help": "candidates evaluated per target (kernel, fusion "
                                                              "group or library call)"})
    max_tokens: int = field(default=200_000, metadata={"help": "LLM token budget"})
    max_targets: int = field(default=8, metadata={"help": "kernels/groups searched, costliest first"})
    llm_base_url: str = field(default="", metadata={"help": "OpenAI-compatible endpoint for the llm proposer "
                                                            "(key from OPENAI_API_KEY or KERNELOPT_LLM_API_KEY)"})
    llm_model: str = field(default="", metadata={"help": "model name for the llm proposer"})
    min_speedup: float = field(default=1.02, metadata={"help": "a rewrite must beat the original by this factor"})
    cost_model: str = field(default="measure", metadata={"help": "measure (GPU timing) or static (deterministic, for tests)"})
    no_cache: bool = field(default=False, metadata={"help": "ignore cached search results and LLM answers"})
    # Where candidates are evaluated (kernelopt/pool): in this process, or on a pool of workers that
    # each own one GPU (auto: Ray when ray.init() already ran here, local processes with 2+ GPUs).
    workers: str = field(default="auto", metadata={"help": "auto, local (a process per GPU), ray (an actor "
                                                           "per GPU) or none (in this process)"})

    def __post_init__(self) -> None:
        # A value the search cannot use is the user's mistake, said when the pipeline is built (exit 2):
        # max-candidates=-1 searched nothing and cost-model=wrong timed like `measure`, both silently.
        if self.cost_model not in COST_MODELS:
            raise UsageError(f"agentic-rewrite: cost-model must be one of {', '.join(COST_MODELS)}, "
                             f"got {self.cost_model!r}")
        for option in ("max_candidates", "max_targets", "max_tokens", "gpu_seconds"):
            if getattr(self, option) < 0:
                raise UsageError(f"agentic-rewrite: {option.replace('_', '-')} must be >= 0, "
                                 f"got {getattr(self, option)}")

    def apply(self, ctx: PassContext, module: Module) -> None:
        # lazy: start-up: `kernelopt --help` loads this pass; the evaluator pulls torch
        from kernelopt.rewrite.evaluate import ModuleEvaluator, StaticCostModel, capture_configs

        device = ctx.device()
        if device == "cpu" and self.cost_model != "static":
            ctx.remark(None, "no CUDA device: candidates cannot be timed, so no rewrite is proposed "
                             "(run on a GPU, or pass cost-model=static to exercise the search)")
            return
        path = module.attrs.get("file")
        if not path:
            raise PassFailure("the module does not name its source file (attribute 'file'); lift it from the "
                              "Inductor output module with `kernelopt lift`")
        proposers = self._proposers(ctx)
        if not proposers:
            return
        # lazy: start-up: `kernelopt --help` loads this pass; the pool pulls torch
        from kernelopt.pool import PoolEvaluator, make_pool

        pool = make_pool(self.workers, device)
        if pool is None:
            evaluator = ModuleEvaluator.for_module(
                module, ctx.options.get("inputs"), device,
                cost_model=StaticCostModel() if self.cost_model == "static" else None)
        else:
            ctx.remark(None, f"evaluating candidates on {pool.size} {type(pool).__name__} workers")
            evaluator = PoolEvaluator(pool, str(path), ctx.options.get("inputs"), device=device,
                                      precision=str(module.attrs.get("precision", "strict")),
                                      cost_model="static" if self.cost_model == "static" else "",
                                      # the kernels at the capture's configurations, as ModuleEvaluator.for_module
                                      recorded_configs=capture_configs(module))
        for kernel in getattr(evaluator, "unpinned", ()):
            ctx.remark(module.kernel(kernel), f"@{kernel}: the gate could not run it at its recorded launch "
                                              "configuration (none of its autotuner's configurations matches): "
                                              "candidates are compared with the configuration Inductor's "
                                              "autotuner picks in this process")
        try:
            self._search_all(ctx, module, proposers, evaluator)
        finally:
            if pool is not None:
                evaluator.close()
                pool.close()

    def _search_all(self, ctx: PassContext, module: Module, proposers: list, evaluator) -> None:
        # lazy: start-up: `kernelopt --help` loads this pass; the search cache pulls torch
        from kernelopt.rewrite import search_cache as cache
        from kernelopt.rewrite.search import Progress
        from kernelopt.rewrite.targets import kernel_target, rank_kernels

        device = ctx.device()
        progress = Progress(ctx.options.get("progress_stream", sys.stderr))
        gpu_left = self.gpu_seconds
        # The job's wall target (optimize_job sets it; absent when the pass runs on its own): no target is
        # started after it, a running search stops at it, and so does a pool job still being checked.
        deadline = ctx.options.get("search_deadline")
        if deadline is not None and hasattr(evaluator, "deadline"):
            evaluator.deadline = deadline
        targets = self._targets(ctx, module, rank_kernels, kernel_target)
        covered: set[str] = set()   # kernels already replaced by an accepted group rewrite
        targets = targets[: self.max_targets]
        stopped_on_share = []       # (target, cache key, result): searches the second sweep may resume
        for index, target in enumerate(targets):
            if target.id in covered:
                ctx.remark(module.kernel(target.id), f"@{target.id} not searched: its fusion group was rewritten")
                continue
            stop = None
            if gpu_left <= 0:
                stop = f"GPU-seconds budget spent; {target.id} not searched"
            elif deadline is not None and time.monotonic() >= deadline:
                stop = f"the job's wall-clock target was reached; {target.id} and later targets not searched"
            if stop:
                ctx.remark(None, stop)
                progress.update(stop)       # on the console too: the user watching the job sees why it ended
                break
            ctx.stat("targets")
            key = cache.cache_key(target, [p.name for p in proposers], device)
            entry = None if self.no_cache else cache.load(key)
            if entry is not None:
                ctx.stat("cache-hits")
                outcome = (f"{entry.get('strategy')} at {entry.get('speedup')}x" if entry.get("source")
                           else "no faster legal candidate")
                progress.update(f"{target.id}: searched before for the same code, proposers and device: "
                                f"{outcome} (the search cache; no-cache searches again)")
            else:
                result, entry = self._search_one(ctx, target, key, proposers, evaluator, gpu_left, deadline,
                                                 [t for t in targets[index:] if t.id not in covered], progress)
                gpu_left -= result.gpu_seconds
                if result.resumable:
                    stopped_on_share.append((target, key, result))
            self._remark_declines(ctx, module, target, proposers)
            if self._record(ctx, module, target, entry) and target.kind == GROUP:
                covered |= {k.name for k in target.kernels if k.kind != "vendor"}
                covered |= _vendor_ids(module, target.ref.index)
        self._second_sweep(ctx, module, proposers, evaluator, stopped_on_share, gpu_left, deadline, progress)

    def _search_one(self, ctx, target, key: str, proposers, evaluator, gpu_left: float, deadline, remaining: list,
                    progress, resume=None):
        """One target's search with its fair share of what is left for the `remaining` targets (`target`
        first; a resumed one goes on from `resume`), counted in the pass's statistics and stored in the search cache: (the search's
        result, its cache entry)."""
        # lazy: start-up: `kernelopt --help` loads this pass; the search and its cache pull torch
        from kernelopt.rewrite import search_cache as cache
        from kernelopt.rewrite.search import Budget, search

        gpu_share, wall_share = _fair_share(gpu_left, deadline, [gain_room(t) for t in remaining])
        budget = Budget(self.max_candidates, gpu_share, self.max_tokens, deadline=wall_share,
                        shared=len(remaining) > 1)
        result = search(target, proposers, evaluator, budget, min_speedup=self.min_speedup, progress=progress,
                        resume=resume)
        ctx.stat("gpu-ms", round(result.gpu_seconds * 1000))  # device time the search spent
        ctx.stat("candidates", len(result.attempts) - (len(resume.attempts) if resume else 0))
        ctx.stat("accepted-candidates", result.accepted - (resume.accepted if resume else 0))
        entry = _entry(result)
        cache.store(key, entry)
        return result, entry

    def _second_sweep(self, ctx, module, proposers, evaluator, stopped: list, gpu_left: float, deadline, progress):
        """Resume, best-ranked first, the searches that stopped on their part of the job's time, with what the
        other targets left. The first sweep gives the target ranked first at least half of what is left, the
        others an equal part; a target that ends early leaves its part to the ones after it, never to the ones
        before, so time a later target did not need went unused. A resumed search goes on from its attempts;
        its winner replaces the first sweep's if faster."""
        rewritten = {op.symbol for op in rewrite_record.with_status(module, rewrite_record.PROPOSED)
                     if op.name == "ko.kernel"}
        # a group without a winner whose kernels got rewrites of their own cannot take them over
        waiting = [(t, k, r) for t, k, r in stopped
                   if not (t.kind == GROUP and r.best is None and any(x.name in rewritten for x in t.kernels))]
        if waiting and (deadline is None or deadline - time.monotonic() > max(r.longest_s for _, _, r in waiting)):
            progress.update(f"second sweep: {len(waiting)} target(s) stopped on their share of the job's time; "
                            "resuming them with what the others left")
        for position, (target, key, earlier) in enumerate(waiting):
            now = time.monotonic()
            if gpu_left <= 0 or (deadline is not None and deadline - now <= earlier.longest_s):
                break
            result, entry = self._search_one(ctx, target, key, proposers, evaluator, gpu_left, deadline,
                                             [t for t, _, _ in waiting[position:]], progress, resume=earlier)
            gpu_left -= result.gpu_seconds
            ctx.stat("second-sweep-targets")
            if result.best is not None and (earlier.best is None or result.best[0] is not earlier.best[0]):
                self._record(ctx, module, target, entry)

    @staticmethod
    def _remark_declines(ctx: PassContext, module: Module, target, proposers: list) -> None:
        """A proposer with `declined(target)` says why a target of its kind got no candidate from it (a
        schedule transform that does not apply to this kernel's loops, say): the user sees what was tried."""
        for proposer in proposers:
            declined = getattr(proposer, "declined", None)
            why = declined(target) if declined is not None else ""
            if why:
                ctx.remark(rewrite_record.holder(module, target.ref), f"{target.id}: {proposer.name} declined: {why}")

    def _proposers(self, ctx: PassContext) -> list:
        # lazy: start-up: `kernelopt --help` loads this pass; the proposers pull torch
        from kernelopt.proposers.registry import make_proposer

        made = []
        for name in self.proposers:
            proposer = make_proposer(name, base_url=self.llm_base_url or None, model=self.llm_model or None,
                                     max_tokens=self.max_tokens, no_cache=self.no_cache)
            available = getattr(proposer, "available", None)
            if available is not None:
                ok, why = available()
                if not ok:
                    ctx.remark(None, f"proposer '{name}' skipped: {why}")
                    continue
            made.append(proposer)
        return made

    def _targets(self, ctx, module, rank_kernels, kernel_target) -> list:
        # lazy: start-up: `kernelopt --help` loads this pass; targets load when it runs
        from kernelopt.rewrite.targets import fusion_groups, fusion_target

        targets = []
        for group, kind in sorted(fusion_groups(module).items()):
            if kind not in ("vertical", "epilogue", "prologue", "reduction-epilogue"):
                continue
            target, why = fusion_target(module, group, kind)
            if target is None:
                ctx.remark(None, f"fusion group {group} not searched: {why}")
            else:
                targets.append(target)
        targets += self._vendor_targets(ctx, module)
        for name, reason in rank_kernels(module):
            if reason is not None:
                ctx.stat("skipped")
                kernel = module.kernel(name)
                ctx.remark(kernel, f"@{name} skipped: {reason}")
                continue
            targets.append(kernel_target(module, name))
        return targets

    @staticmethod
    def _vendor_targets(ctx, module) -> list:
        """Library calls a proposer may replace on their own (convolutions), unless a fusion group holds them: an
        epilogue or reduction-epilogue group's is searched too, after its group (and skipped if the group was
        rewritten)."""
        # lazy: start-up: `kernelopt --help` loads this pass; targets load when it runs
        from kernelopt.rewrite.targets import vendor_target

        targets = []
        for op in rewrite_record.vendor_ops(module):
            if isinstance(op.attrs.get("fusion_group"), int) \
                    and op.attrs.get("fusion_kind") not in ("epilogue", "reduction-epilogue"):
                continue
            target, why = vendor_target(module, op)
            if target is None:
                ctx.remark(op, f"{op.callee} not searched: {why}")
            else:
                targets.append(target)
        return targets

    def _record(self, ctx: PassContext, module: Module, target, entry: dict) -> bool:
        """Put the search's winner on the IR; False when there is none."""
        if not entry.get("source"):
            ctx.remark(None, f"{target.id}: no faster legal candidate ({entry.get('why', 'none found')}); "
                             "the original stays")
            return False
        record = RewriteRecord.proposed(entry)
        where = rewrite_record.holder(module, target.ref)
        if target.kind == GROUP:
            members = group_members(module, target.ref.index)
            record = dataclasses.replace(
                record, group=target.ref.index,
                group_kind=str(members[0].attrs.get("fusion_kind") or
                               ("epilogue" if members[0].name == "ko.extern" else "vertical")),
                replaces=[op.symbol or op.callee for op in members],
                group_positions=[list(p) for p in target.group_positions])
        elif target.kind == VENDOR:
            record = dataclasses.replace(record, replaces=[where.callee])
        rewrite_record.write(where, record)
        ctx.stat("rewrites")
        ctx.remark(where, f"{target.id}: {record.proposer} '{record.strategy}' is {record.speedup:.3f}x "
                          "faster; proposed for check-legality")
        return True


def _vendor_ids(module: Module, group: int) -> set[str]:
    """The vendor-target ids of a fusion group's library calls (a rewritten group's are not searched again)."""
    calls = rewrite_record.vendor_ops(module)
    return {str(TargetId.vendor(calls.index(op))) for op in group_members(module, group) if op in calls}


def _fair_share(gpu_left: float, deadline: float | None,
                rooms: list[float | None]) -> tuple[float, float | None]:
    """The GPU-seconds and the wall-clock deadline one target's search may use, out of what is left for the
    targets not yet searched (`rooms`: each one's gain room, gain_room(), this target's first).

    Where the profile timed every target, the part follows the room: a 205 us cross-entropy kernel at 42 %
    of its floor and a 6 us launch-bound one after it got equal halves of the H100 job's time, so the first
    stopped after 7 candidates (its block-online forms seen at one configuration) while the second spent
    13 on retunes that could win 6 us at best. Every target keeps at least MIN_ROOM_PART of an equal part,
    since a profile's gap is a guess at what a rewrite can win. Without timings (the static cost model),
    an equal part, but at least FIRST_TARGET_SHARE for the first (the one the profile ranks highest).
    What a target leaves unused goes to the later ones."""
    remaining = max(1, len(rooms))
    if rooms and all(room is not None for room in rooms) and sum(rooms) > 0:
        part = max(rooms[0] / sum(rooms), MIN_ROOM_PART / remaining)
    else:
        part = max(1.0 / remaining, FIRST_TARGET_SHARE)
    part = min(part, 1.0)
    wall = None
    if deadline is not None:
        now = time.monotonic()
        wall = now + max(0.0, deadline - now) * part
    return gpu_left * part, wall


def gain_room(target) -> float | None:
    """Microseconds a rewrite of `target` could win by the profile: its time above its floor (its whole
    time where it has no floor: a fusion group, whose fused floor is below its members' floors), at least
    a tenth of its time; None where the profile timed nothing."""
    if target.time_us is None:
        return None
    floor = target.floor_us if target.floor_us is not None else 0.0
    return max(target.time_us - floor, 0.1 * target.time_us)


MIN_ROOM_PART = 0.25
FIRST_TARGET_SHARE = 0.5


def _entry(result) -> dict:
    if result.best is None:
        rejected = [e.reason for _, e in result.attempts if not e.accepted]
        why = f"{len(result.attempts)} candidates, {result.accepted} legal"
        if rejected:      # which checks rejected them, most often first: where to look
            checks = collections.Counter(reason.split(":", 1)[0] for reason in rejected)
            why += " (rejected: " + ", ".join(f"{check} {count}" for check, count in checks.most_common()) + ")"
        why += ", none faster"
        if rejected:
            why += f"; first rejection: {rejected[0][:120]}"
        why += f"; search stopped: {result.stopped_because}"
        return {"source": "", "why": why, "candidates": len(result.attempts)}
    candidate, evaluation = result.best
    config = {"launch_config": dict(candidate.launch_config)} if candidate.launch_config else {}
    return {
        "source": candidate.source, "proposer": candidate.proposer, "strategy": candidate.strategy, **config,
        "speedup": round(evaluation.speedup or 0.0, 4), "time_us": round(evaluation.time_us or 0.0, 3),
        "baseline_us": round(evaluation.baseline_us or 0.0, 3), "timed_by": evaluation.timed_by,
        "evidence": evaluation.evidence, "candidates": len(result.attempts),
        "search": result.stopped_because,
    }

