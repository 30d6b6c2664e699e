"""A disk cache of measured times: one JSON file per key under `$KERNELOPT_CACHE_DIR` (or
`~/.cache/kernelopt`), in `profile/`. A key hashes everything the time depends on: the kernel's source
(or the library callee), argument shapes/strides/dtypes and literal arguments, the GPU's name and the
torch and triton versions. Writes are atomic (rename), so concurrent runs never see half a file."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from kernelopt.cache_dir import cache_dir


def cache_root(override: str | None = None) -> Path:
    return cache_dir("profile", override)


def make_key(parts: dict[str, Any]) -> str:
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:16]


class TimeCache:
    def __init__(self, root: str | None = None, enabled: bool = True) -> None:
        self.root = cache_root(root)
        self.enabled = enabled

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        if not self.enabled:
            return None
        try:
            return json.loads(self._path(key).read_text())
        except (OSError, ValueError):
            return None

    def put(self, key: str, record: dict) -> None:
        if not self.enabled:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(record, sort_keys=True))
            tmp.replace(path)
        except OSError:
            pass  # a read-only cache must not fail a profile run
