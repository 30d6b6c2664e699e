"""benchmarks/backend_training.py's CPU-side logic: the loss check, the summary, the table, the refusal without a GPU."""
from __future__ import annotations

import json
import math

import pytest

from suite_helpers import load_suite


@pytest.fixture(scope="module")
def bench():
    return load_suite("backend_training")


def test_losses_agree_only_when_every_step_is_within_the_relative_tolerance(bench):
    assert bench.loss_agreement([1.0, 0.5, 0.25], [1.0, 0.5002, 0.25])["ok"]
    off = bench.loss_agreement([1.0, 0.5, 0.25], [1.0, 0.5, 0.2502])          # 8e-4 relative: within 1e-3
    assert off["ok"] and off["worst_step"] == 2
    off = bench.loss_agreement([1.0, 0.5, 0.25], [1.0, 0.501, 0.25])
    assert not off["ok"] and off["worst_step"] == 1 and off["max_rel_gap"] == pytest.approx(0.001 / 0.501)
    assert not bench.loss_agreement([1.0, math.nan], [1.0, math.nan])["ok"]   # NaN never matches
    short = bench.loss_agreement([1.0], [1.0, 0.9])
    assert not short["ok"] and "1 losses against 2" in short["why"]


def test_the_best_inductor_mode_is_the_faster_and_the_geomean_is_against_it(bench):
    assert bench.best_inductor({"default": 2.0, "max-autotune-no-cudagraphs": 1.5, "kernelopt": 1.0}) \
        == "max-autotune-no-cudagraphs"
    assert bench.best_inductor({"default": 2.0, "max-autotune-no-cudagraphs": None}) == "default"
    models = {"a": {"speedup_vs_best": 1.21, "losses_vs_best": {"ok": True}},
              "b": {"speedup_vs_best": 1.0, "losses_vs_best": {"ok": True}},
              "c": {"error": "RuntimeError: out of memory"}}
    total = bench.summary(models)
    assert total["geomean_speedup_vs_best"] == pytest.approx(1.1) and total["target_met"]
    assert total["models_timed"] == 2 and not total["losses_within_rtol"]    # c has no loss check


def test_the_table_names_versions_modes_and_errors(bench, tmp_path):
    row = {"ms_per_step": {"default": 2.0, "max-autotune-no-cudagraphs": 1.5, "kernelopt": 1.25},
           "best_inductor": "max-autotune-no-cudagraphs", "speedup_vs_best": 1.2,
           "losses_vs_best": {"ok": True, "max_rel_gap": 2e-4},
           "compile_s": {"default": 10, "max-autotune-no-cudagraphs": 60, "kernelopt": 90}}
    results = {"environment": {"gpu": "NVIDIA H200", "torch": "2.11.0", "triton": "3.6.0"}, "size": "large",
               "steps": 50, "options": {"gpu_seconds": 20}, "models": {"mlp": row, "rmsnorm": {"error": "boom"}}}
    results["summary"] = bench.summary(results["models"])
    out = tmp_path / "bt.json"
    bench.write_outputs(results, out)
    assert json.loads(out.read_text())["models"]["mlp"]["speedup_vs_best"] == 1.2
    table = out.with_suffix(".md").read_text()
    assert "GPU NVIDIA H200, torch 2.11.0, triton 3.6.0" in table
    assert "| mlp | 2.000 | 1.500 | 1.250 | 1.200x (vs max-autotune-no-cudagraphs) | 2.00e-04 ok | 10 / 60 / 90 |" in table
    assert "| rmsnorm | error: boom |" in table and "Geomean speedup against the best Inductor mode: 1.200x" in table


def test_without_a_gpu_it_stops_with_a_clear_message_and_a_wrong_model_is_refused(bench, capsys):
    with pytest.raises(SystemExit) as stopped:
        bench.main(["--models", "mlp,no_such_model"])
    assert stopped.value.code == 2 and "no zoo model no_such_model" in capsys.readouterr().err
    try:
        import torch
        if torch.cuda.is_available():
            pytest.skip("a GPU is present: the refusal is what a machine without one shows")
    except ImportError:
        pass
    with pytest.raises(SystemExit, match="backend_training.py .* needs a GPU"):
        bench.main(["--models", "mlp"])
