"""Pull the candidate source out of a model answer, without ever running it.

The executor is asked for exactly one fenced ```python block in the candidate format. Anything else
(no block, several blocks, prose only, a syntax error, no top-level `def run`, a `run` that cannot take
the launch's arguments) yields no code and a reason that is fed back to the model in a repair turn.
The check is static: `ast.parse` only, nothing is imported or executed.
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass

# A fence opens at the start of a line with three or more backticks and an optional info string.
_FENCE = re.compile(r"^(?P<fence>`{3,})[ \t]*(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                    re.MULTILINE | re.DOTALL)
_PYTHON_TAGS = {"python", "py", "python3"}


@dataclass(frozen=True)
class Extraction:
    code: str | None
    reason: str                     # "ok" or why the answer gave no usable candidate

    @property
    def ok(self) -> bool:
        return self.code is not None


def fenced_blocks(answer: str) -> list[tuple[str, str]]:
    """(info string lower-cased, body) for every fenced block of the answer."""
    return [(m.group("info").strip().lower(), m.group("body")) for m in _FENCE.finditer(answer)]


def extract_candidate(answer: str, n_args: int | None = None) -> Extraction:
    """The single python block of `answer`, checked statically against the candidate format."""
    if not answer or not answer.strip():
        return Extraction(None, "empty answer")
    blocks = fenced_blocks(answer)
    python = [body for info, body in blocks if info.split()[:1] and info.split()[0] in _PYTHON_TAGS]
    if not python:
        if blocks:
            return Extraction(None, f"no fenced python block (found {len(blocks)} block(s) without a python tag)")
        return Extraction(None, "no fenced python block (prose only)")
    if len(python) > 1:
        return Extraction(None, f"expected exactly one fenced python block, found {len(python)}")
    code = python[0]
    problem = check_candidate_source(code, n_args)
    return Extraction(None, problem) if problem else Extraction(code, "ok")


def check_candidate_source(code: str, n_args: int | None = None) -> str | None:
    """None when `code` parses and defines a top-level `run` able to take `n_args` positional args."""
    try:
        tree = ast.parse(code, filename="<candidate>")
    except SyntaxError as error:
        return f"SyntaxError: {error.msg} (line {error.lineno}: {(error.text or '').strip()!r})"
    runs = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name == "run"]
    if not runs:
        return "the code defines no top-level `def run(*args)`"
    run = runs[-1]
    if isinstance(run, ast.AsyncFunctionDef):
        return "`run` must be a plain function, not `async def`"
    if n_args is not None and not _accepts(run.args, n_args):
        return f"`run` cannot be called with the launch's {n_args} positional arguments"
    return None


def _accepts(args: ast.arguments, n_args: int) -> bool:
    positional = len(args.posonlyargs) + len(args.args)
    required = positional - len(args.defaults)
    required_kwonly = sum(1 for default in args.kw_defaults if default is None)
    if required_kwonly:
        return False
    return required <= n_args and (args.vararg is not None or n_args <= positional)


def extract_json(answer: str) -> dict | None:
    """The first JSON object of an answer: a ```json block, else the outermost {...} span."""
    candidates = [body for info, body in fenced_blocks(answer) if info in ("json", "")]
    start, end = answer.find("{"), answer.rfind("}")
    if start >= 0 and end > start:
        candidates.append(answer[start:end + 1])
    for text in candidates:
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None
