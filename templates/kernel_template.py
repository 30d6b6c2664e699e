"""What a kernel template is: a matcher, a variant menu and a Jinja2 kernel, in one folder.

Each template lives in `templates/kernels/<name>/` (package `kernelopt.templates.kernels.<name>`): the
`<name>.py.j2` Triton kernel beside a module that defines a `KernelTemplate` subclass. The `templates`
proposer asks every registered template (`template_registry.registry()`) whose `scope` fits the
target to `match` it; each variant of a match is rendered into one candidate.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any, ClassVar

import jinja2

from kernelopt.codegen.configs import next_pow2  # noqa: F401 - the templates' block sizes (kernel_template.next_pow2)
from kernelopt.proposers.base import ArgSpec, KernelSpec, LaunchSpec, RewriteTarget

MAX_ROW_ON_CHIP = 32768      # fp32 elements a program keeps in registers (64 per thread at 16 warps)
KERNELS_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


@dataclass(frozen=True)
class Refusal:
    """What `match` returns for a target that computes the template's idiom in a form the template
    cannot cover (an integer scan, a fused epilogue, ...): no candidate, and the reason why, which the
    proposer keeps (`TemplatesProposer.refusals`) so a report or a test can say why nothing fired."""

    reason: str


class KernelTemplate:
    """A template the `templates` proposer offers. Subclasses set `name` and `scope` and define
    `match`, `variants`, `render`, `strategy` (and `notes`); an instance is stateless."""

    name: ClassVar[str] = ""
    # which targets it replaces (see `target_scope`): "kernel", "group" or "vendor", or a tuple of them
    # for an idiom Inductor writes as one kernel or as several launches depending on the shape
    scope: ClassVar[str | tuple[str, ...]] = "kernel"
    # the proposer offers templates in this order (then by name), so a budgeted search reaches the
    # likeliest winner first when two templates match one target
    order: ClassVar[int] = 100

    def match(self, target: RewriteTarget) -> Any | None:
        """What the target computes and which argument plays which role; None when it is not this
        template's idiom; a `Refusal` when it is, in a form the template cannot cover."""
        raise NotImplementedError

    def variants(self, match: Any) -> list:
        """Launch parameters to try, likeliest winner first."""
        raise NotImplementedError

    def render(self, match: Any, variant: Any) -> str:
        """The candidate-format source of one variant."""
        raise NotImplementedError

    def strategy(self, match: Any, variant: Any) -> str:
        """A short label of the variant (the proposer prefixes its own name)."""
        raise NotImplementedError

    def notes(self, match: Any, variant: Any) -> str:
        return ""


def target_scope(target: RewriteTarget) -> str | None:
    """The kind of target a template can replace: `vendor` (one library call), `group` (several
    launches), `kernel` (one kernel's one launch), or None (one kernel launched several times: a
    template replaces one launch)."""
    if target.kernels and target.kernels[0].kind == "vendor" and len(target.kernels) == 1:
        return "vendor"
    if len(target.launches) > 1:
        return "group"
    if len(target.kernels) == 1 and len(target.launches) == 1 and \
            target.launches[0].kernel == target.kernels[0].name:
        return "kernel"
    return None


def serves(template: KernelTemplate, scope: str | None) -> bool:
    """Whether the template replaces targets of this scope."""
    scopes = template.scope if isinstance(template.scope, tuple) else (template.scope,)
    return scope in scopes


def single_launch(target: RewriteTarget) -> tuple[KernelSpec, LaunchSpec]:
    """The kernel and launch of a "kernel"-scope target."""
    return target.kernels[0], target.launches[0]


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """Templates are found next to this module, in editable and normal installs; `_common.j2` is shared."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(KERNELS_FOLDER), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True, trim_blocks=False)


def render_kernel(template: str, **params) -> str:
    """Render `templates/kernels/<template>/<template>.py.j2`; `roles` maps role name -> launch argument
    position."""
    roles = params.pop("roles")
    return environment().get_template(f"{template}/{template}.py.j2").render(roles=list(roles.items()), **params)


def stat_stride(target_arg: ArgSpec) -> int:
    """Element stride between consecutive rows of a [M] / [M, 1] statistics buffer."""
    strides = [s for size, s in zip(target_arg.sizes, target_arg.strides) if size > 1]
    return strides[0] if len(strides) == 1 else 1
