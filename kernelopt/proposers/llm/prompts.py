"""Render the agents' prompts (templates/prompts/*.j2, package data of `kernelopt.templates`).

A prompt template writes `<<system>>` and `<<user>>` marker lines; the text after each marker becomes one
chat message of that role.
"""
from __future__ import annotations

import functools
import os
import re

import jinja2

import kernelopt.templates as package

_MARKER = re.compile(r"^<<(system|user|assistant)>>[ \t]*$", re.MULTILINE)


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    folder = os.path.join(os.path.dirname(os.path.abspath(package.__file__)), "prompts")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
                             trim_blocks=False, lstrip_blocks=False, keep_trailing_newline=False)
    env.globals["fmt_us"] = format_us
    env.filters["compact_source"] = compact_source
    return env


def format_us(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.1f} us"


def compact_source(source: str) -> str:
    """Kernel source for a prompt: Inductor's `inductor_meta=` line (cache hashes, autotune flags, ~1.5k
    characters) carries nothing the model needs that the IR context does not state, so it is dropped."""
    lines = [line for line in source.strip().splitlines() if not line.lstrip().startswith("inductor_meta=")]
    return "\n".join(lines)


def render_messages(template: str, **context) -> list[dict]:
    text = environment().get_template(template).render(**context)
    parts = _MARKER.split(text)
    messages = []
    for role, content in zip(parts[1::2], parts[2::2]):
        content = re.sub(r"\n{3,}", "\n\n", content).strip()
        if content:
            messages.append({"role": role, "content": content})
    if not messages:
        raise ValueError(f"prompt template {template} rendered no message")
    return messages
