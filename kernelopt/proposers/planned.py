"""Proposers whose candidates come from one proof per target: sum-through-gemm, sum-through-conv, window-through-gemm.

Each proves, once per target, what a library op's output is read through (its plan), then writes a candidate per
configuration from that plan. The pass asks propose() and then declined() of every target, and the proof
evaluates every lane of a kernel (seconds at real sizes), so the plan is kept between the two (`LastPlan`). A
target that is not the proposer's kind (`silent`) says nothing; one of its kind that the proof declines
(`refused`) says why.
"""
from __future__ import annotations

from dataclasses import field
from typing import Iterable

from .base import Attempt, Candidate, RewriteTarget
from .candidate_source import NotRetunable


class LastPlan:
    """`plan(target)` for the last target asked, kept with its plan or the reason it was declined (`declined`, an
    exception class), so that propose() and declined() of one target run the proof once."""

    def __init__(self, plan, declined: type[Exception]):
        self.plan, self.declined = plan, declined
        self.target, self.found = None, None

    def __call__(self, target: RewriteTarget):
        if self.target is not target:
            try:
                found = self.plan(target)
            except self.declined as why:
                found = why
            self.target, self.found = target, found
        if isinstance(self.found, self.declined):
            raise self.found
        return self.found


def plan_field(plan, refused: type[Exception]):
    """A dataclass field holding a LastPlan of `plan` (not compared, not shown)."""
    return field(default_factory=lambda: LastPlan(plan, refused), repr=False, compare=False)


class PlannedProposer:
    """The propose() and declined() of a proposer with a `_plan` (a LastPlan raising `refused`, or `silent` where the
    target is not its kind), candidates from `options(plan)`: (strategy label, configuration) pairs, each built by
    `build(target, plan, configuration)` (a staticmethod: the module's candidate_source). A subclass is a dataclass
    with `name`, `summary` and `_plan` (plan_field)."""

    refused: type[Exception] = Exception
    silent: type[Exception] = Exception
    build = None

    def options(self, plan) -> list[tuple[str, object]]:
        raise NotImplementedError

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = self._plan(target)
        except self.refused:
            return
        tried = {a.candidate.strategy for a in history}
        for label, config in self.options(plan):
            if label in tried:
                continue
            try:
                source = self.build(target, plan, config)
            except NotRetunable:
                return
            yield Candidate(source, self.name, label, notes=plan.describe())

    def declined(self, target: RewriteTarget) -> str:
        try:
            plan = self._plan(target)
        except self.silent:
            return ""
        except self.refused as why:
            return str(why)
        # a plan whose kernel cannot be relaunched yields nothing either: say so
        options = self.options(plan)
        try:
            if options:
                self.build(target, plan, options[0][1])
        except NotRetunable as why:
            return str(why)
        return ""


__all__ = ["LastPlan", "PlannedProposer", "plan_field"]
