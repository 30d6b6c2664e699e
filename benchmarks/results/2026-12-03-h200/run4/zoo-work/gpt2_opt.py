# AOT ID: ['8_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_root/l3/cl3wlh4inzrm6je3cirosjo6mpfcycrtavyi7mjhtq7aaqavrgwr.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_2 => add_4, add_5, mul, mul_1, rsqrt, sub_2, var_mean
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
# Graph fragment:
#   %arg0_1 : Tensor "i64[8, 512][512, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f32[50257, 768][768, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "f32[1024, 768][768, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %getitem_1 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=getitem_1]
#   %buf1 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=buf1]
#   %arg3_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %arg4_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg4_1]
#   %embedding : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (512,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_1, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_2 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_1, %getitem_1), kwargs = {})
#   %add_4 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg3_1), kwargs = {})
#   %add_5 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %arg4_1), kwargs = {})
#   return %getitem_1,%buf1,%add_5
triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0 = async_compile.triton('triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4096, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'x': 32768, 'r0_': 26744832}}
)
@triton.jit
def triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 768
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x3), None, eviction_policy='evict_last')
    x0 = (xindex % 512)
    tmp10_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp10_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp10_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp7 = tl.load(in_ptr2 + (r0_2 + 768*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.full([1, 1], 50257, tl.int32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp0 < 0
        tmp4 = tl.where(tmp3, tmp2, tmp0)
        tl.device_assert((0 <= tmp4) & (tmp4 < 50257), "index out of bounds: 0 <= tmp4 < 50257")
        tmp6 = tl.load(in_ptr1 + (r0_2 + 768*tmp4), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp8 = tmp6 + tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp10_mean_next, tmp10_m2_next, tmp10_weight_next = triton_helpers.welford_reduce(
            tmp9, tmp10_mean, tmp10_m2, tmp10_weight, roffset == 0
        )
        tmp10_mean = tl.where(r0_mask, tmp10_mean_next, tmp10_mean)
        tmp10_m2 = tl.where(r0_mask, tmp10_m2_next, tmp10_m2)
        tmp10_weight = tl.where(r0_mask, tmp10_weight_next, tmp10_weight)
    tmp11, tmp12, tmp13 = triton_helpers.welford(tmp10_mean, tmp10_m2, tmp10_weight, 1)
    tmp10 = tmp11[:, None]
    tmp14 = tmp12[:, None]
    tmp15 = tmp13[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp22 = tl.load(in_ptr2 + (r0_2 + 768*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp31 = tl.load(in_ptr3 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp33 = tl.load(in_ptr4 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp16 = tl.full([1, 1], 50257, tl.int32)
        tmp17 = tmp0 + tmp16
        tmp18 = tmp0 < 0
        tmp19 = tl.where(tmp18, tmp17, tmp0)
        tl.device_assert((0 <= tmp19) & (tmp19 < 50257), "index out of bounds: 0 <= tmp19 < 50257")
        tmp21 = tl.load(in_ptr1 + (r0_2 + 768*tmp19), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp23 = tmp21 + tmp22
        tmp24 = tmp23 - tmp10
        tmp25 = tl.full([1, 1], 768.0, tl.float32)
        tmp26 = (tmp14 / tmp25)
        tmp27 = tl.full([1, 1], 1e-05, tl.float32)
        tmp28 = tmp26 + tmp27
        tmp29 = libdevice.rsqrt(tmp28)
        tmp30 = tmp24 * tmp29
        tmp32 = tmp30 * tmp31
        tmp34 = tmp32 + tmp33
        tl.store(out_ptr2 + (r0_2 + 768*x3), tmp34, r0_mask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/u5/cu5tr7543onxg45qgitumgblo77uzg6zu5etsnqdrnagysdwrbm3.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2, view_1, x], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm, aten.view, aten.addmm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_2 => add_4, add_5, mul, mul_1, rsqrt, sub_2, var_mean
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   view_1 => view_1
#   x => addmm
# Graph fragment:
#   %arg5_1 : Tensor "f32[2304][1]cuda:0" = PlaceHolder[target=arg5_1]
#   %add_5 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0" = PlaceHolder[target=add_5]
#   %arg6_1 : Tensor "f32[768, 2304][2304, 1]cuda:0" = PlaceHolder[target=arg6_1]
#   %embedding : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (512,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_1, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_2 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_1, %getitem_1), kwargs = {})
#   %add_4 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg3_1), kwargs = {})
#   %add_5 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %arg4_1), kwargs = {})
#   %view_1 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_5, [-1, 768]), kwargs = {})
#   %addmm : Tensor "f32[4096, 2304][2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%arg5_1, %view_1, %arg6_1), kwargs = {})
#   return %addmm
triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1 = async_compile.triton('triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.template(

num_stages=3,
num_warps=4,
triton_meta={'signature': {'in_ptr0': '*fp32', 'arg_A': '*fp32', 'arg_B': '*fp32', 'out_ptr0': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
inductor_meta={'kernel_name': 'triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1', 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'extra_launcher_args': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {'EVEN_K': True, 'USE_FAST_ACCUM': False, 'ACC_TYPE': 'tl.float32', 'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 32, 'GROUP_M': 8, 'ALLOW_TF32': False}},

)
@triton.jit
def triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1(in_ptr0, arg_A, arg_B, out_ptr0):
    EVEN_K : tl.constexpr = True
    USE_FAST_ACCUM : tl.constexpr = False
    ACC_TYPE : tl.constexpr = tl.float32
    BLOCK_M : tl.constexpr = 64
    BLOCK_N : tl.constexpr = 128
    BLOCK_K : tl.constexpr = 32
    GROUP_M : tl.constexpr = 8
    ALLOW_TF32 : tl.constexpr = False
    INDEX_DTYPE : tl.constexpr = tl.int32
    A = arg_A
    B = arg_B

    M = 4096
    N = 2304
    K = 768
    if M * N == 0:
        # early exit due to zero-size input(s)
        return
    stride_am = 768
    stride_ak = 1
    stride_bk = 2304
    stride_bn = 1

    # based on triton.ops.matmul
    pid = tl.program_id(0).to(INDEX_DTYPE)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N

    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if ((stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1)) and (M >= BLOCK_M and K > 1):
        offs_a_m = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        offs_a_m = rm % M
    if ((stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1)) and (N >= BLOCK_N and K > 1):
        offs_b_n = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        offs_b_n = rn % N
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)

    for k_idx in range(0, tl.cdiv(K, BLOCK_K)):

        a_k_idx_vals = offs_k[None, :] + (k_idx * BLOCK_K)
        b_k_idx_vals = offs_k[:, None] + (k_idx * BLOCK_K)

        idx_m = offs_a_m[:, None]
        idx_n = a_k_idx_vals
        xindex = idx_n + 768*idx_m
        a = tl.load(A + (xindex))

        idx_m = b_k_idx_vals
        idx_n = offs_b_n[None, :]
        xindex = idx_n + 2304*idx_m
        b = tl.load(B + (xindex))


        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)


    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)

    # inductor generates a suffix
    xindex = idx_n + 2304*idx_m
    tmp0 = tl.load(in_ptr0 + (tl.broadcast_to(idx_n, [BLOCK_M, BLOCK_N])), mask, eviction_policy='evict_last')
    tmp1 = acc + tmp0
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, [BLOCK_M, BLOCK_N])), tmp1, mask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/fn/cfnf2jqkje6ealgswkcikfvvmn53gk7ajwmu6fz2oqeoqzx6o4wi.py
# Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value, position_diff, ne, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
# Source node to ATen node mapping:
#   arange => iota
#   first_dummy_value => sub
#   getitem => slice_1
#   ne => ne
#   packed_sequence_mask => cumsum
#   position_diff => cat, slice_2, slice_3, sub_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   position_ids_2 => expand
# Graph fragment:
#   %iota : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (512,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %expand : Tensor "i64[8, 512][0, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze, [8, -1]), kwargs = {})
#   %slice_1 : Tensor "i64[8, 1][0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%expand, 1, 0, 1), kwargs = {})
#   %sub : Tensor "i64[8, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_1, 1), kwargs = {})
#   %cat : Tensor "i64[8, 513][513, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cat.default](args = ([%sub, %expand], -1), kwargs = {})
#   %slice_3 : Tensor "i64[8, 512][513, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 1, 513), kwargs = {})
#   %slice_2 : Tensor "i64[8, 512][513, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 0, 512), kwargs = {})
#   %sub_1 : Tensor "i64[8, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_3, %slice_2), kwargs = {})
#   %ne : Tensor "b8[8, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%sub_1, 1), kwargs = {})
#   %cumsum : Tensor "i64[8, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cumsum.default](args = (%ne, -1), kwargs = {})
#   return %cumsum
triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2 = async_compile.triton('triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8, 'r0_': 512},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'x': 0, 'r0_': 65536}}
)
@triton.jit
def triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2(out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8
    r0_numel = 512
    R0_BLOCK: tl.constexpr = 512
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = 1 + r0_1
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 1, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.broadcast_to((-1) + (1 + r0_1), [XBLOCK, R0_BLOCK])
    tmp6 = tl.full(tmp5.shape, 0.0, tmp5.dtype)
    tmp7 = tl.where(tmp4, tmp5, tmp6)
    tmp8 = tmp0 >= tmp3
    tmp9 = tl.full([1, 1], 513, tl.int64)
    tmp10 = tmp0 < tmp9
    tmp11 = tl.broadcast_to(r0_1, [XBLOCK, R0_BLOCK])
    tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
    tmp13 = tl.where(tmp8, tmp11, tmp12)
    tmp14 = tl.where(tmp4, tmp7, tmp13)
    tmp15 = r0_1
    tmp16 = tmp15 >= tmp1
    tmp17 = tmp15 < tmp3
    tmp18 = tl.broadcast_to((-1) + (r0_1), [XBLOCK, R0_BLOCK])
    tmp19 = tl.full(tmp18.shape, 0.0, tmp18.dtype)
    tmp20 = tl.where(tmp17, tmp18, tmp19)
    tmp21 = tmp15 >= tmp3
    tmp22 = tmp15 < tmp9
    tmp23 = tl.broadcast_to((-1) + r0_1, [XBLOCK, R0_BLOCK])
    tmp24 = tl.full(tmp23.shape, 0.0, tmp23.dtype)
    tmp25 = tl.where(tmp21, tmp23, tmp24)
    tmp26 = tl.where(tmp17, tmp20, tmp25)
    tmp27 = tmp14 - tmp26
    tmp28 = tmp27 != tmp3
    tmp29 = tmp28.to(tl.int64)
    tmp30 = tmp29.to(tl.int64)
    tmp31 = tl.broadcast_to(tmp30, [XBLOCK, R0_BLOCK])
    tmp32, = tl.associative_scan((tmp31,), 1, _triton_helper_fn_add0)
    tl.store(out_ptr0 + (r0_1 + 512*x0), tmp32, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/hy/chyb2hsxx5yg76665xvn4snytgsmeh4w7vjg2dkxkbulcsxyzulp.py
# Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => expand_1
#   attn_output => _scaled_dot_product_efficient_attention, expand_2, full_default_1, full_default_2, where
#   attn_output_4 => _scaled_dot_product_efficient_attention_1, expand_3, full_default_3, full_default_4, where_1
#   batch_arange => iota_1
#   batch_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   eq => eq
#   getitem_5 => index
#   getitem_6 => index_1
#   key_states_1 => permute
#   key_states_3 => permute_4
#   kv_arange => add_3
#   kv_indices => unsqueeze_7, unsqueeze_8, unsqueeze_9
#   le => le
#   q_arange => add_2
#   q_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   query_states_1 => permute_2
#   query_states_3 => permute_6
#   result => full_default
#   result_1 => bitwise_and
#   result_2 => bitwise_and_1
#   split => split
#   split_1 => split_1
#   value_states_1 => permute_1
#   value_states_3 => permute_5
#   view_14 => view_15
#   view_15 => view_16
#   view_16 => view_17
#   view_3 => view_3
#   view_4 => view_4
#   view_5 => view_5
#   x_1 => view_2
#   x_9 => view_14
# Graph fragment:
#   %cumsum : Tensor "i64[8, 512][512, 1]cuda:0" = PlaceHolder[target=cumsum]
#   %view_2 : Tensor "f32[8, 512, 2304][1179648, 2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [8, 512, 2304]), kwargs = {})
#   %split : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_2, 768, 2), kwargs = {})
#   %view_5 : Tensor "f32[8, 512, 12, 64][1179648, 2304, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_2, [8, 512, -1, 64]), kwargs = {})
#   %permute_2 : Tensor "f32[8, 12, 512, 64][1179648, 64, 2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_5, [0, 2, 1, 3]), kwargs = {})
#   %view_3 : Tensor "f32[8, 512, 12, 64][1179648, 2304, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_3, [8, 512, -1, 64]), kwargs = {})
#   %permute : Tensor "f32[8, 12, 512, 64][1179648, 64, 2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_3, [0, 2, 1, 3]), kwargs = {})
#   %view_4 : Tensor "f32[8, 512, 12, 64][1179648, 2304, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_4, [8, 512, -1, 64]), kwargs = {})
#   %permute_1 : Tensor "f32[8, 12, 512, 64][1179648, 64, 2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_4, [0, 2, 1, 3]), kwargs = {})
#   %full_default : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], True), kwargs = {dtype: torch.bool, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %iota_4 : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (512,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_3 : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "i64[1, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_3, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[1, 1, 512][512, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 1), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1, 512][512, 512, 512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %iota_3 : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (512,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 512][512, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 512, 1][512, 512, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %le : Tensor "b8[1, 1, 512, 512][262144, 262144, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_9, %unsqueeze_6), kwargs = {})
#   %bitwise_and : Tensor "b8[1, 1, 512, 512][262144, 262144, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%full_default, %le), kwargs = {})
#   %iota_1 : Tensor "i64[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (8,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %unsqueeze_1 : Tensor "i64[8, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%iota_1, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[8, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 2), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[8, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %index : Tensor "i64[8, 1, 512, 1][512, 512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %index_1 : Tensor "i64[8, 1, 1, 512][512, 512, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %eq : Tensor "b8[8, 1, 512, 512][262144, 262144, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%index, %index_1), kwargs = {})
#   %bitwise_and_1 : Tensor "b8[8, 1, 512, 512][262144, 262144, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%bitwise_and, %eq), kwargs = {})
#   %expand_1 : Tensor "b8[8, 1, 512, 512][262144, 262144, 512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%bitwise_and_1, [8, -1, 512, 512]), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[8, 1, 512, 512][262144, 262144, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_1, %full_default_2, %full_default_1), kwargs = {})
#   %expand_2 : Tensor "f32[8, 12, 512, 512][262144, 0, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where, [8, 12, 512, 512]), kwargs = {})
#   %_scaled_dot_product_efficient_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_2, %permute, %permute_1, %expand_2, False), kwargs = {scale: 0.125})
#   %view_14 : Tensor "f32[8, 512, 2304][1179648, 2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [8, 512, 2304]), kwargs = {})
#   %split_1 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_14, 768, 2), kwargs = {})
#   %view_17 : Tensor "f32[8, 512, 12, 64][1179648, 2304, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_13, [8, 512, -1, 64]), kwargs = {})
#   %permute_6 : Tensor "f32[8, 12, 512, 64][1179648, 64, 2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_17, [0, 2, 1, 3]), kwargs = {})
#   %view_15 : Tensor "f32[8, 512, 12, 64][1179648, 2304, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_14, [8, 512, -1, 64]), kwargs = {})
#   %permute_4 : Tensor "f32[8, 12, 512, 64][1179648, 64, 2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_15, [0, 2, 1, 3]), kwargs = {})
#   %view_16 : Tensor "f32[8, 512, 12, 64][1179648, 2304, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_15, [8, 512, -1, 64]), kwargs = {})
#   %permute_5 : Tensor "f32[8, 12, 512, 64][1179648, 64, 2304, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_16, [0, 2, 1, 3]), kwargs = {})
#   %full_default_4 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "f32[8, 1, 512, 512][262144, 262144, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_1, %full_default_4, %full_default_3), kwargs = {})
#   %expand_3 : Tensor "f32[8, 12, 512, 512][262144, 0, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%where_1, [8, 12, 512, 512]), kwargs = {})
#   %_scaled_dot_product_efficient_attention_1 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_efficient_attention.default](args = (%permute_6, %permute_4, %permute_5, %expand_3, False), kwargs = {scale: 0.125})
#   return %buf6,%buf26
triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3 = async_compile.triton('triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2097152}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'x': 33587200}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3(in_ptr0, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2097152
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 512)
    x1 = ((xindex // 512) % 512)
    x3 = xindex // 512
    x2 = xindex // 262144
    x4 = xindex
    tmp5 = tl.load(in_ptr0 + (x3), None, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr0 + (x0 + 512*x2), None, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 <= tmp1
    tmp3 = tl.full([1], True, tl.int1)
    tmp4 = tmp3 & tmp2
    tmp7 = tmp5 == tmp6
    tmp8 = tmp4 & tmp7
    tmp9 = tl.full([1], 0.0, tl.float32)
    tmp10 = tl.full([1], float("-inf"), tl.float32)
    tmp11 = tl.where(tmp8, tmp9, tmp10)
    tl.store(out_ptr0 + (x4), tmp11, None)
    tl.store(out_ptr1 + (x4), tmp11, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ym/cymvqyd77xi6mugchcvdcb25grna67hg3xevsybrph3vsmskymvh.py
# Topologically Sorted Source Nodes: [transpose_3, reshape, view_6, x_2], Original ATen: [aten.transpose, aten.view, aten.addmm]
# Source node to ATen node mapping:
#   reshape => view_6
#   transpose_3 => permute_3
#   view_6 => view_7
#   x_2 => mm_default_5
# Graph fragment:
#   %getitem_5 : Tensor "f32[8, 12, 512, 64][393216, 64, 768, 1]cuda:0" = PlaceHolder[target=getitem_5]
#   %arg8_1 : Tensor "f32[768, 768][768, 1]cuda:0" = PlaceHolder[target=arg8_1]
#   %permute_3 : Tensor "f32[8, 512, 12, 64][393216, 768, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%getitem_5, [0, 2, 1, 3]), kwargs = {})
#   %view_6 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_3, [8, 512, -1]), kwargs = {})
#   %view_7 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_6, [-1, 768]), kwargs = {})
#   %mm_default_5 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%view_7, %arg8_1), kwargs = {})
#   return %mm_default_5
triton_tem_fused_addmm_transpose_view_4 = async_compile.triton('triton_tem_fused_addmm_transpose_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.template(

num_stages=3,
num_warps=4,
triton_meta={'signature': {'arg_A': '*fp32', 'arg_B': '*fp32', 'out_ptr0': '*fp32'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
inductor_meta={'kernel_name': 'triton_tem_fused_addmm_transpose_view_4', 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'extra_launcher_args': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {'EVEN_K': True, 'USE_FAST_ACCUM': False, 'ACC_TYPE': 'tl.float32', 'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 32, 'GROUP_M': 8, 'ALLOW_TF32': False}},

)
@triton.jit
def triton_tem_fused_addmm_transpose_view_4(arg_A, arg_B, out_ptr0):
    EVEN_K : tl.constexpr = True
    USE_FAST_ACCUM : tl.constexpr = False
    ACC_TYPE : tl.constexpr = tl.float32
    BLOCK_M : tl.constexpr = 64
    BLOCK_N : tl.constexpr = 128
    BLOCK_K : tl.constexpr = 32
    GROUP_M : tl.constexpr = 8
    ALLOW_TF32 : tl.constexpr = False
    INDEX_DTYPE : tl.constexpr = tl.int32
    A = arg_A
    B = arg_B

    M = 4096
    N = 768
    K = 768
    if M * N == 0:
        # early exit due to zero-size input(s)
        return
    stride_am = 768
    stride_ak = 1
    stride_bk = 768
    stride_bn = 1

    # based on triton.ops.matmul
    pid = tl.program_id(0).to(INDEX_DTYPE)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N

    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if ((stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1)) and (M >= BLOCK_M and K > 1):
        offs_a_m = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        offs_a_m = rm % M
    if ((stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1)) and (N >= BLOCK_N and K > 1):
        offs_b_n = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        offs_b_n = rn % N
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)

    for k_idx in range(0, tl.cdiv(K, BLOCK_K)):

        a_k_idx_vals = offs_k[None, :] + (k_idx * BLOCK_K)
        b_k_idx_vals = offs_k[:, None] + (k_idx * BLOCK_K)

        idx_m = offs_a_m[:, None]
        idx_n = a_k_idx_vals
        xindex = idx_n + 768*idx_m
        a = tl.load(A + (xindex))

        idx_m = b_k_idx_vals
        idx_n = offs_b_n[None, :]
        xindex = idx_n + 768*idx_m
        b = tl.load(B + (xindex))


        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)


    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)

    # inductor generates a suffix
    xindex = idx_n + 768*idx_m
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, [BLOCK_M, BLOCK_N])), acc, mask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ko/ckoozaf5m2tkrtyecouyiwlegkaqi4gluo6dpjeqs6zpxay2mhj5.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_2, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.addmm, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_3 => add_6
#   hidden_states_4 => add_7, add_8, mul_2, mul_3, rsqrt_1, sub_3, var_mean_1
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   x_2 => add_tensor_5
#   x_3 => view_8
# Graph fragment:
#   %arg7_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg7_1]
#   %mm_default_5 : Tensor "f32[4096, 768][768, 1]cuda:0" = PlaceHolder[target=mm_default_5]
#   %arg0_1 : Tensor "i64[8, 512][512, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f32[50257, 768][768, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "f32[1024, 768][768, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %add_6 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0" = PlaceHolder[target=add_6]
#   %getitem_10 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=getitem_10]
#   %buf15 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=buf15]
#   %arg9_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg9_1]
#   %arg10_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg10_1]
#   %embedding : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (512,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[512][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %add_tensor_5 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg7_1, %mm_default_5), kwargs = {})
#   %view_8 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_5, [8, 512, 768]), kwargs = {})
#   %add_6 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_8, %add_1), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_6, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_3 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_6, %getitem_10), kwargs = {})
#   %add_7 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_9, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_2 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_1), kwargs = {})
#   %mul_3 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %arg9_1), kwargs = {})
#   %add_8 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %arg10_1), kwargs = {})
#   return %add_6,%getitem_10,%buf15,%add_8
triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5 = async_compile.triton('triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 4096, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*i64', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 2, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'x': 32768, 'r0_': 64496640}}
)
@triton.jit
def triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 512)
    tmp0 = tl.load(in_ptr0 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp1 = tl.load(in_out_ptr0 + (r0_2 + 768*x3), r0_mask, other=0.0)
    tmp3 = tl.load(in_ptr1 + (x3), None, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr3 + (r0_2 + 768*x0), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp36 = tl.load(in_ptr4 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp38 = tl.load(in_ptr5 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp2 = tmp0 + tmp1
    tmp4 = tl.full([1, 1], 50257, tl.int32)
    tmp5 = tmp3 + tmp4
    tmp6 = tmp3 < 0
    tmp7 = tl.where(tmp6, tmp5, tmp3)
    tl.device_assert((0 <= tmp7) & (tmp7 < 50257), "index out of bounds: 0 <= tmp7 < 50257")
    tmp9 = tl.load(in_ptr2 + (r0_2 + 768*tmp7), r0_mask, other=0.0)
    tmp11 = tmp9 + tmp10
    tmp12 = tmp2 + tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(r0_mask, tmp13, 0)
    tmp16 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp18 = tl.where(r0_mask, tmp16, 0)
    tmp19 = tl.sum(tmp18, 1)[:, None].to(tl.float32)
    tmp20 = tl.full([1, 1], 768, tl.int32)
    tmp21 = tmp20.to(tl.float32)
    tmp22 = (tmp19 / tmp21)
    tmp23 = tmp13 - tmp22
    tmp24 = tmp23 * tmp23
    tmp25 = tl.broadcast_to(tmp24, [XBLOCK, R0_BLOCK])
    tmp27 = tl.where(r0_mask, tmp25, 0)
    tmp28 = tl.sum(tmp27, 1)[:, None].to(tl.float32)
    tmp29 = tmp12 - tmp22
    tmp30 = tl.full([1, 1], 768.0, tl.float32)
    tmp31 = (tmp28 / tmp30)
    tmp32 = tl.full([1, 1], 1e-05, tl.float32)
    tmp33 = tmp31 + tmp32
    tmp34 = libdevice.rsqrt(tmp33)
    tmp35 = tmp29 * tmp34
    tmp37 = tmp35 * tmp36
    tmp39 = tmp37 + tmp38
    tl.store(in_out_ptr0 + (r0_2 + 768*x3), tmp12, r0_mask)
    tl.store(out_ptr2 + (r0_2 + 768*x3), tmp39, r0_mask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/c7/cc7pjmpnhj47mvspyhgwmwoznv5n6jnb6zlwxougcaibb3u3fomw.py
# Topologically Sorted Source Nodes: [x_4, x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
# Source node to ATen node mapping:
#   add_5 => add_9
#   add_6 => add_10
#   hidden_states_5 => mul_7
#   mul => mul_4
#   mul_1 => mul_5
#   mul_2 => mul_6
#   pow_1 => pow_1
#   tanh => tanh
#   x_4 => add_tensor_4
#   x_5 => view_10
# Graph fragment:
#   %arg11_1 : Tensor "f32[3072][1]cuda:0" = PlaceHolder[target=arg11_1]
#   %mm_default_4 : Tensor "f32[4096, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_default_4]
#   %add_tensor_4 : Tensor "f32[4096, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg11_1, %mm_default_4), kwargs = {})
#   %view_10 : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_4, [8, 512, 3072]), kwargs = {})
#   %mul_4 : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_10, 0.5), kwargs = {})
#   %pow_1 : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_10, 3.0), kwargs = {})
#   %mul_5 : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%pow_1, 0.044715), kwargs = {})
#   %add_9 : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_10, %mul_5), kwargs = {})
#   %mul_6 : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_9, 0.7978845608028654), kwargs = {})
#   %tanh : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_6,), kwargs = {})
#   %add_10 : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh, 1.0), kwargs = {})
#   %mul_7 : Tensor "f32[8, 512, 3072][1572864, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_4, %add_10), kwargs = {})
#   return %mul_7
triton_poi_fused_add_addmm_mul_pow_tanh_view_6 = async_compile.triton('triton_poi_fused_add_addmm_mul_pow_tanh_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16777216}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_addmm_mul_pow_tanh_view_6', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'x': 151007232}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_addmm_mul_pow_tanh_view_6(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 12582912
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 3072)
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last')
    tmp1 = tl.load(in_out_ptr0 + (x2), None)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0.5, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tmp2 * tmp2
    tmp6 = tmp5 * tmp2
    tmp7 = tl.full([1], 0.044715, tl.float32)
    tmp8 = tmp6 * tmp7
    tmp9 = tmp2 + tmp8
    tmp10 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = libdevice.tanh(tmp11)
    tmp13 = tl.full([1], 1.0, tl.float32)
    tmp14 = tmp12 + tmp13
    tmp15 = tmp4 * tmp14
    tl.store(in_out_ptr0 + (x2), tmp15, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/f7/cf72ukcx67cv5yr2knvgf5c244arh52hoxz442r3sdchyolyxupm.py
# Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_7 => add_11
#   hidden_states_8 => add_12, add_13, mul_8, mul_9, rsqrt_2, sub_4, var_mean_2
#   x_6 => add_tensor_3
#   x_7 => view_12
# Graph fragment:
#   %add_6 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0" = PlaceHolder[target=add_6]
#   %arg13_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg13_1]
#   %mm_default_3 : Tensor "f32[4096, 768][768, 1]cuda:0" = PlaceHolder[target=mm_default_3]
#   %getitem_12 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=getitem_12]
#   %buf22 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=buf22]
#   %arg15_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg15_1]
#   %arg16_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg16_1]
#   %add_tensor_3 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg13_1, %mm_default_3), kwargs = {})
#   %view_12 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_3, [8, 512, 768]), kwargs = {})
#   %add_11 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_12), kwargs = {})
#   %var_mean_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_11, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_4 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_11, %getitem_12), kwargs = {})
#   %add_12 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_11, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_12,), kwargs = {})
#   %mul_8 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_4, %rsqrt_2), kwargs = {})
#   %mul_9 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_8, %arg15_1), kwargs = {})
#   %add_13 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_9, %arg16_1), kwargs = {})
#   return %getitem_12,%buf22,%add_13
triton_per_fused_add_addmm_native_layer_norm_view_7 = async_compile.triton('triton_per_fused_add_addmm_native_layer_norm_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 4096, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'x': 0, 'r0_': 50340864}}
)
@triton.jit
def triton_per_fused_add_addmm_native_layer_norm_view_7(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 768*x0), r0_mask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp2 = tl.load(in_ptr2 + (r0_1 + 768*x0), r0_mask, other=0.0)
    tmp28 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp30 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp3 = tmp1 + tmp2
    tmp4 = tmp0 + tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(r0_mask, tmp5, 0)
    tmp8 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(r0_mask, tmp8, 0)
    tmp11 = tl.sum(tmp10, 1)[:, None].to(tl.float32)
    tmp12 = tl.full([1, 1], 768, tl.int32)
    tmp13 = tmp12.to(tl.float32)
    tmp14 = (tmp11 / tmp13)
    tmp15 = tmp5 - tmp14
    tmp16 = tmp15 * tmp15
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(r0_mask, tmp17, 0)
    tmp20 = tl.sum(tmp19, 1)[:, None].to(tl.float32)
    tmp21 = tmp4 - tmp14
    tmp22 = tl.full([1, 1], 768.0, tl.float32)
    tmp23 = (tmp20 / tmp22)
    tmp24 = tl.full([1, 1], 1e-05, tl.float32)
    tmp25 = tmp23 + tmp24
    tmp26 = libdevice.rsqrt(tmp25)
    tmp27 = tmp21 * tmp26
    tmp29 = tmp27 * tmp28
    tmp31 = tmp29 + tmp30
    tl.store(out_ptr2 + (r0_1 + 768*x0), tmp31, r0_mask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/rp/crpzlrakijfsuyg64bisyinbmeboyieeggurg23574c5nkcbpa6h.py
# Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, x_10, x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_10 => add_15, add_16, mul_10, mul_11, rsqrt_3, sub_5, var_mean_3
#   hidden_states_7 => add_11
#   hidden_states_9 => add_14
#   x_10 => add_tensor_2
#   x_11 => view_20
#   x_6 => add_tensor_3
#   x_7 => view_12
# Graph fragment:
#   %arg19_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg19_1]
#   %mm_default_2 : Tensor "f32[4096, 768][768, 1]cuda:0" = PlaceHolder[target=mm_default_2]
#   %add_6 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0" = PlaceHolder[target=add_6]
#   %arg13_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg13_1]
#   %mm_default_3 : Tensor "f32[4096, 768][768, 1]cuda:0" = PlaceHolder[target=mm_default_3]
#   %add_14 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0" = PlaceHolder[target=add_14]
#   %getitem_21 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=getitem_21]
#   %buf35 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=buf35]
#   %arg21_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg21_1]
#   %arg22_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg22_1]
#   %add_tensor_3 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg13_1, %mm_default_3), kwargs = {})
#   %view_12 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_3, [8, 512, 768]), kwargs = {})
#   %add_11 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_12), kwargs = {})
#   %add_tensor_2 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg19_1, %mm_default_2), kwargs = {})
#   %view_20 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor_2, [8, 512, 768]), kwargs = {})
#   %add_14 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_20, %add_11), kwargs = {})
#   %var_mean_3 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_14, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_5 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_14, %getitem_21), kwargs = {})
#   %add_15 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_20, 1e-05), kwargs = {})
#   %rsqrt_3 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_10 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_5, %rsqrt_3), kwargs = {})
#   %mul_11 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_10, %arg21_1), kwargs = {})
#   %add_16 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_11, %arg22_1), kwargs = {})
#   return %add_14,%getitem_21,%buf35,%add_16
triton_per_fused_add_addmm_native_layer_norm_view_8 = async_compile.triton('triton_per_fused_add_addmm_native_layer_norm_view_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 4096, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_8', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 2, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'x': 0, 'r0_': 88092672}}
)
@triton.jit
def triton_per_fused_add_addmm_native_layer_norm_view_8(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp1 = tl.load(in_out_ptr0 + (r0_1 + 768*x0), r0_mask, other=0.0)
    tmp3 = tl.load(in_ptr1 + (r0_1 + 768*x0), r0_mask, other=0.0)
    tmp4 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp5 = tl.load(in_ptr3 + (r0_1 + 768*x0), r0_mask, other=0.0)
    tmp32 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp34 = tl.load(in_ptr5 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp2 = tmp0 + tmp1
    tmp6 = tmp4 + tmp5
    tmp7 = tmp3 + tmp6
    tmp8 = tmp2 + tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(r0_mask, tmp9, 0)
    tmp12 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(r0_mask, tmp12, 0)
    tmp15 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp16 = tl.full([1, 1], 768, tl.int32)
    tmp17 = tmp16.to(tl.float32)
    tmp18 = (tmp15 / tmp17)
    tmp19 = tmp9 - tmp18
    tmp20 = tmp19 * tmp19
    tmp21 = tl.broadcast_to(tmp20, [XBLOCK, R0_BLOCK])
    tmp23 = tl.where(r0_mask, tmp21, 0)
    tmp24 = tl.sum(tmp23, 1)[:, None].to(tl.float32)
    tmp25 = tmp8 - tmp18
    tmp26 = tl.full([1, 1], 768.0, tl.float32)
    tmp27 = (tmp24 / tmp26)
    tmp28 = tl.full([1, 1], 1e-05, tl.float32)
    tmp29 = tmp27 + tmp28
    tmp30 = libdevice.rsqrt(tmp29)
    tmp31 = tmp25 * tmp30
    tmp33 = tmp31 * tmp32
    tmp35 = tmp33 + tmp34
    tl.store(in_out_ptr0 + (r0_1 + 768*x0), tmp8, r0_mask)
    tl.store(out_ptr2 + (r0_1 + 768*x0), tmp35, r0_mask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/36/c36c26od3rz5rzha6hb7utoktzd5xg2fjrq46hg2i2lxtd4s5jcf.py
# Topologically Sorted Source Nodes: [x_14, x_15, hidden_states_13, hidden_states_14], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_13 => add_19
#   hidden_states_14 => add_20, add_21, mul_16, mul_17, rsqrt_4, sub_6, var_mean_4
#   x_14 => add_tensor
#   x_15 => view_24
# Graph fragment:
#   %add_14 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0" = PlaceHolder[target=add_14]
#   %arg25_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg25_1]
#   %mm_default : Tensor "f32[4096, 768][768, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %getitem_23 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=getitem_23]
#   %buf42 : Tensor "f32[8, 512, 1][512, 1, 4096]cuda:0" = PlaceHolder[target=buf42]
#   %arg27_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg27_1]
#   %arg28_1 : Tensor "f32[768][1]cuda:0" = PlaceHolder[target=arg28_1]
#   %add_tensor : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg25_1, %mm_default), kwargs = {})
#   %view_24 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%add_tensor, [8, 512, 768]), kwargs = {})
#   %add_19 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_14, %view_24), kwargs = {})
#   %var_mean_4 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_19, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_6 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_19, %getitem_23), kwargs = {})
#   %add_20 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_22, 1e-05), kwargs = {})
#   %rsqrt_4 : Tensor "f32[8, 512, 1][512, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_20,), kwargs = {})
#   %mul_16 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_6, %rsqrt_4), kwargs = {})
#   %mul_17 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_16, %arg27_1), kwargs = {})
#   %add_21 : Tensor "f32[8, 512, 768][393216, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_17, %arg28_1), kwargs = {})
#   return %getitem_23,%buf42,%add_21
triton_per_fused_add_addmm_native_layer_norm_view_9 = async_compile.triton('triton_per_fused_add_addmm_native_layer_norm_view_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 4096, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_addmm_native_layer_norm_view_9', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'x': 0, 'r0_': 50340864}}
)
@triton.jit
def triton_per_fused_add_addmm_native_layer_norm_view_9(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 768*x0), r0_mask, other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp2 = tl.load(in_ptr1 + (r0_1 + 768*x0), r0_mask, other=0.0)
    tmp28 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp30 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
    tmp3 = tmp1 + tmp2
    tmp4 = tmp0 + tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(r0_mask, tmp5, 0)
    tmp8 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(r0_mask, tmp8, 0)
    tmp11 = tl.sum(tmp10, 1)[:, None].to(tl.float32)
    tmp12 = tl.full([1, 1], 768, tl.int32)
    tmp13 = tmp12.to(tl.float32)
    tmp14 = (tmp11 / tmp13)
    tmp15 = tmp5 - tmp14
    tmp16 = tmp15 * tmp15
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(r0_mask, tmp17, 0)
    tmp20 = tl.sum(tmp19, 1)[:, None].to(tl.float32)
    tmp21 = tmp4 - tmp14
    tmp22 = tl.full([1, 1], 768.0, tl.float32)
    tmp23 = (tmp20 / tmp22)
    tmp24 = tl.full([1, 1], 1e-05, tl.float32)
    tmp25 = tmp23 + tmp24
    tmp26 = libdevice.rsqrt(tmp25)
    tmp27 = tmp21 * tmp26
    tmp29 = tmp27 * tmp28
    tmp31 = tmp29 + tmp30
    tl.store(in_out_ptr0 + (r0_1 + 768*x0), tmp31, r0_mask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1 = args
        args.clear()
        assert_size_stride(arg0_1, (8, 512), (512, 1))
        assert_size_stride(arg1_1, (50257, 768), (768, 1))
        assert_size_stride(arg2_1, (1024, 768), (768, 1))
        assert_size_stride(arg3_1, (768, ), (1, ))
        assert_size_stride(arg4_1, (768, ), (1, ))
        assert_size_stride(arg5_1, (2304, ), (1, ))
        assert_size_stride(arg6_1, (768, 2304), (2304, 1))
        assert_size_stride(arg7_1, (768, ), (1, ))
        assert_size_stride(arg8_1, (768, 768), (768, 1))
        assert_size_stride(arg9_1, (768, ), (1, ))
        assert_size_stride(arg10_1, (768, ), (1, ))
        assert_size_stride(arg11_1, (3072, ), (1, ))
        assert_size_stride(arg12_1, (768, 3072), (3072, 1))
        assert_size_stride(arg13_1, (768, ), (1, ))
        assert_size_stride(arg14_1, (3072, 768), (768, 1))
        assert_size_stride(arg15_1, (768, ), (1, ))
        assert_size_stride(arg16_1, (768, ), (1, ))
        assert_size_stride(arg17_1, (2304, ), (1, ))
        assert_size_stride(arg18_1, (768, 2304), (2304, 1))
        assert_size_stride(arg19_1, (768, ), (1, ))
        assert_size_stride(arg20_1, (768, 768), (768, 1))
        assert_size_stride(arg21_1, (768, ), (1, ))
        assert_size_stride(arg22_1, (768, ), (1, ))
        assert_size_stride(arg23_1, (3072, ), (1, ))
        assert_size_stride(arg24_1, (768, 3072), (3072, 1))
        assert_size_stride(arg25_1, (768, ), (1, ))
        assert_size_stride(arg26_1, (3072, 768), (768, 1))
        assert_size_stride(arg27_1, (768, ), (1, ))
        assert_size_stride(arg28_1, (768, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf3 = empty_strided_cuda((8, 512, 768), (393216, 768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0.run(arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, buf3, 4096, 768, stream=stream0)
            del arg3_1
            del arg4_1
            buf4 = empty_strided_cuda((4096, 2304), (2304, 1), torch.float32)
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2, view_1, x], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm, aten.view, aten.addmm]
            stream0 = get_raw_stream(0)
            triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1.run(arg5_1, buf3, arg6_1, buf4, 1152, 1, 1, stream=stream0)
            del arg5_1
            del arg6_1
            buf5 = empty_strided_cuda((8, 512), (512, 1), torch.int64)
            # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value, position_diff, ne, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2.run(buf5, 8, 512, stream=stream0)
            buf6 = empty_strided_cuda((8, 1, 512, 512), (262144, 0, 512, 1), torch.float32)
            buf26 = empty_strided_cuda((8, 1, 512, 512), (262144, 0, 512, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3.run(buf5, buf6, buf26, 2097152, stream=stream0)
            del buf5
            # Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf7 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf4, (8, 12, 512, 64), (1179648, 64, 2304, 1), 0), reinterpret_tensor(buf4, (8, 12, 512, 64), (1179648, 64, 2304, 1), 768), reinterpret_tensor(buf4, (8, 12, 512, 64), (1179648, 64, 2304, 1), 1536), reinterpret_tensor(buf6, (8, 12, 512, 512), (262144, 0, 512, 1), 0), False, scale=0.125)
            del buf4
            del buf6
            buf8 = buf7[0]
            assert_size_stride(buf8, (8, 12, 512, 64), (393216, 64, 768, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf8, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf7
            buf12 = reinterpret_tensor(buf3, (4096, 768), (768, 1), 0); del buf3  # reuse
            # Topologically Sorted Source Nodes: [transpose_3, reshape, view_6, x_2], Original ATen: [aten.transpose, aten.view, aten.addmm]
            stream0 = get_raw_stream(0)
            triton_tem_fused_addmm_transpose_view_4.run(buf8, arg8_1, buf12, 384, 1, 1, stream=stream0)
            del arg8_1
            buf13 = reinterpret_tensor(buf12, (8, 512, 768), (393216, 768, 1), 0); del buf12  # reuse
            buf17 = reinterpret_tensor(buf8, (8, 512, 768), (393216, 768, 1), 0); del buf8  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_2, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.addmm, aten.view, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5.run(buf13, arg7_1, arg0_1, arg1_1, arg2_1, arg9_1, arg10_1, buf17, 4096, 768, stream=stream0)
            del arg0_1
            del arg10_1
            del arg2_1
            del arg7_1
            del arg9_1
            buf18 = empty_strided_cuda((4096, 3072), (3072, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_4, view_8, x_4], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf17, (4096, 768), (768, 1), 0), arg12_1, out=buf18)
            del arg12_1
            buf19 = reinterpret_tensor(buf18, (8, 512, 3072), (1572864, 3072, 1), 0); del buf18  # reuse
            # Topologically Sorted Source Nodes: [x_4, x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_addmm_mul_pow_tanh_view_6.run(buf19, arg11_1, 12582912, stream=stream0)
            del arg11_1
            buf20 = reinterpret_tensor(buf17, (4096, 768), (768, 1), 0); del buf17  # reuse
            # Topologically Sorted Source Nodes: [x_4, x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5, view_10, x_6], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf19, (4096, 3072), (3072, 1), 0), arg14_1, out=buf20)
            del arg14_1
            del buf19
            buf24 = empty_strided_cuda((8, 512, 768), (393216, 768, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_addmm_native_layer_norm_view_7.run(buf13, arg13_1, buf20, arg15_1, arg16_1, buf24, 4096, 768, stream=stream0)
            del arg15_1
            del arg16_1
            buf25 = empty_strided_cuda((4096, 2304), (2304, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, hidden_states_8, view_12, x_8], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1.run(arg17_1, buf24, arg18_1, buf25, 1152, 1, 1, stream=stream0)
            del arg17_1
            del arg18_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
            buf27 = torch.ops.aten._scaled_dot_product_efficient_attention.default(reinterpret_tensor(buf25, (8, 12, 512, 64), (1179648, 64, 2304, 1), 0), reinterpret_tensor(buf25, (8, 12, 512, 64), (1179648, 64, 2304, 1), 768), reinterpret_tensor(buf25, (8, 12, 512, 64), (1179648, 64, 2304, 1), 1536), reinterpret_tensor(buf26, (8, 12, 512, 512), (262144, 0, 512, 1), 0), False, scale=0.125)
            del buf25
            del buf26
            buf28 = buf27[0]
            assert_size_stride(buf28, (8, 12, 512, 64), (393216, 64, 768, 1), 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            assert_alignment(buf28, 16, 'torch.ops.aten._scaled_dot_product_efficient_attention.default')
            del buf27
            buf32 = reinterpret_tensor(buf24, (4096, 768), (768, 1), 0); del buf24  # reuse
            # Topologically Sorted Source Nodes: [transpose_7, reshape_1, view_17, x_10], Original ATen: [aten.transpose, aten.view, aten.addmm]
            stream0 = get_raw_stream(0)
            triton_tem_fused_addmm_transpose_view_4.run(buf28, arg20_1, buf32, 384, 1, 1, stream=stream0)
            del arg20_1
            buf33 = reinterpret_tensor(buf32, (8, 512, 768), (393216, 768, 1), 0); del buf32  # reuse
            buf37 = reinterpret_tensor(buf28, (8, 512, 768), (393216, 768, 1), 0); del buf28  # reuse
            # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, x_10, x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_addmm_native_layer_norm_view_8.run(buf33, arg19_1, buf13, arg13_1, buf20, arg21_1, arg22_1, buf37, 4096, 768, stream=stream0)
            del arg13_1
            del arg19_1
            del arg21_1
            del arg22_1
            del buf13
            del buf20
            buf38 = empty_strided_cuda((4096, 3072), (3072, 1), torch.float32)
            # Topologically Sorted Source Nodes: [hidden_states_10, view_19, x_12], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.mm(reinterpret_tensor(buf37, (4096, 768), (768, 1), 0), arg24_1, out=buf38)
            del arg24_1
            buf39 = reinterpret_tensor(buf38, (8, 512, 3072), (1572864, 3072, 1), 0); del buf38  # reuse
            # Topologically Sorted Source Nodes: [x_12, x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_addmm_mul_pow_tanh_view_6.run(buf39, arg23_1, 12582912, stream=stream0)
            del arg23_1
            buf40 = reinterpret_tensor(buf37, (4096, 768), (768, 1), 0); del buf37  # reuse
            # Topologically Sorted Source Nodes: [x_12, x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11, view_21, x_14], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            extern_kernels.mm(reinterpret_tensor(buf39, (4096, 3072), (3072, 1), 0), arg26_1, out=buf40)
            del arg26_1
            del buf39
            buf44 = buf33; del buf33  # reuse
            # Topologically Sorted Source Nodes: [x_14, x_15, hidden_states_13, hidden_states_14], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_addmm_native_layer_norm_view_9.run(buf44, arg25_1, buf40, arg27_1, arg28_1, 4096, 768, stream=stream0)
            del arg25_1
            del arg27_1
            del arg28_1
            del buf40
            buf45 = empty_strided_cuda((4096, 50257), (50257, 1), torch.float32)
            # Topologically Sorted Source Nodes: [x_14, x_15, hidden_states_13, hidden_states_14, logits], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf44, (4096, 768), (768, 1), 0), reinterpret_tensor(arg1_1, (768, 50257), (1, 768), 0), out=buf45)
            del arg1_1
            del buf44
        return (reinterpret_tensor(buf45, (8, 512, 50257), (25731584, 50257, 1), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((8, 512), (512, 1), device='cuda:0', dtype=torch.int64)
    arg1_1 = rand_strided((50257, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg2_1 = rand_strided((1024, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg3_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg4_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg5_1 = rand_strided((2304, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg6_1 = rand_strided((768, 2304), (2304, 1), device='cuda:0', dtype=torch.float32)
    arg7_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg8_1 = rand_strided((768, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg9_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg10_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg11_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg12_1 = rand_strided((768, 3072), (3072, 1), device='cuda:0', dtype=torch.float32)
    arg13_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg14_1 = rand_strided((3072, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg15_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg16_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg17_1 = rand_strided((2304, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg18_1 = rand_strided((768, 2304), (2304, 1), device='cuda:0', dtype=torch.float32)
    arg19_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg20_1 = rand_strided((768, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg21_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg22_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg23_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg24_1 = rand_strided((768, 3072), (3072, 1), device='cuda:0', dtype=torch.float32)
    arg25_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg26_1 = rand_strided((3072, 768), (768, 1), device='cuda:0', dtype=torch.float32)
    arg27_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg28_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
