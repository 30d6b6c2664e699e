"""The general suite's bookkeeping on a CPU: one problem per invocation, resume, the dev subset, the
figures it reads from optimize reports (real H200 reports committed under benchmarks/results), the table."""
from __future__ import annotations

import json
import shutil

import pytest

from kernelopt.guard import GuardResult
from suite_helpers import REPO, fake_problems, load_suite

H200_RUNS = REPO / "benchmarks" / "results" / "2026-12-03-h200"
ENV = {"device": "cuda", "gpu": "NVIDIA H200", "torch": "2.11.0+cu130", "triton": "3.6.0"}


def fake_row(name):
    faster = name != "b"
    return {"problem": name, "category": "norm", "dtype": "fp32", "environment": ENV, "status": "optimized",
            "job": {"rc": 0, "timed_out": False},
            "user_call": {"best_inductor_mode": "max-autotune-no-cudagraphs", "best_inductor_ms": 0.2,
                          "kernelopt_ms": 0.1 if faster else 0.25, "ratio": 2.0 if faster else 0.8},
            "module_call": {"best_inductor_mode": "default", "ratio": 1.5 if faster else 1.0},
            "main_kernel": {"before_pct": 40.0, "after_pct": 80.0 if faster else 40.0},
            "proposers_won": ["templates"] if faster else [],
            "stopped_by": None if faster else "guard: emitted 0.2 ms | slower"}


@pytest.fixture()
def suite(monkeypatch):
    return load_suite("general_suite", monkeypatch, fake_row)


@pytest.fixture()
def problems(tmp_path):
    folder = fake_problems(tmp_path, ("c", "b", "a", "d"))
    (folder / "problems.json").write_text(json.dumps({"subsets": {"dev": ["d", "b"]}, "problems": {}}))
    return folder


def common(problems, tmp_path):
    return ["--problems-dir", str(problems), "--results", str(tmp_path / "r.jsonl"), "--work", str(tmp_path / "w")]


def test_next_runs_one_problem_per_invocation_appends_and_resumes(suite, problems, tmp_path, capsys):
    for _ in range(5):
        assert suite.main(["--next", *common(problems, tmp_path)]) == 0
    assert suite.ran == ["a", "b", "c", "d"]
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert [json.loads(line)["problem"] for line in lines] == ["a", "b", "c", "d"]
    assert "every problem has a result" in capsys.readouterr().out


def test_dev_subset_runs_in_its_own_order_then_next_takes_the_rest(suite, problems, tmp_path, capsys):
    for _ in range(3):
        suite.main(["--subset", "dev", *common(problems, tmp_path)])
    assert suite.ran == ["d", "b"] and "every problem has a result" in capsys.readouterr().out
    suite.main(["--next", *common(problems, tmp_path)])
    assert suite.ran == ["d", "b", "a"]


def test_problem_is_skipped_when_done_unless_rerun(suite, problems, tmp_path, capsys):
    suite.main(["--problem", "c", *common(problems, tmp_path)])
    suite.main(["--problem", "c", *common(problems, tmp_path)])
    assert suite.ran == ["c"] and "has a result" in capsys.readouterr().out
    suite.main(["--problem", "c", "--rerun", *common(problems, tmp_path)])
    assert suite.ran == ["c", "c"] and len((tmp_path / "r.jsonl").read_text().splitlines()) == 2
    with pytest.raises(SystemExit, match="no problem 'zz'"):
        suite.main(["--problem", "zz", *common(problems, tmp_path)])


def test_a_cut_results_line_is_a_clear_error(suite, problems, tmp_path):
    (tmp_path / "r.jsonl").write_text('{"problem": "a"}\n{"problem": "b", "us')
    with pytest.raises(SystemExit, match=r"r.jsonl:2 is not a JSON line .* can be deleted"):
        suite.main(["--next", *common(problems, tmp_path)])


def test_table_names_environment_both_ratios_and_what_is_missing(suite, problems, tmp_path):
    md, copies = tmp_path / "t.md", tmp_path / "copies"
    suite.main(["--next", *common(problems, tmp_path)])
    suite.main(["--next", *common(problems, tmp_path), "--table", str(md), "--copy-to", str(copies)])
    text = md.read_text()
    assert text.startswith("# General problems: kernelopt optimize beyond the zoo (NVIDIA H200, torch 2.11.0+cu130, "
                           "triton 3.6.0)")
    assert ("| a | norm | fp32 | optimized | max-autotune-no-cudagraphs | 0.2000 | 0.1000 | 2.000x | 1.500x (default) "
            "| 40.0 → 80.0 | templates | – |") in text
    assert "| b | norm | fp32 | optimized |" in text and "| guard: emitted 0.2 ms / slower |" in text
    assert "geometric mean 1.265x over 2 problems; KernelOPT faster on 1, slower on 1 (1 by more than 1%)" in text
    assert "geometric mean 1.225x over 2 problems; KernelOPT faster on 1, slower on 0 (0 by more than 1%)" in text
    assert "2 of 4 problems measured; not yet: c, d." in text
    assert (copies / "r.jsonl").exists() and (copies / "t.md").exists()


def test_header_names_rows_measured_on_another_machine(suite):
    rows = [{"problem": "a", "environment": ENV}, {"problem": "b", "environment": {**ENV, "torch": "2.13.0"}}]
    assert suite.header(rows).endswith("Measured elsewhere: b (NVIDIA H200, torch 2.13.0, triton 3.6.0).")


# ---------------------------------------------------------------- figures read from real reports

def real_report(model: str) -> dict:
    paths = sorted(H200_RUNS.glob(f"run*/zoo-work/{model}-report/report.json"))
    if not paths:
        pytest.skip(f"no committed H200 report for {model}")
    return json.loads(paths[-1].read_text())


def test_summary_of_a_report_where_a_template_won(suite):
    report = real_report("softmax")   # two bases; `choose` wrote the default result
    figures = suite.summarize(report)
    assert figures["environment"]["gpu"] == "NVIDIA H200" and figures["environment"]["triton"]
    user = figures["user_call"]
    assert user["best_inductor_mode"] == min((k for k in report["end_to_end_ms"] if k.startswith("inductor")),
                                             key=report["end_to_end_ms"].get).removeprefix("inductor ")
    assert user["ratio"] == pytest.approx(user["best_inductor_ms"] / user["kernelopt_ms"], rel=1e-3)
    assert figures["proposers_won"] == ["templates"] and figures["stopped_by"] is None
    main = figures["main_kernel"]
    row = max(report["kernels"], key=lambda r: r["time_us"])
    assert (main["before_pct"], main["after_pct"]) == (row["roofline_before_pct"], row["roofline_pct"])
    assert figures["guard"].startswith("[default] emitted")


def test_summary_says_what_stopped_the_search_when_nothing_was_kept(suite):
    report = real_report("zloss")     # the guard wrote the module of the base that kept nothing
    figures = suite.summarize(report)
    assert figures["proposers_won"] == []
    main = figures["main_kernel"]
    assert main["op"] == "triton_red_fused_amax_logsumexp_0" and main["before_pct"] == main["after_pct"]
    assert figures["stopped_by"].startswith("triton_red_fused_amax_logsumexp_0: no faster legal candidate")


def guard_step(original_ms: float, emitted_ms: float, mode: str = "") -> dict:
    """A guard step as optimize writes it (the detail comes from kernelopt.guard itself)."""
    prefix = f"[{mode}] " if mode else ""
    return {"name": "guard", "status": "done", "detail": prefix + GuardResult(original_ms, emitted_ms).detail()}


def test_a_guard_that_kept_inductors_module_wins_over_the_proposer_rows(suite):
    report = {"environment": ENV, "status": "optimized", "end_to_end_ms": {"inductor default": 1.0, "kernelopt": 1.0},
              "steps": [guard_step(1.0, 1.2)],
              "kernels": [{"op": "k0", "time_us": 90.0, "after_us": 60.0, "roofline_before_pct": 50.0,
                           "roofline_pct": 75.0, "proposer": "retune", "legality": "ACCEPT, 7 cases"}]}
    figures = suite.summarize(report)
    assert figures["proposers_won"] == []
    assert figures["stopped_by"].startswith("guard: emitted 1.2000 ms vs original 1.0000 ms")
    assert figures["main_kernel"]["after_pct"] == 50.0   # Inductor's kernel is what runs


def test_fallback_status_and_legality_rejections_are_the_reason(suite):
    fallback = {"status": "fallback", "fallback_reason": "RuntimeError: CUDA out of memory", "steps": [], "kernels": []}
    assert suite.summarize(fallback)["stopped_by"] == "fallback: RuntimeError: CUDA out of memory"
    skipped = {"status": "skipped", "fallback_reason": None,
               "steps": [{"name": "capture", "status": "skipped", "detail": "inputs are 300 MB"}]}
    assert suite.summarize(skipped)["stopped_by"] == "skipped: inputs are 300 MB"
    rejected = {"status": "optimized", "steps": [guard_step(1.0, 0.9)], "remarks": [],
                "kernels": [{"op": "k0", "time_us": 10.0, "legality": "REJECT: less-accurate: output 0"}]}
    assert suite.summarize(rejected)["stopped_by"] == "check-legality: REJECT: less-accurate: output 0"


def test_chosen_bases_guard_is_the_one_read(suite):
    steps = [guard_step(1.0, 0.8, "max-autotune-no-cudagraphs"), guard_step(1.0, 1.1, "default"),
             {"name": "choose", "status": "done", "detail": "max-autotune-no-cudagraphs result 0.8 ms, default result "
                                                            "1.0 ms per call (side by side): writing the "
                                                            "max-autotune-no-cudagraphs result"}]
    assert suite._written_guard(steps).startswith("[max-autotune-no-cudagraphs] emitted 0.8000")


def test_run_problem_refuses_without_a_gpu(problems, tmp_path):
    module = load_suite("general_suite")
    from kernelopt.runtime.device_memory import DeviceMemoryReader

    reader = DeviceMemoryReader()
    available = reader.available
    reader.close()
    if available:
        pytest.skip("this machine has a GPU")
    shutil.copy(REPO / "benchmarks" / "general_problems" / "reverse_cumsum.py", problems)
    with pytest.raises(SystemExit, match="needs a GPU"):
        module.main(["--problem", "reverse_cumsum", *common(problems, tmp_path)])
    assert not (tmp_path / "r.jsonl").exists()


def test_a_problem_led_by_a_library_call_names_it_and_not_an_unconfigured_proposer(suite):
    """conv3d + batch norm + sum on an H100: cuDNN's conv takes 85 % of the time, the Triton kernel is within 10 %
    of its floor. The table said "proposer 'llm' skipped: no endpoint configured", which stopped nothing."""
    report = {"status": "optimized", "steps": [guard_step(1.0, 1.0)], "remarks": [
        "remark: [agentic-rewrite] proposer 'llm' skipped: no endpoint configured: set the base-url option",
        "m.py:73:1: remark: [agentic-rewrite] @triton_red_fused_sum_0 skipped: already within 10% of its floor"],
        "kernels": [{"op": "extern_kernels.convolution", "dispatch": "vendor.cudnn", "time_us": 844.7,
                     "roofline_before_pct": 14.8, "roofline_pct": 14.8},
                    {"op": "triton_red_fused_sum_0", "dispatch": "triton.reduction", "time_us": 80.0,
                     "roofline_before_pct": 96.0, "roofline_pct": 96.0}]}
    stopped = suite.summarize(report)["stopped_by"]
    assert stopped.startswith("extern_kernels.convolution (vendor.cudnn) takes the most time; "), stopped
    assert "within 10% of its floor" in stopped and "llm" not in stopped


def test_each_card_keeps_its_own_results_so_next_progresses_on_whichever_card_a_command_gets(
        suite, problems, tmp_path, monkeypatch):
    """A device command asked for an H200 may get an H100: its rows go to general_suite.h100.jsonl (and its table),
    never into the H200 file the issue's figures are read from, and --next on either card picks that card's next."""
    monkeypatch.setattr(suite, "RESULTS", tmp_path / "general_suite.jsonl")
    monkeypatch.setattr(suite, "TABLE", tmp_path / "general_suite.md")
    where = ["--problems-dir", str(problems), "--work", str(tmp_path / "w")]
    h100 = ["--card", "NVIDIA H100 80GB HBM3"]
    suite.main(["--next", *h100, *where, "--table"])
    suite.main(["--next", *h100, *where])
    suite.main(["--next", "--card", "NVIDIA H200", *where])
    assert suite.ran == ["a", "b", "a"]
    rows = lambda name: [json.loads(line)["problem"] for line in (tmp_path / name).read_text().splitlines()]
    assert rows("general_suite.h100.jsonl") == ["a", "b"] and rows("general_suite.jsonl") == ["a"]
    assert (tmp_path / "general_suite.h100.md").exists() and not (tmp_path / "general_suite.md").exists()
    assert [suite.suite_runner.card_suffix(n) for n in ("NVIDIA H200", "NVIDIA H200 NVL", None, "NVIDIA A100-SXM4-80GB",
                                                        "NVIDIA H100 80GB HBM3")] == ["", "", "", "a100", "h100"]


def test_a_budget_that_leaves_the_job_no_search_is_refused_before_anything_runs(problems, tmp_path, capsys):
    """A device command's step of 150-190 s gave jobs 15-50 s: they stopped before their search and left rows
    that looked measured ("timed out", no figures). The suite now says what budget it needs and writes nothing."""
    module = load_suite("general_suite")
    shutil.copy(REPO / "benchmarks" / "general_problems" / "reverse_cumsum.py", problems)
    with pytest.raises(SystemExit) as stopped:
        module.main(["--problem", "reverse_cumsum", "--budget-s", "135", *common(problems, tmp_path)])
    message = str(stopped.value)
    assert "--budget-s 135 leaves the job 50 s" in message and "--budget-s 175" in message, message
    assert "GENERAL_LIMIT=185" in message
    assert not (tmp_path / "r.jsonl").exists()


def test_the_module_the_guard_timed_is_kept_beside_the_log_and_an_oversized_one_is_not(suite, tmp_path):
    keep, work = tmp_path / "keep", tmp_path / "work"
    (keep / "guard-default").mkdir(parents=True)
    (keep / "guard-max-autotune-no-cudagraphs").mkdir()
    work.mkdir()
    (keep / "guard-default" / "emitted_for_guard.py").write_text("def call(args):\n    return ()\n")
    big = keep / "guard-max-autotune-no-cudagraphs" / "emitted_for_guard.py"
    big.write_bytes(b"#" * (suite.GUARDED_MODULE_MAX_BYTES + 1))
    suite.keep_guarded_modules(keep, work)
    assert sorted(p.name for p in work.iterdir()) == ["emitted_for_guard-default.py"]
    assert (work / "emitted_for_guard-default.py").read_text().startswith("def call(args)")


def test_triton_time_over_floor_counts_every_original_launch_once_and_no_library_call(suite):
    kernels = [{"op": "mm", "dispatch": "vendor.cublas", "time_us": 100.0, "floor_us": 10.0},
               {"op": "k0", "dispatch": "triton.reduction", "time_us": 30.0, "floor_us": 20.0, "replaced_by": "group0"},
               {"op": "k1", "dispatch": "triton.pointwise", "time_us": 20.0, "floor_us": 20.0, "replaced_by": "group0"},
               {"op": "k2", "dispatch": "group.vertical", "group": "group0", "time_us": 50.0, "floor_us": 40.0},
               {"op": "k3", "dispatch": "triton.pointwise", "time_us": 5.0, "floor_us": None}]
    assert suite.triton_over_floor(kernels) == 1.25          # (30 + 20) / (20 + 20)
    assert suite.triton_over_floor(kernels[:1]) is None


def test_the_table_counts_the_problems_with_room_left_unimproved(suite):
    rows = [{**fake_row("a"), "triton_over_floor": 1.6}, {**fake_row("b"), "triton_over_floor": 1.4},
            {**fake_row("c"), "triton_over_floor": 1.1}, fake_row("d")]
    text = suite.table(rows, ["a", "b", "c", "d"])
    assert ("- Triton kernels above 1.25x their floor before any rewrite: 2 of 3 problems that record it; left below "
            "1.02x call(): 1 (b).") in text
