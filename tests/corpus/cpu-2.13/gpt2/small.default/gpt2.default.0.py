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


# kernel path: /tmp/torchinductor_root/kl/ckloqwnh5gimh6fofxcthbq2z4jniqd2b3lftwtnx5o65c4hxgsa.py
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
#   %arg0_1 : Tensor "i64[2, 32][32, 1]cpu" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f32[1000, 64][64, 1]cpu" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=arg2_1]
#   %buf0 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf0]
#   %getitem_1 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=getitem_1]
#   %buf2 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf2]
#   %arg3_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg3_1]
#   %arg4_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg4_1]
#   %embedding : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (32,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %add : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 32][32, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_1, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_2 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_1, %getitem_1), kwargs = {})
#   %add_4 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg3_1), kwargs = {})
#   %add_5 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %arg4_1), kwargs = {})
#   return %buf0,%getitem_1,%buf2,%add_5
triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_0 = async_compile.triton('triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', '''
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
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 512, 'r0_': 41472}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
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
    x3 = xindex
    r0_2 = r0_index
    x0 = (xindex % 32)
    tmp0 = tl.load(in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr2 + (r0_2 + 64*x0), xmask, eviction_policy='evict_last', other=0.0)
    tmp22 = tl.load(in_ptr3 + (r0_2), None, eviction_policy='evict_last')
    tmp24 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last')
    tl.device_assert(((0 <= tmp0) & (tmp0 < 1000)) | ~(xmask), "index out of bounds: 0 <= tmp0 < 1000")
    tmp2 = tl.load(in_ptr1 + (r0_2 + 64*tmp0), xmask, eviction_policy='evict_first', other=0.0)
    tmp4 = tmp2 + tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp9 = tl.full([1, 1], 64.0, tl.float32)
    tmp10 = (tmp8 / tmp9)
    tmp11 = tmp4 - tmp10
    tmp12 = tmp11 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tmp17 = (tmp16 / tmp9)
    tmp18 = tl.full([1, 1], 1e-05, tl.float32)
    tmp19 = tmp17 + tmp18
    tmp20 = libdevice.rsqrt(tmp19)
    tmp21 = tmp11 * tmp20
    tmp23 = tmp21 * tmp22
    tmp25 = tmp23 + tmp24
    tl.store(out_ptr1 + (r0_2 + 64*x3), tmp25, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/t3/ct3nuvdiimaemws6zm5q6rxn4zeidzqpcxhjzimwxfzf4ing67bk.py
# Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub]
# Source node to ATen node mapping:
#   arange => iota
#   first_dummy_value => sub
#   getitem => slice_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   position_ids_2 => expand
# Graph fragment:
#   %iota : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (32,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %add : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 32][32, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %expand : Tensor "i64[2, 32][0, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze, [2, -1]), kwargs = {})
#   %slice_1 : Tensor "i64[2, 1][0, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%expand, 1, 0, 1), kwargs = {})
#   %sub : Tensor "i64[2, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_1, 1), kwargs = {})
#   return %sub
triton_poi_fused_add_arange_expand_slice_sub_unsqueeze_1 = async_compile.triton('triton_poi_fused_add_arange_expand_slice_sub_unsqueeze_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_add_arange_expand_slice_sub_unsqueeze_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 0}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_arange_expand_slice_sub_unsqueeze_1(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.full([1], -1, tl.int64)
    tl.store(out_ptr0 + (33*x0), tmp0, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/6q/c6qroyi7mb3j76soldxicgt33agpowggjz5m54xqhef5yza6xo4o.py
# Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value, position_diff], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat]
# Source node to ATen node mapping:
#   arange => iota
#   first_dummy_value => sub
#   getitem => slice_1
#   position_diff => cat
#   position_ids => add
#   position_ids_1 => unsqueeze
#   position_ids_2 => expand
# Graph fragment:
#   %iota : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (32,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %add : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 32][32, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %expand : Tensor "i64[2, 32][0, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze, [2, -1]), kwargs = {})
#   %slice_1 : Tensor "i64[2, 1][0, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%expand, 1, 0, 1), kwargs = {})
#   %sub : Tensor "i64[2, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_1, 1), kwargs = {})
#   %cat : Tensor "i64[2, 33][33, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.cat.default](args = ([%sub, %expand], -1), kwargs = {})
#   return %buf6
triton_poi_fused_add_arange_cat_expand_slice_sub_unsqueeze_2 = async_compile.triton('triton_poi_fused_add_arange_cat_expand_slice_sub_unsqueeze_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 64}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_add_arange_cat_expand_slice_sub_unsqueeze_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 1024}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_arange_cat_expand_slice_sub_unsqueeze_2(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 64
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 32)
    x1 = xindex // 32
    tmp0 = (x0).to(tl.int64)
    tmp1 = (tmp0).to(tl.int64)
    tl.store(out_ptr0 + (x0 + 33*x1), tmp1, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/l5/cl5mq3243ui4g2maeracowmspey35eokbp6iu3u4gwwdhp4h52th.py
# Topologically Sorted Source Nodes: [position_diff, ne, packed_sequence_mask], Original ATen: [aten.slice, aten.sub, aten.ne, aten.cumsum]
# Source node to ATen node mapping:
#   ne => ne
#   packed_sequence_mask => cumsum
#   position_diff => slice_2, slice_3, sub_1
# Graph fragment:
#   %cat : Tensor "i64[2, 33][33, 1]cpu" = PlaceHolder[target=cat]
#   %slice_3 : Tensor "i64[2, 32][33, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 1, 33), kwargs = {})
#   %slice_2 : Tensor "i64[2, 32][33, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 0, 32), kwargs = {})
#   %sub_1 : Tensor "i64[2, 32][32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_3, %slice_2), kwargs = {})
#   %ne : Tensor "b8[2, 32][32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%sub_1, 1), kwargs = {})
#   %cumsum : Tensor "i64[2, 32][32, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.cumsum.default](args = (%ne, -1), kwargs = {})
#   return %cumsum
triton_per_fused_cumsum_ne_slice_sub_3 = async_compile.triton('triton_per_fused_cumsum_ne_slice_sub_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2, 'r0_': 32},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_cumsum_ne_slice_sub_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 2048}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_cumsum_ne_slice_sub_3(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
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
    tmp0 = tl.load(in_ptr0 + (1 + r0_1 + 33*x0), xmask, eviction_policy='evict_last', other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1 + 33*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp2 = tmp0 - tmp1
    tmp3 = tl.full([1, 1], 1, tl.int64)
    tmp4 = tmp2 != tmp3
    tmp5 = tmp4.to(tl.int64)
    tmp6 = tmp5.to(tl.int64)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
    tmp8, = tl.associative_scan((tmp7,), 1, _triton_helper_fn_add0)
    tl.store(out_ptr0 + (r0_1 + 32*x0), tmp8, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/ax/caxytdvuytetkdlfbz3an3khhnhtld2opygdy3zwd6gb6uheznyz.py
# Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, expand_1, batch_arange, batch_indices, arange_4, kv_arange, kv_indices, getitem_6, arange_3, q_arange, q_indices, getitem_5, le, result_1, getitem_7, getitem_8, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_5], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.view, aten.split, aten.transpose, aten.new_ones, aten.expand, aten.index, aten.le, aten.bitwise_and, aten.eq, aten.scalar_tensor, aten.where, aten._scaled_dot_product_flash_attention_for_cpu]
# Source node to ATen node mapping:
#   arange => iota
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => expand_2
#   attn_output => _scaled_dot_product_flash_attention_for_cpu, full_default_1, full_default_2, where
#   attn_output_5 => _scaled_dot_product_flash_attention_for_cpu_1, full_default_3, full_default_4, where_1
#   batch_arange => iota_1
#   batch_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   eq => eq
#   expand_1 => expand_1
#   getitem_5 => index
#   getitem_6 => index_1
#   getitem_7 => index_2
#   getitem_8 => index_3
#   key_states_1 => permute
#   key_states_3 => permute_4
#   kv_arange => add_3
#   kv_indices => unsqueeze_7, unsqueeze_8, unsqueeze_9
#   le => le
#   position_ids => add
#   position_ids_1 => unsqueeze
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
#   view_14 => view_16
#   view_15 => view_17
#   view_16 => view_18
#   view_3 => view_3
#   view_4 => view_4
#   view_5 => view_5
#   x_1 => view_2
#   x_9 => view_15
# Graph fragment:
#   %cumsum : Tensor "i64[2, 32][32, 1]cpu" = PlaceHolder[target=cumsum]
#   %iota : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (32,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %add : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 32][32, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %view_2 : Tensor "f32[2, 32, 192][6144, 192, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [2, 32, 192]), kwargs = {})
#   %split : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_2, 64, 2), kwargs = {})
#   %view_5 : Tensor "f32[2, 32, 4, 16][6144, 192, 16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_2, [2, 32, -1, 16]), kwargs = {})
#   %permute_2 : Tensor "f32[2, 4, 32, 16][6144, 16, 192, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_5, [0, 2, 1, 3]), kwargs = {})
#   %view_3 : Tensor "f32[2, 32, 4, 16][6144, 192, 16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_3, [2, 32, -1, 16]), kwargs = {})
#   %permute : Tensor "f32[2, 4, 32, 16][6144, 16, 192, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_3, [0, 2, 1, 3]), kwargs = {})
#   %view_4 : Tensor "f32[2, 32, 4, 16][6144, 192, 16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_4, [2, 32, -1, 16]), kwargs = {})
#   %permute_1 : Tensor "f32[2, 4, 32, 16][6144, 16, 192, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_4, [0, 2, 1, 3]), kwargs = {})
#   %full_default : Tensor "b8[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], True), kwargs = {dtype: torch.bool, layout: torch.strided, device: cpu, pin_memory: False})
#   %expand_1 : Tensor "i64[2, 32][0, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze, [2, -1]), kwargs = {})
#   %iota_1 : Tensor "i64[2][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (2,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %unsqueeze_1 : Tensor "i64[2, 1][1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%iota_1, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[2, 1, 1][1, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 2), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[2, 1, 1, 1][1, 1, 1, 1]cpu"[num_users=4] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %iota_4 : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (32,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %add_3 : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "i64[1, 32][32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_3, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[1, 1, 32][32, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 1), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1, 32][32, 32, 32, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %index_1 : Tensor "i64[2, 1, 1, 32][32, 32, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%expand_1, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %iota_3 : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (32,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %add_2 : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 32][32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 32][32, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 32, 1][32, 32, 1, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %index : Tensor "i64[2, 1, 32, 1][32, 32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%expand_1, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %le : Tensor "b8[2, 1, 32, 32][1024, 1024, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%index_1, %index), kwargs = {})
#   %bitwise_and : Tensor "b8[2, 1, 32, 32][1024, 1024, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%full_default, %le), kwargs = {})
#   %index_2 : Tensor "i64[2, 1, 32, 1][32, 32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %index_3 : Tensor "i64[2, 1, 1, 32][32, 32, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %eq : Tensor "b8[2, 1, 32, 32][1024, 1024, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%index_2, %index_3), kwargs = {})
#   %bitwise_and_1 : Tensor "b8[2, 1, 32, 32][1024, 1024, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%bitwise_and, %eq), kwargs = {})
#   %expand_2 : Tensor "b8[2, 1, 32, 32][1024, 1024, 32, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%bitwise_and_1, [2, -1, 32, 32]), kwargs = {})
#   %full_default_2 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
#   %full_default_1 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
#   %where : Tensor "f32[2, 1, 32, 32][1024, 1024, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_2, %full_default_2, %full_default_1), kwargs = {})
#   %_scaled_dot_product_flash_attention_for_cpu : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default](args = (%permute_2, %permute, %permute_1), kwargs = {attn_mask: %where, scale: 0.25})
#   %view_15 : Tensor "f32[2, 32, 192][6144, 192, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [2, 32, 192]), kwargs = {})
#   %split_1 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_15, 64, 2), kwargs = {})
#   %view_18 : Tensor "f32[2, 32, 4, 16][6144, 192, 16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_11, [2, 32, -1, 16]), kwargs = {})
#   %permute_6 : Tensor "f32[2, 4, 32, 16][6144, 16, 192, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_18, [0, 2, 1, 3]), kwargs = {})
#   %view_16 : Tensor "f32[2, 32, 4, 16][6144, 192, 16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_12, [2, 32, -1, 16]), kwargs = {})
#   %permute_4 : Tensor "f32[2, 4, 32, 16][6144, 16, 192, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_16, [0, 2, 1, 3]), kwargs = {})
#   %view_17 : Tensor "f32[2, 32, 4, 16][6144, 192, 16, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_13, [2, 32, -1, 16]), kwargs = {})
#   %permute_5 : Tensor "f32[2, 4, 32, 16][6144, 16, 192, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_17, [0, 2, 1, 3]), kwargs = {})
#   %full_default_4 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
#   %full_default_3 : Tensor "f32[][]cpu"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
#   %where_1 : Tensor "f32[2, 1, 32, 32][1024, 1024, 32, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_2, %full_default_4, %full_default_3), kwargs = {})
#   %_scaled_dot_product_flash_attention_for_cpu_1 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default](args = (%permute_6, %permute_4, %permute_5), kwargs = {attn_mask: %where_1, scale: 0.25})
#   return %buf9,%buf27
triton_poi_fused__scaled_dot_product_flash_attention_for_cpu_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_4 = async_compile.triton('triton_poi_fused__scaled_dot_product_flash_attention_for_cpu_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused__scaled_dot_product_flash_attention_for_cpu_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 33792}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_flash_attention_for_cpu_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_4(in_ptr0, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2048
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 32)
    x1 = ((xindex // 32) % 32)
    x3 = xindex // 32
    x2 = xindex // 1024
    x4 = xindex
    tmp7 = tl.load(in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr0 + (x0 + 32*x2), xmask, eviction_policy='evict_last')
    tmp0 = (x0).to(tl.int64)
    tmp1 = (tmp0).to(tl.int64)
    tmp2 = (x1).to(tl.int64)
    tmp3 = (tmp2).to(tl.int64)
    tmp4 = tmp1 <= tmp3
    tmp5 = tl.full([1], True, tl.int1)
    tmp6 = tmp5 & tmp4
    tmp9 = tmp7 == tmp8
    tmp10 = tmp6 & tmp9
    tmp11 = tl.full([1], 0.0, tl.float32)
    tmp12 = tl.full([1], float("-inf"), tl.float32)
    tmp13 = tl.where(tmp10, tmp11, tmp12)
    tl.store(out_ptr0 + (x4), tmp13, xmask)
    tl.store(out_ptr1 + (x4), tmp13, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/bt/cbtsmtkntvr34qs644ehuojm6a3ghce2h4y3vyml2frptnrndyfc.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_3 => add_6
#   hidden_states_4 => add_7, add_8, mul_2, mul_3, rsqrt_1, sub_3, var_mean_1
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   x_3 => view_9
# Graph fragment:
#   %addmm_1 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=addmm_1]
#   %arg0_1 : Tensor "i64[2, 32][32, 1]cpu" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f32[1000, 64][64, 1]cpu" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=arg2_1]
#   %buf14 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf14]
#   %getitem_8 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=getitem_8]
#   %buf16 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf16]
#   %arg9_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg9_1]
#   %arg10_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg10_1]
#   %embedding : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (32,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %add : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 32][32, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %view_9 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 32, 64]), kwargs = {})
#   %add_6 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_9, %add_1), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_6, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_3 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_6, %getitem_8), kwargs = {})
#   %add_7 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_7, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_2 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_1), kwargs = {})
#   %mul_3 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %arg9_1), kwargs = {})
#   %add_8 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %arg10_1), kwargs = {})
#   return %buf14,%getitem_8,%buf16,%add_8
triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5 = async_compile.triton('triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5', '''
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
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*i64', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 512, 'r0_': 57856}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
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
    x0 = (xindex % 32)
    tmp0 = tl.load(in_ptr0 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr1 + (x3), xmask, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr3 + (r0_2 + 64*x0), xmask, eviction_policy='evict_last', other=0.0)
    tmp24 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last')
    tmp26 = tl.load(in_ptr5 + (r0_2), None, eviction_policy='evict_last')
    tl.device_assert(((0 <= tmp1) & (tmp1 < 1000)) | ~(xmask), "index out of bounds: 0 <= tmp1 < 1000")
    tmp3 = tl.load(in_ptr2 + (r0_2 + 64*tmp1), xmask, eviction_policy='evict_first', other=0.0)
    tmp5 = tmp3 + tmp4
    tmp6 = tmp0 + tmp5
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
    tmp9 = tl.where(xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None].to(tl.float32)
    tmp11 = tl.full([1, 1], 64.0, tl.float32)
    tmp12 = (tmp10 / tmp11)
    tmp13 = tmp6 - tmp12
    tmp14 = tmp13 * tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp17 = tl.where(xmask, tmp15, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tmp19 = (tmp18 / tmp11)
    tmp20 = tl.full([1, 1], 1e-05, tl.float32)
    tmp21 = tmp19 + tmp20
    tmp22 = libdevice.rsqrt(tmp21)
    tmp23 = tmp13 * tmp22
    tmp25 = tmp23 * tmp24
    tmp27 = tmp25 + tmp26
    tl.store(out_ptr1 + (r0_2 + 64*x3), tmp27, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/ab/cabs6i77cvf5mjpdypkh5pqrzi4b7kf37tjwmrtrycrywhalrffl.py
# Topologically Sorted Source Nodes: [x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
# Source node to ATen node mapping:
#   add_5 => add_9
#   add_6 => add_10
#   hidden_states_5 => mul_7
#   mul => mul_4
#   mul_1 => mul_5
#   mul_2 => mul_6
#   pow_1 => pow_1
#   tanh => tanh
#   x_5 => view_11
# Graph fragment:
#   %addmm_2 : Tensor "f32[64, 256][256, 1]cpu" = PlaceHolder[target=addmm_2]
#   %view_11 : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 32, 256]), kwargs = {})
#   %mul_4 : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_11, 0.5), kwargs = {})
#   %pow_1 : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_11, 3.0), kwargs = {})
#   %mul_5 : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%pow_1, 0.044715), kwargs = {})
#   %add_9 : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_11, %mul_5), kwargs = {})
#   %mul_6 : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_9, 0.7978845608028654), kwargs = {})
#   %tanh : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_6,), kwargs = {})
#   %add_10 : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh, 1.0), kwargs = {})
#   %mul_7 : Tensor "f32[2, 32, 256][8192, 256, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_4, %add_10), kwargs = {})
#   return %mul_7
triton_poi_fused_add_mul_pow_tanh_view_6 = async_compile.triton('triton_poi_fused_add_mul_pow_tanh_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_cpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_add_mul_pow_tanh_view_6', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': set(), 'tiling_scores': {'x': 196608}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_mul_pow_tanh_view_6(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 16384
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None)
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp0 * tmp0
    tmp4 = tmp3 * tmp0
    tmp5 = tl.full([1], 0.044715, tl.float32)
    tmp6 = tmp4 * tmp5
    tmp7 = tmp0 + tmp6
    tmp8 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp9 = tmp7 * tmp8
    tmp10 = libdevice.tanh(tmp9)
    tmp11 = tl.full([1], 1.0, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = tmp2 * tmp12
    tl.store(in_out_ptr0 + (x0), tmp13, None)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/6s/c6srtjsxsfe7qon4qxwghazpduukq2ulh37gwbbgkt4akw3pxxpb.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_3 => add_6
#   hidden_states_7 => add_11
#   hidden_states_8 => add_12, add_13, mul_8, mul_9, rsqrt_2, sub_4, var_mean_2
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   x_3 => view_9
#   x_7 => view_13
# Graph fragment:
#   %addmm_1 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=addmm_1]
#   %arg0_1 : Tensor "i64[2, 32][32, 1]cpu" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f32[1000, 64][64, 1]cpu" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=arg2_1]
#   %addmm_3 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=addmm_3]
#   %add_11 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu" = PlaceHolder[target=add_11]
#   %buf22 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf22]
#   %getitem_10 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=getitem_10]
#   %buf24 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf24]
#   %arg15_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg15_1]
#   %arg16_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg16_1]
#   %embedding : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (32,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cpu, requires_grad: False})
#   %add : Tensor "i64[32][1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 32][32, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "f32[1, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %view_9 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 32, 64]), kwargs = {})
#   %add_6 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_9, %add_1), kwargs = {})
#   %view_13 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [2, 32, 64]), kwargs = {})
#   %add_11 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_13), kwargs = {})
#   %var_mean_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_11, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_4 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_11, %getitem_10), kwargs = {})
#   %add_12 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_9, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_12,), kwargs = {})
#   %mul_8 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_4, %rsqrt_2), kwargs = {})
#   %mul_9 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_8, %arg15_1), kwargs = {})
#   %add_13 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_9, %arg16_1), kwargs = {})
#   return %add_11,%buf22,%getitem_10,%buf24,%add_13
triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_7 = async_compile.triton('triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_7', '''
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
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*i64', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_7', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 2, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 512, 'r0_': 107008}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_7(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
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
    x0 = (xindex % 32)
    tmp0 = tl.load(in_out_ptr0 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr2 + (r0_2 + 64*x0), xmask, eviction_policy='evict_last', other=0.0)
    tmp7 = tl.load(in_ptr3 + (r0_2 + 64*x3), xmask, eviction_policy='evict_first', other=0.0)
    tmp26 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last')
    tmp28 = tl.load(in_ptr5 + (r0_2), None, eviction_policy='evict_last')
    tl.device_assert(((0 <= tmp1) & (tmp1 < 1000)) | ~(xmask), "index out of bounds: 0 <= tmp1 < 1000")
    tmp3 = tl.load(in_ptr1 + (r0_2 + 64*tmp1), xmask, eviction_policy='evict_first', other=0.0)
    tmp5 = tmp3 + tmp4
    tmp6 = tmp0 + tmp5
    tmp8 = tmp6 + tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp13 = tl.full([1, 1], 64.0, tl.float32)
    tmp14 = (tmp12 / tmp13)
    tmp15 = tmp8 - tmp14
    tmp16 = tmp15 * tmp15
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(xmask, tmp17, 0)
    tmp20 = tl.sum(tmp19, 1)[:, None].to(tl.float32)
    tmp21 = (tmp20 / tmp13)
    tmp22 = tl.full([1, 1], 1e-05, tl.float32)
    tmp23 = tmp21 + tmp22
    tmp24 = libdevice.rsqrt(tmp23)
    tmp25 = tmp15 * tmp24
    tmp27 = tmp25 * tmp26
    tmp29 = tmp27 + tmp28
    tl.store(in_out_ptr0 + (r0_2 + 64*x3), tmp8, xmask)
    tl.store(out_ptr1 + (r0_2 + 64*x3), tmp29, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/g4/cg4c65zd2w6cnpbqyfhanyoxzaq7wt6fotedgdhmy36iiv37z35z.py
# Topologically Sorted Source Nodes: [x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_10 => add_15, add_16, mul_10, mul_11, rsqrt_3, sub_5, var_mean_3
#   hidden_states_9 => add_14
#   x_11 => view_22
# Graph fragment:
#   %addmm_5 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=addmm_5]
#   %add_11 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu" = PlaceHolder[target=add_11]
#   %buf32 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf32]
#   %getitem_17 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=getitem_17]
#   %buf34 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf34]
#   %arg21_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg21_1]
#   %arg22_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg22_1]
#   %view_22 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [2, 32, 64]), kwargs = {})
#   %add_14 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_22, %add_11), kwargs = {})
#   %var_mean_3 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_14, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_5 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_14, %getitem_17), kwargs = {})
#   %add_15 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_16, 1e-05), kwargs = {})
#   %rsqrt_3 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_10 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_5, %rsqrt_3), kwargs = {})
#   %mul_11 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_10, %arg21_1), kwargs = {})
#   %add_16 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_11, %arg22_1), kwargs = {})
#   return %buf32,%getitem_17,%buf34,%add_16
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
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 66048}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_8(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp20 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp22 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tmp7 = tl.full([1, 1], 64.0, tl.float32)
    tmp8 = (tmp6 / tmp7)
    tmp9 = tmp2 - tmp8
    tmp10 = tmp9 * tmp9
    tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp13 = tl.where(xmask, tmp11, 0)
    tmp14 = tl.sum(tmp13, 1)[:, None].to(tl.float32)
    tmp15 = (tmp14 / tmp7)
    tmp16 = tl.full([1, 1], 1e-05, tl.float32)
    tmp17 = tmp15 + tmp16
    tmp18 = libdevice.rsqrt(tmp17)
    tmp19 = tmp9 * tmp18
    tmp21 = tmp19 * tmp20
    tmp23 = tmp21 + tmp22
    tl.store(out_ptr1 + (r0_1 + 64*x0), tmp23, xmask)
''', device_str='cpu')


# kernel path: /tmp/torchinductor_root/yq/cyq53z5ajdyn2tckbcah7fzagcjbkebzjhbqxbxesw65k3tnxbis.py
# Topologically Sorted Source Nodes: [x_11, hidden_states_9, x_15, hidden_states_13, hidden_states_14], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_13 => add_19
#   hidden_states_14 => add_20, add_21, mul_16, mul_17, rsqrt_4, sub_6, var_mean_4
#   hidden_states_9 => add_14
#   x_11 => view_22
#   x_15 => view_26
# Graph fragment:
#   %addmm_5 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=addmm_5]
#   %add_11 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu" = PlaceHolder[target=add_11]
#   %addmm_7 : Tensor "f32[64, 64][64, 1]cpu" = PlaceHolder[target=addmm_7]
#   %buf39 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf39]
#   %getitem_19 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=getitem_19]
#   %buf41 : Tensor "f32[2, 32, 1][32, 1, 64]cpu" = PlaceHolder[target=buf41]
#   %arg27_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg27_1]
#   %arg28_1 : Tensor "f32[64][1]cpu" = PlaceHolder[target=arg28_1]
#   %view_22 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [2, 32, 64]), kwargs = {})
#   %add_14 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_22, %add_11), kwargs = {})
#   %view_26 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_7, [2, 32, 64]), kwargs = {})
#   %add_19 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_14, %view_26), kwargs = {})
#   %var_mean_4 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%add_19, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_6 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_19, %getitem_19), kwargs = {})
#   %add_20 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_18, 1e-05), kwargs = {})
#   %rsqrt_4 : Tensor "f32[2, 32, 1][32, 1, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_20,), kwargs = {})
#   %mul_16 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_6, %rsqrt_4), kwargs = {})
#   %mul_17 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_16, %arg27_1), kwargs = {})
#   %add_21 : Tensor "f32[2, 32, 64][2048, 64, 1]cpu"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_17, %arg28_1), kwargs = {})
#   return %buf39,%getitem_19,%buf41,%add_21
triton_per_fused_add_native_layer_norm_view_9 = async_compile.triton('triton_per_fused_add_native_layer_norm_view_9', '''
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
    triton_meta={'signature': {'in_out_ptr1': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=None), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_9', 'mutated_arg_names': ['in_out_ptr1'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 2, 'autotune_hints': set(), 'tiling_scores': {'x': 0, 'r0_': 82432}, 'backend_hash': 'KERNELOPT-CPU-TRITON-INTERPRETER', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_9(in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
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
    tmp0 = tl.load(in_out_ptr1 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp3 = tl.load(in_ptr1 + (r0_1 + 64*x0), xmask, eviction_policy='evict_first', other=0.0)
    tmp22 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp24 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp9 = tl.full([1, 1], 64.0, tl.float32)
    tmp10 = (tmp8 / tmp9)
    tmp11 = tmp4 - tmp10
    tmp12 = tmp11 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tmp17 = (tmp16 / tmp9)
    tmp18 = tl.full([1, 1], 1e-05, tl.float32)
    tmp19 = tmp17 + tmp18
    tmp20 = libdevice.rsqrt(tmp19)
    tmp21 = tmp11 * tmp20
    tmp23 = tmp21 * tmp22
    tmp25 = tmp23 + tmp24
    tl.store(in_out_ptr1 + (r0_1 + 64*x0), tmp25, xmask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1 = args
        args.clear()
        assert_size_stride(arg0_1, (2, 32), (32, 1), 'input')
        assert_size_stride(arg1_1, (1000, 64), (64, 1), 'input')
        assert_size_stride(arg2_1, (64, 64), (64, 1), 'input')
        assert_size_stride(arg3_1, (64, ), (1, ), 'input')
        assert_size_stride(arg4_1, (64, ), (1, ), 'input')
        buf3 = empty_strided_cpu((2, 32, 64), (2048, 64, 1), torch.float32)
        # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_0.run(arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, buf3, 64, 64, stream=raw_streamNone)
        del arg3_1
        del arg4_1
        assert_size_stride(arg5_1, (192, ), (1, ), 'input')
        assert_size_stride(arg6_1, (64, 192), (192, 1), 'input')
        buf4 = empty_strided_cpu((64, 192), (192, 1), torch.float32)
        # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2, view_1, x], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm, aten.view, aten.addmm]
        extern_kernels.addmm(arg5_1, reinterpret_tensor(buf3, (64, 64), (64, 1), 0), arg6_1, alpha=1, beta=1, out=buf4)
        del arg5_1
        del arg6_1
        buf7 = empty_strided_cpu((2, 33), (33, 1), torch.int64)
        buf5 = reinterpret_tensor(buf7, (2, 1), (33, 1), 0)  # alias
        # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_add_arange_expand_slice_sub_unsqueeze_1.run(buf5, 2, stream=raw_streamNone)
        buf6 = reinterpret_tensor(buf7, (2, 32), (33, 1), 1)  # alias
        # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value, position_diff], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_add_arange_cat_expand_slice_sub_unsqueeze_2.run(buf6, 64, stream=raw_streamNone)
        buf8 = empty_strided_cpu((2, 32), (32, 1), torch.int64)
        # Topologically Sorted Source Nodes: [position_diff, ne, packed_sequence_mask], Original ATen: [aten.slice, aten.sub, aten.ne, aten.cumsum]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_cumsum_ne_slice_sub_3.run(buf7, buf8, 2, 32, stream=raw_streamNone)
        del buf5
        del buf6
        del buf7
        buf9 = empty_strided_cpu((2, 1, 32, 32), (1024, 1024, 32, 1), torch.float32)
        buf27 = empty_strided_cpu((2, 1, 32, 32), (1024, 1024, 32, 1), torch.float32)
        # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, expand_1, batch_arange, batch_indices, arange_4, kv_arange, kv_indices, getitem_6, arange_3, q_arange, q_indices, getitem_5, le, result_1, getitem_7, getitem_8, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_5], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.view, aten.split, aten.transpose, aten.new_ones, aten.expand, aten.index, aten.le, aten.bitwise_and, aten.eq, aten.scalar_tensor, aten.where, aten._scaled_dot_product_flash_attention_for_cpu]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused__scaled_dot_product_flash_attention_for_cpu_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_4.run(buf8, buf9, buf27, 2048, stream=raw_streamNone)
        del buf8
        # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, expand_1, batch_arange, batch_indices, arange_4, kv_arange, kv_indices, getitem_6, arange_3, q_arange, q_indices, getitem_5, le, result_1, getitem_7, getitem_8, eq, result_2, attention_mask, attn_output], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.view, aten.split, aten.transpose, aten.new_ones, aten.expand, aten.index, aten.le, aten.bitwise_and, aten.eq, aten.scalar_tensor, aten.where, aten._scaled_dot_product_flash_attention_for_cpu]
        buf10 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(reinterpret_tensor(buf4, (2, 4, 32, 16), (6144, 16, 192, 1), 0), reinterpret_tensor(buf4, (2, 4, 32, 16), (6144, 16, 192, 1), 64), reinterpret_tensor(buf4, (2, 4, 32, 16), (6144, 16, 192, 1), 128), attn_mask=buf9, scale=0.25)
        del buf9
        buf11 = buf10[0]
        assert_size_stride(buf11, (2, 4, 32, 16), (2048, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default')
        assert_alignment(buf11, 16, 'torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default')
        del buf10
        assert_size_stride(arg7_1, (64, ), (1, ), 'input')
        assert_size_stride(arg8_1, (64, 64), (64, 1), 'input')
        buf13 = reinterpret_tensor(buf3, (64, 64), (64, 1), 0); del buf3  # reuse
        # Topologically Sorted Source Nodes: [transpose_3, reshape_1, view_6, x_2], Original ATen: [aten.transpose, aten.view, aten.addmm]
        extern_kernels.addmm(arg7_1, reinterpret_tensor(buf11, (64, 64), (64, 1), 0), arg8_1, alpha=1, beta=1, out=buf13)
        del arg7_1
        del arg8_1
        assert_size_stride(arg9_1, (64, ), (1, ), 'input')
        assert_size_stride(arg10_1, (64, ), (1, ), 'input')
        buf17 = reinterpret_tensor(buf11, (2, 32, 64), (2048, 64, 1), 0); del buf11  # reuse
        # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5.run(buf13, arg0_1, arg1_1, arg2_1, arg9_1, arg10_1, buf17, 64, 64, stream=raw_streamNone)
        del arg10_1
        del arg9_1
        assert_size_stride(arg11_1, (256, ), (1, ), 'input')
        assert_size_stride(arg12_1, (64, 256), (256, 1), 'input')
        buf18 = empty_strided_cpu((64, 256), (256, 1), torch.float32)
        # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, hidden_states_4, view_8, x_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm, aten.addmm]
        extern_kernels.addmm(arg11_1, reinterpret_tensor(buf17, (64, 64), (64, 1), 0), arg12_1, alpha=1, beta=1, out=buf18)
        del arg11_1
        del arg12_1
        buf19 = reinterpret_tensor(buf18, (2, 32, 256), (8192, 256, 1), 0); del buf18  # reuse
        # Topologically Sorted Source Nodes: [x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_add_mul_pow_tanh_view_6.run(buf19, 16384, stream=raw_streamNone)
        assert_size_stride(arg13_1, (64, ), (1, ), 'input')
        assert_size_stride(arg14_1, (256, 64), (64, 1), 'input')
        buf20 = reinterpret_tensor(buf17, (64, 64), (64, 1), 0); del buf17  # reuse
        # Topologically Sorted Source Nodes: [x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5, view_10, x_6], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.addmm]
        extern_kernels.addmm(arg13_1, reinterpret_tensor(buf19, (64, 256), (256, 1), 0), arg14_1, alpha=1, beta=1, out=buf20)
        del arg13_1
        del arg14_1
        assert_size_stride(arg15_1, (64, ), (1, ), 'input')
        assert_size_stride(arg16_1, (64, ), (1, ), 'input')
        buf21 = reinterpret_tensor(buf13, (2, 32, 64), (2048, 64, 1), 0); del buf13  # reuse
        buf25 = empty_strided_cpu((2, 32, 64), (2048, 64, 1), torch.float32)
        # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_7.run(buf21, arg0_1, arg1_1, arg2_1, buf20, arg15_1, arg16_1, buf25, 64, 64, stream=raw_streamNone)
        del arg0_1
        del arg15_1
        del arg16_1
        del arg2_1
        del buf20
        assert_size_stride(arg17_1, (192, ), (1, ), 'input')
        assert_size_stride(arg18_1, (64, 192), (192, 1), 'input')
        buf26 = buf4; del buf4  # reuse
        # Topologically Sorted Source Nodes: [hidden_states_8, view_12, x_8], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
        extern_kernels.addmm(arg17_1, reinterpret_tensor(buf25, (64, 64), (64, 1), 0), arg18_1, alpha=1, beta=1, out=buf26)
        del arg17_1
        del arg18_1
        # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, result, expand_1, batch_arange, batch_indices, arange_4, kv_arange, kv_indices, getitem_6, arange_3, q_arange, q_indices, getitem_5, le, result_1, getitem_7, getitem_8, eq, result_2, attention_mask, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_5], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.new_ones, aten.expand, aten.index, aten.le, aten.bitwise_and, aten.eq, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_flash_attention_for_cpu]
        buf28 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(reinterpret_tensor(buf26, (2, 4, 32, 16), (6144, 16, 192, 1), 0), reinterpret_tensor(buf26, (2, 4, 32, 16), (6144, 16, 192, 1), 64), reinterpret_tensor(buf26, (2, 4, 32, 16), (6144, 16, 192, 1), 128), attn_mask=buf27, scale=0.25)
        del buf26
        del buf27
        buf29 = buf28[0]
        assert_size_stride(buf29, (2, 4, 32, 16), (2048, 16, 64, 1), 'torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default')
        assert_alignment(buf29, 16, 'torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default')
        del buf28
        assert_size_stride(arg19_1, (64, ), (1, ), 'input')
        assert_size_stride(arg20_1, (64, 64), (64, 1), 'input')
        buf31 = reinterpret_tensor(buf25, (64, 64), (64, 1), 0); del buf25  # reuse
        # Topologically Sorted Source Nodes: [transpose_7, reshape_3, view_17, x_10], Original ATen: [aten.transpose, aten.view, aten.addmm]
        extern_kernels.addmm(arg19_1, reinterpret_tensor(buf29, (64, 64), (64, 1), 0), arg20_1, alpha=1, beta=1, out=buf31)
        del arg19_1
        del arg20_1
        assert_size_stride(arg21_1, (64, ), (1, ), 'input')
        assert_size_stride(arg22_1, (64, ), (1, ), 'input')
        buf35 = reinterpret_tensor(buf29, (2, 32, 64), (2048, 64, 1), 0); del buf29  # reuse
        # Topologically Sorted Source Nodes: [x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_native_layer_norm_view_8.run(buf31, buf21, arg21_1, arg22_1, buf35, 64, 64, stream=raw_streamNone)
        del arg21_1
        del arg22_1
        assert_size_stride(arg23_1, (256, ), (1, ), 'input')
        assert_size_stride(arg24_1, (64, 256), (256, 1), 'input')
        buf36 = reinterpret_tensor(buf19, (64, 256), (256, 1), 0); del buf19  # reuse
        # Topologically Sorted Source Nodes: [x_11, hidden_states_9, hidden_states_10, view_19, x_12], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.addmm]
        extern_kernels.addmm(arg23_1, reinterpret_tensor(buf35, (64, 64), (64, 1), 0), arg24_1, alpha=1, beta=1, out=buf36)
        del arg23_1
        del arg24_1
        buf37 = reinterpret_tensor(buf36, (2, 32, 256), (8192, 256, 1), 0); del buf36  # reuse
        # Topologically Sorted Source Nodes: [x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
        raw_streamNone = get_raw_stream(None)
        triton_poi_fused_add_mul_pow_tanh_view_6.run(buf37, 16384, stream=raw_streamNone)
        assert_size_stride(arg25_1, (64, ), (1, ), 'input')
        assert_size_stride(arg26_1, (256, 64), (64, 1), 'input')
        buf38 = reinterpret_tensor(buf35, (64, 64), (64, 1), 0); del buf35  # reuse
        # Topologically Sorted Source Nodes: [x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11, view_21, x_14], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.addmm]
        extern_kernels.addmm(arg25_1, reinterpret_tensor(buf37, (64, 256), (256, 1), 0), arg26_1, alpha=1, beta=1, out=buf38)
        del arg25_1
        del arg26_1
        del buf37
        assert_size_stride(arg27_1, (64, ), (1, ), 'input')
        assert_size_stride(arg28_1, (64, ), (1, ), 'input')
        buf42 = reinterpret_tensor(buf31, (2, 32, 64), (2048, 64, 1), 0); del buf31  # reuse
        # Topologically Sorted Source Nodes: [x_11, hidden_states_9, x_15, hidden_states_13, hidden_states_14], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
        raw_streamNone = get_raw_stream(None)
        triton_per_fused_add_native_layer_norm_view_9.run(buf42, buf21, buf38, arg27_1, arg28_1, 64, 64, stream=raw_streamNone)
        del arg27_1
        del arg28_1
        del buf21
        del buf38
        buf43 = empty_strided_cpu((64, 1000), (1000, 1), torch.float32)
        # Topologically Sorted Source Nodes: [x_11, hidden_states_9, x_15, hidden_states_13, hidden_states_14, logits], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.t, aten.mm]
        extern_kernels.mm(reinterpret_tensor(buf42, (64, 64), (64, 1), 0), reinterpret_tensor(arg1_1, (64, 1000), (1, 64), 0), out=buf43)
        del arg1_1
        return (reinterpret_tensor(buf43, (2, 32, 1000), (32000, 1000, 1), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((2, 32), (32, 1), device='cpu', dtype=torch.int64)
    arg1_1 = rand_strided((1000, 64), (64, 1), device='cpu', dtype=torch.float32)
    arg2_1 = rand_strided((64, 64), (64, 1), device='cpu', dtype=torch.float32)
    arg3_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg4_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg5_1 = rand_strided((192, ), (1, ), device='cpu', dtype=torch.float32)
    arg6_1 = rand_strided((64, 192), (192, 1), device='cpu', dtype=torch.float32)
    arg7_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg8_1 = rand_strided((64, 64), (64, 1), device='cpu', dtype=torch.float32)
    arg9_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg10_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg11_1 = rand_strided((256, ), (1, ), device='cpu', dtype=torch.float32)
    arg12_1 = rand_strided((64, 256), (256, 1), device='cpu', dtype=torch.float32)
    arg13_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg14_1 = rand_strided((256, 64), (64, 1), device='cpu', dtype=torch.float32)
    arg15_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg16_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg17_1 = rand_strided((192, ), (1, ), device='cpu', dtype=torch.float32)
    arg18_1 = rand_strided((64, 192), (192, 1), device='cpu', dtype=torch.float32)
    arg19_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg20_1 = rand_strided((64, 64), (64, 1), device='cpu', dtype=torch.float32)
    arg21_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg22_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg23_1 = rand_strided((256, ), (1, ), device='cpu', dtype=torch.float32)
    arg24_1 = rand_strided((64, 256), (256, 1), device='cpu', dtype=torch.float32)
    arg25_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg26_1 = rand_strided((256, 64), (64, 1), device='cpu', dtype=torch.float32)
    arg27_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    arg28_1 = rand_strided((64, ), (1, ), device='cpu', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat, device='cpu')


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
