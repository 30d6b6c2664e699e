"""The optimize job's progress, as records of the `kernelopt.search` logger.

`optimize_model` writes its lines to a stream (stderr for the CLI). Inside `torch.compile` they go
to the logger instead, so `KERNELOPT_LOGS=search` shows the job's steps (lift, optimize, gate, guard)
and `+search` also each candidate the search evaluated (the passes' progress lines, `[pass] ...`).
"""
from __future__ import annotations

import logging

log = logging.getLogger("kernelopt.search")


class SearchLog:
    """A write-only text stream: each complete line becomes one record, prefixed with the graph's name."""

    def __init__(self, part: str, logger: logging.Logger = log):
        self.part, self.logger, self._pending = part, logger, ""

    def write(self, text: str) -> int:
        self._pending += text
        *lines, self._pending = self._pending.split("\n")
        for line in filter(None, lines):
            # A pass's progress line (Progress in rewrite/search.py: one per candidate) is detail.
            level = logging.DEBUG if line.startswith("[") else logging.INFO
            self.logger.log(level, "%s: %s", self.part, line)
        return len(text)

    def flush(self) -> None:
        pass
