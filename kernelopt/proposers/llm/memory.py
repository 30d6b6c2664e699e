"""Experience memory: which strategy families worked for which kernel idiom on which GPU.

A JSON file on disk shared across kernels and runs. Outcomes are recorded deterministically from the
driver's `Attempt`s (so the memory is right even when the summarizer model is unavailable); the
summarizer agent adds short lessons per (idiom, GPU). The planner is shown both.

File layout:
  {"version": 1,
   "outcomes": [{"idiom", "gpu", "family", "strategy", "accepted", "speedup", "reason", "kernel"}, ...],
   "lessons": {"<idiom> @ <gpu>": ["...", ...]}}
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from kernelopt.proposers.base import RewriteTarget
from kernelopt.proposers.llm.client import write_json_atomically

MAX_OUTCOMES = 2000
MAX_LESSONS = 8
_ATEN = re.compile(r"aten\.([A-Za-z_0-9]+)")


def idiom_of(target: RewriteTarget) -> str:
    """A coarse idiom label: the kernel kinds and the ATen ops named in the provenance."""
    kinds = sorted({kernel.kind or "unknown" for kernel in target.kernels}) or ["unknown"]
    ops = sorted({op for kernel in target.kernels for op in _ATEN.findall(kernel.provenance)})
    label = "+".join(kinds)
    if len(target.launches) > 1:
        label = f"group({label})"
    return f"{label}[{','.join(ops)}]" if ops else label


def gpu_of(target: RewriteTarget) -> str:
    return target.gpu or "cpu"


def slot(idiom: str, gpu: str) -> str:
    return f"{idiom} @ {gpu}"


@dataclass
class ExperienceMemory:
    path: Path | None                   # None: in memory only

    def __post_init__(self):
        self.data = self._load()

    def _load(self) -> dict:
        empty = {"version": 1, "outcomes": [], "lessons": {}}
        if self.path is None or not Path(self.path).is_file():
            return empty
        try:
            data = json.loads(Path(self.path).read_text())
        except (ValueError, OSError):
            return empty        # a damaged memory is replaced, never fatal
        if not isinstance(data, dict):
            return empty
        data.setdefault("outcomes", [])
        data.setdefault("lessons", {})
        return data

    def save(self) -> None:
        if self.path is None:
            return
        on_disk = ExperienceMemory(self.path).data     # merge with what other runs wrote meanwhile
        seen = {_outcome_key(o) for o in self.data["outcomes"]}
        merged = [o for o in on_disk["outcomes"] if _outcome_key(o) not in seen] + self.data["outcomes"]
        lessons = {**on_disk["lessons"], **self.data["lessons"]}
        self.data = {"version": 1, "outcomes": merged[-MAX_OUTCOMES:], "lessons": lessons}
        write_json_atomically(Path(self.path), self.data)

    def record(self, idiom: str, gpu: str, kernel: str, family: str, strategy: str, accepted: bool,
               speedup: float | None, reason: str) -> bool:
        """Add one outcome; False when the very same outcome is already known."""
        outcome = {"idiom": idiom, "gpu": gpu, "kernel": kernel, "family": family, "strategy": strategy,
                   "accepted": bool(accepted), "speedup": speedup, "reason": reason[:300]}
        if any(_outcome_key(o) == _outcome_key(outcome) for o in self.data["outcomes"]):
            return False
        self.data["outcomes"].append(outcome)
        return True

    def outcomes(self, idiom: str, gpu: str) -> list[dict]:
        return [o for o in self.data["outcomes"] if o.get("idiom") == idiom and o.get("gpu") == gpu]

    def lessons(self, idiom: str, gpu: str) -> list[str]:
        return list(self.data["lessons"].get(slot(idiom, gpu), []))

    def set_lessons(self, idiom: str, gpu: str, lessons: list[str]) -> None:
        cleaned = [str(lesson).strip()[:300] for lesson in lessons if str(lesson).strip()]
        self.data["lessons"][slot(idiom, gpu)] = cleaned[:MAX_LESSONS]

    def family_table(self, idiom: str, gpu: str) -> list[dict]:
        """Per strategy family: tries, accepted, best speedup; best families first."""
        table: dict[str, dict] = {}
        for o in self.outcomes(idiom, gpu):
            row = table.setdefault(o["family"], {"family": o["family"], "tries": 0, "accepted": 0, "best": None})
            row["tries"] += 1
            if o["accepted"]:
                row["accepted"] += 1
                if o.get("speedup") is not None and (row["best"] is None or o["speedup"] > row["best"]):
                    row["best"] = o["speedup"]
        return sorted(table.values(), key=lambda r: (-(r["best"] or 0.0), -r["accepted"], r["family"]))


def _outcome_key(o: dict) -> tuple:
    return (o.get("idiom"), o.get("gpu"), o.get("kernel"), o.get("strategy"), o.get("accepted"), o.get("speedup"),
            o.get("reason"))
