"""The interpreter runs without Triton's overflow sanitizer (runtime/interpreter_speed.py), and integer
arithmetic in a kernel still gives what the GPU gives: int32 wraps around, int64 does not.

The sanitizer's checks were computed and dropped (the interpreter's `device_assert` is off), so
switching it off must change no value: each kernel here is compared with a torch reference on fresh
random inputs that overflow int32, at a length that is no power of two and at length 1 (masked tail).
"""
from __future__ import annotations

import pytest
import torch

from kernelopt.runtime.interpret import install_cpu_triton_shims

install_cpu_triton_shims()

import triton  # noqa: E402  (after the shims: the kernel below must be interpreted)
import triton.language as tl  # noqa: E402


@triton.jit
def _multiply_add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    a = tl.load(a_ptr + offsets, mask)
    b = tl.load(b_ptr + offsets, mask)
    tl.store(out_ptr + offsets, a * b + a - b, mask)


def _wrapped_reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    exact = a.long() * b.long() + a.long() - b.long()          # int64 never overflows for int32 inputs
    if a.dtype == torch.int64:
        return a * b + a - b
    return ((exact + 2**31) % 2**32 - 2**31).to(a.dtype)        # two's-complement wrap-around


@pytest.mark.parametrize("n", [1, 77])
@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
def test_integer_kernel_wraps_like_the_gpu(n, dtype):
    gen = torch.Generator().manual_seed(torch.seed() % 2**31)
    a = torch.randint(-2**31, 2**31, (n,), generator=gen, dtype=torch.int64).to(dtype)
    b = torch.randint(-2**31, 2**31, (n,), generator=gen, dtype=torch.int64).to(dtype)
    out = torch.empty_like(a)
    _multiply_add_kernel[(triton.cdiv(n, 32),)](a, b, out, n, BLOCK=32)
    assert torch.equal(out, _wrapped_reference(a, b))


def test_the_sanitizer_is_off_only_while_device_asserts_are():
    # guards the speed-up: index arithmetic ran 2.2x slower with the discarded checks
    from triton.runtime.interpreter import interpreter_builder

    assert interpreter_builder.options.debug is False
    assert interpreter_builder.options.sanitize_overflow is False


# --- a launch patches triton.language once; jit helpers called inside it reuse that patching --------

@triton.jit
def _scaled_max(x, y, scale):
    # a helper that itself calls jit functions of triton.language.standard (tl.zeros, tl.maximum)
    return tl.maximum(x, y) * scale + tl.zeros(x.shape, dtype=x.dtype)


@triton.jit
def _row_max_kernel(x_ptr, y_ptr, out_ptr, rows, cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    c = tl.arange(0, BLOCK_C)[None, :]
    mask = (r < rows) & (c < cols)
    x = tl.load(x_ptr + r * cols + c, mask, other=0.0).to(tl.float32)     # as Inductor does: math in fp32
    y = tl.load(y_ptr + r * cols + c, mask, other=0.0).to(tl.float32)
    both = _scaled_max(x, y, 2.0)                        # [BLOCK_R, BLOCK_C] with [BLOCK_R, BLOCK_C]
    row_max = tl.max(tl.where(mask, both, float("-inf")), 1)
    shifted = both - row_max[:, None]                    # [BLOCK_R, BLOCK_C] with [BLOCK_R, 1]
    tl.store(out_ptr + r * cols + c, shifted.to(out_ptr.dtype.element_ty), mask)


@pytest.mark.parametrize("rows, cols", [(1, 1), (5, 37)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_a_kernel_calling_jit_helpers_matches_torch(rows, cols, dtype):
    gen = torch.Generator().manual_seed(torch.seed() % 2**31)
    x = torch.randn(rows, cols, generator=gen, dtype=torch.float64).to(dtype)
    y = torch.randn(rows, cols, generator=gen, dtype=torch.float64).to(dtype)
    both = torch.maximum(x, y).float() * 2.0
    want = (both - both.amax(1, keepdim=True)).to(dtype)          # exact: a difference of fp32 values
    for _ in range(2):                                   # a second launch sees the language restored
        out = torch.empty_like(x)
        _row_max_kernel[(triton.cdiv(rows, 4),)](x, y, out, rows, cols, BLOCK_R=4, BLOCK_C=64)
        # one bf16 unit in the last place: the interpreter's fp32 -> bf16 conversion does not round the
        # way torch's does (so before these changes too); fp32 and fp16 come out exact
        torch.testing.assert_close(out, want, rtol=2**-7 if dtype == torch.bfloat16 else 0, atol=0)


def test_a_launch_leaves_triton_language_as_it_found_it():
    x = torch.randn(3, 5)
    _row_max_kernel[(1,)](x, x, torch.empty_like(x), 3, 5, BLOCK_R=4, BLOCK_C=8)
    assert tl.core.is_builtin(tl.load) and tl.core.is_builtin(tl.maximum)    # not the interpreter's stand-ins
