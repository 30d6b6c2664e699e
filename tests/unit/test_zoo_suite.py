"""The zoo benchmark's bookkeeping: shards merge into one table, the geomean is over measured models."""
from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _zoo_suite():
    spec = importlib.util.spec_from_file_location("zoo_suite", REPO / "benchmarks" / "zoo_suite.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(model, best, kernelopt, **extra):
    return {"model": model, "best_inductor_ms": best,
            "end_to_end_ms": {"inductor default": best * 1.1, "kernelopt": kernelopt}, **extra}


def _shard(folder: Path, rows: list[dict]) -> Path:
    (folder / "zoo").mkdir(parents=True)
    for row in rows:
        (folder / "zoo" / f"{row['model']}.json").write_text(json.dumps(row))
    return folder


def test_later_shards_replace_earlier_rows_and_the_geomean_covers_measured_models(tmp_path):
    zoo = _zoo_suite()
    first = _shard(tmp_path / "a", [_row("softmax", 0.10, 0.10), _row("kl_div", 0.33, 0.37)])
    second = _shard(tmp_path / "b", [_row("kl_div", 0.33, 0.30, base_mode="max-autotune-no-cudagraphs",
                                          search_gpu_s=12.5), {"model": "gpt2", "error": "InputError: boom"}])
    rows = zoo.load_rows([first, second])
    assert [r["model"] for r in rows] == ["gpt2", "kl_div", "softmax"]
    text = zoo.table(rows)
    assert "| 1.100x | – | – | max-autotune-no-cudagraphs |" in text and "| 12.5 |" in text
    assert "error: InputError: boom" in text
    expected = math.exp((math.log(1.0) + math.log(0.33 / 0.30)) / 2)
    assert f"Geomean over 2 models: **{expected:.3f}x**" in text


def test_the_table_splits_each_ratio_into_the_kernels_share_and_the_rest(tmp_path):
    zoo = _zoo_suite()
    kept = {"original_ms": 0.20, "emitted_ms": 0.10, "kept": True}
    reverted = {"original_ms": 0.10, "emitted_ms": 0.11, "kept": False}
    shard = _shard(tmp_path / "a", [_row("cross_entropy", 0.18, 0.10, rewrites=1, guard=kept),
                                    _row("embedding_pos", 0.04, 0.02, rewrites=1, guard=reverted)])
    text = zoo.table(zoo.load_rows([shard]))
    # the kernels' share is the module-level guard ratio; a reverted module's kernels did nothing
    assert "| 1.800x | 2.000x | 0.900x |" in text
    assert "| 2.000x | 1.000x | 2.000x |" in text and "0 (1 reverted by the guard)" in text
    assert f"geomean **{math.sqrt(2.0):.3f}x** over 2 models" in text


def test_rows_written_before_the_guard_was_recorded_take_it_from_the_shards_log(tmp_path):
    zoo = _zoo_suite()
    shard = _shard(tmp_path / "a", [_row("softmax", 0.0997, 0.0934, rewrites=1), _row("rmsnorm", 0.04, 0.04)])
    (shard / "zoo.log").write_text(
        "kernelopt optimize: capture: softmax (large, default, cuda): 1 graph(s) (4.2 s)\n"
        "kernelopt optimize: guard: emitted 0.0932 ms vs original 0.1039 ms per call (side by side): 1.114x\n"
        "kernelopt optimize: capture: rmsnorm (large, default, cuda): 1 graph(s) (2.2 s)\n"
        "kernelopt optimize: guard: emitted 0.0410 ms vs original 0.0398 ms per call (side by side, back to "
        "back): the emitted module is 1.030x the original's time, so the Inductor module is written out unchanged\n")
    rows = {r["model"]: r for r in zoo.load_rows([shard])}
    assert rows["softmax"]["guard"] == {"original_ms": 0.1039, "emitted_ms": 0.0932, "kept": True}
    assert rows["rmsnorm"]["guard"]["kept"] is False and zoo.module_ratio(rows["rmsnorm"]) == 1.0


def test_with_two_optimized_modes_the_written_results_guard_counts():
    zoo = _zoo_suite()
    report = {"base_mode": "default", "steps": [
        {"name": "guard", "status": "done", "detail": "[max-autotune-no-cudagraphs] emitted 0.1340 ms vs original "
                                                      "0.1336 ms per call: ... written out unchanged"},
        {"name": "guard", "status": "done", "detail": "[default] emitted 0.1000 ms vs original 0.1358 ms per call: 1.358x"}]}
    assert zoo.guard_of_report(report) == {"original_ms": 0.1358, "emitted_ms": 0.1, "kept": True}
