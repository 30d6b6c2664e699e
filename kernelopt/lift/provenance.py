"""Provenance comments Inductor writes above each kernel launch or library call.

    # Topologically Sorted Source Nodes: [layer_norm, linear], Original ATen: [aten.native_layer_norm, aten.addmm]
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_PROVENANCE = re.compile(r"#\s*(Topologically Sorted Source Nodes:\s*\[(?P<nodes>[^\]]*)\]"
                         r"(?:,\s*Original ATen:\s*\[(?P<aten>[^\]]*)\])?.*)$")


def _names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def parse_provenance(line: str) -> dict[str, Any] | None:
    """The attributes for one comment line, or None when the line is no provenance comment."""
    match = _PROVENANCE.search(line.strip())
    if match is None or not line.lstrip().startswith("#"):
        return None
    return {"provenance": match.group(1).strip(), "source_nodes": _names(match["nodes"]),
            "aten": _names(match["aten"])}


def torch_version_of_capture(filename: str) -> str | None:
    """The torch version a capture was made with, when its folder says so (manifest or name)."""
    path = Path(filename)
    manifest = path.parent / "manifest.json"
    if manifest.is_file():
        try:
            data = json.loads(manifest.read_text())
        except (OSError, ValueError):
            data = {}
        if isinstance(data, dict):
            sections = [data] + [data[k] for k in ("environment", "software") if isinstance(data.get(k), dict)]
            for candidate in (section.get("torch") for section in sections):
                if isinstance(candidate, str):
                    return candidate
    for part in reversed(path.parts[:-1]):
        match = re.match(r"inductor-(\d+\.\d+(?:\.\d+)?)", part)
        if match:
            return match.group(1)
    return None
