# AOT ID: ['0_inference']
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

def get_raw_stream(_):
    return 0


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


# kernel path: /tmp/torchinductor_root/ke/ckerev6e2shcapi62nm7c3fetxe4kjbscqvslgaj76ztonl37orn.py
# Topologically Sorted Source Nodes: [float_2, log_q], Original ATen: [aten._to_copy, aten.div, aten.eq, aten.abs, aten.ne, aten.mul, aten.all, aten.amax, aten.sub, aten._log_softmax]
# Source node to ATen node mapping:
#   float_2 => convert_element_type_1
#   log_q => exp_1, log_1, sum_2, where_self
# Graph fragment:
#   %arg1_1 : Tensor "bf16[8, 256][256, 1]cpu" = PlaceHolder[target=arg1_1]
#   %any_dims : Tensor "b8[8, 1][1, 8]cpu" = PlaceHolder[target=any_dims]
#   %amax_default : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=amax_default]
#   %amax_default_1 : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=amax_default_1]
#   %sum_2 : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=sum_2]
#   %convert_element_type_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg1_1, torch.float32), kwargs = {})
#   %div_tensor : Tensor "f32[8, 256][256, 1]cpu"[num_users=4] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_1, 2.0), kwargs = {})
#   %eq_tensor : Tensor "b8[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%div_tensor, %div_tensor), kwargs = {})
#   %abs_default : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.abs.default](args = (%div_tensor,), kwargs = {})
#   %ne_scalar : Tensor "b8[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%abs_default, inf), kwargs = {})
#   %mul_tensor_1 : Tensor "b8[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%eq_tensor, %ne_scalar), kwargs = {})
#   %logical_not_default : Tensor "b8[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%mul_tensor_1,), kwargs = {})
#   %any_dims : Tensor "b8[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.any.dims](args = (%logical_not_default, [-1], True), kwargs = {})
#   %logical_not_default_1 : Tensor "b8[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%any_dims,), kwargs = {})
#   %mul_tensor : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_1, 1), kwargs = {})
#   %amax_default : Tensor "f32[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%mul_tensor, [-1], True), kwargs = {})
#   %sub_tensor : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_tensor, %amax_default), kwargs = {})
#   %div_tensor_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%sub_tensor, 2.0), kwargs = {})
#   %amax_default_1 : Tensor "f32[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%div_tensor, [-1], True), kwargs = {})
#   %sub_tensor_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%div_tensor, %amax_default_1), kwargs = {})
#   %where_self : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.where.self](args = (%logical_not_default_1, %div_tensor_1, %sub_tensor_1), kwargs = {})
#   %exp_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%where_self,), kwargs = {})
#   %sum_2 : Tensor "f32[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp_1, [-1], True), kwargs = {})
#   %log_1 : Tensor "f32[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.log.default](args = (%sum_2,), kwargs = {})
#   return %any_dims,%amax_default,%amax_default_1,%sum_2,%log_1
triton_per_fused__log_softmax__to_copy_abs_all_amax_div_eq_mul_ne_sub_0 = async_compile.triton('triton_per_fused__log_softmax__to_copy_abs_all_amax_div_eq_mul_ne_sub_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*bf16', 'out_ptr0': '*i1', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused__log_softmax__to_copy_abs_all_amax_div_eq_mul_ne_sub_0', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 4, 'num_reduction': 4, 'autotune_hints': set(), 'tiling_scores': {'x': 208, 'r0_': 4096}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused__log_softmax__to_copy_abs_all_amax_div_eq_mul_ne_sub_0(in_out_ptr0, in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 256*x0), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1, 1], 2.0, tl.float32)
    tmp3 = (tmp1 / tmp2)
    tmp4 = tmp3 == tmp3
    tmp5 = tl_math.abs(tmp3)
    tmp6 = tl.full([1, 1], float("inf"), tl.float32)
    tmp7 = tmp5 != tmp6
    tmp8 = tmp4 & tmp7
    tmp9 = tmp8 == 0
    tmp10 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
    tmp12 = tl.where(xmask, tmp10, False)
    tmp13 = triton_helpers.any(tmp12, 1)[:, None].to(tl.int1)
    tmp14 = tl.full([1, 1], 1.0, tl.float32)
    tmp15 = tmp1 * tmp14
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp18 = tl.where(xmask, tmp16, float("-inf"))
    tmp19 = triton_helpers.max2(tmp18, 1)[:, None].to(tl.float32)
    tmp20 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp22 = tl.where(xmask, tmp20, float("-inf"))
    tmp23 = triton_helpers.max2(tmp22, 1)[:, None].to(tl.float32)
    tmp24 = tmp13 == 0
    tmp25 = tmp15 - tmp19
    tmp26 = (tmp25 / tmp2)
    tmp27 = tmp3 - tmp23
    tmp28 = tl.where(tmp24, tmp26, tmp27)
    tmp29 = libdevice.exp(tmp28)
    tmp30 = tl.broadcast_to(tmp29, [XBLOCK, R0_BLOCK])
    tmp32 = tl.where(xmask, tmp30, 0)
    tmp33 = tl.sum(tmp32, 1)[:, None].to(tl.float32)
    tmp34 = tl_math.log(tmp33)
    tl.store(in_out_ptr0 + (x0), tmp34, xmask)
    tl.store(out_ptr0 + (x0), tmp13, xmask)
    tl.store(out_ptr1 + (x0), tmp19, xmask)
    tl.store(out_ptr2 + (x0), tmp23, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/aw/cawjq5ba7nhlrrvoirq5pd7e5yr7xd3qtmoijisfv47kqv43kunn.py
# Topologically Sorted Source Nodes: [float_2, log_q, kl, float_1, log_p, mul, mul_1], Original ATen: [aten._to_copy, aten.div, aten.all, aten.mul, aten.sub, aten._log_softmax, aten.exp, aten.sum]
# Source node to ATen node mapping:
#   float_1 => convert_element_type
#   float_2 => convert_element_type_1
#   kl => div_2, exp_2, mul, sub_4, sum_3
#   log_p => log, sub_1, where_self_1
#   log_q => log_1, sub_3, where_self
#   mul => mul_1
#   mul_1 => mul_2
# Graph fragment:
#   %any_dims : Tensor "b8[8, 1][1, 8]cpu" = PlaceHolder[target=any_dims]
#   %arg1_1 : Tensor "bf16[8, 256][256, 1]cpu" = PlaceHolder[target=arg1_1]
#   %amax_default : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=amax_default]
#   %amax_default_1 : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=amax_default_1]
#   %log_1 : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=log_1]
#   %sub_3 : Tensor "f32[8, 256][256, 1]cpu" = PlaceHolder[target=sub_3]
#   %any_dims_1 : Tensor "b8[8, 1][1, 8]cpu" = PlaceHolder[target=any_dims_1]
#   %arg0_1 : Tensor "bf16[8, 256][256, 1]cpu" = PlaceHolder[target=arg0_1]
#   %amax_default_2 : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=amax_default_2]
#   %amax_default_3 : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=amax_default_3]
#   %log : Tensor "f32[8, 1][1, 8]cpu" = PlaceHolder[target=log]
#   %sum_3 : Tensor "f32[][]cpu" = PlaceHolder[target=sum_3]
#   %convert_element_type_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg1_1, torch.float32), kwargs = {})
#   %div_tensor : Tensor "f32[8, 256][256, 1]cpu"[num_users=4] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_1, 2.0), kwargs = {})
#   %logical_not_default_1 : Tensor "b8[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%any_dims,), kwargs = {})
#   %mul_tensor : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_1, 1), kwargs = {})
#   %sub_tensor : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_tensor, %amax_default), kwargs = {})
#   %div_tensor_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%sub_tensor, 2.0), kwargs = {})
#   %sub_tensor_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%div_tensor, %amax_default_1), kwargs = {})
#   %where_self : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.where.self](args = (%logical_not_default_1, %div_tensor_1, %sub_tensor_1), kwargs = {})
#   %log_1 : Tensor "f32[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.log.default](args = (%sum_2,), kwargs = {})
#   %sub_3 : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.sub.Tensor](args = (%where_self, %log_1), kwargs = {})
#   %exp_2 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_3,), kwargs = {})
#   %convert_element_type : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg0_1, torch.float32), kwargs = {})
#   %div_tensor_2 : Tensor "f32[8, 256][256, 1]cpu"[num_users=4] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type, 2.0), kwargs = {})
#   %logical_not_default_3 : Tensor "b8[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%any_dims_1,), kwargs = {})
#   %mul_tensor_2 : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, 1), kwargs = {})
#   %sub_tensor_2 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_tensor_2, %amax_default_2), kwargs = {})
#   %div_tensor_3 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%sub_tensor_2, 2.0), kwargs = {})
#   %sub_tensor_3 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%div_tensor_2, %amax_default_3), kwargs = {})
#   %where_self_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.where.self](args = (%logical_not_default_3, %div_tensor_3, %sub_tensor_3), kwargs = {})
#   %log : Tensor "f32[8, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.log.default](args = (%sum_1,), kwargs = {})
#   %sub_1 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%where_self_1, %log), kwargs = {})
#   %sub_4 : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_3, %sub_1), kwargs = {})
#   %mul : Tensor "f32[8, 256][256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%exp_2, %sub_4), kwargs = {})
#   %sum_3 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.sum.default](args = (%mul,), kwargs = {})
#   %div_2 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%sum_3, 8), kwargs = {})
#   %mul_1 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_2, 2.0), kwargs = {})
#   %mul_2 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_1, 2.0), kwargs = {})
#   return %sub_3,%sum_3,%mul_2
triton_red_fused__log_softmax__to_copy_all_div_exp_mul_sub_sum_1 = async_compile.triton('triton_red_fused__log_softmax__to_copy_all_div_exp_mul_sub_sum_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.reduction(
    size_hints={'x': 1, 'r0_': 2048},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i1', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*i1', 'in_ptr6': '*bf16', 'in_ptr7': '*fp32', 'in_ptr8': '*fp32', 'in_ptr9': '*fp32', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__log_softmax__to_copy_all_div_exp_mul_sub_sum_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 10, 'num_store': 1, 'num_reduction': 1, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 0}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_red_fused__log_softmax__to_copy_all_div_exp_mul_sub_sum_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, in_ptr9, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 2048
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    _tmp34 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index // 256
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.int1)
        tmp2 = tl.load(in_ptr1 + (r0_2), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp6 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp11 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp14 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp17 = tl.load(in_ptr5 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.int1)
        tmp19 = tl.load(in_ptr6 + (r0_2), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp22 = tl.load(in_ptr7 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp26 = tl.load(in_ptr8 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp29 = tl.load(in_ptr9 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tmp0 == 0
        tmp3 = tmp2.to(tl.float32)
        tmp4 = tl.full([1, 1], 1.0, tl.float32)
        tmp5 = tmp3 * tmp4
        tmp7 = tmp5 - tmp6
        tmp8 = tl.full([1, 1], 2.0, tl.float32)
        tmp9 = (tmp7 / tmp8)
        tmp10 = (tmp3 / tmp8)
        tmp12 = tmp10 - tmp11
        tmp13 = tl.where(tmp1, tmp9, tmp12)
        tmp15 = tmp13 - tmp14
        tmp16 = libdevice.exp(tmp15)
        tmp18 = tmp17 == 0
        tmp20 = tmp19.to(tl.float32)
        tmp21 = tmp20 * tmp4
        tmp23 = tmp21 - tmp22
        tmp24 = (tmp23 / tmp8)
        tmp25 = (tmp20 / tmp8)
        tmp27 = tmp25 - tmp26
        tmp28 = tl.where(tmp18, tmp24, tmp27)
        tmp30 = tmp28 - tmp29
        tmp31 = tmp15 - tmp30
        tmp32 = tmp16 * tmp31
        tmp33 = tl.broadcast_to(tmp32, [XBLOCK, R0_BLOCK])
        tmp35 = _tmp34 + tmp33
        _tmp34 = tl.where(r0_mask, tmp35, _tmp34)
    tmp34 = tl.sum(_tmp34, 1)[:, None]
    tmp36 = tl.full([1, 1], 8.0, tl.float32)
    tmp37 = (tmp34 / tmp36)
    tmp38 = tl.full([1, 1], 2.0, tl.float32)
    tmp39 = tmp37 * tmp38
    tmp40 = tmp39 * tmp38
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp40, None)
''', device_str='cpu')


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
        arg0_1, arg1_1 = args
        args.clear()
        assert_size_stride(arg1_1, (8, 256), (256, 1), 'input')
        buf0 = empty_strided_cpu((8, 1), (1, 8), torch.bool)
        buf1 = empty_strided_cpu((8, 1), (1, 8), torch.float32)
        buf2 = empty_strided_cpu((8, 1), (1, 8), torch.float32)
        buf3 = empty_strided_cpu((8, 1), (1, 8), torch.float32)
        buf4 = buf3; del buf3  # reuse
        # Topologically Sorted Source Nodes: [float_2, log_q], Original ATen: [aten._to_copy, aten.div, aten.eq, aten.abs, aten.ne, aten.mul, aten.all, aten.amax, aten.sub, aten._log_softmax]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused__log_softmax__to_copy_abs_all_amax_div_eq_mul_ne_sub_0.run(buf4, arg1_1, buf0, buf1, buf2, 8, 256, stream=raw_streamNone)
        assert_size_stride(arg0_1, (8, 256), (256, 1), 'input')
        buf6 = empty_strided_cpu((8, 1), (1, 8), torch.bool)
        buf7 = empty_strided_cpu((8, 1), (1, 8), torch.float32)
        buf8 = empty_strided_cpu((8, 1), (1, 8), torch.float32)
        buf9 = empty_strided_cpu((8, 1), (1, 8), torch.float32)
        buf10 = buf9; del buf9  # reuse
        # Topologically Sorted Source Nodes: [float_1, log_p], Original ATen: [aten._to_copy, aten.div, aten.eq, aten.abs, aten.ne, aten.mul, aten.all, aten.amax, aten.sub, aten._log_softmax]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused__log_softmax__to_copy_abs_all_amax_div_eq_mul_ne_sub_0.run(buf10, arg0_1, buf6, buf7, buf8, 8, 256, stream=raw_streamNone)
        buf11 = empty_strided_cpu((), (), torch.float32)
        buf12 = buf11; del buf11  # reuse
        # Topologically Sorted Source Nodes: [float_2, log_q, kl, float_1, log_p, mul, mul_1], Original ATen: [aten._to_copy, aten.div, aten.all, aten.mul, aten.sub, aten._log_softmax, aten.exp, aten.sum]
        raw_streamNone = get_raw_stream(None)
        triton_red_fused__log_softmax__to_copy_all_div_exp_mul_sub_sum_1.run(buf12, buf0, arg1_1, buf1, buf2, buf4, buf6, arg0_1, buf7, buf8, buf10, 1, 2048, stream=raw_streamNone)
        del arg0_1
        del arg1_1
        return (buf12, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((8, 256), (256, 1), device='cpu', dtype=torch.bfloat16)
    arg1_1 = rand_strided((8, 256), (256, 1), device='cpu', dtype=torch.bfloat16)
    return [arg0_1, arg1_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat, device='cpu')


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
