"""The backend's own options: when the search runs (`search`) and for which sizes (`specialize`).

They are not knobs of the optimize job (options.py holds those), so they are checked here and left
out of the cache key: they decide when a module is searched and for which concrete sizes, not what
the job emits for a given module, so a module searched in the background is a cache hit for a
blocking run and the other way round.
"""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.errors import UsageError

SEARCH_MODES = ("blocking", "background")
SPECIALIZE_MODES = ("none", "seen")

# name -> the Python types accepted for it
KNOWN = {"search": (str,), "specialize": (str,), "specialize_after": (int,), "specialize_max": (int,)}


@dataclass(frozen=True)
class SearchOptions:
    search: str = "blocking"        # background: Inductor's module runs until the searched one is swapped in
    specialize: str = "none"        # seen: symbolic-size graphs get static specializations for sizes called often
    specialize_after: int = 2       # ... once a size has been called this many times
    # ... and at most this many per graph: each one holds a compiled module (and, on a GPU, its kernels)
    # and costs a compile, so a graph called with ever new sizes must not accumulate them.
    specialize_max: int = 8


def search_options(options: dict | None) -> SearchOptions:
    """The backend's own options out of torch.compile's `options` (the job's are checked in options.py)."""
    given = {name: value for name, value in (options or {}).items() if name in KNOWN}
    for name, value in given.items():
        if isinstance(value, bool) or not isinstance(value, KNOWN[name]):
            _refuse(f"option {name!r} must be {' or '.join(t.__name__ for t in KNOWN[name])}, got {value!r}")
    picked = SearchOptions(**given)
    if picked.search not in SEARCH_MODES:
        _refuse(f"option 'search' must be one of {', '.join(map(repr, SEARCH_MODES))}, got {picked.search!r}")
    if picked.specialize not in SPECIALIZE_MODES:
        _refuse(f"option 'specialize' must be one of {', '.join(map(repr, SPECIALIZE_MODES))}, "
                f"got {picked.specialize!r}")
    for name in ("specialize_after", "specialize_max"):
        if getattr(picked, name) < 1:
            _refuse(f"option {name!r} must be at least 1, got {getattr(picked, name)}")
        if name in given and picked.specialize != "seen":
            _refuse(f"option {name!r} applies to specialize='seen' only: add \"specialize\": \"seen\" or drop it")
    return picked


def _refuse(text: str) -> None:
    raise UsageError(f"torch.compile(backend='kernelopt'): {text}")
