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


# kernel path: /tmp/torchinductor_root/hp/chpokncpdcgqapgd3hyduguonkh5hgloa6fpx5mza557mqow56ns.py
# Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   conv2d => convolution
# Graph fragment:
#   %arg2_1 : Tensor "bf16[2, 3, 32, 32][3072, 1024, 32, 1]cpu" = PlaceHolder[target=arg2_1]
#   %convolution : Tensor "bf16[2, 64, 4, 4][1024, 16, 4, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [8, 8], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf0
triton_poi_fused_convolution_0 = async_compile.triton('triton_poi_fused_convolution_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'y': 8, 'x': 1024}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_convolution_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 18432, 'x': 12288}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 6
    xnumel = 1024
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
    tmp0 = tl.load(in_ptr0 + (x2 + 1024*y3), xmask & ymask).to(tl.float32)
    tl.store(out_ptr0 + (y0 + 3*x2 + 3072*y1), tmp0, xmask & ymask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/pz/cpzqcyvw6jjlmw5j2wk35wbszwpfw526wxe63k7rsuskzjzrugwt.py
# Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   conv2d => convolution
# Graph fragment:
#   %arg0_1 : Tensor "bf16[64, 3, 8, 8][192, 64, 8, 1]cpu" = PlaceHolder[target=arg0_1]
#   %convolution : Tensor "bf16[2, 64, 4, 4][1024, 16, 4, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1, %arg1_1, [8, 8], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
#   return %buf1
triton_poi_fused_convolution_1 = async_compile.triton('triton_poi_fused_convolution_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'y': 256, 'x': 64}, tile_hint=TileHint.SQUARE,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': 'triton_poi_fused_convolution_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'y': 49152, 'x': 24576}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_convolution_1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 192
    xnumel = 64
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
    tmp0 = tl.load(in_ptr0 + (x2 + 64*y3), xmask & ymask).to(tl.float32)
    tl.store(out_ptr0 + (y0 + 3*x2 + 192*y1), tmp0, xmask & ymask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/3s/c3sto4m4usmoyui62iaoensof6wnx3howrrupaoqueywzlsc3hj3.py
# Topologically Sorted Source Nodes: [expand, flatten, x, cat], Original ATen: [aten.expand, aten.view, aten.transpose, aten.cat]
# Source node to ATen node mapping:
#   cat => cat
#   expand => expand
#   flatten => view
#   x => permute
# Graph fragment:
#   %arg3_1 : Tensor "bf16[1, 1, 64][64, 64, 1]cpu" = PlaceHolder[target=arg3_1]
#   %expand : Tensor "bf16[2, 1, 64][0, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%arg3_1, [2, -1, -1]), kwargs = {})
#   %view : Tensor "bf16[2, 64, 16][1024, 16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%convolution, [2, 64, 16]), kwargs = {})
#   %permute : Tensor "bf16[2, 16, 64][1024, 1, 16]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view, [0, 2, 1]), kwargs = {})
#   %cat : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%expand, %permute], 1), kwargs = {})
#   return %buf3
triton_poi_fused_cat_expand_transpose_view_2 = async_compile.triton('triton_poi_fused_cat_expand_transpose_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 128}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_cat_expand_transpose_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 640}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_cat_expand_transpose_view_2(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 64)
    x1 = xindex // 64
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tl.store(out_ptr0 + (x0 + 1088*x1), tmp0, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/lb/clb7d5q3x5ed6rshzk5ab4fjplud2p2pupmw67c3kb45gtslwgnt.py
# Topologically Sorted Source Nodes: [expand, flatten, x, cat], Original ATen: [aten.expand, aten.view, aten.transpose, aten.cat]
# Source node to ATen node mapping:
#   cat => cat
#   expand => expand
#   flatten => view
#   x => permute
# Graph fragment:
#   %convolution : Tensor "bf16[2, 64, 4, 4][1024, 1, 256, 64]cpu" = PlaceHolder[target=convolution]
#   %expand : Tensor "bf16[2, 1, 64][0, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%arg3_1, [2, -1, -1]), kwargs = {})
#   %view : Tensor "bf16[2, 64, 16][1024, 16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%convolution, [2, 64, 16]), kwargs = {})
#   %permute : Tensor "bf16[2, 16, 64][1024, 1, 16]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view, [0, 2, 1]), kwargs = {})
#   %cat : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%expand, %permute], 1), kwargs = {})
#   return %buf4
triton_poi_fused_cat_expand_transpose_view_3 = async_compile.triton('triton_poi_fused_cat_expand_transpose_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_cat_expand_transpose_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 12288}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_cat_expand_transpose_view_3(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2048
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % 1024)
    x1 = xindex // 1024
    tmp0 = tl.load(in_ptr0 + (x2), xmask).to(tl.float32)
    tl.store(out_ptr0 + (x0 + 1088*x1), tmp0, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/6u/c6upysdpgmh2rgkahu7nkssophmtvnoeiwqm2w6e2pl4fa3ijtga.py
# Topologically Sorted Source Nodes: [x_1, layer_norm], Original ATen: [aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   layer_norm => add_1, add_2, convert_element_type, convert_element_type_1, mul, mul_1, rsqrt, sub, var_mean
#   x_1 => add
# Graph fragment:
#   %cat : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=cat]
#   %arg4_1 : Tensor "bf16[1, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=arg4_1]
#   %buf6 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=buf6]
#   %getitem_1 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=getitem_1]
#   %buf8 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=buf8]
#   %arg5_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg5_1]
#   %arg6_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg6_1]
#   %add : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%cat, %arg4_1), kwargs = {})
#   %convert_element_type : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add, torch.float32), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type, %getitem_1), kwargs = {})
#   %add_1 : Tensor "f32[2, 17, 1][17, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[2, 17, 1][17, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_1,), kwargs = {})
#   %mul : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg5_1), kwargs = {})
#   %add_2 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %arg6_1), kwargs = {})
#   %convert_element_type_1 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_2, torch.bfloat16), kwargs = {})
#   return %buf6,%getitem_1,%buf8,%convert_element_type_1
triton_per_fused_add_native_layer_norm_4 = async_compile.triton('triton_per_fused_add_native_layer_norm_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_native_layer_norm_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 15488}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_4(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 34
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 17)
    tmp0 = tl.load(in_ptr0 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_2 + 64*x0), xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp21 = tl.load(in_ptr2 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp24 = tl.load(in_ptr3 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp8 = tl.full([1, 1], 64.0, tl.float32)
    tmp9 = (tmp7 / tmp8)
    tmp10 = tmp3 - tmp9
    tmp11 = tmp10 * tmp10
    tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(xmask, tmp12, 0)
    tmp15 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp16 = (tmp15 / tmp8)
    tmp17 = tl.full([1, 1], 1e-06, tl.float32)
    tmp18 = tmp16 + tmp17
    tmp19 = libdevice.rsqrt(tmp18)
    tmp20 = tmp10 * tmp19
    tmp22 = tmp21.to(tl.float32)
    tmp23 = tmp20 * tmp22
    tmp25 = tmp24.to(tl.float32)
    tmp26 = tmp23 + tmp25
    tmp27 = tmp26.to(tl.float32)
    tl.store(out_ptr1 + (r0_2 + 64*x3), tmp27, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/wz/cwzv7wwuritog5lxk4amncby3vcrygilvfiybdnyt6ces2bnac4u.py
# Topologically Sorted Source Nodes: [x_1, linear_1, x_2, layer_norm_1], Original ATen: [aten.add, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   layer_norm_1 => add_4, add_5, convert_element_type_10, convert_element_type_11, mul_2, mul_3, rsqrt_1, sub_1, var_mean_1
#   linear_1 => view_6
#   x_1 => add
#   x_2 => add_3
# Graph fragment:
#   %cat : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=cat]
#   %arg4_1 : Tensor "bf16[1, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=arg4_1]
#   %addmm_1 : Tensor "bf16[34, 64][64, 1]cpu" = PlaceHolder[target=addmm_1]
#   %buf15 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=buf15]
#   %getitem_5 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=getitem_5]
#   %buf17 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=buf17]
#   %arg11_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg11_1]
#   %arg12_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg12_1]
#   %add : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%cat, %arg4_1), kwargs = {})
#   %view_6 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 17, 64]), kwargs = {})
#   %add_3 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %view_6), kwargs = {})
#   %convert_element_type_10 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_3, torch.float32), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_10, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_1 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_10, %getitem_5), kwargs = {})
#   %add_4 : Tensor "f32[2, 17, 1][17, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_4, 1e-06), kwargs = {})
#   %rsqrt_1 : Tensor "f32[2, 17, 1][17, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul_2 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_1, %rsqrt_1), kwargs = {})
#   %mul_3 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %arg11_1), kwargs = {})
#   %add_5 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %arg12_1), kwargs = {})
#   %convert_element_type_11 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_5, torch.bfloat16), kwargs = {})
#   return %buf15,%getitem_5,%buf17,%convert_element_type_11
triton_per_fused_add_native_layer_norm_view_5 = async_compile.triton('triton_per_fused_add_native_layer_norm_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 19840}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 34
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 17)
    tmp0 = tl.load(in_ptr0 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_2 + 64*x0), xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp3 = tl.load(in_ptr2 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp23 = tl.load(in_ptr3 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp26 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp8 = tl.where(xmask, tmp6, 0)
    tmp9 = tl.sum(tmp8, 1)[:, None].to(tl.float32)
    tmp10 = tl.full([1, 1], 64.0, tl.float32)
    tmp11 = (tmp9 / tmp10)
    tmp12 = tmp5 - tmp11
    tmp13 = tmp12 * tmp12
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(xmask, tmp14, 0)
    tmp17 = tl.sum(tmp16, 1)[:, None].to(tl.float32)
    tmp18 = (tmp17 / tmp10)
    tmp19 = tl.full([1, 1], 1e-06, tl.float32)
    tmp20 = tmp18 + tmp19
    tmp21 = libdevice.rsqrt(tmp20)
    tmp22 = tmp12 * tmp21
    tmp24 = tmp23.to(tl.float32)
    tmp25 = tmp22 * tmp24
    tmp27 = tmp26.to(tl.float32)
    tmp28 = tmp25 + tmp27
    tmp29 = tmp28.to(tl.float32)
    tl.store(out_ptr1 + (r0_2 + 64*x3), tmp29, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/xw/cxwi4km6pkr37wc7s74c2c3mtvkz7nudul5cowoy3q2olnrnvhmj.py
# Topologically Sorted Source Nodes: [linear_2, gelu], Original ATen: [aten.view, aten.gelu]
# Source node to ATen node mapping:
#   gelu => add_6, convert_element_type_17, convert_element_type_18, erf, mul_4, mul_5, mul_6
#   linear_2 => view_8
# Graph fragment:
#   %addmm_2 : Tensor "bf16[34, 256][256, 1]cpu" = PlaceHolder[target=addmm_2]
#   %view_8 : Tensor "bf16[2, 17, 256][4352, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 17, 256]), kwargs = {})
#   %convert_element_type_17 : Tensor "f32[2, 17, 256][4352, 256, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_8, torch.float32), kwargs = {})
#   %mul_4 : Tensor "f32[2, 17, 256][4352, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_17, 0.5), kwargs = {})
#   %mul_5 : Tensor "f32[2, 17, 256][4352, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_17, 0.7071067811865476), kwargs = {})
#   %erf : Tensor "f32[2, 17, 256][4352, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%mul_5,), kwargs = {})
#   %add_6 : Tensor "f32[2, 17, 256][4352, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%erf, 1), kwargs = {})
#   %mul_6 : Tensor "f32[2, 17, 256][4352, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_4, %add_6), kwargs = {})
#   %convert_element_type_18 : Tensor "bf16[2, 17, 256][4352, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_6, torch.bfloat16), kwargs = {})
#   return %convert_element_type_18
triton_poi_fused_gelu_view_6 = async_compile.triton('triton_poi_fused_gelu_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_gelu_view_6', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 52224}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_gelu_view_6(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8704
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), xmask).to(tl.float32)
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
    tl.store(in_out_ptr0 + (x0), tmp10, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/6k/c6kk2xg6qso36lvki2ghif4vlhhzqspbf3jn2pardgx4lrxy7tby.py
# Topologically Sorted Source Nodes: [x_1, linear_1, x_2, linear_3, x_3, layer_norm_2], Original ATen: [aten.add, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   layer_norm_2 => add_8, add_9, convert_element_type_22, convert_element_type_23, mul_7, mul_8, rsqrt_2, sub_2, var_mean_2
#   linear_1 => view_6
#   linear_3 => view_10
#   x_1 => add
#   x_2 => add_3
#   x_3 => add_7
# Graph fragment:
#   %cat : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=cat]
#   %arg4_1 : Tensor "bf16[1, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=arg4_1]
#   %addmm_1 : Tensor "bf16[34, 64][64, 1]cpu" = PlaceHolder[target=addmm_1]
#   %addmm_3 : Tensor "bf16[34, 64][64, 1]cpu" = PlaceHolder[target=addmm_3]
#   %buf22 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=buf22]
#   %getitem_7 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=getitem_7]
#   %buf24 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=buf24]
#   %arg17_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg17_1]
#   %arg18_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg18_1]
#   %add : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%cat, %arg4_1), kwargs = {})
#   %view_6 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 17, 64]), kwargs = {})
#   %add_3 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %view_6), kwargs = {})
#   %view_10 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [2, 17, 64]), kwargs = {})
#   %add_7 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_3, %view_10), kwargs = {})
#   %convert_element_type_22 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_7, torch.float32), kwargs = {})
#   %var_mean_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_22, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_2 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_22, %getitem_7), kwargs = {})
#   %add_8 : Tensor "f32[2, 17, 1][17, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_6, 1e-06), kwargs = {})
#   %rsqrt_2 : Tensor "f32[2, 17, 1][17, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_8,), kwargs = {})
#   %mul_7 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt_2), kwargs = {})
#   %mul_8 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_7, %arg17_1), kwargs = {})
#   %add_9 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_8, %arg18_1), kwargs = {})
#   %convert_element_type_23 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_9, torch.bfloat16), kwargs = {})
#   return %buf22,%getitem_7,%buf24,%convert_element_type_23
triton_per_fused_add_native_layer_norm_view_7 = async_compile.triton('triton_per_fused_add_native_layer_norm_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 24192}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_7(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 34
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 17)
    tmp0 = tl.load(in_ptr0 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_2 + 64*x0), xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp3 = tl.load(in_ptr2 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp5 = tl.load(in_ptr3 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp25 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp28 = tl.load(in_ptr5 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 + tmp5
    tmp7 = tmp6.to(tl.float32)
    tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(xmask, tmp8, 0)
    tmp11 = tl.sum(tmp10, 1)[:, None].to(tl.float32)
    tmp12 = tl.full([1, 1], 64.0, tl.float32)
    tmp13 = (tmp11 / tmp12)
    tmp14 = tmp7 - tmp13
    tmp15 = tmp14 * tmp14
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp18 = tl.where(xmask, tmp16, 0)
    tmp19 = tl.sum(tmp18, 1)[:, None].to(tl.float32)
    tmp20 = (tmp19 / tmp12)
    tmp21 = tl.full([1, 1], 1e-06, tl.float32)
    tmp22 = tmp20 + tmp21
    tmp23 = libdevice.rsqrt(tmp22)
    tmp24 = tmp14 * tmp23
    tmp26 = tmp25.to(tl.float32)
    tmp27 = tmp24 * tmp26
    tmp29 = tmp28.to(tl.float32)
    tmp30 = tmp27 + tmp29
    tmp31 = tmp30.to(tl.float32)
    tl.store(out_ptr1 + (r0_2 + 64*x3), tmp31, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/qf/cqfhtvann6x7qj6eumfbcu3ahpgz6lllgr2ylcpjlqa6mumzqfmk.py
# Topologically Sorted Source Nodes: [x_1, linear_1, x_2, linear_3, x_3, linear_5, x_4, layer_norm_3], Original ATen: [aten.add, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   layer_norm_3 => add_11, add_12, convert_element_type_32, convert_element_type_33, mul_10, mul_9, rsqrt_3, sub_3, var_mean_3
#   linear_1 => view_6
#   linear_3 => view_10
#   linear_5 => view_16
#   x_1 => add
#   x_2 => add_3
#   x_3 => add_7
#   x_4 => add_10
# Graph fragment:
#   %cat : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=cat]
#   %arg4_1 : Tensor "bf16[1, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=arg4_1]
#   %addmm_1 : Tensor "bf16[34, 64][64, 1]cpu" = PlaceHolder[target=addmm_1]
#   %addmm_3 : Tensor "bf16[34, 64][64, 1]cpu" = PlaceHolder[target=addmm_3]
#   %addmm_5 : Tensor "bf16[34, 64][64, 1]cpu" = PlaceHolder[target=addmm_5]
#   %add_10 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=add_10]
#   %buf32 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=buf32]
#   %getitem_11 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=getitem_11]
#   %buf34 : Tensor "f32[2, 17, 1][17, 1, 34]cpu" = PlaceHolder[target=buf34]
#   %arg23_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg23_1]
#   %arg24_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg24_1]
#   %add : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%cat, %arg4_1), kwargs = {})
#   %view_6 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 17, 64]), kwargs = {})
#   %add_3 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %view_6), kwargs = {})
#   %view_10 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [2, 17, 64]), kwargs = {})
#   %add_7 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_3, %view_10), kwargs = {})
#   %view_16 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [2, 17, 64]), kwargs = {})
#   %add_10 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_7, %view_16), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_10, torch.float32), kwargs = {})
#   %var_mean_3 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_32, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_3 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_32, %getitem_11), kwargs = {})
#   %add_11 : Tensor "f32[2, 17, 1][17, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_10, 1e-06), kwargs = {})
#   %rsqrt_3 : Tensor "f32[2, 17, 1][17, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_11,), kwargs = {})
#   %mul_9 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_3), kwargs = {})
#   %mul_10 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_9, %arg23_1), kwargs = {})
#   %add_12 : Tensor "f32[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_10, %arg24_1), kwargs = {})
#   %convert_element_type_33 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_12, torch.bfloat16), kwargs = {})
#   return %add_10,%buf32,%getitem_11,%buf34,%convert_element_type_33
triton_per_fused_add_native_layer_norm_view_8 = async_compile.triton('triton_per_fused_add_native_layer_norm_view_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_8', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 2, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 37248}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_8(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 34
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 17)
    tmp0 = tl.load(in_ptr0 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_2 + 64*x0), xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp3 = tl.load(in_out_ptr0 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp5 = tl.load(in_ptr2 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp7 = tl.load(in_ptr3 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp27 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp30 = tl.load(in_ptr5 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp6 = tmp4 + tmp5
    tmp8 = tmp6 + tmp7
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
    tmp12 = tl.where(xmask, tmp10, 0)
    tmp13 = tl.sum(tmp12, 1)[:, None].to(tl.float32)
    tmp14 = tl.full([1, 1], 64.0, tl.float32)
    tmp15 = (tmp13 / tmp14)
    tmp16 = tmp9 - tmp15
    tmp17 = tmp16 * tmp16
    tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(xmask, tmp18, 0)
    tmp21 = tl.sum(tmp20, 1)[:, None].to(tl.float32)
    tmp22 = (tmp21 / tmp14)
    tmp23 = tl.full([1, 1], 1e-06, tl.float32)
    tmp24 = tmp22 + tmp23
    tmp25 = libdevice.rsqrt(tmp24)
    tmp26 = tmp16 * tmp25
    tmp28 = tmp27.to(tl.float32)
    tmp29 = tmp26 * tmp28
    tmp31 = tmp30.to(tl.float32)
    tmp32 = tmp29 + tmp31
    tmp33 = tmp32.to(tl.float32)
    tl.store(in_out_ptr0 + (r0_2 + 64*x3), tmp8, xmask)
    tl.store(out_ptr1 + (r0_2 + 64*x3), tmp33, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/q6/cq6ep242snhdijtndvm6mdnklba7jyjjos5mmf3ryoumvwgo4uy7.py
# Topologically Sorted Source Nodes: [linear_7, x_5, getitem_6, layer_norm_4], Original ATen: [aten.view, aten.add, aten.select, aten.native_layer_norm]
# Source node to ATen node mapping:
#   getitem_6 => select_6
#   layer_norm_4 => add_15, add_16, clone, convert_element_type_44, convert_element_type_45, mul_14, mul_15, rsqrt_4, sub_4, var_mean_4
#   linear_7 => view_20
#   x_5 => add_14
# Graph fragment:
#   %add_10 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu" = PlaceHolder[target=add_10]
#   %addmm_7 : Tensor "bf16[34, 64][64, 1]cpu" = PlaceHolder[target=addmm_7]
#   %buf39 : Tensor "f32[2, 1][1, 2]cpu" = PlaceHolder[target=buf39]
#   %getitem_13 : Tensor "f32[2, 1][1, 2]cpu" = PlaceHolder[target=getitem_13]
#   %buf41 : Tensor "f32[2, 1][1, 2]cpu" = PlaceHolder[target=buf41]
#   %arg29_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg29_1]
#   %arg30_1 : Tensor "bf16[64][1]cpu" = PlaceHolder[target=arg30_1]
#   %view_20 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_7, [2, 17, 64]), kwargs = {})
#   %add_14 : Tensor "bf16[2, 17, 64][1088, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_10, %view_20), kwargs = {})
#   %select_6 : Tensor "bf16[2, 64][1088, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.select.int](args = (%add_14, 1, 0), kwargs = {})
#   %clone : Tensor "bf16[2, 64][64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%select_6,), kwargs = {memory_format: torch.contiguous_format})
#   %convert_element_type_44 : Tensor "f32[2, 64][64, 1]cpu"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%clone, torch.float32), kwargs = {})
#   %var_mean_4 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_44, [1]), kwargs = {correction: 0, keepdim: True})
#   %sub_4 : Tensor "f32[2, 64][64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_44, %getitem_13), kwargs = {})
#   %add_15 : Tensor "f32[2, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_12, 1e-06), kwargs = {})
#   %rsqrt_4 : Tensor "f32[2, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_14 : Tensor "f32[2, 64][64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_4, %rsqrt_4), kwargs = {})
#   %mul_15 : Tensor "f32[2, 64][64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_14, %arg29_1), kwargs = {})
#   %add_16 : Tensor "f32[2, 64][64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_15, %arg30_1), kwargs = {})
#   %convert_element_type_45 : Tensor "bf16[2, 64][64, 1]cpu"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_16, torch.bfloat16), kwargs = {})
#   return %buf39,%getitem_13,%buf41,%convert_element_type_45
triton_per_fused_add_native_layer_norm_select_view_9 = async_compile.triton('triton_per_fused_add_native_layer_norm_select_view_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_native_layer_norm_select_view_9', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 1280}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_select_view_9(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 1088*x0), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 1088*x0), xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
    tmp21 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp24 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp8 = tl.full([1, 1], 64.0, tl.float32)
    tmp9 = (tmp7 / tmp8)
    tmp10 = tmp3 - tmp9
    tmp11 = tmp10 * tmp10
    tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(xmask, tmp12, 0)
    tmp15 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp16 = (tmp15 / tmp8)
    tmp17 = tl.full([1, 1], 1e-06, tl.float32)
    tmp18 = tmp16 + tmp17
    tmp19 = libdevice.rsqrt(tmp18)
    tmp20 = tmp10 * tmp19
    tmp22 = tmp21.to(tl.float32)
    tmp23 = tmp20 * tmp22
    tmp25 = tmp24.to(tl.float32)
    tmp26 = tmp23 + tmp25
    tmp27 = tmp26.to(tl.float32)
    tl.store(out_ptr1 + (r0_1 + 64*x0), tmp27, xmask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1 = args
        args.clear()
        assert_size_stride(arg2_1, (2, 3, 32, 32), (3072, 1024, 32, 1), 'input')
        buf0 = empty_strided_cpu((2, 3, 32, 32), (3072, 1, 96, 3), torch.bfloat16)
        # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_convolution_0.run(arg2_1, buf0, 6, 1024, stream=raw_streamNone)
        del arg2_1
        assert_size_stride(arg0_1, (64, 3, 8, 8), (192, 64, 8, 1), 'input')
        buf1 = empty_strided_cpu((64, 3, 8, 8), (192, 1, 24, 3), torch.bfloat16)
        # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_convolution_1.run(arg0_1, buf1, 192, 64, stream=raw_streamNone)
        del arg0_1
        assert_size_stride(arg1_1, (64, ), (1, ), 'input')
        # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
        buf2 = extern_kernels.convolution(buf0, buf1, arg1_1, stride=(8, 8), padding=(0, 0), dilation=(1, 1), transposed=False, output_padding=(0, 0), groups=1)
        assert_size_stride(buf2, (2, 64, 4, 4), (1024, 1, 256, 64), 'torch.ops.aten.convolution.default')
        del arg1_1
        del buf0
        del buf1
        assert_size_stride(arg3_1, (1, 1, 64), (64, 64, 1), 'input')
        buf5 = empty_strided_cpu((2, 17, 64), (1088, 64, 1), torch.bfloat16)
        buf3 = reinterpret_tensor(buf5, (2, 1, 64), (1088, 64, 1), 0)  # alias
        # Topologically Sorted Source Nodes: [expand, flatten, x, cat], Original ATen: [aten.expand, aten.view, aten.transpose, aten.cat]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_cat_expand_transpose_view_2.run(arg3_1, buf3, 128, stream=raw_streamNone)
        del arg3_1
        buf4 = reinterpret_tensor(buf5, (2, 16, 64), (1088, 64, 1), 64)  # alias
        # Topologically Sorted Source Nodes: [expand, flatten, x, cat], Original ATen: [aten.expand, aten.view, aten.transpose, aten.cat]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_cat_expand_transpose_view_3.run(buf2, buf4, 2048, stream=raw_streamNone)
        del buf2
        assert_size_stride(arg4_1, (1, 17, 64), (1088, 64, 1), 'input')
        assert_size_stride(arg5_1, (64, ), (1, ), 'input')
        assert_size_stride(arg6_1, (64, ), (1, ), 'input')
        buf9 = empty_strided_cpu((2, 17, 64), (1088, 64, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [x_1, layer_norm], Original ATen: [aten.add, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_native_layer_norm_4.run(buf5, arg4_1, arg5_1, arg6_1, buf9, 34, 64, stream=raw_streamNone)
        del arg5_1
        del arg6_1
        del buf3
        del buf4
        assert_size_stride(arg8_1, (192, ), (1, ), 'input')
        assert_size_stride(arg7_1, (192, 64), (64, 1), 'input')
        buf10 = empty_strided_cpu((34, 192), (192, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [x_1, layer_norm, linear], Original ATen: [aten.add, aten.native_layer_norm, aten.view, aten.t, aten.addmm]
        extern_kernels.addmm(arg8_1, reinterpret_tensor(buf9, (34, 64), (64, 1), 0), reinterpret_tensor(arg7_1, (64, 192), (1, 64), 0), alpha=1, beta=1, out=buf10)
        del arg7_1
        del arg8_1
        # Topologically Sorted Source Nodes: [linear, view, permute, q, k, v, scaled_dot_product_attention], Original ATen: [aten.view, aten.permute, aten.select, aten._scaled_dot_product_flash_attention_for_cpu]
        buf11 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(reinterpret_tensor(buf10, (2, 4, 17, 16), (3264, 16, 192, 1), 0), reinterpret_tensor(buf10, (2, 4, 17, 16), (3264, 16, 192, 1), 64), reinterpret_tensor(buf10, (2, 4, 17, 16), (3264, 16, 192, 1), 128))
        del buf10
        buf12 = buf11[0]
        assert_size_stride(buf12, (2, 4, 17, 16), (1088, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default')
        assert_alignment(buf12, 16, 'torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default')
        del buf11
        assert_size_stride(arg10_1, (64, ), (1, ), 'input')
        assert_size_stride(arg9_1, (64, 64), (64, 1), 'input')
        buf14 = reinterpret_tensor(buf9, (34, 64), (64, 1), 0); del buf9  # reuse
        # Topologically Sorted Source Nodes: [transpose_1, reshape, linear_1], Original ATen: [aten.transpose, aten.view, aten.t, aten.addmm]
        extern_kernels.addmm(arg10_1, reinterpret_tensor(buf12, (34, 64), (64, 1), 0), reinterpret_tensor(arg9_1, (64, 64), (1, 64), 0), alpha=1, beta=1, out=buf14)
        del arg10_1
        del arg9_1
        assert_size_stride(arg11_1, (64, ), (1, ), 'input')
        assert_size_stride(arg12_1, (64, ), (1, ), 'input')
        buf18 = reinterpret_tensor(buf12, (2, 17, 64), (1088, 64, 1), 0); del buf12  # reuse
        # Topologically Sorted Source Nodes: [x_1, linear_1, x_2, layer_norm_1], Original ATen: [aten.add, aten.view, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_native_layer_norm_view_5.run(buf5, arg4_1, buf14, arg11_1, arg12_1, buf18, 34, 64, stream=raw_streamNone)
        del arg11_1
        del arg12_1
        assert_size_stride(arg14_1, (256, ), (1, ), 'input')
        assert_size_stride(arg13_1, (256, 64), (64, 1), 'input')
        buf19 = empty_strided_cpu((34, 256), (256, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [x_1, linear_1, x_2, layer_norm_1, linear_2], Original ATen: [aten.add, aten.view, aten.native_layer_norm, aten.t, aten.addmm]
        extern_kernels.addmm(arg14_1, reinterpret_tensor(buf18, (34, 64), (64, 1), 0), reinterpret_tensor(arg13_1, (64, 256), (1, 64), 0), alpha=1, beta=1, out=buf19)
        del arg13_1
        del arg14_1
        del buf18
        buf20 = reinterpret_tensor(buf19, (2, 17, 256), (4352, 256, 1), 0); del buf19  # reuse
        # Topologically Sorted Source Nodes: [linear_2, gelu], Original ATen: [aten.view, aten.gelu]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_gelu_view_6.run(buf20, 8704, stream=raw_streamNone)
        assert_size_stride(arg16_1, (64, ), (1, ), 'input')
        assert_size_stride(arg15_1, (64, 256), (256, 1), 'input')
        buf21 = empty_strided_cpu((34, 64), (64, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [linear_2, gelu, linear_3], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
        extern_kernels.addmm(arg16_1, reinterpret_tensor(buf20, (34, 256), (256, 1), 0), reinterpret_tensor(arg15_1, (256, 64), (1, 256), 0), alpha=1, beta=1, out=buf21)
        del arg15_1
        del arg16_1
        del buf20
        assert_size_stride(arg17_1, (64, ), (1, ), 'input')
        assert_size_stride(arg18_1, (64, ), (1, ), 'input')
        buf25 = empty_strided_cpu((2, 17, 64), (1088, 64, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [x_1, linear_1, x_2, linear_3, x_3, layer_norm_2], Original ATen: [aten.add, aten.view, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_native_layer_norm_view_7.run(buf5, arg4_1, buf14, buf21, arg17_1, arg18_1, buf25, 34, 64, stream=raw_streamNone)
        del arg17_1
        del arg18_1
        assert_size_stride(arg20_1, (192, ), (1, ), 'input')
        assert_size_stride(arg19_1, (192, 64), (64, 1), 'input')
        buf26 = empty_strided_cpu((34, 192), (192, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [x_1, linear_1, x_2, linear_3, x_3, layer_norm_2, linear_4], Original ATen: [aten.add, aten.view, aten.native_layer_norm, aten.t, aten.addmm]
        extern_kernels.addmm(arg20_1, reinterpret_tensor(buf25, (34, 64), (64, 1), 0), reinterpret_tensor(arg19_1, (64, 192), (1, 64), 0), alpha=1, beta=1, out=buf26)
        del arg19_1
        del arg20_1
        # Topologically Sorted Source Nodes: [linear_4, view_1, permute_1, q_1, k_1, v_1, scaled_dot_product_attention_1], Original ATen: [aten.view, aten.permute, aten.select, aten._scaled_dot_product_flash_attention_for_cpu]
        buf27 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(reinterpret_tensor(buf26, (2, 4, 17, 16), (3264, 16, 192, 1), 0), reinterpret_tensor(buf26, (2, 4, 17, 16), (3264, 16, 192, 1), 64), reinterpret_tensor(buf26, (2, 4, 17, 16), (3264, 16, 192, 1), 128))
        del buf26
        buf28 = buf27[0]
        assert_size_stride(buf28, (2, 4, 17, 16), (1088, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default')
        assert_alignment(buf28, 16, 'torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default')
        del buf27
        assert_size_stride(arg22_1, (64, ), (1, ), 'input')
        assert_size_stride(arg21_1, (64, 64), (64, 1), 'input')
        buf30 = reinterpret_tensor(buf25, (34, 64), (64, 1), 0); del buf25  # reuse
        # Topologically Sorted Source Nodes: [transpose_2, reshape_1, linear_5], Original ATen: [aten.transpose, aten.view, aten.t, aten.addmm]
        extern_kernels.addmm(arg22_1, reinterpret_tensor(buf28, (34, 64), (64, 1), 0), reinterpret_tensor(arg21_1, (64, 64), (1, 64), 0), alpha=1, beta=1, out=buf30)
        del arg21_1
        del arg22_1
        assert_size_stride(arg23_1, (64, ), (1, ), 'input')
        assert_size_stride(arg24_1, (64, ), (1, ), 'input')
        buf31 = reinterpret_tensor(buf14, (2, 17, 64), (1088, 64, 1), 0); del buf14  # reuse
        buf35 = reinterpret_tensor(buf28, (2, 17, 64), (1088, 64, 1), 0); del buf28  # reuse
        # Topologically Sorted Source Nodes: [x_1, linear_1, x_2, linear_3, x_3, linear_5, x_4, layer_norm_3], Original ATen: [aten.add, aten.view, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_native_layer_norm_view_8.run(buf31, buf5, arg4_1, buf21, buf30, arg23_1, arg24_1, buf35, 34, 64, stream=raw_streamNone)
        del arg23_1
        del arg24_1
        del arg4_1
        del buf21
        del buf30
        del buf5
        assert_size_stride(arg26_1, (256, ), (1, ), 'input')
        assert_size_stride(arg25_1, (256, 64), (64, 1), 'input')
        buf36 = empty_strided_cpu((34, 256), (256, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [layer_norm_3, linear_6], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
        extern_kernels.addmm(arg26_1, reinterpret_tensor(buf35, (34, 64), (64, 1), 0), reinterpret_tensor(arg25_1, (64, 256), (1, 64), 0), alpha=1, beta=1, out=buf36)
        del arg25_1
        del arg26_1
        buf37 = reinterpret_tensor(buf36, (2, 17, 256), (4352, 256, 1), 0); del buf36  # reuse
        # Topologically Sorted Source Nodes: [linear_6, gelu_1], Original ATen: [aten.view, aten.gelu]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_gelu_view_6.run(buf37, 8704, stream=raw_streamNone)
        assert_size_stride(arg28_1, (64, ), (1, ), 'input')
        assert_size_stride(arg27_1, (64, 256), (256, 1), 'input')
        buf38 = reinterpret_tensor(buf35, (34, 64), (64, 1), 0); del buf35  # reuse
        # Topologically Sorted Source Nodes: [linear_6, gelu_1, linear_7], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
        extern_kernels.addmm(arg28_1, reinterpret_tensor(buf37, (34, 256), (256, 1), 0), reinterpret_tensor(arg27_1, (256, 64), (1, 256), 0), alpha=1, beta=1, out=buf38)
        del arg27_1
        del arg28_1
        del buf37
        assert_size_stride(arg29_1, (64, ), (1, ), 'input')
        assert_size_stride(arg30_1, (64, ), (1, ), 'input')
        buf42 = empty_strided_cpu((2, 64), (64, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [linear_7, x_5, getitem_6, layer_norm_4], Original ATen: [aten.view, aten.add, aten.select, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_native_layer_norm_select_view_9.run(buf31, buf38, arg29_1, arg30_1, buf42, 2, 64, stream=raw_streamNone)
        del arg29_1
        del arg30_1
        del buf31
        del buf38
        assert_size_stride(arg32_1, (10, ), (1, ), 'input')
        assert_size_stride(arg31_1, (10, 64), (64, 1), 'input')
        buf43 = empty_strided_cpu((2, 10), (10, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [linear_7, x_5, getitem_6, layer_norm_4, linear_8], Original ATen: [aten.view, aten.add, aten.select, aten.native_layer_norm, aten.t, aten.addmm]
        extern_kernels.addmm(arg32_1, buf42, reinterpret_tensor(arg31_1, (64, 10), (1, 64), 0), alpha=1, beta=1, out=buf43)
        del arg31_1
        del arg32_1
        return (buf43, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((64, 3, 8, 8), (192, 64, 8, 1), device='cpu', dtype=torch.bfloat16)
    arg1_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg2_1 = rand_strided((2, 3, 32, 32), (3072, 1024, 32, 1), device='cpu', dtype=torch.bfloat16)
    arg3_1 = rand_strided((1, 1, 64), (64, 64, 1), device='cpu', dtype=torch.bfloat16)
    arg4_1 = rand_strided((1, 17, 64), (1088, 64, 1), device='cpu', dtype=torch.bfloat16)
    arg5_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg6_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg7_1 = rand_strided((192, 64), (64, 1), device='cpu', dtype=torch.bfloat16)
    arg8_1 = rand_strided((192, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg9_1 = rand_strided((64, 64), (64, 1), device='cpu', dtype=torch.bfloat16)
    arg10_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg11_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg12_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg13_1 = rand_strided((256, 64), (64, 1), device='cpu', dtype=torch.bfloat16)
    arg14_1 = rand_strided((256, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg15_1 = rand_strided((64, 256), (256, 1), device='cpu', dtype=torch.bfloat16)
    arg16_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg17_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg18_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg19_1 = rand_strided((192, 64), (64, 1), device='cpu', dtype=torch.bfloat16)
    arg20_1 = rand_strided((192, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg21_1 = rand_strided((64, 64), (64, 1), device='cpu', dtype=torch.bfloat16)
    arg22_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg23_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg24_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg25_1 = rand_strided((256, 64), (64, 1), device='cpu', dtype=torch.bfloat16)
    arg26_1 = rand_strided((256, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg27_1 = rand_strided((64, 256), (256, 1), device='cpu', dtype=torch.bfloat16)
    arg28_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg29_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg30_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.bfloat16)
    arg31_1 = rand_strided((10, 64), (64, 1), device='cpu', dtype=torch.bfloat16)
    arg32_1 = rand_strided((10, ), (1, ), device='cpu', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat, device='cpu')


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
