"""Strategy families, and the repetition detector that keeps the planner from circling one idea.

Every plan names a family from a fixed menu; labels from other proposers (search, templates) are mapped
to a family by keywords, so the whole history of a target can be read in one vocabulary.
"""
from __future__ import annotations

from collections import Counter

from kernelopt.proposers.base import Attempt

FAMILIES = {
    "retune": "change block sizes, num_warps, num_stages of the same algorithm",
    "tiling": "change the work split: rows per program, 2-D tiles, loop order, grid shape",
    "single-pass": "fuse passes over the data into one (online softmax / Welford / keep the row on chip)",
    "split-reduction": "split a long reduction across programs and combine partial results",
    "persistent": "persistent programs looping over rows/tiles (fewer launches, better tails)",
    "memory-access": "coalesce or vectorize loads/stores, cut redundant loads, eviction/cache hints",
    "fuse-launches": "merge the launches of a group into fewer kernels, drop intermediate buffers",
    "algebra": "exact algebraic simplification (no precision change): hoist, reuse, avoid recomputation",
    "other": "anything else",
}

_KEYWORDS = (
    ("fuse-launches", ("fuse", "merge launch", "one kernel", "single kernel")),
    ("single-pass", ("online", "welford", "single pass", "single-pass", "one pass", "on chip", "on-chip")),
    ("split-reduction", ("split", "atomic", "partial")),
    ("persistent", ("persistent",)),
    ("memory-access", ("vector", "coalesc", "eviction", "cache hint", "load once")),
    ("tiling", ("tile", "rows per", "loop order", "grid", "rows=")),
    ("retune", ("retune", "xblock", "rblock", "r0_block", "block", "num_warps", "warps", "num_stages", "config")),
    ("algebra", ("hoist", "algebra", "recompute", "simplif")),
)

REPEAT_WINDOW = 3                 # how many recent plans are looked at
REPEAT_SHARE = 2 / 3              # share of one family among them that counts as "collapsed"


def normalise_family(name: str) -> str:
    name = (name or "").strip().lower().replace("_", "-").replace(" ", "-")
    return name if name in FAMILIES else infer_family(name)


def infer_family(label: str) -> str:
    """The family of a free-text strategy label (first keyword match, in the order above)."""
    text = (label or "").lower()
    if ":" in text and text.split(":", 1)[0].strip() in FAMILIES:
        return text.split(":", 1)[0].strip()
    for family, words in _KEYWORDS:
        if any(word in text for word in words):
            return family
    return "other"


def collapsed_families(recent: list[str]) -> list[str]:
    """Families that dominate the last REPEAT_WINDOW plans (the planner must leave them this time)."""
    window = recent[-REPEAT_WINDOW:]
    if len(window) < 2:
        return []
    counts = Counter(window)
    return sorted(family for family, n in counts.items() if n >= 2 and n / len(window) >= REPEAT_SHARE)


def families_of_history(history: list[Attempt]) -> list[str]:
    return [infer_family(attempt.candidate.strategy) for attempt in history]


def feedback_kind(attempt: Attempt) -> str:
    """compile | legality | timing | accepted: which kind of repair an attempt calls for."""
    reason = (attempt.reason or "").lower()
    if attempt.accepted:
        return "timing" if attempt.speedup is not None and attempt.speedup < 1.0 else "accepted"
    if any(word in reason for word in ("compil", "syntax", "triton", "error:", "traceback", "exception",
                                       "nameerror", "typeerror", "import")):
        if not any(word in reason for word in ("mismatch", "tolerance", "relative error", "nan")):
            return "compile"
    if any(word in reason for word in ("slower", "timeout", "time limit", "hang")) and "mismatch" not in reason:
        return "timing" if "slower" in reason else "legality"
    return "legality"
