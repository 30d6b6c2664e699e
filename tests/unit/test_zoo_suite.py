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
    assert "| 1.100x | max-autotune-no-cudagraphs |" in text and "| 12.5 |" in text
    assert "error: InputError: boom" in text
    expected = math.exp((math.log(1.0) + math.log(0.33 / 0.30)) / 2)
    assert f"Geomean over 2 models: **{expected:.3f}x**" in text
