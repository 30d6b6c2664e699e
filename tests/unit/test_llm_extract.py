"""Static extraction of candidate code from model answers: exactly one fenced python block with `def run`."""
from __future__ import annotations

import pytest

from kernelopt.proposers.llm.extract import extract_candidate, extract_json

GOOD = "def run(*args):\n    pass\n"


def fenced(code: str, tag: str = "python") -> str:
    return f"```{tag}\n{code}```"


def test_one_python_block_is_extracted_verbatim():
    result = extract_candidate(f"Here is the kernel.\n\n{fenced(GOOD)}\n\nIt fuses the loads.")
    assert result.ok and result.code == GOOD


@pytest.mark.parametrize("answer, reason", [
    ("", "empty answer"),
    ("I would retune XBLOCK to 1024 and use 8 warps.", "prose only"),
    (fenced(GOOD, tag=""), "without a python tag"),
    (fenced(GOOD) + "\nor\n" + fenced(GOOD), "found 2"),
    (fenced("def run(*args):\n    x = (\n"), "SyntaxError"),
    (fenced("import torch\ndef launch(*args):\n    pass\n"), "no top-level `def run"),
    (fenced("async def run(*args):\n    pass\n"), "async"),
])
def test_malformed_answers_give_no_code_and_a_reason(answer, reason):
    result = extract_candidate(answer)
    assert not result.ok and result.code is None
    assert reason in result.reason


def test_run_must_accept_the_launch_arguments():
    two = fenced("def run(a, b):\n    pass\n")
    assert extract_candidate(two, n_args=2).ok
    assert "3 positional" in extract_candidate(two, n_args=3).reason
    assert extract_candidate(fenced("def run(a, *rest):\n    pass\n"), n_args=5).ok
    assert not extract_candidate(fenced("def run(a, b, c):\n    pass\n"), n_args=2).ok


def test_extraction_never_executes_the_code(tmp_path):
    marker = tmp_path / "executed"
    code = f"open({str(marker)!r}, 'w').write('x')\ndef run(*args):\n    while True:\n        pass\n"
    assert extract_candidate(fenced(code)).ok
    assert not marker.exists()


def test_json_is_found_in_a_block_or_in_prose():
    assert extract_json('```json\n{"strategies": []}\n```') == {"strategies": []}
    assert extract_json('Sure: {"lessons": ["a"]} hope that helps') == {"lessons": ["a"]}
    assert extract_json("no json here") is None
