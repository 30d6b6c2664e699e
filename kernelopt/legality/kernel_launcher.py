"""Launch one Inductor kernel on its own, outside its output module.

The legality gate itself only needs a callable that runs the original launch; this module builds such a
callable from a kernel's source (for tests, the adversarial suite, and float64 references), launching
`kernel[grid](*run_args, **meta)` with the grid Inductor's Grid1D/Grid2D would compute.
"""
from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import sys
import tempfile
from typing import Any, Callable

from kernelopt import inductor_source

_LIBDEVICE_FALLBACK = (
    "try:\n"
    "    from kernelopt.runtime.interpret import install_cpu_triton_shims as _shims\n"
    "    _shims()\n"
    "except ImportError:\n"
    "    pass\n"
)


def _cpu_libdevice_fixup(source: str) -> str:
    """Under TRITON_INTERPRET, `libdevice.*` is not patched by the interpreter. Prefer the runtime's
    shims; without them, map `libdevice` to `triton.language.math` (enough for exp/rsqrt/erf/sqrt)."""
    if os.environ.get("TRITON_INTERPRET") != "1":
        return source
    try:
        # lazy: probes for the CPU shims, which need numpy (not a dependency of kernelopt)
        import kernelopt.runtime.interpret  # noqa: F401
        return _LIBDEVICE_FALLBACK + source
    except ImportError:
        return source.replace(
            "from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math",
            "from torch._inductor.runtime.triton_helpers import math as tl_math\n"
            "from triton.language import math as libdevice")


def import_source(source: str, stem: str):
    """Import Python source as a module from a real file (triton.jit reads the source back)."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:12]
    directory = os.path.join(tempfile.gettempdir(), f"kernelopt-standalone-{os.getuid()}")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{stem}_{digest}.py")
    if not os.path.exists(path):
        with open(path + ".tmp", "w") as handle:
            handle.write(source)
        os.replace(path + ".tmp", path)
    spec = importlib.util.spec_from_file_location(f"kernelopt_standalone_{stem}_{digest}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class StandaloneKernel:
    """A callable `run(*run_args)` for one kernel: same positional args as Inductor's `.run(...)`."""

    def __init__(self, name: str, source: str, meta: dict[str, Any], grid: Callable[..., tuple] | None = None):
        self.name = name
        self.source = source
        self.meta = dict(meta)
        self.params = inductor_source.kernel_params(source, name)
        self._grid = grid
        module = import_source(_cpu_libdevice_fixup(source), name[:40])
        self.kernel = getattr(module, name)

    @classmethod
    def from_module_text(cls, text: str, name: str, *, sizes: dict[int, int] | None = None,
                         meta: dict[str, Any], grid=None, float64: bool = False) -> "StandaloneKernel":
        source = inductor_source.strip_heuristics(inductor_source.kernel_source(text, name))
        if sizes:
            source = inductor_source.shrink_sizes(source, sizes)
        if float64:
            source = inductor_source.float64_variant(source)
        return cls(name, source, meta, grid)

    @classmethod
    def from_module_file(cls, path: str, name: str, **kwargs) -> "StandaloneKernel":
        with open(path) as handle:
            return cls.from_module_text(handle.read(), name, **kwargs)

    def grid(self, args) -> tuple:
        if self._grid is not None:
            return self._grid(*args)
        dims = []
        for numel, block in (("xnumel", "XBLOCK"), ("ynumel", "YBLOCK")):
            if numel in self.params and block in self.meta:
                dims.append(math.ceil(args[self.params.index(numel)] / self.meta[block]))
        return tuple(dims) or (1,)

    def __call__(self, *args) -> None:
        self.kernel[self.grid(args)](*args, **self.meta)
