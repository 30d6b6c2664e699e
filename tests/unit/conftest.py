"""Session setup shared by every unit test.

The example pass plugin (tests/plugins/example_plugin) is made visible through its entry points without
being installed (see tests/plugins/plugin_path.py): on sys.path for this process, and on PYTHONPATH for the
`kernelopt` / `kernelopt-opt` processes the tests start.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins"))
from plugin_path import plugin_path, with_plugin  # noqa: E402
from slowest_first import slowest_files_first  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

for _entry in reversed(plugin_path()):
    if _entry not in sys.path:
        sys.path.insert(0, _entry)
os.environ["PYTHONPATH"] = with_plugin(os.environ.get("PYTHONPATH"))


def pytest_configure(config):
    # xdist hands out the files with the most tests first; the order below is better for its tail
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(session, config, items):
    items[:] = slowest_files_first(items, REPO / "benchmarks" / "results" / "ci_durations.txt", REPO)
