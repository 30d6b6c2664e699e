"""Loading a GPU suite script (benchmarks/*_suite.py) with its GPU step replaced (helpers, not tests)."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]


def load_suite(script: str, monkeypatch=None, fake_row: Callable[[str], dict] | None = None):
    """benchmarks/<script>.py as a module. With `fake_row`, its run_problem (which needs a GPU and minutes)
    returns fake_row(name) instead, and `module.ran` lists the problems it was asked for, in order."""
    spec = importlib.util.spec_from_file_location(script, REPO / "benchmarks" / f"{script}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if fake_row is not None:
        module.ran = []

        def fake_run_problem(name, args):
            module.ran.append(name)
            return fake_row(name)

        monkeypatch.setattr(module, "run_problem", fake_run_problem)
    return module


def fake_problems(tmp_path: Path, names: tuple[str, ...]) -> Path:
    """A problems folder of empty files (a faked run_problem never reads them)."""
    folder = tmp_path / "problems"
    folder.mkdir()
    for name in names:
        (folder / f"{name}.py").write_text("# fake\n")
    return folder
