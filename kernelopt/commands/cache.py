"""`kernelopt cache list|info|clear`: the Dynamo backend's cache of emitted modules.

Reads the folder only through kernelopt/backend/cache.py (no torch), so it starts instantly.
"""
from __future__ import annotations

import argparse
import time

from kernelopt.backend.cache import MAX_BYTES_ENV, ModuleCache
from kernelopt.errors import UsageError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "cache", help="list, describe or clear the torch.compile backend's cache of emitted modules",
        description="The cache of modules emitted by torch.compile(backend='kernelopt'): "
                    "$KERNELOPT_CACHE_DIR/backend (default ~/.cache/kernelopt/backend), capped at "
                    f"${MAX_BYTES_ENV} bytes (default 5 GB), least recently used first out.")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.add_parser("list", help="one line per entry, most recently used first: key, size, last use, "
                                    "kernels rewritten (or why it is corrupt)",
                       description="One line per entry, most recently used first.")
    actions.add_parser("info", help="the folder, its entries, their total size and the cap",
                       description="The folder, its entries, their total size and the cap.")
    actions.add_parser("clear", help="remove every entry (they are rebuilt on demand)",
                       description="Remove every entry: the next torch.compile of a graph searches again.")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        cache = ModuleCache()
    except ValueError as err:
        raise UsageError(str(err)) from None
    if args.action == "list":
        for entry in cache.entries():
            used = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.last_used))
            what = (f"corrupt: {entry.meta['corrupt']}" if "corrupt" in entry.meta else
                    f"{entry.meta.get('rewrites', 0)} kernel(s) rewritten, {entry.meta.get('device', '?')}")
            print(f"{entry.key[:16]}  {_size(entry.size):>9}  {used}  {what}")
        return 0
    if args.action == "info":
        entries = cache.entries()
        corrupt = sum("corrupt" in e.meta for e in entries)
        print(f"folder:  {cache.root}")
        print(f"entries: {len(entries)}" + (f" ({corrupt} corrupt, never loaded)" if corrupt else ""))
        print(f"size:    {_size(sum(e.size for e in entries))} of {_size(cache.limit)} (${MAX_BYTES_ENV})")
        return 0
    if args.action == "clear":
        print(f"removed {cache.clear()} entries from {cache.root}")
        return 0
    raise UsageError("give an action: kernelopt cache list|info|clear (see kernelopt cache --help)")


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n} B"
