"""Run the adversarial suite: every candidate in candidates/ against its real (shrunk) target kernel.

Each candidate file starts with a docstring naming its TARGET, the EXPECTed verdict (`accept`, or the
check id(s) that must reject it), and optionally GPU_ONLY (what only a GPU shows dynamically).
"""
from __future__ import annotations

import glob
import os
import re
import time
from dataclasses import dataclass

from kernelopt.legality import check_candidate
from tests.adversarial.targets import TARGETS

CANDIDATES = os.path.join(os.path.dirname(__file__), "candidates")


@dataclass
class SuiteCase:
    path: str
    target: str
    expect: tuple
    what: str
    gpu_only: str

    @property
    def name(self) -> str:
        return os.path.basename(self.path)[:-3]


@dataclass
class SuiteResult:
    case: SuiteCase
    verdict: object
    seconds: float

    @property
    def passed(self) -> bool:
        got = "accept" if self.verdict.accepted else self.verdict.check
        return got in self.case.expect


def _field(text: str, key: str) -> str:
    match = re.search(rf"^(?:\"\"\")?{key}:\s*(.*)$", text, re.M)
    return match.group(1).strip() if match else ""


def suite_cases() -> list[SuiteCase]:
    found = []
    for path in sorted(glob.glob(os.path.join(CANDIDATES, "*.py"))):
        with open(path) as handle:
            text = handle.read()
        found.append(SuiteCase(path, _field(text, "TARGET"), tuple(_field(text, "EXPECT").split()),
                               _field(text, "WHAT"), _field(text, "GPU_ONLY")))
    return found


def run_case(case: SuiteCase, device: str = "cpu", **options) -> SuiteResult:
    target = TARGETS[case.target]
    with open(case.path) as handle:
        source = handle.read()
    options.setdefault("timeout_floor_s", 3.0)        # compilation is not counted: no larger first-call floor
    start = time.perf_counter()
    verdict = check_candidate(target.original(), source, target.launches(device),
                              output_args=target.output_args(), reference_fn=target.reference(),
                              original_source=target.source(), arg_names=target.params(), **options)
    return SuiteResult(case, verdict, time.perf_counter() - start)
