"""Where a legality check's time goes: seconds per phase, in total and per case (Verdict.timings)."""
from __future__ import annotations

import time
from contextlib import contextmanager

# (phase key, label) in the order a check spends them; "cases" holds the same keys per case
_PHASES = (("spawn", "spawn"), ("load", "load"), ("inputs", "inputs"), ("original", "original"),
           ("reference", "reference"), ("to_child", "to sandbox"), ("setup", "sandbox setup"),
           ("compile", "compile"), ("run", "candidate run"), ("from_child", "from sandbox"),
           ("compare", "compare"))


def time_line(timings: dict) -> str:
    """One line: the total and every phase that took at least a millisecond."""
    parts = [f"{label} {timings[key]:.3g}" for key, label in _PHASES if timings.get(key, 0.0) >= 1e-3]
    return f"total {timings.get('total', 0.0):.3g} s (" + ", ".join(parts) + ")"


class PhaseTimings:
    """Seconds per phase, in total and per case; a phase may be entered many times."""

    def __init__(self):
        self.start = time.perf_counter()
        self.totals: dict[str, float] = {}
        self.cases: list[dict] = []

    def add(self, phase: str, seconds: float) -> None:
        self.totals[phase] = self.totals.get(phase, 0.0) + seconds
        if self.cases:
            self.cases[-1][phase] = self.cases[-1].get(phase, 0.0) + seconds

    @contextmanager
    def phase(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start)

    def new_case(self, label: str) -> None:
        self.cases.append({"case": label})

    def summary(self) -> dict:
        result = {key: round(value, 4) for key, value in self.totals.items()}
        result["total"] = round(time.perf_counter() - self.start, 4)
        result["cases"] = [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in case.items()}
                           for case in self.cases]
        return result
