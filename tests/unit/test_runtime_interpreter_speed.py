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
