"""On-disk cache of search results, so a second `optimize` of the same model costs no search.

The key covers everything that can change the answer: the kernel sources, launch shapes and
configurations, the GPU, torch / triton / KernelOPT versions and KernelOPT's own source, the precision
policy and the set of proposers. Entries are JSON files named by the key's hash.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from kernelopt import __version__
from kernelopt.cache_dir import cache_dir as kernelopt_cache_dir
from kernelopt.source_fingerprint import kernelopt_fingerprint
from kernelopt.proposers.base import RewriteTarget


def cache_dir() -> Path:
    return kernelopt_cache_dir("rewrite")


def versions() -> dict[str, str]:
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton

    # the source's hash too: an editable install keeps its version number across edits, and a search cached by
    # an older proposer must not stand in for what the current one finds
    return {"torch": torch.__version__, "triton": triton.__version__, "kernelopt": __version__,
            "kernelopt_source": kernelopt_fingerprint()}


def cache_key(target: RewriteTarget, proposers: list[str], device: str) -> str:
    payload = {
        "kernels": [(k.name, hashlib.sha256(k.source.encode()).hexdigest()) for k in target.kernels],
        "launches": [asdict(launch) for launch in target.launches],
        "group": [asdict(a) for a in target.group_args],
        "gpu": target.gpu, "device": device, "precision": target.precision,
        "proposers": sorted(proposers), **versions(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def load(key: str) -> dict[str, Any] | None:
    path = cache_dir() / f"{key}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def store(key: str, entry: dict[str, Any]) -> None:
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"{key}.json.tmp"
    tmp.write_text(json.dumps(entry, indent=1, default=str))
    tmp.replace(folder / f"{key}.json")
