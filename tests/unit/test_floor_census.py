"""benchmarks/floor_census.py on the CPU: it lifts the committed H200 captures and gives each launch its static
floor (times need a GPU), appends one line per problem, resumes where a line exists, keeps going past a problem
that fails, and writes a table sorted by how far each problem's Triton kernels sit from their floor."""
from __future__ import annotations

import json

from suite_helpers import load_suite


def test_census_lines_resume_and_the_table(tmp_path, capsys):
    census = load_suite("floor_census")
    out, table = tmp_path / "census.jsonl", tmp_path / "census.md"
    args = ["--out", str(out), "--device", "cpu", "--problems", "sum_over_dim0,cumsum_long_rows", "--table", str(table)]
    assert census.main(args) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["problem"] for r in rows] == ["cumsum_long_rows", "sum_over_dim0"]
    assert all(r["mode"] == "default" and r["launches"] for r in rows)
    [launch] = rows[1]["launches"]
    assert launch["op"] == "triton_red_fused_sum_0" and launch["floor_us"] > 0 and launch["time_us"] is None
    assert census.main(args) == 0                                   # both done: nothing runs again
    assert len(out.read_text().splitlines()) == 2
    text = table.read_text()
    assert text.startswith("| problem | mode |") and "| sum_over_dim0 | default |" in text


def test_a_problem_that_failed_shows_its_error_in_the_table():
    census = load_suite("floor_census")
    row = {"problem": "broken", "error": "InputError: no such module"}
    rendered = census.table([row])
    assert "| broken | default | – | – | – | – | failed: InputError: no such module |" in rendered
