"""Pinning an Inductor kernel's autotuner to the configuration a capture recorded.

The legality gate compares a candidate with the original kernel as the module runs it: at the launch
configuration Inductor's autotuner chose when the capture was made. Loaded again, the autotuner would choose
again (a noisy benchmark, then coordinate descent under max-autotune), and a split scan or a split
reduction would combine in another order than the candidates built from its code: a correct candidate then
differs by reassociation alone. What Inductor does that pinning has to meet, each seen on an H100:

- it precompiles the listed configurations at load and then empties `configs`: the launchers are pinned;
- under max-autotune its coordinate descent records configurations outside the list (a split scan at
  R0_BLOCK=4096 with 16 warps): a launcher is compiled for it the way the coordinate descent compiles one,
  after reloading the kernel's function, which Inductor drops after precompiling;
- a pinned configuration is marked as coordinate descent's result, or the first run tunes away from it;
- a pick cached on disk by an earlier run replaces the list at load: the module is loaded with its autotune
  caches off (`without_autotune_cache`).
"""
from __future__ import annotations

import contextlib
import re
from typing import Any


def pin_autotuner(target: Any, meta: dict) -> bool:
    """Restrict the autotuner `target` to the configuration `meta` names (block sizes, num_warps, num_stages;
    other keys, such as a grid, are ignored). Whether it now runs at `meta` (False: no autotuner, or no
    configuration of it matches and none can be compiled)."""
    configs = getattr(target, "configs", None) or []
    launchers = getattr(target, "launchers", None) or []
    if not meta or not (configs or launchers):
        return False
    if launchers:
        kept = [launcher for launcher in launchers if config_matches(getattr(launcher, "config", None), meta)]
        if kept:
            target.launchers = kept[:1]
            if configs:
                target.configs = [kept[0].config]
            _no_coordinate_descent(kept[0].config)
            return True
    else:
        matches = [c for c in configs if config_matches(c, meta)]
        if matches:
            target.configs = matches[:1]
            _no_coordinate_descent(matches[0])
            return True
    # A launcher that already ran has autotuned down to its pick; a compiled one replaces it too.
    built = _launcher_for(target, meta, launchers or configs)
    if built is None:
        return False
    target.launchers = [built]
    if configs:
        target.configs = [built.config]
    return True


def _no_coordinate_descent(config: Any) -> None:
    """Mark a pinned configuration as coordinate descent's result, so that Inductor (max-autotune modules
    tune by coordinate descent at their first run) does not tune away from it."""
    try:
        config.found_by_coordesc = True
    except AttributeError:
        pass


_BLOCK_KEY = re.compile(r"^[XYZR]\d?_?BLOCK$")


def _launcher_for(target: Any, meta: dict, known: list) -> Any:
    """A launcher compiled by Inductor's autotuner `target` for the configuration `meta` names (None when it
    has no way to compile one, or the compile fails)."""
    compile_config = getattr(target, "_precompile_config", None)
    if compile_config is None:
        return None
    # lazy: triton loads with torch's Inductor runtime, after TRITON_INTERPRET is settled
    import triton

    example = next((getattr(k, "config", k) for k in known if getattr(getattr(k, "config", k), "kwargs", None)
                    is not None), None)
    names = list(example.kwargs) if example is not None else [k for k in meta if _BLOCK_KEY.match(str(k))]
    if any(name not in meta for name in names) or not meta.get("num_warps"):
        return None
    options = {"num_warps": int(meta["num_warps"]), "num_stages": int(meta.get("num_stages") or 1)}
    if meta.get("maxnreg"):
        options["maxnreg"] = int(meta["maxnreg"])
    config = triton.Config({name: int(meta[name]) for name in names}, **options)
    _no_coordinate_descent(config)
    try:
        # After precompiling, Inductor drops the kernel's Python function (fn.fn is None: on the H100 the
        # compile then failed inside Triton); its coordinate descent reloads it first, and so does this.
        reload_kernel_function(target)
        with getattr(target, "lock", contextlib.nullcontext()):
            return compile_config(config).make_launcher()
    except Exception:  # noqa: BLE001 - a configuration that does not compile is not pinned (remarked)
        return None


def reload_kernel_function(target: Any) -> None:
    """Inductor's `_ensure_kernel_loaded` (torch 2.13); where a release lacks it, what it does: the stashed
    `_reload_kernel` callback gives the function back."""
    ensure = getattr(target, "_ensure_kernel_loaded", None)
    if ensure is not None:
        ensure()
        return
    fn = getattr(target, "fn", None)
    reload = getattr(target, "_reload_kernel", None)
    if fn is not None and getattr(fn, "fn", True) is None and callable(reload):
        target.fn = reload().fn


def config_matches(config: Any, meta: dict) -> bool:
    """Whether a triton.Config has the block sizes, num_warps and num_stages that `meta` gives (keys of
    `meta` that are not the config's, such as a grid, are not compared)."""
    kwargs = getattr(config, "kwargs", None)
    if kwargs is None:
        return False
    if any(key not in meta or meta[key] != value for key, value in kwargs.items()):
        return False
    return all(meta.get(key, getattr(config, key, None)) == getattr(config, key, None)
               for key in ("num_warps", "num_stages"))


_AUTOTUNE_CACHE_FLAG = re.compile(r"'(autotune_local_cache|autotune_remote_cache)':\s*True\b")


def without_autotune_cache(source: str) -> str:
    """The module's text with its kernels' `inductor_meta` turning Inductor's autotune caches off (Inductor
    bakes the flags into each kernel's decorator, so its config cannot do it after the fact)."""
    return _AUTOTUNE_CACHE_FLAG.sub(lambda m: f"'{m.group(1)}': False", source)
