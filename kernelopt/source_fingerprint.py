"""A hash of KernelOPT's own source files: a cache keyed on it never serves an answer that an edited or
upgraded KernelOPT would not give (an editable install keeps its version number across every edit).

This module imports neither torch nor triton, and no subpackage: their folders are found, not loaded.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

PACKAGES = ("kernelopt", "kernelopt.ir", "kernelopt.passes", "kernelopt.templates")
SUFFIXES = (".py", ".lark", ".j2", ".jinja")


def source_fingerprint(folders: list[str]) -> str:
    """sha256 over the source files below `folders` (names and contents, in a fixed order)."""
    digest = hashlib.sha256()
    for folder in sorted(folders):
        for path in sorted(Path(folder).rglob("*")):
            if path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def kernelopt_fingerprint() -> str:
    """The fingerprint of this KernelOPT (its packages' folders), computed once per process."""
    folders = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        folders += list(spec.submodule_search_locations or []) if spec else []
    return source_fingerprint(folders)
