"""The backend's persistent cache of emitted modules: `$KERNELOPT_CACHE_DIR/backend/<key>.py`.

One file per entry, so an entry is replaced in one atomic step (written to a temp file in the same
folder, then `os.replace`d): a reader sees the old entry or the new one, never half of one, and two
processes writing the same key leave one whole entry. The first line is a header holding the sha256
of the rest; an entry whose header is missing or does not match (a truncated copy, a disk error, an
edit) is reported and never loaded. The rest is the emitted module itself, loaded as it lies.

The folder is capped (5 GB by default, `KERNELOPT_CACHE_MAX_BYTES`): after each write the least
recently used entries go first (a hit touches its file's mtime).

This module imports neither torch nor triton: `kernelopt cache` and `kernelopt --help` load it.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from kernelopt.cache_dir import cache_dir

HEADER_PREFIX = "# kernelopt-cache "
SUFFIX = ".py"
TEMP_PREFIX = ".tmp-"          # put() writes here first, then renames onto the entry
DEFAULT_MAX_BYTES = 5 * 1000 ** 3
MAX_BYTES_ENV = "KERNELOPT_CACHE_MAX_BYTES"

log = logging.getLogger("kernelopt.cache")     # KERNELOPT_LOGS=cache: stores, evictions; +cache: lookups


class CorruptEntry(Exception):
    """An entry failed its checksum: the message says which file and why."""


@dataclass
class Entry:
    key: str
    path: Path
    size: int
    last_used: float
    meta: dict


def cache_root() -> Path:
    return cache_dir("backend")


def max_bytes() -> int:
    text = os.environ.get(MAX_BYTES_ENV, "")
    try:
        return int(text) if text else DEFAULT_MAX_BYTES
    except ValueError:
        raise ValueError(f"{MAX_BYTES_ENV}={text!r}: expected a number of bytes, e.g. 5000000000") from None


def cache_key(parts: dict) -> str:
    """sha256 of the key's parts (JSON with sorted keys, so the order they were given in does not matter)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def _entry_text(source: str, meta: dict) -> str:
    header = dict(meta, sha256=hashlib.sha256(source.encode()).hexdigest())
    return HEADER_PREFIX + json.dumps(header, sort_keys=True, default=str) + "\n" + source


def _parse(path: Path) -> tuple[dict, str]:
    """(header, module source) of the entry at `path`; CorruptEntry when it does not check out."""
    try:
        text = path.read_bytes().decode()
    except UnicodeDecodeError:
        raise CorruptEntry(f"{path}: not UTF-8 text") from None
    first, _, source = text.partition("\n")
    if not first.startswith(HEADER_PREFIX):
        raise CorruptEntry(f"{path}: no '{HEADER_PREFIX.strip()}' header line")
    try:
        header = json.loads(first[len(HEADER_PREFIX):])
    except ValueError:
        raise CorruptEntry(f"{path}: the header line is not JSON") from None
    if not isinstance(header, dict) or header.get("sha256") != hashlib.sha256(source.encode()).hexdigest():
        raise CorruptEntry(f"{path}: checksum mismatch (truncated or modified)")
    return header, source


class ModuleCache:
    def __init__(self, root: Path | None = None, limit: int | None = None):
        self.root = Path(root) if root is not None else cache_root()
        self.limit = max_bytes() if limit is None else limit

    def path(self, key: str) -> Path:
        return self.root / f"{key}{SUFFIX}"

    def get(self, key: str) -> tuple[Path, dict] | None:
        """(path of the verified module, its header) or None when there is no entry. Raises CorruptEntry
        for an entry that fails its checksum; the caller warns, and the next put() replaces it."""
        path = self.path(key)
        if not path.is_file():
            log.debug("miss %s (no %s)", key[:12], path)
            return None
        header, _ = _parse(path)
        os.utime(path)     # least recently used goes first: a hit makes this entry the most recent
        log.debug("hit %s: %s", key[:12], path)
        return path, header

    def put(self, key: str, source: str, meta: dict) -> Path:
        self.root.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(dir=self.root, prefix=TEMP_PREFIX, suffix=SUFFIX)
        try:
            text = _entry_text(source, dict(meta, key=key, created=time.time()))
            with os.fdopen(handle, "w") as out:
                out.write(text)
            os.replace(tmp, self.path(key))
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        log.info("stored %s (%d bytes): %s", key[:12], len(text.encode()), self.path(key))
        self.evict()
        return self.path(key)

    def entries(self) -> list[Entry]:
        """Every entry, most recently used first; a corrupt one is listed with meta {'corrupt': why}."""
        found = []
        for path in self._entry_paths():
            try:
                stat = path.stat()
                try:
                    meta, _ = _parse(path)
                except CorruptEntry as err:
                    meta = {"corrupt": str(err)}
            except FileNotFoundError:     # evicted or cleared by another process meanwhile
                continue
            found.append(Entry(path.stem, path, stat.st_size, stat.st_mtime, meta))
        return sorted(found, key=lambda e: e.last_used, reverse=True)

    def evict(self) -> list[Path]:
        """Remove least recently used entries until the folder is within the limit; return what went."""
        entries = self.entries()
        total, removed = sum(e.size for e in entries), []
        for entry in reversed(entries):    # oldest first
            if total <= self.limit:
                break
            try:
                entry.path.unlink()
            except FileNotFoundError:
                pass
            total -= entry.size
            removed.append(entry.path)
        if removed:
            log.info("evicted %d least recently used entr%s to stay within %d bytes (%s)", len(removed),
                     "y" if len(removed) == 1 else "ies", self.limit, MAX_BYTES_ENV)
        return removed

    def _entry_paths(self) -> list[Path]:
        """The entries' files; not the temp files of a put() in progress, which are no entry (yet)."""
        if not self.root.is_dir():
            return []
        return [path for path in self.root.glob(f"*{SUFFIX}") if not path.name.startswith(TEMP_PREFIX)]

    def clear(self) -> int:
        """Remove every entry; return how many. Another process's put() in progress is left to finish."""
        count = 0
        for path in self._entry_paths():
            try:
                path.unlink()
                count += 1
            except FileNotFoundError:
                pass
        return count
