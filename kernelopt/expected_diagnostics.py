"""`--verify-diagnostics`: check emitted diagnostics against `expected-*` comments, as MLIR does.

    // expected-error {{message substring}}          on this line
    // expected-warning@+1 {{...}}                    on the next line (@-2: two lines up)
    // expected-remark@below {{...}}                  on the next line that is not such a comment
    // expected-error@above {{...}}                   on the previous line that is not such a comment

Every expected diagnostic must be emitted (same severity, same line, message containing the text),
and every emitted diagnostic must be expected.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kernelopt.ir.diagnostics import Diagnostic

_EXPECTED = re.compile(r"//\s*expected-(error|warning|remark)(?:@(\+\d+|-\d+|below|above))?\s*\{\{(.*?)\}\}")


@dataclass
class Expectation:
    severity: str
    line: int
    text: str
    comment_line: int
    matched: bool = False


def _is_expectation_line(line: str) -> bool:
    return line.strip().startswith("//") and "expected-" in line


def collect_expectations(text: str, line_offset: int = 0) -> list[Expectation]:
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        for match in _EXPECTED.finditer(line):
            severity, anchor, message = match.groups()
            target = index
            if anchor in (None, ""):
                target = index
            elif anchor == "below":
                target = index + 1
                while target < len(lines) and (_is_expectation_line(lines[target]) or not lines[target].strip()):
                    target += 1
            elif anchor == "above":
                target = index - 1
                while target >= 0 and (_is_expectation_line(lines[target]) or not lines[target].strip()):
                    target -= 1
            else:
                target = index + int(anchor)
            found.append(Expectation(severity, target + 1 + line_offset, message, index + 1 + line_offset))
    return found


def check(expectations: list[Expectation], emitted: list[Diagnostic], filename: str) -> list[str]:
    """Return a list of failure messages (empty when everything matched)."""
    failures = []
    for diag in emitted:
        line = diag.loc.line if diag.loc is not None else None
        match = next((e for e in expectations if not e.matched and e.severity == diag.severity
                      and e.line == line and e.text in diag.message), None)
        if match is None:
            failures.append(f"{filename}:{line if line is not None else '?'}: unexpected {diag.severity}: "
                            f"{diag.message}")
        else:
            match.matched = True
    for e in expectations:
        if not e.matched:
            failures.append(f"{filename}:{e.comment_line}: expected {e.severity} on line {e.line} was not "
                            f"produced: {{{{{e.text}}}}}")
    return failures
