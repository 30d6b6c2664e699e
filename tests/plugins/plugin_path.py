"""Make the example pass plugin visible to the tests without installing it.

The user install (scripts/install.sh) does not install `tests/plugins/example_plugin`, so users never see
its `example-*` passes. The tests still need it found the way a real plugin is: through its
`kernelopt.passes` entry points. `plugin_path()` writes the plugin's metadata (a `.dist-info` folder built
from its pyproject.toml) into a folder under the temp directory and returns the paths to put on
`sys.path` / PYTHONPATH: the plugin's source folder and that metadata folder. Used by
tests/unit/conftest.py (pytest and the commands it starts) and tests/lit/lit.cfg.py (lit's commands).
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import tomllib
from pathlib import Path

PLUGIN = Path(__file__).resolve().parent / "example_plugin"


def plugin_path() -> list[str]:
    project = PLUGIN / "pyproject.toml"
    text = project.read_bytes()
    meta = tomllib.loads(text.decode())["project"]
    root = Path(tempfile.gettempdir()) / f"kernelopt-test-plugin-{hashlib.sha256(text).hexdigest()[:12]}"
    info = root / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    if not (info / "entry_points.txt").is_file():
        info.mkdir(parents=True, exist_ok=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n")
        lines = []
        for group, points in meta.get("entry-points", {}).items():
            lines.append(f"[{group}]")
            lines += [f"{name} = {target}" for name, target in points.items()]
        tmp = info / f"entry_points.txt.{os.getpid()}"
        tmp.write_text("\n".join(lines) + "\n")
        tmp.replace(info / "entry_points.txt")     # atomic: parallel test processes may race here
    return [str(PLUGIN), str(root)]


def with_plugin(pythonpath: str | None) -> str:
    """A PYTHONPATH value that adds the plugin to `pythonpath`."""
    parts = plugin_path() + ([pythonpath] if pythonpath else [])
    return os.pathsep.join(parts)
