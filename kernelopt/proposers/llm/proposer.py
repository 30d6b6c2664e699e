"""The `llm` proposer: a planner / executor / summarizer team behind any OpenAI-compatible endpoint.

Per `propose(target, history)` call:
  1. the summarizer records the outcomes in `history` into the experience memory (and condenses them
     into lessons for the idiom on this GPU);
  2. the executor repairs the most recent rejected (or slower) candidate of its own, from the gate's
     rejection text, continuing that candidate's conversation;
  3. the planner picks `strategies` new strategies (away from the families recent plans collapsed onto),
     and the executor writes one candidate per strategy, with one immediate repair turn when the answer
     is malformed (no single python block, syntax error, no `def run`).
Returned code is checked statically and never executed here. Answers are cached on disk; tokens are
counted, and the proposer stops once the token budget is spent.
"""
from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from kernelopt.cache_dir import cache_dir
from kernelopt.proposers.base import Attempt, Candidate, RewriteTarget
from kernelopt.proposers.llm.agents import Conversation, Executor, Plan, Planner, Summarizer, run_args, shorten
from kernelopt.proposers.llm.client import BudgetExhausted, ChatClient, EndpointError
from kernelopt.proposers.llm.memory import MAX_LESSONS, ExperienceMemory, gpu_of, idiom_of
from kernelopt.proposers.llm.prompts import render_messages
from kernelopt.proposers.llm.strategies import collapsed_families, feedback_kind, infer_family

log = logging.getLogger("kernelopt.proposers.llm")

OPENAI_DEFAULT_URL = "https://api.openai.com/v1"
OPENAI_DEFAULT_MODEL = "gpt-4o"
BASE_URL_ENV = ("KERNELOPT_LLM_BASE_URL", "OPENAI_BASE_URL")
MODEL_ENV = ("KERNELOPT_LLM_MODEL",)
KEY_ENV = ("KERNELOPT_LLM_API_KEY", "OPENAI_API_KEY")


def _first_env(names: tuple[str, ...]) -> str:
    return next((os.environ[name] for name in names if os.environ.get(name)), "")


def default_cache_root() -> Path:
    return cache_dir("llm")


def source_key(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def attempt_key(attempt: Attempt) -> tuple:
    return (source_key(attempt.candidate.source), attempt.accepted, attempt.reason, attempt.speedup)


@dataclass
class LLMProposer:
    name = "llm"
    summary = ("LLM team (planner, executor, summarizer) behind an OpenAI-compatible endpoint: plans strategies "
               "from the profile and experience memory, writes and repairs candidates from gate feedback")

    base_url: str | None = None         # default: KERNELOPT_LLM_BASE_URL, OPENAI_BASE_URL, or OpenAI's with a key
    model: str | None = None            # default: KERNELOPT_LLM_MODEL; gpt-4o on OpenAI's endpoint
    max_tokens: int = 200_000           # token budget (prompt + completion) over the proposer's life
    temperature: float = 0.2
    answer_tokens: int = 4096           # cap on one answer
    strategies: int = 3                 # new strategies planned per propose() call
    repair_turns: int = 2               # repairs per candidate thread (from gate feedback or a malformed answer)
    no_cache: bool = False
    cache_dir: str | None = None        # default: $KERNELOPT_CACHE_DIR/llm/answers (~/.cache/kernelopt)
    memory_path: str | None = None      # default: $KERNELOPT_CACHE_DIR/llm/experience.json
    no_memory: bool = False
    timeout_s: float = 120.0
    max_source_chars: int = 16000

    transcript: list[dict] = field(default_factory=list, init=False, repr=False)
    remarks: list[str] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self):
        self._client: ChatClient | None = None
        self._memory: ExperienceMemory | None = None
        self._conversations: dict[str, Conversation] = {}
        self._plan_families: dict[str, list[str]] = {}
        self._exhausted = False

    @classmethod
    def from_options(cls, options: dict) -> "LLMProposer":
        """Options as written on a pipeline (`llm{base-url=...,max-tokens=50000}`): kebab-case keys."""
        return cls(**{key.replace("-", "_"): value for key, value in options.items()})

    # -- configuration -------------------------------------------------------------------------------

    def resolved_endpoint(self) -> tuple[str, str]:
        """(base_url, model), either may be empty when not configured."""
        base_url = self.base_url or _first_env(BASE_URL_ENV)
        model = self.model or _first_env(MODEL_ENV)
        if not base_url and _first_env(KEY_ENV):
            base_url = OPENAI_DEFAULT_URL
        if not model and base_url.rstrip("/") == OPENAI_DEFAULT_URL:
            model = OPENAI_DEFAULT_MODEL
        return base_url, model

    def available(self) -> tuple[bool, str]:
        if importlib.util.find_spec("openai") is None:
            return False, "the `openai` package is not installed (pip install openai)"
        base_url, model = self.resolved_endpoint()
        if not base_url:
            return False, ("no endpoint configured: set the base-url option, KERNELOPT_LLM_BASE_URL or "
                           "OPENAI_BASE_URL (hosted endpoints also need OPENAI_API_KEY or KERNELOPT_LLM_API_KEY)")
        if not model:
            return False, f"no model configured for {base_url}: set the model option or KERNELOPT_LLM_MODEL"
        if self.max_tokens <= 0:
            return False, "the token budget (max-tokens) is 0"
        return True, f"{model} at {base_url}"

    @property
    def tokens_used(self) -> int:
        """Prompt + completion tokens spent on fresh requests (cached answers cost none)."""
        return self._client.tokens.total if self._client else 0

    @property
    def token_counts(self) -> dict:
        """prompt, completion, total, cached_prompt, cached_completion, requests, cache_hits."""
        return self._client.tokens.as_dict() if self._client else ChatClient("", "").tokens.as_dict()

    @property
    def memory(self) -> ExperienceMemory:
        if self._memory is None:
            path = None if self.no_memory else Path(self.memory_path or default_cache_root() / "experience.json")
            self._memory = ExperienceMemory(path)
        return self._memory

    def _remark(self, text: str) -> None:
        if not self.remarks or self.remarks[-1] != text:
            self.remarks.append(text)
            log.info("llm proposer: %s", text)

    def _chat_client(self) -> ChatClient:
        if self._client is None:
            base_url, model = self.resolved_endpoint()
            cache = None if self.no_cache else Path(self.cache_dir or default_cache_root() / "answers")
            self._client = ChatClient(base_url=base_url, model=model, api_key=_first_env(KEY_ENV),
                                      budget=self.max_tokens, answer_tokens=self.answer_tokens,
                                      temperature=self.temperature, timeout_s=self.timeout_s, cache_dir=cache)
        return self._client

    # -- the protocol --------------------------------------------------------------------------------

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        ok, why = self.available()
        if not ok:
            self._remark(f"skipped: {why}")
            return
        if all(kernel.kind == "vendor" for kernel in target.kernels):
            return      # a library call on its own (a vendor target): there is no Triton source to rewrite
        if self._exhausted:
            self._remark(f"stopped: token budget of {self.max_tokens} spent")
            return
        client = self._chat_client()
        try:
            self.observe(target, history)
            yield from self._repairs(target, history)
            yield from self._new_candidates(target, history)
        except BudgetExhausted as stop:
            self._exhausted = True
            self._remark(f"stopped: {stop}")
        except EndpointError as failure:
            self._remark(f"no more candidates for {target.id}: {failure} ({client.base_url})")

    def observe(self, target: RewriteTarget, history: list[Attempt]) -> None:
        """Record the outcomes in `history` in the experience memory and refresh its lessons.

        Called by propose(); a driver may call it once more after the last evaluation of a target."""
        idiom, gpu = idiom_of(target), gpu_of(target)
        memory = self.memory
        fresh = [a for a in history if memory.record(idiom, gpu, target.id, infer_family(a.candidate.strategy),
                                                     a.candidate.strategy, a.accepted, a.speedup, a.reason)]
        if not fresh:
            return
        memory.save()
        if self._client is None or self.no_memory:
            return
        summarizer = Summarizer(self._client, self.transcript, self.max_source_chars)
        lessons = summarizer.summarize(target.id, idiom, gpu, memory.outcomes(idiom, gpu),
                                       memory.lessons(idiom, gpu), MAX_LESSONS)
        if lessons is not None:
            memory.set_lessons(idiom, gpu, lessons)
            memory.save()

    # -- executor repairs from gate feedback ----------------------------------------------------------

    def _repairs(self, target: RewriteTarget, history: list[Attempt]) -> Iterator[Candidate]:
        """Repair the latest own candidate that the gate rejected (or that was slower), once per call."""
        for attempt in reversed(history):
            if attempt.candidate.proposer != self.name:
                continue
            kind = feedback_kind(attempt)
            if kind == "accepted":
                return              # the latest own candidate is good: plan new ideas instead
            conversation = self._conversation_for(target, attempt)
            if conversation.repairs >= self.repair_turns or attempt_key(attempt) in conversation.answered:
                return
            conversation.answered.add(attempt_key(attempt))
            executor = Executor(self._client, self.transcript, self.max_source_chars)
            extraction = executor.repair(target, conversation, kind, attempt.reason, attempt.speedup)
            if extraction.ok:
                yield self._candidate(conversation, extraction.code)
            else:
                self._remark(f"{target.id}: repair of [{conversation.plan.strategy}] gave no candidate: "
                             f"{extraction.reason}")
            return

    def _conversation_for(self, target: RewriteTarget, attempt: Attempt) -> Conversation:
        """The executor thread that produced `attempt`'s candidate; rebuilt when it is from another run."""
        key = source_key(attempt.candidate.source)
        if key not in self._conversations:
            family = infer_family(attempt.candidate.strategy)
            label = attempt.candidate.strategy.split(":", 1)[-1].split(" [repair")[0].strip()
            plan = Plan(family, label, attempt.candidate.notes or label)
            messages = render_messages("executor.j2", plan=plan, target=target, args=run_args(target),
                                       max_source_chars=self.max_source_chars)
            messages.append({"role": "assistant", "content": f"```python\n{attempt.candidate.source}```"})
            repairs = attempt.candidate.strategy.count("[repair")
            self._conversations[key] = Conversation(plan, messages, repairs=repairs)
        return self._conversations[key]

    # -- planner then executor ----------------------------------------------------------------------

    def _new_candidates(self, target: RewriteTarget, history: list[Attempt]) -> Iterator[Candidate]:
        idiom, gpu = idiom_of(target), gpu_of(target)
        avoid = collapsed_families(self._recent_families(target, history))
        if avoid:
            self._remark(f"{target.id}: recent plans collapsed onto {', '.join(avoid)}; asking for other families")
        tried = {a.candidate.strategy.lower() for a in history}
        planner = Planner(self._client, self.transcript, self.max_source_chars)
        plans, note = planner.plan(target, self.strategies, self._history_rows(history), idiom, gpu,
                                   self.memory.family_table(idiom, gpu), self.memory.lessons(idiom, gpu),
                                   avoid, tried)
        if "fallback" in note:
            self._remark(f"{target.id}: {note}")
        executor = Executor(self._client, self.transcript, self.max_source_chars)
        for plan in plans:
            self._plan_families.setdefault(target.id, []).append(plan.family)
            conversation, extraction = executor.write(target, plan)
            if not extraction.ok and self.repair_turns > 0:
                self._remark(f"{target.id}: [{plan.strategy}] answer unusable ({extraction.reason}); repairing")
                extraction = executor.repair(target, conversation, "format", extraction.reason)
            if extraction.ok:
                yield self._candidate(conversation, extraction.code)
            else:
                self._remark(f"{target.id}: [{plan.strategy}] gave no candidate: {extraction.reason}")

    def _recent_families(self, target: RewriteTarget, history: list[Attempt]) -> list[str]:
        """Families in the order they were tried: this proposer's own plans, else the attempts' labels."""
        own = self._plan_families.get(target.id)
        if own:
            return own
        return [infer_family(a.candidate.strategy) for a in history]

    @staticmethod
    def _history_rows(history: list[Attempt]) -> list[dict]:
        return [{"strategy": a.candidate.strategy, "family": infer_family(a.candidate.strategy),
                 "proposer": a.candidate.proposer, "accepted": a.accepted, "speedup": a.speedup,
                 "reason": shorten(a.reason, 300)} for a in history[-12:]]

    def _candidate(self, conversation: Conversation, code: str) -> Candidate:
        strategy = conversation.plan.strategy
        if conversation.repairs:
            strategy += f" [repair {conversation.repairs}]"
        self._conversations[source_key(code)] = conversation
        return Candidate(source=code, proposer=self.name, strategy=strategy, notes=conversation.plan.idea)
