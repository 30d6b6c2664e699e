"""The adversarial suite: every wrong candidate for a real captured kernel is rejected by the check
it targets, and every correct-but-different candidate is accepted."""
import os

os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402

from tests.adversarial.suite import run_case, suite_cases  # noqa: E402

CASES = suite_cases()


def test_suite_is_large_enough():
    wrong = [c for c in CASES if c.expect != ("accept",)]
    right = [c for c in CASES if c.expect == ("accept",)]
    assert len(wrong) >= 12 and len(right) >= 3
    assert len({c.target for c in wrong}) >= 3


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_candidate_gets_expected_verdict(case):
    result = run_case(case)
    got = "accept" if result.verdict.accepted else result.verdict.check
    assert got in case.expect, result.verdict.report()
    if not result.verdict.accepted and not result.verdict.check.startswith("static"):
        assert "case" in result.verdict.evidence or result.verdict.check in ("compile", "no-run")
