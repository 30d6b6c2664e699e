"""The CPU libdevice mapping computes what CUDA's libdevice computes, under the Triton interpreter.

Each function runs inside a real @triton.jit kernel (interpreted), on fresh random inputs plus
edge values (signed zeros, infinities, NaN, halfway cases, tiny and huge magnitudes), and is
compared with a float64 torch/math reference rounded to the kernel's dtype.
"""
from __future__ import annotations

import math

import pytest
import torch

from kernelopt.runtime.interpret import MAPPED_LIBDEVICE_FUNCTIONS, install_cpu_triton_shims

install_cpu_triton_shims()

import triton  # noqa: E402  (after the shims: the kernels below must be interpreted)
import triton.language as tl  # noqa: E402
from torch._inductor.runtime.triton_helpers import libdevice  # noqa: E402

EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999997, 3.0, -7.25, 1e-30, -1e-30,
         1e30, -1e30, 88.0, -88.0, float("inf"), float("-inf"), float("nan")]


@triton.jit
def _unary_kernel(x_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask)
    tl.store(out_ptr + offsets, FN(x), mask)


@triton.jit
def _binary_kernel(x_ptr, y_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask)
    y = tl.load(y_ptr + offsets, mask)
    tl.store(out_ptr + offsets, FN(x, y), mask)


def _inputs(dtype, seed, scale=3.0, edges=True):
    gen = torch.Generator().manual_seed(seed)
    values = torch.randn(200, generator=gen, dtype=torch.float64) * scale
    if edges:
        values = torch.cat([values, torch.tensor(EDGES, dtype=torch.float64)])
    return values.to(dtype)


def _run_unary(fn, x, out_dtype):
    out = torch.empty(x.shape, dtype=out_dtype)
    _unary_kernel[(triton.cdiv(x.numel(), 64),)](x, out, x.numel(), FN=fn, BLOCK=64)
    return out


def _run_binary(fn, x, y, out_dtype):
    out = torch.empty(x.shape, dtype=out_dtype)
    _binary_kernel[(triton.cdiv(x.numel(), 64),)](x, y, out, x.numel(), FN=fn, BLOCK=64)
    return out


def _ilogb_reference(x: torch.Tensor) -> torch.Tensor:
    def one(v: float) -> int:
        if math.isnan(v) or v == 0:
            return -(2**31)
        if math.isinf(v):
            return 2**31 - 1
        return math.frexp(v)[1] - 1

    return torch.tensor([one(v) for v in x.double().tolist()], dtype=torch.int32)


# name -> float64 reference (input already restricted by the domain where the function has one)
UNARY_REFERENCES = {
    "acos": torch.acos, "acosh": torch.acosh, "asin": torch.asin, "asinh": torch.asinh,
    "atan": torch.atan, "atanh": torch.atanh, "cos": torch.cos, "cosh": torch.cosh,
    "sin": torch.sin, "sinh": torch.sinh, "tan": torch.tan, "tanh": torch.tanh,
    "fast_tanhf": torch.tanh, "exp": torch.exp, "exp2": torch.exp2, "expm1": torch.expm1,
    "log": torch.log, "log2": torch.log2, "log10": torch.log10, "log1p": torch.log1p,
    "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "erf": torch.erf, "erfc": torch.erfc,
    "erfcx": torch.special.erfcx, "erfinv": torch.erfinv, "lgamma": torch.lgamma,
    "cyl_bessel_i0": torch.special.i0, "cyl_bessel_i1": torch.special.i1,
    "j0": torch.special.bessel_j0, "j1": torch.special.bessel_j1,
    "y0": torch.special.bessel_y0, "y1": torch.special.bessel_y1,
    "floor": torch.floor, "ceil": torch.ceil, "trunc": torch.trunc,
    "nearbyint": torch.round, "abs": torch.abs,
}
DOMAINS = {"erfinv": 1.0, "atanh": 1.0, "acos": 1.0, "asin": 1.0}  # random inputs in (-d, d)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", sorted(UNARY_REFERENCES))
def test_unary_function_matches_float64_reference(name, dtype):
    seed = abs(hash((name, str(dtype)))) % 10_000
    x = _inputs(dtype, seed)
    if name in DOMAINS:
        x[:200] = torch.rand(200, generator=torch.Generator().manual_seed(seed), dtype=torch.float64).to(dtype) * 2 - 1
    got = _run_unary(getattr(libdevice, name), x, dtype)
    expected = UNARY_REFERENCES[name](x.double()).to(dtype)
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    if name in ("lgamma", "y0", "y1", "j0", "j1", "tan"):  # ill-conditioned near poles and zeros
        tol = 1e-4 if dtype == torch.float32 else 1e-10
    torch.testing.assert_close(got, expected, rtol=tol, atol=tol, equal_nan=True)


def test_round_is_half_away_from_zero_and_nearbyint_half_to_even():
    x = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -0.49999997, 2.4, -3.7, float("nan")])
    rounded = _run_unary(libdevice.round, x, torch.float32)
    to_even = _run_unary(libdevice.nearbyint, x, torch.float32)
    assert rounded[:7].tolist() == [1.0, 2.0, 3.0, -1.0, -3.0, 0.0, -0.0]
    assert to_even[:5].tolist() == [0.0, 2.0, 2.0, -0.0, -2.0]
    assert rounded[7:9].tolist() == [2.0, -4.0] and math.isnan(rounded[9])


@pytest.mark.parametrize("name", ["isnan", "isinf", "signbit"])
def test_predicates_return_int32_flags(name):
    x = _inputs(torch.float32, 7)
    got = _run_unary(getattr(libdevice, name), x, torch.int32)
    reference = {"isnan": torch.isnan, "isinf": torch.isinf, "signbit": torch.signbit}[name](x)
    assert torch.equal(got != 0, reference)
    assert bool(_run_unary(libdevice.signbit, torch.tensor([-0.0]), torch.int32)[0] != 0)


def test_ilogb_matches_frexp_and_cuda_special_values():
    x = _inputs(torch.float32, 11)
    got = _run_unary(libdevice.ilogb, x, torch.int32)
    assert torch.equal(got, _ilogb_reference(x))


def test_llrint_rounds_half_to_even_into_int64():
    x = torch.tensor([0.5, 1.5, 2.5, -2.5, 3.2, -3.7, 1e10])
    got = _run_unary(libdevice.llrint, x, torch.int64)
    assert got.tolist() == [0, 2, 2, -2, 3, -4, 10_000_000_000]


BINARY_REFERENCES = {
    "pow": torch.pow, "atan2": torch.atan2, "copysign": torch.copysign, "fmod": torch.fmod,
    "hypot": torch.hypot, "nextafter": torch.nextafter, "mul_rn": torch.mul,
    "fmin": torch.fmin, "fmax": torch.fmax,
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", sorted(BINARY_REFERENCES))
def test_binary_function_matches_reference(name, dtype):
    seed = abs(hash((name, str(dtype)))) % 10_000
    x = _inputs(dtype, seed)
    y = _inputs(dtype, seed + 1).flip(0)  # edges meet random values and each other
    if name == "pow":
        y = torch.where(torch.rand(y.shape, generator=torch.Generator().manual_seed(seed)) < 0.5, y.round(), y)
    got = _run_binary(getattr(libdevice, name), x, y, dtype)
    if name == "nextafter":
        expected = torch.nextafter(x, y)  # exact bit-level step in the kernel's own dtype
    else:
        expected = BINARY_REFERENCES[name](x.double(), y.double()).to(dtype)
    tol = 2e-6 if dtype == torch.float32 else 1e-12
    torch.testing.assert_close(got, expected, rtol=tol, atol=0, equal_nan=True)


def test_ldexp_scales_exactly_even_for_large_exponents():
    x = torch.tensor([1.5, -3.0, 1e-38, 0.0, float("inf"), float("nan"), 2.0**-140])
    n = torch.tensor([3, -2, 100, 5, 1, 1, 150], dtype=torch.int32)
    got = _run_binary(libdevice.ldexp, x, n, torch.float32)
    expected = torch.tensor([math.ldexp(float(a), int(b)) if math.isfinite(a) else float(a)
                             for a, b in zip(x.tolist(), n.tolist())], dtype=torch.float64).to(torch.float32)
    torch.testing.assert_close(got, expected, equal_nan=True, rtol=0, atol=0)


@triton.jit
def _fma_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask)
    y = tl.load(y_ptr + offsets, mask)
    z = tl.load(z_ptr + offsets, mask)
    tl.store(out_ptr + offsets, libdevice.fma(x, y, z), mask)


def test_fma_rounds_once():
    gen = torch.Generator().manual_seed(3)
    x, y, z = (torch.randn(100, generator=gen) for _ in range(3))
    out = torch.empty(100)
    _fma_kernel[(2,)](x, y, z, out, 100, BLOCK=64)
    expected = (x.double() * y.double() + z.double()).float()  # exact product, one rounding
    assert torch.equal(out, expected)


def test_every_function_inductor_emits_is_mapped():
    # The names torch._inductor's Triton codegen writes after "libdevice." (torch 2.11 - 2.13).
    emitted = {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "copysign", "cos",
               "cosh", "cyl_bessel_i0", "cyl_bessel_i1", "erf", "erfc", "erfcx", "erfinv", "exp", "exp2",
               "expm1", "fast_tanhf", "floor", "fma", "fmod", "hypot", "ilogb", "isinf", "isnan", "j0",
               "j1", "ldexp", "lgamma", "llrint", "log", "log10", "log1p", "log2", "mul_rn", "nearbyint",
               "nextafter", "pow", "rsqrt", "signbit", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
               "y0", "y1"}
    assert emitted <= set(MAPPED_LIBDEVICE_FUNCTIONS)


def test_install_is_idempotent_and_sets_the_environment():
    import os

    install_cpu_triton_shims()
    install_cpu_triton_shims()
    assert os.environ["TRITON_INTERPRET"] == "1"
    import torch.utils._triton as torch_triton

    assert torch_triton.triton_hash_with_backend() == torch_triton.triton_hash_with_backend()
    assert libdevice.tanh is getattr(__import__("kernelopt.runtime.interpret", fromlist=["x"]).CPU_LIBDEVICE, "tanh")


@triton.jit
def _dot_kernel(a_ptr, b_ptr, c_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(a_ptr + r[:, None] * N + r[None, :])
    b = tl.load(b_ptr + r[:, None] * N + r[None, :])
    tl.store(c_ptr + r[:, None] * N + r[None, :], tl.dot(a, b, out_dtype=tl.float32))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_interpreted_dot_is_right_for_16_bit_inputs(dtype):
    gen = torch.Generator().manual_seed(5)
    a, b = (torch.randn(16, 16, generator=gen).to(dtype) for _ in range(2))
    out = torch.empty(16, 16)
    _dot_kernel[(1,)](a, b, out, N=16)
    torch.testing.assert_close(out, a.double().matmul(b.double()).float(), rtol=1e-5, atol=1e-5)
