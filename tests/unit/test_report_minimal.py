"""The minimal report (written when the full one cannot be built) names no path inside the job's work
folder, which is removed when the job ends: the fallback reason and the steps' details say the file
relative to it, as the full report does."""
from __future__ import annotations

import json

from kernelopt.optimize_job import StepRecord
from kernelopt.report.build import write_minimal_report


def test_minimal_report_cites_files_not_the_removed_work_folder(tmp_path):
    work = tmp_path / "kernelopt-optimize-abc123"
    reason = f"PipelineFailed: pass 'emit-python' failed: {work}/keep/model.default.0.py:47:1: kernel @k calls x"
    steps = [StepRecord("optimize", "failed", f"{work}/keep/model.default.0.py:47:1: kernel @k calls x")]
    report = write_minimal_report(tmp_path / "report", steps, {"status": "fallback", "fallback_reason": reason},
                                  work_dir=work)
    written = (tmp_path / "report" / "report.json").read_text() + (tmp_path / "report" / "report.md").read_text()
    assert str(work) not in written
    assert "keep/model.default.0.py:47:1: kernel @k" in report["fallback_reason"]
    assert json.loads((tmp_path / "report" / "report.json").read_text())["steps"][0]["detail"].startswith("keep/model")
    assert steps[0].detail.startswith(str(work))        # the job's own records are not rewritten
