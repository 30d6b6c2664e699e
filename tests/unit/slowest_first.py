"""Order test files slowest first, from the durations CI last printed (a helper of conftest, not tests).

scripts/test.sh spreads whole files over one xdist worker per core. Handed out in collection order
(or by test count, xdist's default), a long file that starts last keeps one worker busy while the
other has nothing left: with the slowest files first, the tail is made of short ones. The durations
come from benchmarks/results/ci_durations.txt (pytest's 150 slowest of the last CI run); files not
listed there run afterwards, in collection order. Only the order changes, never what runs.
"""
from __future__ import annotations

import re
from pathlib import Path

_LINE = re.compile(r"^\s*([0-9.]+)s\s+(?:setup|call|teardown)\s+([^\s:]+)::")


def seconds_per_file(durations: Path) -> dict[str, float]:
    """{"tests/unit/test_x.py": seconds} summed over the listed phases; {} without the file."""
    totals: dict[str, float] = {}
    try:
        lines = durations.read_text().splitlines()
    except OSError:
        return totals
    for line in lines:
        match = _LINE.match(line)
        if match:
            totals[match.group(2)] = totals.get(match.group(2), 0.0) + float(match.group(1))
    return totals


def slowest_files_first(items: list, durations: Path, root: Path) -> list:
    """`items` with whole files moved, slowest first; a file's own tests keep their order."""
    seconds = seconds_per_file(durations)
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(_file_of(item, root), len(first_seen))

    def key(item) -> tuple:
        name = _file_of(item, root)
        return -seconds.get(name, 0.0), first_seen[name]

    return sorted(items, key=key)      # stable: the order inside a file is kept


def _file_of(item, root: Path) -> str:
    path = Path(str(item.path)).resolve()
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()
