"""The `templates` proposer: expert Triton kernels (Jinja2 templates) bound to idioms in Inductor kernels.

Every registered template (`kernelopt.templates.template_registry`: one folder per template under
`templates/kernels/`, plus plugins) whose scope fits the target is asked to match it; each variant of a
match is rendered into one candidate. All per-template code lives in the template's folder.
"""
from __future__ import annotations

from typing import Iterable

from kernelopt.proposers.base import Attempt, Candidate, RewriteTarget
from kernelopt.templates.kernel_template import Refusal, serves, target_scope
from kernelopt.templates.template_registry import registry


class TemplatesProposer:
    name = "templates"
    summary = ("Expert Triton templates (online cross-entropy, online KL divergence, softmax family, row norms "
               "and GroupNorm with epilogues, Welford, arg-reduce, cumsum) bound to idioms recognised in Inductor "
               "kernels, and a depthwise conv2d for cuDNN's")

    def __init__(self) -> None:
        # target id -> (template, reason) for each template that recognised its idiom in the target
        # but cannot cover the form (see `Refusal`)
        self.refusals: dict[str, list[tuple[str, str]]] = {}

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        tried = {attempt.candidate.strategy for attempt in history}
        for candidate in self._candidates(target):
            if candidate.strategy not in tried:
                yield candidate

    def _candidates(self, target: RewriteTarget) -> Iterable[Candidate]:
        scope = target_scope(target)
        for template in registry().values():
            if not serves(template, scope):
                continue
            match = template.match(target)
            if isinstance(match, Refusal):
                self.refusals.setdefault(target.id, []).append((template.name, match.reason))
                continue
            if match is None:
                continue
            for variant in template.variants(match):
                yield Candidate(source=template.render(match, variant), proposer=self.name,
                                strategy=f"{self.name}:{template.strategy(match, variant)}",
                                notes=template.notes(match, variant))
