"""The large suite's bookkeeping on a CPU: one problem per invocation, resume, --rerun, the table."""
from __future__ import annotations

import json

import pytest

from suite_helpers import fake_problems, load_suite


def fake_row(name):
    return {"problem": name, "input_bytes": 4 * 10**9,
            "environment": {"gpu": "NVIDIA H200", "torch": "2.13", "triton": "3.6"},
            "inductor": {"peak_bytes": 10 * 2**30},
            "job": {"rc": 0, "wall_s": 120.0, "output_written": True, "report_status": "optimized",
                    "speedup": 1.25, "peak_bytes": 20 * 2**30, "temp_peak_growth_bytes": 50 * 2**20,
                    "temp_leftover_bytes": 0},
            "memory_bound_bytes": 30 * 2**30, "memory_ok": True, "disk_ok": name != "b", "cleaned_bytes": 0}


@pytest.fixture()
def suite(monkeypatch):
    return load_suite("large_suite", monkeypatch, fake_row)


@pytest.fixture()
def problems(tmp_path):
    folder = fake_problems(tmp_path, ("b", "a", "c"))
    return folder


def test_next_runs_one_problem_per_invocation_and_resumes(suite, problems, tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    common = ["--problems-dir", str(problems), "--results", str(results), "--work", str(tmp_path / "w")]
    for _ in range(4):
        assert suite.main(["--next", *common]) == 0
    assert suite.ran == ["a", "b", "c"]
    assert [json.loads(line)["problem"] for line in results.read_text().splitlines()] == ["a", "b", "c"]
    assert "every problem has a result" in capsys.readouterr().out


def test_problem_is_skipped_when_done_unless_rerun_and_the_later_line_wins(suite, problems, tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    common = ["--problems-dir", str(problems), "--results", str(results), "--work", str(tmp_path / "w")]
    suite.main(["--problem", "c", *common])
    suite.main(["--problem", "c", *common])
    assert suite.ran == ["c"] and "has a result" in capsys.readouterr().out
    suite.main(["--problem", "c", "--rerun", *common])
    assert suite.ran == ["c", "c"] and len(results.read_text().splitlines()) == 2
    assert list(suite.load_results(results)) == ["c"]
    with pytest.raises(SystemExit, match="no problem 'zz'"):
        suite.main(["--problem", "zz", *common])


def test_table_names_the_environment_and_what_is_missing(suite, problems, tmp_path):
    results, md, copies = tmp_path / "r.jsonl", tmp_path / "t.md", tmp_path / "copies"
    common = ["--problems-dir", str(problems), "--results", str(results), "--work", str(tmp_path / "w")]
    suite.main(["--next", *common])
    suite.main(["--next", *common, "--table", str(md), "--copy-to", str(copies)])
    text = md.read_text()
    assert text.startswith("# Large problems: kernelopt optimize at real sizes (NVIDIA H200, torch 2.13, triton 3.6)")
    assert "| a | 4.00 | 120 | 0 | yes | optimized | 1.250x | 20.0 | 10.0 | 30.0 | ok | 50 | 0 | 0 | ok |" in text
    assert "| b |" in text and "| **over** |" in text
    assert "1 of 2 measured problems ended with exit code 0 within both bounds; not measured yet: c." in text
    assert (copies / "r.jsonl").exists() and (copies / "t.md").exists()


def test_memory_bound_and_leftover_cleaning(suite, tmp_path):
    assert suite.memory_bound(10 * 2**30, 141 * 2**30) == 30 * 2**30
    assert suite.memory_bound(60 * 2**30, 141 * 2**30) == 137 * 2**30
    assert suite.memory_bound(None, 141 * 2**30) == 137 * 2**30 and suite.memory_bound(None, None) is None
    (tmp_path / "kernelopt-optimize-x" / "sub").mkdir(parents=True)
    (tmp_path / "kernelopt-optimize-x" / "sub" / "t.pt").write_bytes(b"x" * 50_000)
    (tmp_path / "other").write_bytes(b"y" * 10)
    assert suite.clean_leftovers([tmp_path]) >= 50_000
    assert [p.name for p in tmp_path.iterdir()] == ["other"]


def test_cleaning_spares_the_suites_own_work_folder(suite, tmp_path):
    """`--work /tmp/kernelopt-large` is a name the cleaning matches: it must not remove the folder the
    problem is about to write into (it did, and the run ended in a FileNotFoundError)."""
    work = tmp_path / "kernelopt-large" / "instance_norm"
    work.mkdir(parents=True)
    (tmp_path / "kernelopt-candidates").mkdir()
    suite.clean_leftovers([tmp_path], keep=work)
    assert work.is_dir() and not (tmp_path / "kernelopt-candidates").exists()
