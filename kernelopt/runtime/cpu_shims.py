"""CPU stand-ins for the CUDA-only pieces of an output module (see `cpu_rewrite.py` for where they go).

One `CpuRuntime` per loaded module is put into its globals as `__kernelopt_rt__`.
"""
from __future__ import annotations

import math
from typing import Any

import torch

from kernelopt.runtime.cpu_kernel import compile_interpreted_kernel


def noop(*args, **kwargs) -> None:
    """`torch.cuda.set_device(0)`, `synchronize()`, `set_driver_to_gpu()`: nothing to do on the CPU."""
    return None


class DeviceGuard:
    """`with torch.cuda._DeviceGuard(0):` selects a GPU; on the CPU there is one device."""

    def __init__(self, index: Any = None) -> None:
        self.index = index

    def __enter__(self) -> "DeviceGuard":
        return self

    def __exit__(self, *exc) -> bool:
        return False


class _CpuStream:
    cuda_stream = 0
    device = torch.device("cpu")

    def synchronize(self) -> None:
        return None

    def wait_stream(self, other) -> None:
        return None


def current_stream(device: Any = None) -> _CpuStream:
    return _CpuStream()


def current_device() -> int:
    return 0


def get_raw_stream(index: Any = None) -> int:
    """The CUDA stream handle; Triton's interpreter ignores streams."""
    return 0


def empty_strided_cpu(size, stride, dtype, *args, **kwargs) -> torch.Tensor:
    return torch.empty_strided(tuple(size), tuple(stride), dtype=dtype, device="cpu")


class AsyncCompile:
    """Inductor's `AsyncCompile`, with `triton(...)` compiling for the CPU interpreter.

    Other backends (`cpp`, `cpp_pybinding`, ...) are handed to Inductor's own AsyncCompile.
    """

    def __init__(self, *args, **kwargs) -> None:
        self._inductor = None
        self.kernels: dict[str, Any] = {}

    def triton(self, kernel_name: str, source_code: str, device_str: str = "cuda", **kwargs):
        kernel = compile_interpreted_kernel(kernel_name, source_code)
        self.kernels[kernel_name] = kernel
        return kernel

    def wait(self, scope: dict) -> None:
        if self._inductor is not None:
            self._inductor.wait(scope)

    def __getattr__(self, name: str):
        if name.startswith("__") or name in ("_inductor", "kernels"):
            raise AttributeError(name)
        if self._inductor is None:
            # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
            from torch._inductor.async_compile import AsyncCompile as InductorAsyncCompile

            self._inductor = InductorAsyncCompile()
        return getattr(self._inductor, name)


# --------------------------------------------------------------------------------------------
# attention: CUDA-only SDPA kernels computed by the math definition, in float32 for 16-bit inputs,
# returned with exactly the outputs (shapes, strides, dtypes, extra results) the CUDA op returns:
# those come from the op's meta kernel, so `buf[0]`, `buf[1]` and `assert_size_stride` agree.
# --------------------------------------------------------------------------------------------

def _meta(t):
    if not isinstance(t, torch.Tensor):
        return t
    return torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")


def _attention_math(query, key, value, attn_bias, dropout_p, is_causal, scale):
    compute = torch.float32 if query.dtype in (torch.float16, torch.bfloat16) else query.dtype
    q, k, v = (t.to(compute) for t in (query, key, value))
    if k.shape[-3] != q.shape[-3] and q.dim() >= 3:  # grouped-query attention
        repeat = q.shape[-3] // k.shape[-3]
        k, v = (t.repeat_interleave(repeat, dim=-3) for t in (k, v))
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    length_q, length_k = scores.shape[-2], scores.shape[-1]
    if is_causal:
        keep = torch.ones(length_q, length_k, dtype=torch.bool).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    if attn_bias is not None:
        if attn_bias.dtype == torch.bool:
            scores = scores.masked_fill(~attn_bias, float("-inf"))
        else:
            scores = scores + attn_bias.to(compute)
    logsumexp = torch.logsumexp(scores, dim=-1)
    probs = torch.softmax(scores, dim=-1)
    if dropout_p > 0.0:
        probs = torch.nn.functional.dropout(probs, p=dropout_p)
    return torch.matmul(probs, v).to(query.dtype), logsumexp


def _fill_logsumexp(target: torch.Tensor, logsumexp: torch.Tensor) -> None:
    if target.numel() == 0:
        return
    if target.numel() == logsumexp.numel():
        target.copy_(logsumexp.reshape(target.shape))
        return
    target.fill_(float("inf"))  # padded rows (memory-efficient attention rounds L up)
    length = logsumexp.shape[-1]
    target.view(*logsumexp.shape[:-1], -1)[..., :length].copy_(logsumexp)


def _materialize(meta_results, output: torch.Tensor, logsumexp: torch.Tensor):
    results = []
    for index, meta in enumerate(meta_results):
        if not isinstance(meta, torch.Tensor):
            results.append(meta)
            continue
        real = torch.empty_strided(meta.shape, meta.stride(), dtype=meta.dtype).zero_()
        if index == 0:
            real.copy_(output)
        elif index == 1 and real.is_floating_point():
            _fill_logsumexp(real, logsumexp)
        results.append(real)
    return tuple(results)


def _scaled_dot_product_cudnn_attention(query, key, value, attn_bias, compute_log_sumexp, dropout_p=0.0,
                                        is_causal=False, return_debug_mask=False, *, scale=None):
    meta = torch.ops.aten._scaled_dot_product_cudnn_attention.default(
        _meta(query), _meta(key), _meta(value), _meta(attn_bias), compute_log_sumexp, dropout_p,
        is_causal, return_debug_mask, scale=scale)
    out, lse = _attention_math(query, key, value, attn_bias, dropout_p, is_causal, scale)
    return _materialize(meta, out, lse)


def _scaled_dot_product_flash_attention(query, key, value, dropout_p=0.0, is_causal=False,
                                        return_debug_mask=False, *, scale=None):
    meta = torch.ops.aten._scaled_dot_product_flash_attention.default(
        _meta(query), _meta(key), _meta(value), dropout_p, is_causal, return_debug_mask, scale=scale)
    out, lse = _attention_math(query, key, value, None, dropout_p, is_causal, scale)
    return _materialize(meta, out, lse)


def _scaled_dot_product_efficient_attention(query, key, value, attn_bias, compute_log_sumexp, dropout_p=0.0,
                                            is_causal=False, *, scale=None):
    meta = torch.ops.aten._scaled_dot_product_efficient_attention.default(
        _meta(query), _meta(key), _meta(value), _meta(attn_bias), compute_log_sumexp, dropout_p,
        is_causal, scale=scale)
    out, lse = _attention_math(query, key, value, attn_bias, dropout_p, is_causal, scale)
    return _materialize(meta, out, lse)


class CpuRuntime:
    """The `__kernelopt_rt__` namespace a CUDA-captured module sees when loaded on the CPU."""

    noop = staticmethod(noop)
    DeviceGuard = DeviceGuard
    current_stream = staticmethod(current_stream)
    current_device = staticmethod(current_device)
    get_raw_stream = staticmethod(get_raw_stream)
    empty_strided_cpu = staticmethod(empty_strided_cpu)
    AsyncCompile = AsyncCompile
    _scaled_dot_product_cudnn_attention = staticmethod(_scaled_dot_product_cudnn_attention)
    _scaled_dot_product_flash_attention = staticmethod(_scaled_dot_product_flash_attention)
    _scaled_dot_product_efficient_attention = staticmethod(_scaled_dot_product_efficient_attention)
