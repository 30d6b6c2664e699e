"""Where KernelOPT keeps what outlives a job: `$KERNELOPT_CACHE_DIR`, else `~/.cache/kernelopt`, one
subfolder per cache (rewrite searches, profiles, LLM answers, the backend's emitted modules)."""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir(kind: str, override: str | None = None) -> Path:
    """The folder of cache `kind` (`override` replaces the root, e.g. a command-line option)."""
    root = override or os.environ.get("KERNELOPT_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache",
                                                                             "kernelopt")
    return Path(root) / kind
