# AOT ID: ['1_inference']
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


# kernel path: /tmp/torchinductor_root/pq/cpqtidlqtcpwoppiuiaaaqpfv2rzhx2ppu4gea2mxkxudnrebda4.py
# Topologically Sorted Source Nodes: [lse, amax], Original ATen: [aten.logsumexp, aten.amax]
# Source node to ATen node mapping:
#   amax => amax_1
#   lse => abs_1, amax, eq, exp, full_default, sub, sum_1, where
# Graph fragment:
#   %arg0_1 : Tensor "f32[8192, 32000][32000, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %amax : Tensor "f32[8192, 1][1, 8192]cuda:0" = PlaceHolder[target=amax]
#   %amax : Tensor "f32[8192, 1][1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.amax.default](args = (%arg0_1, [-1], True), kwargs = {})
#   %abs_1 : Tensor "f32[8192, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.abs.default](args = (%amax,), kwargs = {})
#   %eq : Tensor "b8[8192, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%abs_1, inf), kwargs = {})
#   %full_default : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[8192, 1][1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.where.self](args = (%eq, %full_default, %amax), kwargs = {})
#   %sub : Tensor "f32[8192, 32000][32000, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%arg0_1, %where), kwargs = {})
#   %exp : Tensor "f32[8192, 32000][32000, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub,), kwargs = {})
#   %sum_1 : Tensor "f32[8192][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%exp, [-1]), kwargs = {})
#   %amax_1 : Tensor "f32[8192][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.amax.default](args = (%arg0_1, [-1]), kwargs = {})
#   return %amax,%sum_1,%amax_1
triton_red_fused_amax_logsumexp_0 = async_compile.triton('triton_red_fused_amax_logsumexp_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 8192, 'r0_': 32768},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_amax_logsumexp_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 196608, 'r0_': 1048576000}}
)
@triton.jit
def triton_red_fused_amax_logsumexp_0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 8192
    r0_numel = 32000
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 32000*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = triton_helpers.maximum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask, tmp3, _tmp2)
    tmp2 = triton_helpers.max2(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp2, None)
    _tmp13 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp16 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp4 = tl.load(in_ptr0 + (r0_1 + 32000*x0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp5 = tl_math.abs(tmp2)
        tmp6 = tl.full([1, 1], float("inf"), tl.float32)
        tmp7 = tmp5 == tmp6
        tmp8 = tl.full([1, 1], 0.0, tl.float32)
        tmp9 = tl.where(tmp7, tmp8, tmp2)
        tmp10 = tmp4 - tmp9
        tmp11 = libdevice.exp(tmp10)
        tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
        tmp14 = _tmp13 + tmp12
        _tmp13 = tl.where(r0_mask, tmp14, _tmp13)
        tmp15 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
        tmp17 = triton_helpers.maximum(_tmp16, tmp15)
        _tmp16 = tl.where(r0_mask, tmp17, _tmp16)
    tmp13 = tl.sum(_tmp13, 1)[:, None]
    tmp16 = triton_helpers.max2(_tmp16, 1)[:, None]
    tl.store(out_ptr1 + (x0), tmp13, None)
    tl.store(out_ptr2 + (x0), tmp16, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/v7/cv7cb52muy7mbm5ib7vl67p3pnuodqvrw3pgivlw2w77gvyq27wn.py
# Topologically Sorted Source Nodes: [lse, getitem, gather, picked, sub, ce, pow_1, mean_1, z_loss, add, abs_1, mean_2, max_penalty, add_1], Original ATen: [aten.logsumexp, aten.unsqueeze, aten.gather, aten.squeeze, aten.sub, aten.mean, aten.pow, aten.mul, aten.add, aten.abs]
# Source node to ATen node mapping:
#   abs_1 => abs_2
#   add => add_1
#   add_1 => add_2
#   ce => mean
#   gather => gather
#   getitem => unsqueeze
#   lse => abs_1, add, eq, full_default, log, squeeze, where
#   max_penalty => mul_1
#   mean_1 => mean_1
#   mean_2 => mean_2
#   picked => squeeze_1
#   pow_1 => pow_1
#   sub => sub_1
#   z_loss => mul
# Graph fragment:
#   %sum_1 : Tensor "f32[8192][1]cuda:0" = PlaceHolder[target=sum_1]
#   %amax : Tensor "f32[8192, 1][1, 8192]cuda:0" = PlaceHolder[target=amax]
#   %arg1_1 : Tensor "i64[8192][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "f32[8192, 32000][32000, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %amax_1 : Tensor "f32[8192][1]cuda:0" = PlaceHolder[target=amax_1]
#   %buf2 : Tensor "f32[][]cuda:0" = PlaceHolder[target=buf2]
#   %buf3 : Tensor "f32[][]cuda:0" = PlaceHolder[target=buf3]
#   %buf5 : Tensor "f32[][]cuda:0" = PlaceHolder[target=buf5]
#   %abs_1 : Tensor "f32[8192, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.abs.default](args = (%amax,), kwargs = {})
#   %eq : Tensor "b8[8192, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%abs_1, inf), kwargs = {})
#   %full_default : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "f32[8192, 1][1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.where.self](args = (%eq, %full_default, %amax), kwargs = {})
#   %log : Tensor "f32[8192][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.log.default](args = (%sum_1,), kwargs = {})
#   %squeeze : Tensor "f32[8192][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dims](args = (%where, [-1]), kwargs = {})
#   %add : Tensor "f32[8192][1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%log, %squeeze), kwargs = {})
#   %unsqueeze : Tensor "i64[8192, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg1_1, 1), kwargs = {})
#   %gather : Tensor "f32[8192, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.gather.default](args = (%arg0_1, 1, %unsqueeze), kwargs = {})
#   %squeeze_1 : Tensor "f32[8192][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%gather, 1), kwargs = {})
#   %sub_1 : Tensor "f32[8192][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add, %squeeze_1), kwargs = {})
#   %mean : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.default](args = (%sub_1,), kwargs = {})
#   %pow_1 : Tensor "f32[8192][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%add, 2), kwargs = {})
#   %mean_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.default](args = (%pow_1,), kwargs = {})
#   %mul : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mean_1, 0.0001), kwargs = {})
#   %add_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean, %mul), kwargs = {})
#   %abs_2 : Tensor "f32[8192][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.abs.default](args = (%amax_1,), kwargs = {})
#   %mean_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.default](args = (%abs_2,), kwargs = {})
#   %mul_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mean_2, 0.001), kwargs = {})
#   %add_2 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_1, %mul_1), kwargs = {})
#   return %buf2,%buf3,%buf5,%add_2
triton_red_fused_abs_add_gather_logsumexp_mean_mul_pow_squeeze_sub_unsqueeze_1 = async_compile.triton('triton_red_fused_abs_add_gather_logsumexp_mean_mul_pow_squeeze_sub_unsqueeze_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 1, 'r0_': 8192},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*i64', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_abs_add_gather_logsumexp_mean_mul_pow_squeeze_sub_unsqueeze_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': True, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'coordinate_descent_tuning': True, 'coordinate_descent_search_radius': 1, 'coordinate_descent_check_all_directions': False, 'tiling_scores': {'r0_': 163840}}
)
@triton.jit
def triton_red_fused_abs_add_gather_logsumexp_mean_mul_pow_squeeze_sub_unsqueeze_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1
    r0_numel = 8192
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    _tmp18 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp22 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr1 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp9 = tl.load(in_ptr2 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl_math.log(tmp0)
        tmp3 = tl_math.abs(tmp2)
        tmp4 = tl.full([1, 1], float("inf"), tl.float32)
        tmp5 = tmp3 == tmp4
        tmp6 = tl.full([1, 1], 0.0, tl.float32)
        tmp7 = tl.where(tmp5, tmp6, tmp2)
        tmp8 = tmp1 + tmp7
        tmp10 = tl.full([1, 1], 32000, tl.int32)
        tmp11 = tmp9 + tmp10
        tmp12 = tmp9 < 0
        tmp13 = tl.where(tmp12, tmp11, tmp9)
        tl.device_assert(((0 <= tmp13) & (tmp13 < 32000)) | ~(r0_mask), "index out of bounds: 0 <= tmp13 < 32000")
        tmp15 = tl.load(in_ptr3 + (tmp13 + 32000*r0_0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp16 = tmp8 - tmp15
        tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
        tmp19 = _tmp18 + tmp17
        _tmp18 = tl.where(r0_mask, tmp19, _tmp18)
        tmp20 = tmp8 * tmp8
        tmp21 = tl.broadcast_to(tmp20, [XBLOCK, R0_BLOCK])
        tmp23 = _tmp22 + tmp21
        _tmp22 = tl.where(r0_mask, tmp23, _tmp22)
    tmp18 = tl.sum(_tmp18, 1)[:, None]
    tmp22 = tl.sum(_tmp22, 1)[:, None]
    _tmp27 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp24 = tl.load(in_ptr4 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp25 = tl_math.abs(tmp24)
        tmp26 = tl.broadcast_to(tmp25, [XBLOCK, R0_BLOCK])
        tmp28 = _tmp27 + tmp26
        _tmp27 = tl.where(r0_mask, tmp28, _tmp27)
    tmp27 = tl.sum(_tmp27, 1)[:, None]
    tmp29 = tl.full([1, 1], 8192.0, tl.float32)
    tmp30 = (tmp18 / tmp29)
    tmp31 = (tmp22 / tmp29)
    tmp32 = tl.full([1, 1], 0.0001, tl.float32)
    tmp33 = tmp31 * tmp32
    tmp34 = tmp30 + tmp33
    tmp35 = (tmp27 / tmp29)
    tmp36 = tl.full([1, 1], 0.001, tl.float32)
    tmp37 = tmp35 * tmp36
    tmp38 = tmp34 + tmp37
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp38, None)
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
        arg0_1, arg1_1 = args
        args.clear()
        assert_size_stride(arg0_1, (8192, 32000), (32000, 1))
        assert_size_stride(arg1_1, (8192, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((8192, 1), (1, 8192), torch.float32)
            buf1 = empty_strided_cuda((8192, ), (1, ), torch.float32)
            buf4 = empty_strided_cuda((8192, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [lse, amax], Original ATen: [aten.logsumexp, aten.amax]
            stream0 = get_raw_stream(0)
            triton_red_fused_amax_logsumexp_0.run(arg0_1, buf0, buf1, buf4, 8192, 32000, stream=stream0)
            buf2 = empty_strided_cuda((), (), torch.float32)
            buf6 = buf2; del buf2  # reuse
            # Topologically Sorted Source Nodes: [lse, getitem, gather, picked, sub, ce, pow_1, mean_1, z_loss, add, abs_1, mean_2, max_penalty, add_1], Original ATen: [aten.logsumexp, aten.unsqueeze, aten.gather, aten.squeeze, aten.sub, aten.mean, aten.pow, aten.mul, aten.add, aten.abs]
            stream0 = get_raw_stream(0)
            triton_red_fused_abs_add_gather_logsumexp_mean_mul_pow_squeeze_sub_unsqueeze_1.run(buf6, buf1, buf0, arg1_1, arg0_1, buf4, 1, 8192, stream=stream0)
            del arg0_1
            del arg1_1
            del buf0
            del buf1
            del buf4
        return (buf6, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((8192, 32000), (32000, 1), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((8192, ), (1, ), device='cuda:0', dtype=torch.int64)
    return [arg0_1, arg1_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
