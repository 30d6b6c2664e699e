"""Make Inductor's Triton kernels run on the CPU through the Triton interpreter.

`install_cpu_triton_shims()` is the one entry point. It must run before the first `@triton.jit`
decorator that should be interpreted executes: triton decides between `JITFunction` and
`InterpretedFunction` when the decorator runs (it reads `TRITON_INTERPRET` through
`triton.knobs.runtime.interpret` at that moment), so helpers imported earlier (Inductor's
`triton_helpers`) are re-imported here when they were compiled for a GPU.

The interpreter patches `triton.language` and `triton.language.math` during a launch, but not
`triton.language.extra.libdevice`: its functions are `extern_elementwise` calls into the CUDA
bitcode library, which the interpreter cannot run (they return None or raise). Inductor emits
`libdevice.<fn>(...)` for many math functions, so we replace that namespace by `CPU_LIBDEVICE`,
whose functions compute on the interpreter's numpy-backed tensors with torch CPU kernels.
"""
from __future__ import annotations

import importlib
import os
import sys
import types
import warnings
from typing import Callable

import numpy as np
import torch
import torch.utils._triton as torch_triton

from kernelopt.runtime.fast_reductions import FAST_HELPERS
from kernelopt.runtime.interpreter_speed import (remember_numpy_dtypes, skip_broadcasts_of_equal_shapes,
                                                 skip_discarded_overflow_checks, skip_repatching_inside_a_launch)

FIXED_BACKEND_HASH = "KERNELOPT-CPU-TRITON-INTERPRETER"

_INSTALLED = False


# --------------------------------------------------------------------------------------------
# dtype bridges between the interpreter's tensors (numpy data + triton dtype) and torch
# --------------------------------------------------------------------------------------------

def _tl():
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton.language as tl

    return tl


def _torch_dtype(tl_dtype) -> torch.dtype:
    name = str(tl_dtype)
    table = {
        "fp64": torch.float64, "fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
        "int64": torch.int64, "int32": torch.int32, "int16": torch.int16, "int8": torch.int8,
        "uint8": torch.uint8, "int1": torch.bool,
        "uint16": torch.uint16, "uint32": torch.uint32, "uint64": torch.uint64,
    }
    if name not in table:
        raise TypeError(f"libdevice on the CPU: unsupported element type {name}")
    return table[name]


def _tl_dtype(dtype: torch.dtype):
    tl = _tl()
    table = {
        torch.float64: tl.float64, torch.float32: tl.float32, torch.float16: tl.float16,
        torch.bfloat16: tl.bfloat16, torch.int64: tl.int64, torch.int32: tl.int32,
        torch.int16: tl.int16, torch.int8: tl.int8, torch.uint8: tl.uint8, torch.bool: tl.int1,
    }
    return table[dtype]


def _as_torch(value, like_dtype: torch.dtype | None = None) -> torch.Tensor:
    """An interpreter tensor (or a Python scalar / constexpr) as a torch CPU tensor."""
    tl = _tl()
    if isinstance(value, tl.constexpr):
        value = value.value
    if isinstance(value, tl.tensor):
        dtype = _torch_dtype(value.dtype)
        data = np.ascontiguousarray(value.handle.data).copy()
        if dtype == torch.bfloat16:
            return torch.from_numpy(data.view(np.uint16)).view(torch.bfloat16)
        if dtype == torch.bool:
            return torch.from_numpy(data.astype(bool))
        return torch.from_numpy(data)
    return torch.tensor(value, dtype=like_dtype)


def _as_interpreter(result: torch.Tensor):
    """A torch CPU tensor as an interpreter tensor of the same element type and shape."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton.runtime.interpreter import TensorHandle

    tl = _tl()
    elem = _tl_dtype(result.dtype)
    if result.dtype == torch.bfloat16:
        data = result.contiguous().view(torch.uint16).numpy()
    else:
        data = result.contiguous().numpy()
    shape = list(result.shape)
    block = tl.block_type(elem, shape) if shape else elem
    return tl.tensor(TensorHandle(np.array(data), elem), block)


def _first_tensor_dtype(args) -> torch.dtype | None:
    tl = _tl()
    for arg in args:
        if isinstance(arg, tl.tensor):
            return _torch_dtype(arg.dtype)
    return None


def _elementwise(compute: Callable[..., torch.Tensor], name: str) -> Callable:
    """Wrap `compute(*torch_tensors) -> torch.Tensor` as a libdevice function of the interpreter."""

    def libdevice_fn(*args, **kwargs):
        kwargs.pop("_semantic", None)  # the interpreter may pass its semantic object
        like = _first_tensor_dtype(args)
        tensors = [_as_torch(a, like) for a in args]
        return _as_interpreter(compute(*tensors))

    libdevice_fn.__name__ = name
    libdevice_fn.__qualname__ = name
    return libdevice_fn


# --------------------------------------------------------------------------------------------
# the libdevice functions, computed with torch (same C-library semantics as libdevice)
# --------------------------------------------------------------------------------------------

def _float_math(fn: Callable[[torch.Tensor], torch.Tensor]) -> Callable[[torch.Tensor], torch.Tensor]:
    """Integers go through float32, as libdevice only has float and double variants."""

    def compute(x: torch.Tensor) -> torch.Tensor:
        if not x.is_floating_point():
            x = x.to(torch.float32)
        return fn(x)

    return compute


def _same_dtype_binary(fn):
    def compute(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        dtype = torch.promote_types(x.dtype, y.dtype)
        return fn(x.to(dtype), y.to(dtype))

    return compute


def _round_half_away_exact(x: torch.Tensor) -> torch.Tensor:
    # floor(|x| + 0.5) is wrong for 0.49999997f (the sum rounds up to 1); use trunc + a fix-up.
    t = torch.trunc(x)
    frac = torch.abs(x - t)
    return torch.where(frac >= 0.5, t + torch.sign(x), t)


def _ilogb(x: torch.Tensor) -> torch.Tensor:
    # CUDA: ilogb(0) = INT_MIN, ilogb(nan) = INT_MIN, ilogb(+-inf) = INT_MAX.
    _, exponent = torch.frexp(x)
    result = (exponent - 1).to(torch.int32)
    int_min = torch.iinfo(torch.int32).min
    int_max = torch.iinfo(torch.int32).max
    result = torch.where(x == 0, torch.full_like(result, int_min), result)
    result = torch.where(torch.isnan(x), torch.full_like(result, int_min), result)
    return torch.where(torch.isinf(x), torch.full_like(result, int_max), result)


def _ldexp(x: torch.Tensor, n: torch.Tensor) -> torch.Tensor:
    # Exact scaling: numpy's ldexp works on the bits (torch.ldexp multiplies by 2**n, which
    # overflows for large n even when the result is finite).
    if not x.is_floating_point():
        x = x.to(torch.float32)
    xs, ns = torch.broadcast_tensors(x, n.to(torch.int32))
    work = xs.to(torch.float32) if xs.dtype in (torch.float16, torch.bfloat16) else xs
    out = np.ldexp(work.numpy(), ns.numpy())
    return torch.from_numpy(np.asarray(out)).to(x.dtype)


def _fma(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton._C.libtriton import interpreter as native  # single-rounding fma, as on the GPU

    dtype = torch.promote_types(torch.promote_types(x.dtype, y.dtype), z.dtype)
    xs, ys, zs = (t.to(dtype) for t in torch.broadcast_tensors(x, y, z))
    if dtype == torch.float32 and not hasattr(native, "fma_fp32"):  # triton < 3.9
        return (xs.double() * ys.double() + zs.double()).to(dtype)  # exact product, then rounding
    if dtype == torch.float64 and not hasattr(native, "fma_fp64"):
        return torch.addcmul(zs, xs, ys)
    if dtype == torch.float64:
        out = native.fma_fp64(xs.contiguous().numpy(), ys.contiguous().numpy(), zs.contiguous().numpy())
    elif dtype == torch.float32:
        out = native.fma_fp32(xs.contiguous().numpy(), ys.contiguous().numpy(), zs.contiguous().numpy())
    else:
        return (xs.double() * ys.double() + zs.double()).to(dtype)
    return torch.from_numpy(np.asarray(out).reshape(xs.shape))


def _llrint(x: torch.Tensor) -> torch.Tensor:
    return torch.round(x).to(torch.int64)  # round half to even, the default rounding mode


def _llround(x: torch.Tensor) -> torch.Tensor:
    return _round_half_away_exact(x).to(torch.int64)


def _rsqrt(x: torch.Tensor) -> torch.Tensor:
    return torch.rsqrt(x)


def _flag(predicate: Callable[[torch.Tensor], torch.Tensor]) -> Callable[[torch.Tensor], torch.Tensor]:
    """libdevice predicates return int32 (0 or 1), not booleans."""

    return lambda x: predicate(x).to(torch.int32)


def _nextafter(x, y):
    dtype = torch.promote_types(x.dtype, y.dtype)
    return torch.nextafter(x.to(dtype), y.to(dtype))


_UNARY: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "abs": torch.abs, "fabs": torch.abs,
    "acos": torch.acos, "acosh": torch.acosh, "asin": torch.asin, "asinh": torch.asinh,
    "atan": torch.atan, "atanh": torch.atanh,
    "cos": torch.cos, "cosh": torch.cosh, "sin": torch.sin, "sinh": torch.sinh,
    "tan": torch.tan, "tanh": torch.tanh, "fast_tanhf": torch.tanh,
    "fast_cosf": torch.cos, "fast_sinf": torch.sin, "fast_tanf": torch.tan,
    "cospi": lambda x: torch.cos(x * torch.pi), "sinpi": lambda x: torch.sin(x * torch.pi),
    "exp": torch.exp, "fast_expf": torch.exp, "exp2": torch.exp2, "expm1": torch.expm1,
    "exp10": lambda x: torch.pow(torch.tensor(10.0, dtype=x.dtype), x),
    "fast_exp10f": lambda x: torch.pow(torch.tensor(10.0, dtype=x.dtype), x),
    "log": torch.log, "fast_logf": torch.log, "log2": torch.log2, "fast_log2f": torch.log2,
    "log10": torch.log10, "fast_log10f": torch.log10, "log1p": torch.log1p,
    "logb": lambda x: torch.where(torch.isinf(x), torch.abs(x),
                                  torch.where(x == 0, torch.full_like(x, -float("inf")),
                                              _ilogb(x).to(x.dtype))),
    "sqrt": torch.sqrt, "sqrt_rn": torch.sqrt, "rsqrt": _rsqrt, "rsqrt_rn": _rsqrt,
    "cbrt": lambda x: torch.sign(x) * torch.pow(torch.abs(x), 1.0 / 3.0),
    "rcbrt": lambda x: 1.0 / (torch.sign(x) * torch.pow(torch.abs(x), 1.0 / 3.0)),
    "erf": torch.erf, "erfc": torch.erfc, "erfcx": torch.special.erfcx, "erfinv": torch.erfinv,
    "erfcinv": lambda x: torch.erfinv(1.0 - x),
    "normcdf": torch.special.ndtr, "normcdfinv": torch.special.ndtri,
    "lgamma": torch.lgamma, "tgamma": lambda x: torch.where(
        x > 0, torch.exp(torch.lgamma(x)), torch.exp(torch.lgamma(x)) * torch.sign(torch.sin(torch.pi * x))),
    "cyl_bessel_i0": torch.special.i0, "cyl_bessel_i1": torch.special.i1,
    "j0": torch.special.bessel_j0, "j1": torch.special.bessel_j1,
    "y0": torch.special.bessel_y0, "y1": torch.special.bessel_y1,
    "floor": torch.floor, "ceil": torch.ceil, "trunc": torch.trunc,
    "nearbyint": torch.round, "rint": torch.round,  # round half to even
    "round": _round_half_away_exact,
    "saturatef": lambda x: torch.clamp(x, 0.0, 1.0),
    "rcp_rn": torch.reciprocal,
}

_PREDICATES: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "isnan": torch.isnan, "isinf": torch.isinf, "signbit": torch.signbit,
    "isfinited": torch.isfinite, "finitef": torch.isfinite,
}

_BINARY: dict[str, Callable[[torch.Tensor, torch.Tensor], torch.Tensor]] = {
    "pow": torch.pow, "fast_powf": torch.pow, "atan2": torch.atan2, "copysign": torch.copysign,
    "fmod": torch.fmod, "remainder": lambda x, y: x - torch.round(x / y) * y,
    "hypot": torch.hypot, "nextafter": _nextafter,
    "fmin": torch.fmin, "fmax": torch.fmax, "fdim": lambda x, y: torch.clamp(x - y, min=0),
    "mul_rn": torch.mul, "add_rn": torch.add, "sub_rn": torch.sub, "div_rn": torch.div,
    "fast_dividef": torch.div, "rhypot": lambda x, y: 1.0 / torch.hypot(x, y),
}


def _build_cpu_libdevice() -> types.SimpleNamespace:
    functions: dict[str, Callable] = {}
    for name, fn in _UNARY.items():
        functions[name] = _elementwise(_float_math(fn), name)
    for name, fn in _PREDICATES.items():
        functions[name] = _elementwise(_flag(fn), name)
    for name, fn in _BINARY.items():
        functions[name] = _elementwise(_same_dtype_binary(fn), name)
    functions["ilogb"] = _elementwise(_float_math(_ilogb), "ilogb")
    functions["ldexp"] = _elementwise(_ldexp, "ldexp")
    functions["scalbn"] = _elementwise(_ldexp, "scalbn")
    functions["fma"] = _elementwise(_fma, "fma")
    functions["fma_rn"] = _elementwise(_fma, "fma_rn")
    functions["llrint"] = _elementwise(_float_math(_llrint), "llrint")
    functions["llround"] = _elementwise(_float_math(_llround), "llround")
    return types.SimpleNamespace(**functions)


CPU_LIBDEVICE = _build_cpu_libdevice()
"""The namespace Inductor's `libdevice` is replaced by: attribute names are libdevice's."""

MAPPED_LIBDEVICE_FUNCTIONS: tuple[str, ...] = tuple(sorted(vars(CPU_LIBDEVICE)))


# --------------------------------------------------------------------------------------------
# installing
# --------------------------------------------------------------------------------------------

def _fixed_backend_hash(*args, **kwargs) -> str:
    return FIXED_BACKEND_HASH


def _helpers_compiled_for_gpu(module) -> bool:
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton.runtime.interpreter import InterpretedFunction

    maximum = getattr(module, "maximum", None)
    return maximum is not None and not isinstance(maximum, InterpretedFunction)


def _patch_libdevice_modules() -> None:
    """Point every place an output module can take `libdevice` from at CPU_LIBDEVICE."""
    helpers_name = "torch._inductor.runtime.triton_helpers"
    if helpers_name in sys.modules and _helpers_compiled_for_gpu(sys.modules[helpers_name]):
        importlib.reload(sys.modules[helpers_name])  # its @triton.jit helpers predate TRITON_INTERPRET
    helpers = importlib.import_module(helpers_name)
    helpers.libdevice = CPU_LIBDEVICE
    use_fast_helpers(helpers)
    compat = importlib.import_module("torch._inductor.runtime.triton_compat")
    compat.libdevice = CPU_LIBDEVICE
    # Hand-written or KernelOPT-emitted kernels import triton's own libdevice module.
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton.language.extra.libdevice as triton_libdevice

    for name in MAPPED_LIBDEVICE_FUNCTIONS:
        setattr(triton_libdevice, name, getattr(CPU_LIBDEVICE, name))
    cuda_extra = getattr(importlib.import_module("triton.language.extra"), "cuda", None)
    cuda_libdevice = getattr(cuda_extra, "libdevice", None)
    if isinstance(cuda_libdevice, types.ModuleType):
        for name in MAPPED_LIBDEVICE_FUNCTIONS:
            setattr(cuda_libdevice, name, getattr(CPU_LIBDEVICE, name))


def use_fast_helpers(helpers: types.ModuleType | None) -> None:
    """Replace the reductions of a `triton_helpers` module (Inductor's, or the copy an emitted module
    defines) by their vectorised stand-ins: the interpreter otherwise runs their @triton.jit combine
    functions one element at a time in Python (an emitted softmax ran 100x slower than Inductor's)."""
    if not isinstance(helpers, types.ModuleType):
        return
    for name, function in FAST_HELPERS.items():
        if hasattr(helpers, name):
            setattr(helpers, name, function)


def cpu_shims_installed() -> bool:
    """True once this process runs Triton through the interpreter (it cannot launch GPU kernels then)."""
    return _INSTALLED


def _bf16_as_fp32(handle):
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton.runtime.interpreter import TensorHandle

    tl = _tl()
    widened = (np.asarray(handle.data).astype(np.uint32) << 16).view(np.float32)  # exact
    return TensorHandle(widened, tl.float32)


def _patch_bf16_dot() -> None:
    """The interpreter's tl.dot multiplies bf16 operands as their raw uint16 bits (triton 3.9):
    widen them to float32 first (exact), as the GPU's bf16 MMA with a float32 accumulator does."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton.runtime.interpreter import InterpreterBuilder

    original = InterpreterBuilder.create_dot
    if getattr(original, "_kernelopt_bf16", False):
        return
    tl = _tl()

    def create_dot(self, a, b, d, *args, **kwargs):
        if a.dtype == tl.bfloat16:
            a = _bf16_as_fp32(a)
        if b.dtype == tl.bfloat16:
            b = _bf16_as_fp32(b)
        return original(self, a, b, d, *args, **kwargs)

    create_dot._kernelopt_bf16 = True
    InterpreterBuilder.create_dot = create_dot


def _quiet_floating_point_errors() -> None:
    """Run every interpreted launch with numpy's floating-point warnings off (idempotent).

    A GPU computes `0 * inf` or `inf - inf` to NaN without a word; the interpreter computes the same lanes
    with numpy, which warns (`RuntimeWarning: invalid value encountered in multiply`). Such values are
    routine and harmless: the legality gate poisons buffers a kernel must overwrite with inf and NaN, and
    masked-off lanes load `other=float("-inf")`. Results are unchanged; users only saw noise (`kernelopt
    check`). Only the launch is quieted: numpy elsewhere still warns."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (see the module docstring)
    from triton.runtime import interpreter

    executor = getattr(interpreter, "GridExecutor", None)
    if executor is None or getattr(executor.__call__, "_kernelopt_quiet", False):
        return  # another triton layout (leave it as it is), or done already
    original_call = executor.__call__

    def call(self, *args, **kwargs):
        with np.errstate(all="ignore"):
            return original_call(self, *args, **kwargs)

    call._kernelopt_quiet = True
    executor.__call__ = call


def install_cpu_triton_shims() -> None:
    """Make Triton kernels (Inductor's or anyone's) run on the CPU through the interpreter.

    Idempotent. Sets TRITON_INTERPRET=1, fixes Inductor's backend hash (it asks the Triton driver
    for a GPU target otherwise), and maps every `libdevice.*` function to a CPU implementation.
    """
    global _INSTALLED
    os.environ["TRITON_INTERPRET"] = "1"
    # Inductor's CPU kernels call `triton_helpers.set_driver_to_cpu()`, which warns that no CPU backend is
    # active: true, and beside the point here, where the interpreter runs them. Users only saw noise.
    warnings.filterwarnings("ignore", message="Could not find an active CPU backend")
    # lazy: triton must load after TRITON_INTERPRET is set (just above): see the module docstring
    import triton

    knobs = getattr(triton, "knobs", None)
    if knobs is not None and hasattr(knobs, "runtime"):
        knobs.runtime.interpret = True  # in case a value was set explicitly before us

    torch_triton.triton_hash_with_backend = _fixed_backend_hash
    if _INSTALLED:
        return
    _patch_libdevice_modules()
    _patch_bf16_dot()
    skip_discarded_overflow_checks()
    skip_repatching_inside_a_launch()
    skip_broadcasts_of_equal_shapes()
    remember_numpy_dtypes()
    _quiet_floating_point_errors()
    _INSTALLED = True
