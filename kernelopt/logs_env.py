"""`KERNELOPT_LOGS`: which of KernelOPT's loggers print, in the style of PyTorch's `TORCH_LOGS`.

    KERNELOPT_LOGS=backend            the backend's line per graph (INFO)
    KERNELOPT_LOGS=+search,cache      the search's every candidate (DEBUG) and the cache's stores (INFO)

Comma separated names; `+name` is DEBUG, `name` is INFO. Every logger is a child of `kernelopt`
(`kernelopt.backend`, `kernelopt.search`, ...). When the variable is set, what it names prints to
stderr through one handler on `kernelopt` (which then stops propagating, as `TORCH_LOGS` does with
`torch`, so a root handler does not print each line twice) and everything else of KernelOPT's prints
from WARNING up. Unset, KernelOPT touches no logging configuration: the program's own rules apply.

This module imports neither torch nor triton.
"""
from __future__ import annotations

import logging
import os
import sys

from kernelopt.errors import UsageError

ENV = "KERNELOPT_LOGS"
ROOT = "kernelopt"
# name in KERNELOPT_LOGS -> logger
LOGGERS = {
    "all": ROOT,
    "backend": "kernelopt.backend",        # torch.compile(backend="kernelopt"): one line per graph
    "search": "kernelopt.search",          # the optimize job's steps (INFO) and candidates (DEBUG)
    "cache": "kernelopt.cache",            # the backend's module cache: stores, evictions (INFO), lookups (DEBUG)
    "legality": "kernelopt.legality",      # the legality gate's per-case timings (DEBUG)
    "llm": "kernelopt.proposers.llm",      # the LLM proposer's requests
}
FORMAT = "%(levelname)s %(name)s: %(message)s"
_applied: list[str] = []      # the value last applied in this process (so a repeated call is free)
_handler: list[logging.Handler] = []


def parse_kernelopt_logs(text: str) -> dict[str, int]:
    """{logger name: level} for a KERNELOPT_LOGS value; UsageError naming a wrong item and the known names."""
    levels: dict[str, int] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, level = (item[1:], logging.DEBUG) if item.startswith("+") else (item, logging.INFO)
        if name not in LOGGERS:
            raise UsageError(f"{ENV}={text!r}: unknown log name {name!r}; known names: {', '.join(sorted(LOGGERS))} "
                             "(comma separated; '+name' for DEBUG, 'name' for INFO)")
        levels[LOGGERS[name]] = min(level, levels.get(LOGGERS[name], level))
    return levels


def apply_kernelopt_logs(environ=None) -> None:
    """Configure KernelOPT's loggers from KERNELOPT_LOGS (os.environ by default); a no-op when the value
    is the one applied last. Unset after being set, it undoes what it did."""
    text = (os.environ if environ is None else environ).get(ENV, "").strip()
    if _applied and _applied[0] == text:
        return
    levels = parse_kernelopt_logs(text)      # a wrong value changes nothing
    if _applied and _applied[0]:
        _reset()
    _applied[:] = [text]
    if not text:
        return
    root = logging.getLogger(ROOT)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(handler)
    _handler.append(handler)
    root.propagate = False
    root.setLevel(levels.pop(ROOT, logging.WARNING))
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def _reset() -> None:
    """Back to what Python's logging does without us: no handler of ours, levels unset, propagating."""
    root = logging.getLogger(ROOT)
    while _handler:
        root.removeHandler(_handler.pop())
    root.propagate = True
    for name in LOGGERS.values():
        logging.getLogger(name).setLevel(logging.NOTSET)
