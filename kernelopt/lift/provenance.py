"""Provenance comments Inductor writes above each kernel launch or library call.

    # Topologically Sorted Source Nodes: [layer_norm, linear], Original ATen: [aten.native_layer_norm, aten.addmm]
"""
from __future__ import annotations

import re
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
