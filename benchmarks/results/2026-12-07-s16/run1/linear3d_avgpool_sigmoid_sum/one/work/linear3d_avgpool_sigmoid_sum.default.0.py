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


# kernel path: /tmp/torchinductor_root/jq/cjqmd5r4b3nxcqejffrkozldyw6nudvqgd26aau6su5g6jkff4ny.py
# Topologically Sorted Source Nodes: [unsqueeze, avg_pool1d, y_1, sigmoid, sum_1], Original ATen: [aten.unsqueeze, aten.avg_pool2d, aten.squeeze, aten.sigmoid, aten.sum]
# Source node to ATen node mapping:
#   avg_pool1d => avg_pool2d, squeeze, unsqueeze_1
#   sigmoid => sigmoid
#   sum_1 => sum_1
#   unsqueeze => unsqueeze
#   y_1 => squeeze_1
# Graph fragment:
#   %addmm : Tensor "f32[4096, 6144][6144, 1]cuda:0" = PlaceHolder[target=addmm]
#   %unsqueeze : Tensor "f32[4096, 1, 6144][6144, 6144, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%addmm, 1), kwargs = {})
#   %unsqueeze_1 : Tensor "f32[4096, 1, 1, 6144][6144, 6144, 6144, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, -2), kwargs = {})
#   %avg_pool2d : Tensor "f32[4096, 1, 1, 768][768, 768, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.avg_pool2d.default](args = (%unsqueeze_1, [1, 8], [1, 8]), kwargs = {})
#   %squeeze : Tensor "f32[4096, 1, 768][768, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%avg_pool2d, -2), kwargs = {})
#   %squeeze_1 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%squeeze, 1), kwargs = {})
#   %sigmoid : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%squeeze_1,), kwargs = {})
#   %sum_1 : Tensor "f32[4096][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%sigmoid, [-1]), kwargs = {})
#   return %buf1
triton_red_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_0 = async_compile.triton('triton_red_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 32768, 'r0_': 128},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 196608, 'r0_': 0}}
)
@triton.jit
def triton_red_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 24576
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp19 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (8*r0_1 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.load(in_ptr0 + (1 + 8*r0_1 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.load(in_ptr0 + (2 + 8*r0_1 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp5 = tl.load(in_ptr0 + (3 + 8*r0_1 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp7 = tl.load(in_ptr0 + (4 + 8*r0_1 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp9 = tl.load(in_ptr0 + (5 + 8*r0_1 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp11 = tl.load(in_ptr0 + (6 + 8*r0_1 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp13 = tl.load(in_ptr0 + (7 + 8*r0_1 + 1024*x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp4 = tmp2 + tmp3
        tmp6 = tmp4 + tmp5
        tmp8 = tmp6 + tmp7
        tmp10 = tmp8 + tmp9
        tmp12 = tmp10 + tmp11
        tmp14 = tmp12 + tmp13
        tmp15 = tl.full([1, 1], 8.0, tl.float32)
        tmp16 = (tmp14 / tmp15)
        tmp17 = tl.sigmoid(tmp16)
        tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
        tmp20 = _tmp19 + tmp18
        _tmp19 = tl.where(r0_mask, tmp20, _tmp19)
    tmp19 = tl.sum(_tmp19, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp19, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/pc/cpc7xypqzwvmz7mavzgwdhcbzivo7qeb37rknm2rrk3uvws5hetj.py
# Topologically Sorted Source Nodes: [unsqueeze, avg_pool1d, y_1, sigmoid, sum_1], Original ATen: [aten.unsqueeze, aten.avg_pool2d, aten.squeeze, aten.sigmoid, aten.sum]
# Source node to ATen node mapping:
#   avg_pool1d => avg_pool2d, squeeze, unsqueeze_1
#   sigmoid => sigmoid
#   sum_1 => sum_1
#   unsqueeze => unsqueeze
#   y_1 => squeeze_1
# Graph fragment:
#   %buf1 : Tensor "f32[4096, 6][6, 1]cuda:0" = PlaceHolder[target=buf1]
#   %unsqueeze : Tensor "f32[4096, 1, 6144][6144, 6144, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%addmm, 1), kwargs = {})
#   %unsqueeze_1 : Tensor "f32[4096, 1, 1, 6144][6144, 6144, 6144, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, -2), kwargs = {})
#   %avg_pool2d : Tensor "f32[4096, 1, 1, 768][768, 768, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.avg_pool2d.default](args = (%unsqueeze_1, [1, 8], [1, 8]), kwargs = {})
#   %squeeze : Tensor "f32[4096, 1, 768][768, 768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%avg_pool2d, -2), kwargs = {})
#   %squeeze_1 : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%squeeze, 1), kwargs = {})
#   %sigmoid : Tensor "f32[4096, 768][768, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%squeeze_1,), kwargs = {})
#   %sum_1 : Tensor "f32[4096][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%sigmoid, [-1]), kwargs = {})
#   return %sum_1
triton_per_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_1 = async_compile.triton('triton_per_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 4096, 'r0_': 8},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 32768, 'r0_': 73728}}
)
@triton.jit
def triton_per_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 6
    R0_BLOCK: tl.constexpr = 8
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 6*x0), r0_mask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, None)
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
        arg0_1, arg1_1, arg2_1 = args
        args.clear()
        assert_size_stride(arg0_1, (6144, 4096), (4096, 1))
        assert_size_stride(arg1_1, (6144, ), (1, ))
        assert_size_stride(arg2_1, (8, 512, 4096), (2097152, 4096, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((4096, 6144), (6144, 1), torch.float32)
            # Topologically Sorted Source Nodes: [y], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg1_1, reinterpret_tensor(arg2_1, (4096, 4096), (4096, 1), 0), reinterpret_tensor(arg0_1, (4096, 6144), (1, 4096), 0), alpha=1, beta=1, out=buf0)
            del arg0_1
            del arg1_1
            del arg2_1
            buf1 = empty_strided_cuda((4096, 6), (6, 1), torch.float32)
            # Topologically Sorted Source Nodes: [unsqueeze, avg_pool1d, y_1, sigmoid, sum_1], Original ATen: [aten.unsqueeze, aten.avg_pool2d, aten.squeeze, aten.sigmoid, aten.sum]
            stream0 = get_raw_stream(0)
            triton_red_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_0.run(buf0, buf1, 24576, 128, stream=stream0)
            del buf0
            buf2 = empty_strided_cuda((4096, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [unsqueeze, avg_pool1d, y_1, sigmoid, sum_1], Original ATen: [aten.unsqueeze, aten.avg_pool2d, aten.squeeze, aten.sigmoid, aten.sum]
            stream0 = get_raw_stream(0)
            triton_per_fused_avg_pool2d_sigmoid_squeeze_sum_unsqueeze_1.run(buf1, buf2, 4096, 6, stream=stream0)
            del buf1
        return (reinterpret_tensor(buf2, (8, 512), (512, 1), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((6144, 4096), (4096, 1), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((6144, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg2_1 = rand_strided((8, 512, 4096), (2097152, 4096, 1), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
