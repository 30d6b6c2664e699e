"""The team: a planner picks strategies, an executor writes and repairs candidates, a summarizer keeps the
experience memory. Each agent renders its own prompt (templates/prompts/<role>.j2), asks the shared
`ChatClient`, and records the exchange in the shared transcript, so the hand-offs can be reported.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kernelopt.proposers.base import ArgSpec, RewriteTarget
from kernelopt.proposers.llm.client import Answer, ChatClient
from kernelopt.proposers.llm.extract import Extraction, extract_candidate, extract_json
from kernelopt.proposers.llm.prompts import render_messages
from kernelopt.proposers.llm.strategies import FAMILIES, normalise_family

FALLBACK_MENU = {
    "memory": ("single-pass", "memory-access", "tiling", "retune", "persistent"),
    "launch": ("persistent", "fuse-launches", "tiling", "retune"),
    "compute": ("tiling", "retune", "persistent", "memory-access"),
}
DEFAULT_MENU = ("retune", "tiling", "single-pass", "memory-access", "persistent")


@dataclass(frozen=True)
class Plan:
    family: str
    label: str
    idea: str

    @property
    def strategy(self) -> str:
        return f"{self.family}: {self.label}"


@dataclass
class Conversation:
    """One executor thread: the messages so far, the plan it serves and how many repair turns it took."""

    plan: Plan
    messages: list[dict]
    repairs: int = 0
    answered: set = field(default_factory=set)     # attempt keys already repaired in this thread


def run_args(target: RewriteTarget) -> tuple[ArgSpec, ...]:
    if target.group_args:
        return target.group_args
    return target.launches[0].args if target.launches else ()


def shorten(text: str, limit: int = 160) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Agent:
    role = ""

    def __init__(self, client: ChatClient, transcript: list[dict], max_source_chars: int = 16000):
        self.client = client
        self.transcript = transcript
        self.max_source_chars = max_source_chars

    def ask(self, messages: list[dict]) -> Answer:
        return self.client.chat(messages)   # BudgetExhausted / EndpointError reach the proposer

    def note(self, target_id: str, prompt_summary: str, answer: Answer, response_summary: str,
             handoff: str) -> None:
        self.transcript.append({
            "role": self.role, "target": target_id, "prompt_summary": prompt_summary,
            "response_summary": response_summary, "handoff": handoff, "cached": answer.cached,
            "tokens": {"prompt": answer.prompt_tokens, "completion": answer.completion_tokens},
        })

    def target_context(self, target: RewriteTarget) -> dict:
        return {"target": target, "args": run_args(target), "max_source_chars": self.max_source_chars}


class Planner(Agent):
    role = "planner"

    def plan(self, target: RewriteTarget, count: int, history_rows: list[dict], idiom: str, gpu: str,
             memory_table: list[dict], lessons: list[str], avoid: list[str], tried: set[str]) -> tuple[list[Plan], str]:
        """Up to `count` plans, none in an `avoid` family nor already tried; plus a note on how they came."""
        messages = render_messages("planner.j2", families=FAMILIES, history=history_rows, idiom=idiom, gpu=gpu,
                                   memory_table=memory_table, lessons=lessons, avoid=avoid, count=count,
                                   **self.target_context(target))
        answer = self.ask(messages)
        plans, note = self._parse(answer.content, count, avoid, tried, target.bound)
        summary = f"plan {count} for {target.id} ({target.bound or 'unknown'}-bound, {len(history_rows)} prior " \
                  f"attempts, memory: {len(memory_table)} families, {len(lessons)} lessons" + \
                  (f", avoid {','.join(avoid)})" if avoid else ")")
        self.note(target.id, summary, answer, f"{note}: " + "; ".join(p.strategy for p in plans), "executor")
        return plans, note

    def _parse(self, content: str, count: int, avoid: list[str], tried: set[str], bound: str) -> tuple[list[Plan], str]:
        data = extract_json(content)
        raw = data.get("strategies") if isinstance(data, dict) else None
        plans: list[Plan] = []
        dropped = 0
        for item in raw if isinstance(raw, list) else []:
            if not isinstance(item, dict) or not str(item.get("label", "")).strip():
                continue
            plan = Plan(normalise_family(str(item.get("family", ""))), shorten(str(item["label"]), 80),
                        shorten(str(item.get("idea", "")), 800))
            if plan.family in avoid or plan.strategy.lower() in tried or plan in plans:
                dropped += 1    # the planner repeated itself despite the prompt: enforce it here
                continue
            plans.append(plan)
        note = "planned" if raw else "planner answer unusable, fallback menu"
        if dropped:
            note += f" (dropped {dropped} repeated)"
        if len(plans) < count:
            plans += self._fallback(count - len(plans), avoid, tried, bound, plans)
        return plans[:count], note

    @staticmethod
    def _fallback(count: int, avoid: list[str], tried: set[str], bound: str, taken: list[Plan]) -> list[Plan]:
        used = {p.family for p in taken}
        menu = [f for f in FALLBACK_MENU.get(bound, DEFAULT_MENU) if f not in avoid and f not in used]
        plans = [Plan(f, f"{f} rewrite", FAMILIES[f]) for f in menu]
        return [p for p in plans if p.strategy.lower() not in tried][:count]


class Executor(Agent):
    role = "executor"

    def write(self, target: RewriteTarget, plan: Plan) -> tuple[Conversation, Extraction]:
        messages = render_messages("executor.j2", plan=plan, **self.target_context(target))
        conversation = Conversation(plan, messages)
        extraction = self._answer(target, conversation, f"write [{plan.strategy}] for {target.id}")
        return conversation, extraction

    def repair(self, target: RewriteTarget, conversation: Conversation, kind: str, reason: str,
               speedup: float | None = None) -> Extraction:
        follow_up = render_messages("repair.j2", strategy=conversation.plan.strategy, kind=kind,
                                    reason=reason.strip()[:4000], speedup=speedup)
        conversation.messages = conversation.messages + follow_up
        conversation.repairs += 1
        return self._answer(target, conversation,
                            f"repair #{conversation.repairs} ({kind}) of [{conversation.plan.strategy}]: "
                            f"{shorten(reason, 100)}")

    def _answer(self, target: RewriteTarget, conversation: Conversation, summary: str) -> Extraction:
        answer = self.ask(conversation.messages)
        conversation.messages = conversation.messages + [{"role": "assistant", "content": answer.content}]
        extraction = extract_candidate(answer.content, len(run_args(target)))
        result = f"candidate, {extraction.code.count(chr(10)) + 1} lines" if extraction.ok \
            else f"no candidate: {extraction.reason}"
        self.note(target.id, summary, answer, result, "legality gate" if extraction.ok else "executor (repair)")
        return extraction


class Summarizer(Agent):
    role = "summarizer"

    def summarize(self, target_id: str, idiom: str, gpu: str, outcomes: list[dict], lessons: list[str],
                  max_lessons: int) -> list[str] | None:
        messages = render_messages("summarizer.j2", idiom=idiom, gpu=gpu, outcomes=outcomes[-40:],
                                   lessons=lessons, max_lessons=max_lessons)
        answer = self.ask(messages)
        data = extract_json(answer.content)
        new = data.get("lessons") if isinstance(data, dict) else None
        if not isinstance(new, list):
            self.note(target_id, f"summarize {len(outcomes)} outcomes of {idiom} @ {gpu}", answer,
                      "answer unusable, lessons kept", "planner")
            return None
        new = [shorten(str(lesson), 300) for lesson in new if str(lesson).strip()][:max_lessons]
        self.note(target_id, f"summarize {len(outcomes)} outcomes of {idiom} @ {gpu}", answer,
                  f"{len(new)} lessons: " + shorten(" | ".join(new), 200), "planner")
        return new
