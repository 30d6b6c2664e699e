"""The depthwise conv2d expert template rendered and run on the CPU (Triton interpreter) against
F.conv2d(groups=C), on fresh random inputs: channels-last and NCHW layouts, bias, stride / dilation /
asymmetric padding, sizes that are not multiples of the blocks (masked tails), and bf16 inputs. Every
output starts as NaN, so a tile the kernel fails to write is caught."""
from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")
try:
    from kernelopt.runtime.interpret import install_cpu_triton_shims
except ImportError:
    install_cpu_triton_shims = None
if install_cpu_triton_shims is not None:
    install_cpu_triton_shims()

import pytest
import torch
import torch.nn.functional as F

from kernelopt.templates.kernels.depthwise_conv2d import depthwise_conv2d_source, depthwise_conv2d_variants
from kernelopt.templates.template_registry import TEMPLATE_NAMES
from kernelopt.rewrite.evaluate import load_candidate

FP32 = dict(rtol=1e-5, atol=1e-5)
BF16 = dict(rtol=2e-2, atol=2e-2)


def rand(shape, seed, dtype=torch.float32):
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(shape, generator=gen).to(dtype)


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def conv_case(n, c, h, w, k, *, stride=1, padding=0, dilation=1, bias=False, channels_last=True,
              dtype=torch.float32, out_dtype=None, block_w=8, block_c=64, num_warps=4, seed=0,
              roles=None, block_h=2):
    """Render, run and return (out, fp32 reference, x, weight, bias)."""
    kh, kw = pair(k)
    x = rand((n, c, h, w), seed, dtype)
    weight = rand((c, 1, kh, kw), seed + 1, dtype)
    b = rand((c,), seed + 2, dtype) if bias else None
    if channels_last:
        x = x.to(memory_format=torch.channels_last)
    ref = F.conv2d(x.float(), weight.float(), None if b is None else b.float(), stride=pair(stride),
                   padding=pair(padding), dilation=pair(dilation), groups=c)
    out = torch.full(ref.shape, float("nan"), dtype=out_dtype or dtype)
    if channels_last:
        out = out.to(memory_format=torch.channels_last)
    if roles is None:
        roles = {"x": 0, "weight": 1, "bias": 2, "out": 3} if bias else {"x": 0, "weight": 1, "out": 2}
    source = depthwise_conv2d_source(roles, stride=stride, padding=padding, dilation=dilation, kernel_hw=k,
                                     has_bias=bias, block_w=block_w, block_c=block_c, num_warps=num_warps,
                                     block_h=block_h)
    args = [None] * (max(p for p in roles.values() if p is not None) + 1)
    for role, value in (("x", x), ("weight", weight), ("bias", b), ("out", out)):
        if roles.get(role) is not None:
            args[roles[role]] = value
    assert load_candidate(source, name="test_depthwise")(*args) is None
    return out, ref


def test_renders_with_header_and_is_a_listed_template():
    source = depthwise_conv2d_source({"x": 0, "weight": 1, "out": 2}, stride=1, padding=3, dilation=1,
                                     kernel_hw=7, has_bias=False)
    assert source.startswith("# KernelOPT expert template:")
    assert "# Applies when:" in source.splitlines()[1]
    assert "KH=7, KW=7" in source and "HAS_BIAS=False" in source
    compile(source, "<template>", "exec")
    assert "depthwise_conv2d" in TEMPLATE_NAMES
    with pytest.raises(ValueError):
        depthwise_conv2d_source({"x": 0, "weight": 1, "out": 2}, stride=1, padding=1, dilation=1,
                                kernel_hw=3, has_bias=False, block_w=6)
    with pytest.raises(ValueError):
        depthwise_conv2d_source({"x": 0, "weight": 1, "out": 2}, stride=1, padding=1, dilation=1,
                                kernel_hw=3, has_bias=True)


def test_variants_are_distinct_powers_of_two():
    for sizes in [(32, 256, 56, 56), (8, 1024, 14, 14), (2, 5, 9, 9), (1, 3, 200, 200)]:
        variants = depthwise_conv2d_variants(sizes)
        assert 1 <= len(variants) <= 6
        assert len({tuple(v.items()) for v in variants}) == len(variants)
        for v in variants:
            assert set(v) == {"block_h", "block_w", "block_c", "num_warps"}
            for key in ("block_h", "block_w", "block_c"):
                assert v[key] & (v[key] - 1) == 0
    assert len(depthwise_conv2d_variants((32, 256, 56, 56))) >= 4


def test_channels_last_7x7_pad3_no_bias():
    # The ConvNeXt shape in miniature: C spans two channel blocks, W two column blocks.
    out, ref = conv_case(1, 32, 10, 10, 7, padding=3, block_w=8, block_c=16)
    assert out.is_contiguous(memory_format=torch.channels_last)
    torch.testing.assert_close(out, ref, **FP32)


def test_contiguous_nchw_3x3_pad1_with_bias():
    out, ref = conv_case(2, 6, 8, 8, 3, padding=1, bias=True, channels_last=False, block_w=4, block_c=8)
    assert out.is_contiguous()
    torch.testing.assert_close(out, ref, **FP32)


def test_stride2_dilation2_asymmetric_padding():
    out, ref = conv_case(1, 8, 11, 13, (3, 5), stride=2, padding=(1, 3), dilation=2, block_w=4, block_c=8)
    torch.testing.assert_close(out, ref, **FP32)


@pytest.mark.parametrize("n,c,h,w,bias,block_w,block_c", [(2, 5, 9, 9, False, 4, 4), (2, 12, 11, 10, True, 8, 8),
                                                          (1, 9, 10, 11, True, 8, 8)])
def test_sizes_not_multiples_of_the_blocks(n, c, h, w, bias, block_w, block_c):
    out, ref = conv_case(n, c, h, w, 3, padding=1, bias=bias, block_w=block_w, block_c=block_c, seed=c)
    torch.testing.assert_close(out, ref, **FP32)


def test_rectangular_stride_and_roles_in_other_positions():
    roles = {"out": 0, "x": 1, "bias": 3, "weight": 2}
    out, ref = conv_case(1, 7, 9, 13, (5, 3), stride=(1, 2), padding=(2, 1), dilation=(2, 3), bias=True,
                         block_w=4, block_c=8, roles=roles)
    torch.testing.assert_close(out, ref, **FP32)


def test_bf16_input_and_output():
    out, ref = conv_case(1, 16, 9, 9, 7, padding=3, bias=True, dtype=torch.bfloat16, block_w=8, block_c=16)
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out.float(), ref, **BF16)


def test_bf16_input_fp32_output_accumulates_in_fp32():
    out, ref = conv_case(1, 8, 8, 8, 7, padding=3, dtype=torch.bfloat16, out_dtype=torch.float32,
                         block_w=8, block_c=8)
    torch.testing.assert_close(out, ref, **FP32)   # inputs are exact in bf16; only the sum order differs


def test_permuted_strides_match_too():
    # x stored as [N, H, C, W] (neither layout), weight transposed in memory, out stored as [N, W, H, C].
    n, c, h, w = 1, 6, 7, 9
    x = rand((n, h, c, w), 10).permute(0, 2, 1, 3)
    weight = rand((c, 1, 3, 3), 11).transpose(2, 3).contiguous().transpose(2, 3)
    ref = F.conv2d(x, weight, None, padding=1, groups=c)
    out = torch.full((n, w, h, c), float("nan")).permute(0, 3, 2, 1)
    source = depthwise_conv2d_source({"x": 0, "weight": 1, "out": 2}, stride=1, padding=1, dilation=1,
                                     kernel_hw=3, has_bias=False, block_w=4, block_c=4)
    load_candidate(source, name="test_depthwise")(x, weight, out)
    torch.testing.assert_close(out, ref, **FP32)


@pytest.mark.parametrize("block_h", [1, 4])
def test_output_row_blocks_that_do_not_divide_the_height(block_h):
    # 10 output rows in blocks of 4 (the last block is half empty), or one row per program; stride 2 and
    # dilation 2 make each output row take its filter rows from every other input row
    out, ref = conv_case(1, 8, 19, 9, 3, stride=(2, 1), padding=2, dilation=(2, 1), block_w=4, block_c=8,
                         block_h=block_h)
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5)
