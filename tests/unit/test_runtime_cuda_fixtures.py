"""CUDA-captured H200 modules loaded on the CPU: kernels, launches and arguments are found, and the
CUDA-only pieces (attention kernels) behave as on the GPU. Full-size runs are too slow here."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import torch

from kernelopt.runtime.interpret import install_cpu_triton_shims

install_cpu_triton_shims()

from kernelopt.runtime.cpu_shims import CpuRuntime  # noqa: E402
from kernelopt.runtime.loader import load_output_module  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "inductor-2.11-h200"


def test_cross_entropy_fixture_loads_with_its_kernels_and_launches():
    module = load_output_module(str(FIXTURES / "ce.default.0.py"), "cpu")
    assert set(module.kernels) == {"triton_red_fused__to_copy_prepare_softmax_online_0",
                                   "triton_red_fused__log_softmax__to_copy_nll_loss_forward_sub_1"}
    assert [s.kernel_name for s in module.launch_sites] == list(module.kernels)
    first = module.kernels["triton_red_fused__to_copy_prepare_softmax_online_0"]
    assert first.kind == "reduction"
    assert first.arg_names == ["in_ptr0", "out_ptr0", "out_ptr1", "xnumel", "r0_numel"]
    assert first.config["XBLOCK"] >= 1 and first.config["R0_BLOCK"] >= 1
    # the grid the module's launch gets: one program per XBLOCK rows
    dummy = torch.empty(0)
    assert first.grid(dummy, dummy, dummy, 4096, 32000) == (math.ceil(4096 / first.config["XBLOCK"]), 1, 1)
    specs = module.arg_specs
    assert [(s.name, s.sizes, s.dtype) for s in specs] == [
        ("arg0_1", (4096, 32000), torch.bfloat16), ("arg1_1", (4096,), torch.int64)]


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.py")))
def test_every_fixture_loads_on_the_cpu(name):
    module = load_output_module(str(FIXTURES / name), "cpu")
    assert module.kernels and module.launch_sites and module.arg_specs
    assert all(site.kernel_name in module.kernels for site in module.launch_sites)


def test_template_kernel_grid_comes_from_the_launch_arguments():
    module = load_output_module(str(FIXTURES / "mlp.max-autotune-no-cudagraphs.0.py"), "cpu")
    handle = module.kernels["triton_tem_fused_addmm_t_0"]
    assert handle.kind == "template"
    dummy = torch.empty(0)
    assert handle.grid(dummy, dummy, dummy, dummy, 1024, 1, 1) == (1024, 1, 1)


def _reference_attention(q, k, v, causal, mask=None, scale=None):
    return torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), attn_mask=mask,
                                                            is_causal=causal, scale=scale).to(q.dtype)


def test_cudnn_attention_returns_what_the_cuda_op_returns():
    # As in block.default.0.py: q, k, v are views of one packed projection [B, S, 3*H*D].
    batch, heads, length, dim = 2, 4, 16, 8
    packed = torch.randn(batch, length, 3 * heads * dim, dtype=torch.bfloat16)
    strides = (length * 3 * heads * dim, dim, 3 * heads * dim, 1)
    q, k, v = (packed.as_strided((batch, heads, length, dim), strides, i * heads * dim) for i in range(3))
    result = CpuRuntime._scaled_dot_product_cudnn_attention(q, k, v, None, False, 0.0, True)
    out = result[0]
    assert out.shape == (batch, heads, length, dim)
    assert out.stride() == (length * heads * dim, dim, heads * dim, 1)  # what assert_size_stride expects
    torch.testing.assert_close(out, _reference_attention(q, k, v, True), rtol=2e-2, atol=2e-2)
    assert len(result) == 9


def test_efficient_attention_with_a_mask_and_logsumexp():
    q, k, v = (torch.randn(2, 3, 10, 8) for _ in range(3))
    mask = torch.randn(2, 3, 10, 10)
    out, lse, seed, offset = CpuRuntime._scaled_dot_product_efficient_attention(q, k, v, mask, True, scale=0.3)
    torch.testing.assert_close(out, _reference_attention(q, k, v, False, mask, 0.3), rtol=1e-5, atol=1e-5)
    expected_lse = torch.logsumexp(q @ k.transpose(-2, -1) * 0.3 + mask, dim=-1)
    torch.testing.assert_close(lse[..., :10], expected_lse, rtol=1e-5, atol=1e-5)


import triton  # noqa: E402  (after the shims: interpreted)
import triton.language as tl  # noqa: E402
from torch._inductor.runtime import triton_helpers  # noqa: E402


@triton.jit
def _reduce_kernel(x_ptr, max_ptr, idx_ptr, R: tl.constexpr):
    rows = tl.arange(0, 4)[:, None]
    cols = tl.arange(0, R)[None, :]
    x = tl.load(x_ptr + rows * R + cols)
    tl.store(max_ptr + tl.arange(0, 4), triton_helpers.max2(x, 1))
    index = tl.broadcast_to(cols, [4, R])
    _, where = triton_helpers.max_with_index(x, index, 1)
    tl.store(idx_ptr + tl.arange(0, 4), where)


def test_fast_reductions_keep_inductor_nan_and_tie_semantics():
    x = torch.tensor([[1.0, 3.0, 3.0, 2.0], [float("nan"), 1.0, float("nan"), 0.0],
                      [-1.0, -2.0, -3.0, -4.0], [0.0, 5.0, float("inf"), 5.0]])
    maxima, indices = torch.empty(4), torch.empty(4, dtype=torch.int32)
    _reduce_kernel[(1,)](x, maxima, indices, R=4)
    assert maxima[0] == 3 and math.isnan(maxima[1]) and maxima[2] == -1 and maxima[3] == float("inf")
    assert indices.tolist() == [1, 0, 0, 2]
    assert np.isnan(maxima.numpy()).sum() == 1


@triton.jit
def _arg_reduce_kernel(x_ptr, index_ptr, max_idx_ptr, min_idx_ptr, R: tl.constexpr):
    cols = tl.arange(0, R)[None, :]
    x = tl.load(x_ptr + cols)
    index = tl.load(index_ptr + cols)
    _, largest = triton_helpers.max_with_index(x, index, 1)
    _, smallest = triton_helpers.min_with_index(x, index, 1)
    tl.store(max_idx_ptr + tl.arange(0, 1), largest)
    tl.store(min_idx_ptr + tl.arange(0, 1), smallest)


@pytest.mark.parametrize("values, index, first_max, first_min", [
    # a looped reduction's lanes: lane k holds the best of elements k, k + R0_BLOCK, ...: ties go to the
    # lowest index, wherever its lane is
    ([1.0, 3.0, 3.0, 0.0, 3.0, 2.0, 0.0, 1.0], [100, 50, 7, 3, 112, 6, 9, 1], 7, 3),
    ([float("nan"), 1.0, float("nan"), 1.0], [40, 9, 12, 2], 12, 12),
])
def test_fast_arg_reductions_pick_the_lowest_index_among_ties(values, index, first_max, first_min):
    x, lanes = torch.tensor(values), torch.tensor(index, dtype=torch.int32)
    largest, smallest = torch.empty(1, dtype=torch.int32), torch.empty(1, dtype=torch.int32)
    _arg_reduce_kernel[(1,)](x, lanes, largest, smallest, R=len(values))
    assert (largest.item(), smallest.item()) == (first_max, first_min)
