# AOT ID: ['14_inference']
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


# kernel path: /tmp/torchinductor_root/lb/clbaf67xzgb5cc3hdhltnaa2qkfj7xeutuw34eafykmg7cprqimf.py
# Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   conv2d => convolution
# Graph fragment:
#   %arg2_1 : Tensor "bf16[32, 3, 224, 224][150528, 50176, 224, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %convolution : Tensor "bf16[32, 768, 14, 14][150528, 196, 14, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [16, 16], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf0
triton_poi_fused_convolution_0 = async_compile.triton('triton_poi_fused_convolution_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 128, 'x': 65536}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 19267584, 'x': 9633792}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 96
    xnumel = 50176
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 3)
    y1 = yindex // 3
    tmp0 = tl.load(in_ptr0 + (x2 + 50176*y3), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (y0 + 3*x2 + 150528*y1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/lu/clukt3f3wqonycev7ma4iwdewprwmpvcaieklisisszc4krzkugv.py
# Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   conv2d => convolution
# Graph fragment:
#   %arg0_1 : Tensor "bf16[768, 3, 16, 16][768, 256, 16, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %convolution : Tensor "bf16[32, 768, 14, 14][150528, 196, 14, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [16, 16], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf1
triton_poi_fused_convolution_1 = async_compile.triton('triton_poi_fused_convolution_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 4096, 'x': 256}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 2359296, 'x': 1179648}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 2304
    xnumel = 256
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 3)
    y1 = yindex // 3
    tmp0 = tl.load(in_ptr0 + (x2 + 256*y3), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (y0 + 3*x2 + 768*y1), tmp0, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/hg/chg24qy2cjocle6anyylf4bvveobvri5ykk2yhkwgvapwsjkdase.py
# Topologically Sorted Source Nodes: [expand, conv2d, flatten, x, cat, x_1, layer_norm], Original ATen: [aten.expand, aten.convolution, aten.view, aten.transpose, aten.cat, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   cat => cat
#   conv2d => convolution
#   expand => expand
#   flatten => view
#   layer_norm => add_1, add_2, convert_element_type, convert_element_type_1, mul, mul_1, rsqrt, sub, var_mean
#   x => permute
#   x_1 => add
# Graph fragment:
#   %arg3_1 : Tensor "bf16[1, 1, 768][768, 768, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %buf2 : Tensor "bf16[32, 768, 14, 14][150528, 1, 10752, 768]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg4_1 : Tensor "bf16[1, 197, 768][151296, 768, 1]cuda:0" = PlaceHolder[target=arg4_1]
#   %getitem_1 : Tensor "f32[32, 197, 1][197, 1, 6304]cuda:0" = PlaceHolder[target=getitem_1]
#   %buf4 : Tensor "f32[32, 197, 1][197, 1, 6304]cuda:0" = PlaceHolder[target=buf4]
#   %arg5_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg5_1]
#   %mul_1 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0" = PlaceHolder[target=mul_1]
#   %arg6_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg6_1]
#   %expand : Tensor "bf16[32, 1, 768][0, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%arg3_1, [32, -1, -1]), kwargs = {})
#   %convolution : Tensor "bf16[32, 768, 14, 14][150528, 196, 14, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [16, 16], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
#   %view : Tensor "bf16[32, 768, 196][150528, 196, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%convolution, [32, 768, 196]), kwargs = {})
#   %permute : Tensor "bf16[32, 196, 768][150528, 1, 196]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view, [0, 2, 1]), kwargs = {})
#   %cat : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%expand, %permute], 1), kwargs = {})
#   %add : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%cat, %arg4_1), kwargs = {})
#   %convert_element_type : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add, torch.float32), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type, %getitem_1), kwargs = {})
#   %add_1 : Tensor "f32[32, 197, 1][197, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[32, 197, 1][197, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_1,), kwargs = {})
#   %mul : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg5_1), kwargs = {})
#   %add_2 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %arg6_1), kwargs = {})
#   %convert_element_type_1 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_2, torch.bfloat16), kwargs = {})
#   return %getitem_1,%buf4,%mul_1,%convert_element_type_1
triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_2 = async_compile.triton('triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8192, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr3': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 29308416}}
)
@triton.jit
def triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_2(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 6304
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    x0 = (xindex % 197)
    r0_2 = r0_index
    x1 = xindex // 197
    x3 = xindex
    tmp15 = tl.load(in_ptr3 + (r0_2 + 768*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp41 = tl.load(in_ptr4 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp44 = tl.load(in_ptr5 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp0 = x0
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 1, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (tl.broadcast_to(r0_2, [XBLOCK, R0_BLOCK])), r0_mask & tmp4 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1, 1], 197, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tl.load(in_ptr1 + (r0_2 + 768*((((-1) + x0) % 196)) + 150528*x1), r0_mask & tmp6 & xmask, other=0.0).to(tl.float32)
    tmp10 = tl.load(in_ptr2 + (tl.broadcast_to(r0_2, [XBLOCK, R0_BLOCK])), r0_mask & tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp11 = tmp9 + tmp10
    tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
    tmp13 = tl.where(tmp6, tmp11, tmp12)
    tmp14 = tl.where(tmp4, tmp5, tmp13)
    tmp16 = tmp14 + tmp15
    tmp17 = tmp16.to(tl.float32)
    tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(r0_mask & xmask, tmp18, 0)
    tmp21 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp23 = tl.where(r0_mask & xmask, tmp21, 0)
    tmp24 = tl.sum(tmp23, 1)[:, None].to(tl.float32)
    tmp25 = tl.full([1, 1], 768, tl.int32)
    tmp26 = tmp25.to(tl.float32)
    tmp27 = (tmp24 / tmp26)
    tmp28 = tmp18 - tmp27
    tmp29 = tmp28 * tmp28
    tmp30 = tl.broadcast_to(tmp29, [XBLOCK, R0_BLOCK])
    tmp32 = tl.where(r0_mask & xmask, tmp30, 0)
    tmp33 = tl.sum(tmp32, 1)[:, None].to(tl.float32)
    tmp34 = tmp17 - tmp27
    tmp35 = tl.full([1, 1], 768.0, tl.float32)
    tmp36 = (tmp33 / tmp35)
    tmp37 = tl.full([1, 1], 1e-06, tl.float32)
    tmp38 = tmp36 + tmp37
    tmp39 = libdevice.rsqrt(tmp38)
    tmp40 = tmp34 * tmp39
    tmp42 = tmp41.to(tl.float32)
    tmp43 = tmp40 * tmp42
    tmp45 = tmp44.to(tl.float32)
    tmp46 = tmp43 + tmp45
    tmp47 = tmp46.to(tl.float32)
    tl.store(out_ptr3 + (r0_2 + 768*x3), tmp47, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/mx/cmxooijokbju3qlg3pbvekdpag6lfit4nbvpwg2r6w6hbikvdrqr.py
# Topologically Sorted Source Nodes: [expand, conv2d, flatten, x, cat, x_1, linear_1, x_2, layer_norm_1], Original ATen: [aten.expand, aten.convolution, aten.view, aten.transpose, aten.cat, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   cat => cat
#   conv2d => convolution
#   expand => expand
#   flatten => view
#   layer_norm_1 => add_4, add_5, convert_element_type_8, convert_element_type_9, mul_2, mul_3, rsqrt_1, sub_1, var_mean_1
#   linear_1 => view_6
#   x => permute
#   x_1 => add
#   x_2 => add_3
# Graph fragment:
#   %arg3_1 : Tensor "bf16[1, 1, 768][768, 768, 1]cuda:0" = PlaceHolder[target=arg3_1]
#   %buf2 : Tensor "bf16[32, 768, 14, 14][150528, 1, 10752, 768]cuda:0" = PlaceHolder[target=buf2]
#   %arg1_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg4_1 : Tensor "bf16[1, 197, 768][151296, 768, 1]cuda:0" = PlaceHolder[target=arg4_1]
#   %addmm_1 : Tensor "bf16[6304, 768][768, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %add_3 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0" = PlaceHolder[target=add_3]
#   %getitem_12 : Tensor "f32[32, 197, 1][197, 1, 6304]cuda:0" = PlaceHolder[target=getitem_12]
#   %buf17 : Tensor "f32[32, 197, 1][197, 1, 6304]cuda:0" = PlaceHolder[target=buf17]
#   %arg11_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg11_1]
#   %arg12_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg12_1]
#   %expand : Tensor "bf16[32, 1, 768][0, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%arg3_1, [32, -1, -1]), kwargs = {})
#   %convolution : Tensor "bf16[32, 768, 14, 14][150528, 196, 14, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [16, 16], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
#   %view : Tensor "bf16[32, 768, 196][150528, 196, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%convolution, [32, 768, 196]), kwargs = {})
#   %permute : Tensor "bf16[32, 196, 768][150528, 1, 196]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view, [0, 2, 1]), kwargs = {})
#   %cat : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%expand, %permute], 1), kwargs = {})
#   %add : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%cat, %arg4_1), kwargs = {})
#   %view_6 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [32, 197, 768]), kwargs = {})
#   %add_3 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %view_6), kwargs = {})
#   %convert_element_type_8 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_3, torch.float32), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_8, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_1 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_8, %getitem_12), kwargs = {})
#   %add_4 : Tensor "f32[32, 197, 1][197, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_11, 1e-06), kwargs = {})
#   %rsqrt_1 : Tensor "f32[32, 197, 1][197, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul_2 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_1, %rsqrt_1), kwargs = {})
#   %mul_3 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %arg11_1), kwargs = {})
#   %add_5 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %arg12_1), kwargs = {})
#   %convert_element_type_9 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_5, torch.bfloat16), kwargs = {})
#   return %add_3,%getitem_12,%buf17,%convert_element_type_9
triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_3 = async_compile.triton('triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8192, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 2, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 58357248}}
)
@triton.jit
def triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_3(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 6304
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    x0 = (xindex % 197)
    r0_2 = r0_index
    x1 = xindex // 197
    x3 = xindex
    tmp15 = tl.load(in_ptr3 + (r0_2 + 768*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp17 = tl.load(in_out_ptr0 + (r0_2 + 768*x3), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp43 = tl.load(in_ptr4 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp46 = tl.load(in_ptr5 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp0 = x0
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 1, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (tl.broadcast_to(r0_2, [XBLOCK, R0_BLOCK])), r0_mask & tmp4 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1, 1], 197, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tl.load(in_ptr1 + (r0_2 + 768*((((-1) + x0) % 196)) + 150528*x1), r0_mask & tmp6 & xmask, other=0.0).to(tl.float32)
    tmp10 = tl.load(in_ptr2 + (tl.broadcast_to(r0_2, [XBLOCK, R0_BLOCK])), r0_mask & tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp11 = tmp9 + tmp10
    tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
    tmp13 = tl.where(tmp6, tmp11, tmp12)
    tmp14 = tl.where(tmp4, tmp5, tmp13)
    tmp16 = tmp14 + tmp15
    tmp18 = tmp16 + tmp17
    tmp19 = tmp18.to(tl.float32)
    tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
    tmp22 = tl.where(r0_mask & xmask, tmp20, 0)
    tmp23 = tl.broadcast_to(tmp20, [XBLOCK, R0_BLOCK])
    tmp25 = tl.where(r0_mask & xmask, tmp23, 0)
    tmp26 = tl.sum(tmp25, 1)[:, None].to(tl.float32)
    tmp27 = tl.full([1, 1], 768, tl.int32)
    tmp28 = tmp27.to(tl.float32)
    tmp29 = (tmp26 / tmp28)
    tmp30 = tmp20 - tmp29
    tmp31 = tmp30 * tmp30
    tmp32 = tl.broadcast_to(tmp31, [XBLOCK, R0_BLOCK])
    tmp34 = tl.where(r0_mask & xmask, tmp32, 0)
    tmp35 = tl.sum(tmp34, 1)[:, None].to(tl.float32)
    tmp36 = tmp19 - tmp29
    tmp37 = tl.full([1, 1], 768.0, tl.float32)
    tmp38 = (tmp35 / tmp37)
    tmp39 = tl.full([1, 1], 1e-06, tl.float32)
    tmp40 = tmp38 + tmp39
    tmp41 = libdevice.rsqrt(tmp40)
    tmp42 = tmp36 * tmp41
    tmp44 = tmp43.to(tl.float32)
    tmp45 = tmp42 * tmp44
    tmp47 = tmp46.to(tl.float32)
    tmp48 = tmp45 + tmp47
    tmp49 = tmp48.to(tl.float32)
    tl.store(in_out_ptr0 + (r0_2 + 768*x3), tmp18, r0_mask & xmask)
    tl.store(out_ptr2 + (r0_2 + 768*x3), tmp49, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/lf/clfsbaq2ugn6f3dauidjiylkuq4tohsmecequoe3wzse3mcjadle.py
# Topologically Sorted Source Nodes: [linear_2, gelu], Original ATen: [aten.view, aten.gelu]
# Source node to ATen node mapping:
#   gelu => add_6, convert_element_type_13, convert_element_type_14, erf, mul_4, mul_5, mul_6
#   linear_2 => view_8
# Graph fragment:
#   %addmm_2 : Tensor "bf16[6304, 3072][3072, 1]cuda:0" = PlaceHolder[target=addmm_2]
#   %view_8 : Tensor "bf16[32, 197, 3072][605184, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [32, 197, 3072]), kwargs = {})
#   %convert_element_type_13 : Tensor "f32[32, 197, 3072][605184, 3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_8, torch.float32), kwargs = {})
#   %mul_4 : Tensor "f32[32, 197, 3072][605184, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_13, 0.5), kwargs = {})
#   %mul_5 : Tensor "f32[32, 197, 3072][605184, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_13, 0.7071067811865476), kwargs = {})
#   %erf : Tensor "f32[32, 197, 3072][605184, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%mul_5,), kwargs = {})
#   %add_6 : Tensor "f32[32, 197, 3072][605184, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%erf, 1), kwargs = {})
#   %mul_6 : Tensor "f32[32, 197, 3072][605184, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_4, %add_6), kwargs = {})
#   %convert_element_type_14 : Tensor "bf16[32, 197, 3072][605184, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_6, torch.bfloat16), kwargs = {})
#   return %convert_element_type_14
triton_poi_fused_gelu_view_4 = async_compile.triton('triton_poi_fused_gelu_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 33554432}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_gelu_view_4', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 116195328}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_gelu_view_4(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 19365888
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp5 = tmp1 * tmp4
    tmp6 = libdevice.erf(tmp5)
    tmp7 = tl.full([1], 1.0, tl.float32)
    tmp8 = tmp6 + tmp7
    tmp9 = tmp3 * tmp8
    tmp10 = tmp9.to(tl.float32)
    tl.store(in_out_ptr0 + (x0), tmp10, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/to/ctoccwpwj2cvvqocj7eosxthmmqbzocvnnrxpj7ohj2z7zsp7zp5.py
# Topologically Sorted Source Nodes: [linear_3, x_3, layer_norm_2], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   layer_norm_2 => add_8, add_9, convert_element_type_18, convert_element_type_19, mul_7, mul_8, rsqrt_2, sub_2, var_mean_2
#   linear_3 => view_10
#   x_3 => add_7
# Graph fragment:
#   %add_3 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0" = PlaceHolder[target=add_3]
#   %addmm_3 : Tensor "bf16[6304, 768][768, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %getitem_14 : Tensor "f32[32, 197, 1][197, 1, 6304]cuda:0" = PlaceHolder[target=getitem_14]
#   %buf24 : Tensor "f32[32, 197, 1][197, 1, 6304]cuda:0" = PlaceHolder[target=buf24]
#   %arg17_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg17_1]
#   %arg18_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg18_1]
#   %view_10 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [32, 197, 768]), kwargs = {})
#   %add_7 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_3, %view_10), kwargs = {})
#   %convert_element_type_18 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_7, torch.float32), kwargs = {})
#   %var_mean_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_18, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_2 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_18, %getitem_14), kwargs = {})
#   %add_8 : Tensor "f32[32, 197, 1][197, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_13, 1e-06), kwargs = {})
#   %rsqrt_2 : Tensor "f32[32, 197, 1][197, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_8,), kwargs = {})
#   %mul_7 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt_2), kwargs = {})
#   %mul_8 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_7, %arg17_1), kwargs = {})
#   %add_9 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_8, %arg18_1), kwargs = {})
#   %convert_element_type_19 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_9, torch.bfloat16), kwargs = {})
#   return %getitem_14,%buf24,%convert_element_type_19
triton_per_fused_add_native_layer_norm_view_5 = async_compile.triton('triton_per_fused_add_native_layer_norm_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8192, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 38734848}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 6304
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 768*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 768*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp27 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp30 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp7 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp9 = tl.where(r0_mask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None].to(tl.float32)
    tmp11 = tl.full([1, 1], 768, tl.int32)
    tmp12 = tmp11.to(tl.float32)
    tmp13 = (tmp10 / tmp12)
    tmp14 = tmp4 - tmp13
    tmp15 = tmp14 * tmp14
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp18 = tl.where(r0_mask & xmask, tmp16, 0)
    tmp19 = tl.sum(tmp18, 1)[:, None].to(tl.float32)
    tmp20 = tmp3 - tmp13
    tmp21 = tl.full([1, 1], 768.0, tl.float32)
    tmp22 = (tmp19 / tmp21)
    tmp23 = tl.full([1, 1], 1e-06, tl.float32)
    tmp24 = tmp22 + tmp23
    tmp25 = libdevice.rsqrt(tmp24)
    tmp26 = tmp20 * tmp25
    tmp28 = tmp27.to(tl.float32)
    tmp29 = tmp26 * tmp28
    tmp31 = tmp30.to(tl.float32)
    tmp32 = tmp29 + tmp31
    tmp33 = tmp32.to(tl.float32)
    tl.store(out_ptr2 + (r0_1 + 768*x0), tmp33, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/dy/cdy3n7kgvgayz4x6brll6d5un2cp3wvipf72xgkhhv7ns2dw2mjv.py
# Topologically Sorted Source Nodes: [linear_3, x_3, linear_5, x_4, layer_norm_3], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   layer_norm_3 => add_11, add_12, convert_element_type_26, convert_element_type_27, mul_10, mul_9, rsqrt_3, sub_3, var_mean_3
#   linear_3 => view_10
#   linear_5 => view_16
#   x_3 => add_7
#   x_4 => add_10
# Graph fragment:
#   %add_3 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0" = PlaceHolder[target=add_3]
#   %addmm_3 : Tensor "bf16[6304, 768][768, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %addmm_5 : Tensor "bf16[6304, 768][768, 1]cuda:0" = PlaceHolder[target=addmm_5]
#   %getitem_25 : Tensor "f32[32, 197, 1][197, 1, 6304]cuda:0" = PlaceHolder[target=getitem_25]
#   %buf35 : Tensor "f32[32, 197, 1][197, 1, 6304]cuda:0" = PlaceHolder[target=buf35]
#   %arg23_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg23_1]
#   %arg24_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg24_1]
#   %view_10 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [32, 197, 768]), kwargs = {})
#   %add_7 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_3, %view_10), kwargs = {})
#   %view_16 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [32, 197, 768]), kwargs = {})
#   %add_10 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_7, %view_16), kwargs = {})
#   %convert_element_type_26 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_10, torch.float32), kwargs = {})
#   %var_mean_3 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_26, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_3 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_26, %getitem_25), kwargs = {})
#   %add_11 : Tensor "f32[32, 197, 1][197, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_24, 1e-06), kwargs = {})
#   %rsqrt_3 : Tensor "f32[32, 197, 1][197, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_11,), kwargs = {})
#   %mul_9 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_3), kwargs = {})
#   %mul_10 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_9, %arg23_1), kwargs = {})
#   %add_12 : Tensor "f32[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_10, %arg24_1), kwargs = {})
#   %convert_element_type_27 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_12, torch.bfloat16), kwargs = {})
#   return %getitem_25,%buf35,%convert_element_type_27
triton_per_fused_add_native_layer_norm_view_6 = async_compile.triton('triton_per_fused_add_native_layer_norm_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8192, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 48417792}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_6(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 6304
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 768*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 768*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp3 = tl.load(in_ptr2 + (r0_1 + 768*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp29 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp32 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp8 = tl.where(r0_mask & xmask, tmp6, 0)
    tmp9 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(r0_mask & xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp13 = tl.full([1, 1], 768, tl.int32)
    tmp14 = tmp13.to(tl.float32)
    tmp15 = (tmp12 / tmp14)
    tmp16 = tmp6 - tmp15
    tmp17 = tmp16 * tmp16
    tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(r0_mask & xmask, tmp18, 0)
    tmp21 = tl.sum(tmp20, 1)[:, None].to(tl.float32)
    tmp22 = tmp5 - tmp15
    tmp23 = tl.full([1, 1], 768.0, tl.float32)
    tmp24 = (tmp21 / tmp23)
    tmp25 = tl.full([1, 1], 1e-06, tl.float32)
    tmp26 = tmp24 + tmp25
    tmp27 = libdevice.rsqrt(tmp26)
    tmp28 = tmp22 * tmp27
    tmp30 = tmp29.to(tl.float32)
    tmp31 = tmp28 * tmp30
    tmp33 = tmp32.to(tl.float32)
    tmp34 = tmp31 + tmp33
    tmp35 = tmp34.to(tl.float32)
    tl.store(out_ptr2 + (r0_1 + 768*x0), tmp35, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/vk/cvkwjsmcu4h34eho4z6x33kis3mtaxauya3d6r2qq5gbvhdo4mpk.py
# Topologically Sorted Source Nodes: [linear_3, x_3, linear_5, x_4, linear_7, x_5, getitem_6, layer_norm_4], Original ATen: [aten.view, aten.add, aten.select, aten.native_layer_norm]
# Source node to ATen node mapping:
#   getitem_6 => select_6
#   layer_norm_4 => add_15, add_16, clone, convert_element_type_36, convert_element_type_37, mul_14, mul_15, rsqrt_4, sub_4, var_mean_4
#   linear_3 => view_10
#   linear_5 => view_16
#   linear_7 => view_20
#   x_3 => add_7
#   x_4 => add_10
#   x_5 => add_14
# Graph fragment:
#   %add_3 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0" = PlaceHolder[target=add_3]
#   %addmm_3 : Tensor "bf16[6304, 768][768, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %addmm_5 : Tensor "bf16[6304, 768][768, 1]cuda:0" = PlaceHolder[target=addmm_5]
#   %addmm_7 : Tensor "bf16[6304, 768][768, 1]cuda:0" = PlaceHolder[target=addmm_7]
#   %getitem_27 : Tensor "f32[32, 1][1, 32]cuda:0" = PlaceHolder[target=getitem_27]
#   %buf42 : Tensor "f32[32, 1][1, 32]cuda:0" = PlaceHolder[target=buf42]
#   %arg29_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg29_1]
#   %arg30_1 : Tensor "bf16[768][1]cuda:0" = PlaceHolder[target=arg30_1]
#   %view_10 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [32, 197, 768]), kwargs = {})
#   %add_7 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_3, %view_10), kwargs = {})
#   %view_16 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [32, 197, 768]), kwargs = {})
#   %add_10 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_7, %view_16), kwargs = {})
#   %view_20 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_7, [32, 197, 768]), kwargs = {})
#   %add_14 : Tensor "bf16[32, 197, 768][151296, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_10, %view_20), kwargs = {})
#   %select_6 : Tensor "bf16[32, 768][151296, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%add_14, 1, 0), kwargs = {})
#   %clone : Tensor "bf16[32, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%select_6,), kwargs = {memory_format: torch.contiguous_format})
#   %convert_element_type_36 : Tensor "f32[32, 768][768, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%clone, torch.float32), kwargs = {})
#   %var_mean_4 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_36, [1]), kwargs = {correction: 0, keepdim: True})
#   %sub_4 : Tensor "f32[32, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_36, %getitem_27), kwargs = {})
#   %add_15 : Tensor "f32[32, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_26, 1e-06), kwargs = {})
#   %rsqrt_4 : Tensor "f32[32, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_14 : Tensor "f32[32, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_4, %rsqrt_4), kwargs = {})
#   %mul_15 : Tensor "f32[32, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_14, %arg29_1), kwargs = {})
#   %add_16 : Tensor "f32[32, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_15, %arg30_1), kwargs = {})
#   %convert_element_type_37 : Tensor "bf16[32, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_16, torch.bfloat16), kwargs = {})
#   return %getitem_27,%buf42,%convert_element_type_37
triton_per_fused_add_native_layer_norm_select_view_7 = async_compile.triton('triton_per_fused_add_native_layer_norm_select_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 32, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_select_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 297984}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_select_view_7(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 32
    r0_numel = 768
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 151296*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 151296*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp3 = tl.load(in_ptr2 + (r0_1 + 151296*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp5 = tl.load(in_ptr3 + (r0_1 + 151296*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp31 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp34 = tl.load(in_ptr5 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 + tmp5
    tmp7 = tmp6.to(tl.float32)
    tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(r0_mask & xmask, tmp8, 0)
    tmp11 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp13 = tl.where(r0_mask & xmask, tmp11, 0)
    tmp14 = tl.sum(tmp13, 1)[:, None].to(tl.float32)
    tmp15 = tl.full([1, 1], 768, tl.int32)
    tmp16 = tmp15.to(tl.float32)
    tmp17 = (tmp14 / tmp16)
    tmp18 = tmp8 - tmp17
    tmp19 = tmp18 * tmp18
    tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
    tmp22 = tl.where(r0_mask & xmask, tmp20, 0)
    tmp23 = tl.sum(tmp22, 1)[:, None].to(tl.float32)
    tmp24 = tmp7 - tmp17
    tmp25 = tl.full([1, 1], 768.0, tl.float32)
    tmp26 = (tmp23 / tmp25)
    tmp27 = tl.full([1, 1], 1e-06, tl.float32)
    tmp28 = tmp26 + tmp27
    tmp29 = libdevice.rsqrt(tmp28)
    tmp30 = tmp24 * tmp29
    tmp32 = tmp31.to(tl.float32)
    tmp33 = tmp30 * tmp32
    tmp35 = tmp34.to(tl.float32)
    tmp36 = tmp33 + tmp35
    tmp37 = tmp36.to(tl.float32)
    tl.store(out_ptr2 + (r0_1 + 768*x0), tmp37, r0_mask & xmask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1 = args
        args.clear()
        assert_size_stride(arg0_1, (768, 3, 16, 16), (768, 256, 16, 1))
        assert_size_stride(arg1_1, (768, ), (1, ))
        assert_size_stride(arg2_1, (32, 3, 224, 224), (150528, 50176, 224, 1))
        assert_size_stride(arg3_1, (1, 1, 768), (768, 768, 1))
        assert_size_stride(arg4_1, (1, 197, 768), (151296, 768, 1))
        assert_size_stride(arg5_1, (768, ), (1, ))
        assert_size_stride(arg6_1, (768, ), (1, ))
        assert_size_stride(arg7_1, (2304, 768), (768, 1))
        assert_size_stride(arg8_1, (2304, ), (1, ))
        assert_size_stride(arg9_1, (768, 768), (768, 1))
        assert_size_stride(arg10_1, (768, ), (1, ))
        assert_size_stride(arg11_1, (768, ), (1, ))
        assert_size_stride(arg12_1, (768, ), (1, ))
        assert_size_stride(arg13_1, (3072, 768), (768, 1))
        assert_size_stride(arg14_1, (3072, ), (1, ))
        assert_size_stride(arg15_1, (768, 3072), (3072, 1))
        assert_size_stride(arg16_1, (768, ), (1, ))
        assert_size_stride(arg17_1, (768, ), (1, ))
        assert_size_stride(arg18_1, (768, ), (1, ))
        assert_size_stride(arg19_1, (2304, 768), (768, 1))
        assert_size_stride(arg20_1, (2304, ), (1, ))
        assert_size_stride(arg21_1, (768, 768), (768, 1))
        assert_size_stride(arg22_1, (768, ), (1, ))
        assert_size_stride(arg23_1, (768, ), (1, ))
        assert_size_stride(arg24_1, (768, ), (1, ))
        assert_size_stride(arg25_1, (3072, 768), (768, 1))
        assert_size_stride(arg26_1, (3072, ), (1, ))
        assert_size_stride(arg27_1, (768, 3072), (3072, 1))
        assert_size_stride(arg28_1, (768, ), (1, ))
        assert_size_stride(arg29_1, (768, ), (1, ))
        assert_size_stride(arg30_1, (768, ), (1, ))
        assert_size_stride(arg31_1, (1000, 768), (768, 1))
        assert_size_stride(arg32_1, (1000, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((32, 3, 224, 224), (150528, 1, 672, 3), torch.bfloat16)
            # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_0.run(arg2_1, buf0, 96, 50176, stream=stream0)
            del arg2_1
            buf1 = empty_strided_cuda((768, 3, 16, 16), (768, 1, 48, 3), torch.bfloat16)
            # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
            stream0 = get_raw_stream(0)
            triton_poi_fused_convolution_1.run(arg0_1, buf1, 2304, 256, stream=stream0)
            del arg0_1
            # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
            buf2 = extern_kernels.convolution(buf0, buf1, stride=(16, 16), padding=(0, 0), dilation=(1, 1), transposed=False, output_padding=(0, 0), groups=1, bias=None)
            assert_size_stride(buf2, (32, 768, 14, 14), (150528, 1, 10752, 768), 'torch.ops.aten.convolution.default')
            del buf0
            del buf1
            buf7 = empty_strided_cuda((32, 197, 768), (151296, 768, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [expand, conv2d, flatten, x, cat, x_1, layer_norm], Original ATen: [aten.expand, aten.convolution, aten.view, aten.transpose, aten.cat, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_2.run(arg3_1, buf2, arg1_1, arg4_1, arg5_1, arg6_1, buf7, 6304, 768, stream=stream0)
            del arg5_1
            del arg6_1
            buf8 = empty_strided_cuda((6304, 2304), (2304, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layer_norm, linear], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg8_1, reinterpret_tensor(buf7, (6304, 768), (768, 1), 0), reinterpret_tensor(arg7_1, (768, 2304), (1, 768), 0), alpha=1, beta=1, out=buf8)
            del arg7_1
            del arg8_1
            # Topologically Sorted Source Nodes: [linear, view, permute, q, k, v, scaled_dot_product_attention], Original ATen: [aten.view, aten.permute, aten.select, aten._scaled_dot_product_cudnn_attention]
            buf9 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(reinterpret_tensor(buf8, (32, 12, 197, 64), (453888, 64, 2304, 1), 0), reinterpret_tensor(buf8, (32, 12, 197, 64), (453888, 64, 2304, 1), 768), reinterpret_tensor(buf8, (32, 12, 197, 64), (453888, 64, 2304, 1), 1536), None, False)
            del buf8
            buf10 = buf9[0]
            assert_size_stride(buf10, (32, 12, 197, 64), (151296, 64, 768, 1), 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            assert_alignment(buf10, 16, 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            del buf9
            buf14 = reinterpret_tensor(buf7, (6304, 768), (768, 1), 0); del buf7  # reuse
            # Topologically Sorted Source Nodes: [transpose_1, reshape, linear_1], Original ATen: [aten.transpose, aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg10_1, reinterpret_tensor(buf10, (6304, 768), (768, 1), 0), reinterpret_tensor(arg9_1, (768, 768), (1, 768), 0), alpha=1, beta=1, out=buf14)
            del arg10_1
            del arg9_1
            buf15 = reinterpret_tensor(buf14, (32, 197, 768), (151296, 768, 1), 0); del buf14  # reuse
            buf19 = reinterpret_tensor(buf10, (32, 197, 768), (151296, 768, 1), 0); del buf10  # reuse
            # Topologically Sorted Source Nodes: [expand, conv2d, flatten, x, cat, x_1, linear_1, x_2, layer_norm_1], Original ATen: [aten.expand, aten.convolution, aten.view, aten.transpose, aten.cat, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_cat_convolution_expand_native_layer_norm_transpose_view_3.run(buf15, arg3_1, buf2, arg1_1, arg4_1, arg11_1, arg12_1, buf19, 6304, 768, stream=stream0)
            del arg11_1
            del arg12_1
            del arg1_1
            del arg3_1
            del arg4_1
            del buf2
            buf20 = empty_strided_cuda((6304, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layer_norm_1, linear_2], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg14_1, reinterpret_tensor(buf19, (6304, 768), (768, 1), 0), reinterpret_tensor(arg13_1, (768, 3072), (1, 768), 0), alpha=1, beta=1, out=buf20)
            del arg13_1
            del arg14_1
            buf21 = reinterpret_tensor(buf20, (32, 197, 3072), (605184, 3072, 1), 0); del buf20  # reuse
            # Topologically Sorted Source Nodes: [linear_2, gelu], Original ATen: [aten.view, aten.gelu]
            stream0 = get_raw_stream(0)
            triton_poi_fused_gelu_view_4.run(buf21, 19365888, stream=stream0)
            buf22 = reinterpret_tensor(buf19, (6304, 768), (768, 1), 0); del buf19  # reuse
            # Topologically Sorted Source Nodes: [linear_2, gelu, linear_3], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
            extern_kernels.addmm(arg16_1, reinterpret_tensor(buf21, (6304, 3072), (3072, 1), 0), reinterpret_tensor(arg15_1, (3072, 768), (1, 3072), 0), alpha=1, beta=1, out=buf22)
            del arg15_1
            del arg16_1
            buf26 = empty_strided_cuda((32, 197, 768), (151296, 768, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_3, x_3, layer_norm_2], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_view_5.run(buf15, buf22, arg17_1, arg18_1, buf26, 6304, 768, stream=stream0)
            del arg17_1
            del arg18_1
            buf27 = empty_strided_cuda((6304, 2304), (2304, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_3, x_3, layer_norm_2, linear_4], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.t, aten.addmm]
            extern_kernels.addmm(arg20_1, reinterpret_tensor(buf26, (6304, 768), (768, 1), 0), reinterpret_tensor(arg19_1, (768, 2304), (1, 768), 0), alpha=1, beta=1, out=buf27)
            del arg19_1
            del arg20_1
            # Topologically Sorted Source Nodes: [linear_4, view_1, permute_1, q_1, k_1, v_1, scaled_dot_product_attention_1], Original ATen: [aten.view, aten.permute, aten.select, aten._scaled_dot_product_cudnn_attention]
            buf28 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(reinterpret_tensor(buf27, (32, 12, 197, 64), (453888, 64, 2304, 1), 0), reinterpret_tensor(buf27, (32, 12, 197, 64), (453888, 64, 2304, 1), 768), reinterpret_tensor(buf27, (32, 12, 197, 64), (453888, 64, 2304, 1), 1536), None, False)
            del buf27
            buf29 = buf28[0]
            assert_size_stride(buf29, (32, 12, 197, 64), (151296, 64, 768, 1), 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            assert_alignment(buf29, 16, 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            del buf28
            buf33 = reinterpret_tensor(buf26, (6304, 768), (768, 1), 0); del buf26  # reuse
            # Topologically Sorted Source Nodes: [transpose_2, reshape_1, linear_5], Original ATen: [aten.transpose, aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg22_1, reinterpret_tensor(buf29, (6304, 768), (768, 1), 0), reinterpret_tensor(arg21_1, (768, 768), (1, 768), 0), alpha=1, beta=1, out=buf33)
            del arg21_1
            del arg22_1
            buf37 = reinterpret_tensor(buf29, (32, 197, 768), (151296, 768, 1), 0); del buf29  # reuse
            # Topologically Sorted Source Nodes: [linear_3, x_3, linear_5, x_4, layer_norm_3], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_view_6.run(buf15, buf22, buf33, arg23_1, arg24_1, buf37, 6304, 768, stream=stream0)
            del arg23_1
            del arg24_1
            buf38 = reinterpret_tensor(buf21, (6304, 3072), (3072, 1), 0); del buf21  # reuse
            # Topologically Sorted Source Nodes: [linear_3, x_3, linear_5, x_4, layer_norm_3, linear_6], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.t, aten.addmm]
            extern_kernels.addmm(arg26_1, reinterpret_tensor(buf37, (6304, 768), (768, 1), 0), reinterpret_tensor(arg25_1, (768, 3072), (1, 768), 0), alpha=1, beta=1, out=buf38)
            del arg25_1
            del arg26_1
            del buf37
            buf39 = reinterpret_tensor(buf38, (32, 197, 3072), (605184, 3072, 1), 0); del buf38  # reuse
            # Topologically Sorted Source Nodes: [linear_6, gelu_1], Original ATen: [aten.view, aten.gelu]
            stream0 = get_raw_stream(0)
            triton_poi_fused_gelu_view_4.run(buf39, 19365888, stream=stream0)
            buf40 = empty_strided_cuda((6304, 768), (768, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_6, gelu_1, linear_7], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
            extern_kernels.addmm(arg28_1, reinterpret_tensor(buf39, (6304, 3072), (3072, 1), 0), reinterpret_tensor(arg27_1, (3072, 768), (1, 3072), 0), alpha=1, beta=1, out=buf40)
            del arg27_1
            del arg28_1
            del buf39
            buf44 = empty_strided_cuda((32, 768), (768, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_3, x_3, linear_5, x_4, linear_7, x_5, getitem_6, layer_norm_4], Original ATen: [aten.view, aten.add, aten.select, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_select_view_7.run(buf15, buf22, buf33, buf40, arg29_1, arg30_1, buf44, 32, 768, stream=stream0)
            del arg29_1
            del arg30_1
            del buf15
            del buf22
            del buf33
            del buf40
            buf45 = empty_strided_cuda((32, 1000), (1000, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_3, x_3, linear_5, x_4, linear_7, x_5, getitem_6, layer_norm_4, linear_8], Original ATen: [aten.view, aten.add, aten.select, aten.native_layer_norm, aten.t, aten.addmm]
            extern_kernels.addmm(arg32_1, buf44, reinterpret_tensor(arg31_1, (768, 1000), (1, 768), 0), alpha=1, beta=1, out=buf45)
            del arg31_1
            del arg32_1
            del buf44
        return (buf45, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((768, 3, 16, 16), (768, 256, 16, 1), device='cuda:0', dtype=torch.bfloat16)
    arg1_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg2_1 = rand_strided((32, 3, 224, 224), (150528, 50176, 224, 1), device='cuda:0', dtype=torch.bfloat16)
    arg3_1 = rand_strided((1, 1, 768), (768, 768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg4_1 = rand_strided((1, 197, 768), (151296, 768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((2304, 768), (768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((2304, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg9_1 = rand_strided((768, 768), (768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg10_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg11_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg12_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg13_1 = rand_strided((3072, 768), (768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg14_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg15_1 = rand_strided((768, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg16_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg17_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg18_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg19_1 = rand_strided((2304, 768), (768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg20_1 = rand_strided((2304, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg21_1 = rand_strided((768, 768), (768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg22_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg23_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg24_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg25_1 = rand_strided((3072, 768), (768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg26_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg27_1 = rand_strided((768, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg28_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg29_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg30_1 = rand_strided((768, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg31_1 = rand_strided((1000, 768), (768, 1), device='cuda:0', dtype=torch.bfloat16)
    arg32_1 = rand_strided((1000, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
