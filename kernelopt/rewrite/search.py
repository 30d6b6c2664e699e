"""A budgeted beam search over proposers for one rewrite target.

Scouting comes first: each proposer's first SCOUTS candidates, in proposer order, so that every idea is
tried before any proposer's third candidate. Each round then asks every proposer for candidates (the
first round goes on with the proposals scouting started), given the history of earlier attempts (feedback:
which strategies were accepted, how fast they were, why others were rejected). The evaluator runs
the legality gate and times the legal ones side by side with the original. The search stops when a
budget runs out (candidates, GPU seconds, LLM tokens) or no proposer has anything new. The best
accepted candidate that beats the original by more than `min_speedup` wins; otherwise the original
stays.
"""
from __future__ import annotations

import hashlib
import itertools
import sys
import time
from dataclasses import dataclass, field
from typing import Iterable, Protocol, TextIO

from kernelopt.proposers.base import Attempt, Candidate, Proposer, RewriteTarget


SLOW_EVALUATION_S = 10.0     # a candidate whose evaluation took this long shows its time in the progress line


@dataclass
class Evaluation:
    accepted: bool
    reason: str                       # "ACCEPT" or the gate's rejection reason
    evidence: dict = field(default_factory=dict)
    time_us: float | None = None      # candidate time (None: not timed)
    baseline_us: float | None = None  # original time, measured in the same run
    gpu_seconds: float = 0.0          # device time this evaluation consumed
    timed_by: str = ""                # "cuda-events" | "static-cost-model" | ""
    phases: str = ""                  # where the legality check's time went (shown for slow candidates)
    notes: str = ""                   # the gate's notes on a reject (what it compared with: a dropped float64
                                      # reference, the original's run-to-run spread), shown in the search log

    @property
    def speedup(self) -> float | None:
        if self.time_us and self.baseline_us:
            return self.baseline_us / self.time_us
        return None


class Evaluator(Protocol):
    def evaluate(self, target: RewriteTarget, candidate: Candidate) -> Evaluation: ...


@dataclass
class Budget:
    max_candidates: int = 24
    gpu_seconds: float = 60.0
    max_tokens: int = 200_000
    rounds: int = 3
    deadline: float | None = None     # time.monotonic() at which the search stops (the job's wall target)
    # the GPU-seconds and the deadline are this target's part of the job's (agentic-rewrite's fair share):
    # the stop reasons say so, since the job itself goes on with the next target
    shared: bool = False


@dataclass
class SearchResult:
    target: RewriteTarget
    best: tuple[Candidate, Evaluation] | None
    attempts: list[tuple[Candidate, Evaluation]]
    gpu_seconds: float
    stopped_because: str
    # Stopped by its part of a shared budget (the job goes on with other targets), not by its own limits or
    # for want of ideas: the job may resume it with time the other targets left (search(..., resume=...)).
    resumable: bool = False
    tired: frozenset = frozenset()    # proposers cut off by PATIENCE (they stay cut off when resumed)
    longest_s: float = 0.0            # wall seconds of its slowest evaluation (a resumed search expects as long)

    @property
    def accepted(self) -> int:
        return sum(1 for _, e in self.attempts if e.accepted)


class Progress:
    """One line per evaluated candidate on stderr, so long searches show where they are."""

    def __init__(self, stream: TextIO | None = sys.stderr, label: str = "agentic-rewrite"):
        self.stream, self.label = stream, label

    def update(self, text: str) -> None:
        if self.stream is not None:
            self.stream.write(f"[{self.label}] {text}\n")
            self.stream.flush()


def _fingerprint(candidate: Candidate) -> str:
    return hashlib.sha256(candidate.source.encode()).hexdigest()


def search(target: RewriteTarget, proposers: list[Proposer], evaluator: Evaluator, budget: Budget, *,
           min_speedup: float = 1.02, progress: Progress | None = None,
           resume: SearchResult | None = None) -> SearchResult:
    """The best legal candidate for `target` within `budget`. `resume`: an earlier search of the same target
    that stopped on its share of a shared budget; this one goes on from its attempts (none is evaluated
    again, the candidate cap counts them, and its best stays a contender), with `budget` as new time."""
    run = _SearchRun(target, proposers, evaluator, budget, min_speedup, progress or Progress(None))
    if resume is not None:
        run.go_on_from(resume)
    # Scouting: every proposer's first SCOUTS candidates before any proposer's later ones, so that a target
    # whose time runs out has still seen each idea (softmax_over_dim1 spent its share on five outer-tile
    # candidates, none faster, and never reached row-on-chip). The first round then goes on with the same
    # proposals where each one left off: nothing is proposed twice.
    streams = {}
    for proposer in proposers:
        streams[proposer.name] = run.stream(proposer)     # sees the attempts of the proposers before it
        stopped = run.consume(proposer, itertools.islice(streams[proposer.name], SCOUTS))
        if stopped:
            return run.finish(stopped)
    stopped = "no proposer had anything new"
    for round_index in range(budget.rounds):
        before = run.fresh
        for proposer in proposers:
            if proposer.name in run.tired:
                continue
            proposals = streams.pop(proposer.name, None) or run.stream(proposer)
            stopped_now = run.consume(proposer, proposals)
            if stopped_now:
                return run.finish(stopped_now)
        # the first round may only have finished what scouting started: the next one proposes anew
        if run.fresh == before and (round_index > 0 or run.fresh == 0):
            break
        stopped = f"{round_index + 1} rounds done"
    return run.finish(stopped)


SCOUTS = 2            # candidates each proposer offers first, before any proposer's third


class _SearchRun:
    """The state of one target's search: its attempts, what it has spent, and which proposers gave up."""

    def __init__(self, target, proposers, evaluator, budget, min_speedup, progress):
        self.target, self.proposers, self.evaluator, self.budget = target, proposers, evaluator, budget
        self.min_speedup, self.progress = min_speedup, progress
        self.attempts: list[tuple[Candidate, Evaluation]] = []
        self.seen: set[str] = set()
        self.gpu_seconds = 0.0
        self.longest = 0.0     # wall seconds of the slowest evaluation so far: the next one may take as long
        self.best_speedup = 0.0
        self.tired: set = set()    # proposers cut off by PATIENCE
        self.since_gain: dict[str, int] = {}
        self.fresh = 0
        self.on_share = False      # the stop was this target's part of a shared budget

    def go_on_from(self, earlier: SearchResult) -> None:
        """Start where `earlier` stopped: its attempts stand (and are not proposed again), its cut-off
        proposers stay cut off, and its slowest evaluation says how long the next one may take."""
        self.attempts = list(earlier.attempts)
        self.seen = {_fingerprint(candidate) for candidate, _ in earlier.attempts}
        self.best_speedup = max((e.speedup or 0.0 for _, e in earlier.attempts if e.accepted), default=0.0)
        self.tired = set(earlier.tired)
        self.longest = earlier.longest_s

    def stream(self, proposer) -> Iterable[Candidate]:
        """The proposer's candidates given the history so far, those already seen left out."""
        history = [Attempt(c, e.accepted, e.reason, e.speedup) for c, e in self.attempts]
        return iter(_unseen(_take(proposer.propose(self.target, history),
                                  self.budget.max_candidates - len(self.attempts)), self.seen))

    def consume(self, proposer, proposed: Iterable[Candidate]) -> str | None:
        """Evaluate `proposed` in order (a pool-backed evaluator takes them in chunks: _evaluated) until the
        proposer runs dry or tires; the reason the whole search stops, if a budget ran out."""
        target, budget = self.target, self.budget
        mark = time.monotonic()
        for candidate, evaluation in _evaluated(self.evaluator, target, proposed):
            now = time.monotonic()
            took, mark = now - mark, now
            self.longest = max(self.longest, took)
            self.fresh += 1
            self.gpu_seconds += evaluation.gpu_seconds
            self.attempts.append((candidate, evaluation))
            self._report(candidate, evaluation, took)
            gained = evaluation.accepted and (evaluation.speedup or 0.0) >= max(self.min_speedup, self.best_speedup)
            if evaluation.accepted:
                self.best_speedup = max(self.best_speedup, evaluation.speedup or 0.0)
            since = self.since_gain[proposer.name] = 0 if gained else self.since_gain.get(proposer.name, 0) + 1
            if since >= PATIENCE:
                # its next candidates are variations of the ones that gained nothing: the budget goes to
                # the next proposer (a retune's 24 configurations on a kernel near its floor would
                # otherwise take a target's whole search)
                self.tired.add(proposer.name)
                self.progress.update(f"{target.id}: {proposer.name}: {PATIENCE} candidates in a row without a gain "
                                     f"(none legal at {self.min_speedup:g}x or more and at least the best so far); "
                                     "its next ones are not tried")
                return None
            stopped = self._budget_spent(now)
            if stopped:
                return stopped
        return None

    def _report(self, candidate: Candidate, evaluation: Evaluation, took: float) -> None:
        verdict = "ACCEPT" if evaluation.accepted else f"REJECT ({evaluation.reason[:400]})"
        if not evaluation.accepted and evaluation.notes:
            verdict += f" [gate: {evaluation.notes[:300]}]"
        speed = f" {evaluation.speedup:.3f}x" if evaluation.speedup else ""
        slow = ""
        if took >= SLOW_EVALUATION_S:
            slow = f" ({took:.0f} s" + (f"; check {evaluation.phases}" if evaluation.phases else "") + ")"
        self.progress.update(f"{self.target.id}: candidate {len(self.attempts)}/{self.budget.max_candidates} "
                             f"{candidate.strategy}: {verdict}{speed}{slow}")

    def _budget_spent(self, now: float) -> str | None:
        budget = self.budget
        if len(self.attempts) >= budget.max_candidates:
            return "candidate budget spent"
        if self.gpu_seconds >= budget.gpu_seconds:
            self.on_share = budget.shared
            return "its share of the GPU-seconds spent" if budget.shared else "GPU-seconds budget spent"
        if _tokens(self.proposers) >= budget.max_tokens:
            return "token budget spent"
        if budget.deadline is not None and now + self.longest >= budget.deadline:
            # at real sizes one candidate's check takes minutes: one that would end after the job's wall
            # target is not started
            what = "its share of the job's wall time" if budget.shared else "wall-clock deadline"
            self.on_share = budget.shared
            return (f"{what} reached" if now >= budget.deadline else
                    f"{what}: the next candidate would end after it (the slowest took {self.longest:.0f} s)")
        return None

    def finish(self, stopped: str) -> SearchResult:
        winners = [(c, e) for c, e in self.attempts
                   if e.accepted and e.speedup is not None and e.speedup >= self.min_speedup]
        best = max(winners, key=lambda ce: ce[1].speedup) if winners else None
        return SearchResult(self.target, best, self.attempts, self.gpu_seconds, stopped, resumable=self.on_share,
                            tired=frozenset(self.tired), longest_s=self.longest)


PATIENCE = 8          # candidates in a row a proposer may offer without a gain before it is cut off


def _take(candidates: Iterable[Candidate], limit: int) -> Iterable[Candidate]:
    if limit <= 0:
        return
    for count, candidate in enumerate(candidates):
        if count >= limit:
            return
        yield candidate


def _unseen(candidates: Iterable[Candidate], seen: set[str]) -> Iterable[Candidate]:
    for candidate in candidates:
        key = _fingerprint(candidate)
        if key not in seen:
            seen.add(key)
            yield candidate


def _evaluated(evaluator: Evaluator, target: RewriteTarget, candidates: Iterable[Candidate]):
    """(candidate, evaluation) in proposal order. The default is one at a time, as proposed. An
    evaluator with `evaluate_many` (kernelopt.pool.PoolEvaluator) gets them in chunks of its
    `batch_size` (its number of workers) to evaluate at once; the search then reads the answers in
    proposal order, so it keeps and stops on exactly what the one-at-a-time search would. The cost of
    that: when a budget stops the search mid-chunk, the rest of the chunk (fewer than batch_size
    candidates) was proposed and evaluated for nothing, and is neither recorded nor charged."""
    many = getattr(evaluator, "evaluate_many", None)
    if many is None:
        for candidate in candidates:
            yield candidate, evaluator.evaluate(target, candidate)
        return
    chunk_size = max(1, int(getattr(evaluator, "batch_size", 1)))
    candidates = iter(candidates)
    while chunk := list(itertools.islice(candidates, chunk_size)):
        yield from zip(chunk, many(target, chunk))


def _tokens(proposers: list[Proposer]) -> int:
    return sum(int(getattr(p, "tokens_used", 0) or 0) for p in proposers)
