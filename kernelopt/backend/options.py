"""`torch.compile(..., backend="kernelopt", options={...})`: the options, validated.

They are the knobs of `kernelopt optimize` (same names, same defaults, through OptimizeOptions), so
the CLI and the backend cannot drift apart. A wrong option is a usage error raised at compile time
(the user's code is wrong); a failure inside the pipeline is not (see dynamo.py: it falls back).
"""
from __future__ import annotations

from kernelopt.backend import search_options
from kernelopt.errors import UsageError
from kernelopt.optimize_options import BASES, OptimizeOptions

# name -> the Python types accepted for it (a proposer list may also be a comma-separated string).
KNOWN = {"base": (str,), "gpu_seconds": (int, float), "precision": (str,), "proposers": (str, list, tuple),
         "llm_base_url": (str,), "llm_model": (str,), "cost_model": (str,), "max_candidates": (int,),
         "cuda_graphs": (str,),   # auto | on | off, as `--cuda-graphs` (kernelopt/cuda_graph_options.py)
         "time_limit": (int, float)}   # seconds for one graph's job, as `--time-limit`


def backend_options(options: dict | None) -> OptimizeOptions:
    """The job options for `options` (None: every default); UsageError naming what is wrong and the fix."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(KNOWN) - set(search_options.KNOWN))
    if unknown:
        raise UsageError(f"torch.compile(backend='kernelopt'): unknown option {', '.join(map(repr, unknown))}; "
                         f"known options: {', '.join(sorted(KNOWN | search_options.KNOWN))}")
    # search, specialize, ...: the backend's own, not the job's (search_options.py checks them)
    options = {name: value for name, value in options.items() if name in KNOWN}
    for name, value in options.items():
        if isinstance(value, bool) or not isinstance(value, KNOWN[name]):
            raise UsageError(f"torch.compile(backend='kernelopt'): option {name!r} must be "
                             f"{' or '.join(t.__name__ for t in KNOWN[name])}, got {value!r}")
    if isinstance(options.get("proposers"), str):
        options["proposers"] = [p for p in options["proposers"].split(",") if p]
    if "proposers" in options:
        options["proposers"] = tuple(options["proposers"])
        # lazy: the registry imports every proposer; only a compile that names proposers needs it
        from kernelopt.proposers.registry import proposer_classes

        known = proposer_classes()
        bad = [p for p in options["proposers"] if p not in known]
        if bad:
            raise UsageError(f"torch.compile(backend='kernelopt'): unknown proposer {', '.join(map(repr, bad))} "
                             f"in option 'proposers'; known proposers: {', '.join(sorted(known))}")
    job = OptimizeOptions(**options)
    try:
        job.validate()
    except UsageError as err:   # its text names the CLI flag; the user wrote a dict key
        raise UsageError(f"torch.compile(backend='kernelopt'): {err}") from None
    return job


def key_options(job: OptimizeOptions) -> dict:
    """The options that change what the pipeline may emit: part of the cache key."""
    return {name: getattr(job, name) for name in KNOWN} | {"proposers": list(job.proposers)}


def inductor_mode(job: OptimizeOptions) -> str:
    """The Inductor mode a graph is compiled with. `best` (timing both modes) is the CLI's; the backend
    starts from its first mode, `default`, for now."""
    return BASES[job.base][0]

