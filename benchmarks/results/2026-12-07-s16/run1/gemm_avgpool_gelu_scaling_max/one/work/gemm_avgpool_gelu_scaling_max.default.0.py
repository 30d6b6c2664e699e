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


# kernel path: /tmp/torchinductor_root/ur/curpdygxj4tqrsdhsw67vbleh7l77u35fxhfu5ysvgkeuw7zs6zk.py
# Topologically Sorted Source Nodes: [unsqueeze, avg_pool1d, x, gelu, x_1, max_1], Original ATen: [aten.unsqueeze, aten.avg_pool2d, aten.squeeze, aten.gelu, aten.mul, aten.max]
# Source node to ATen node mapping:
#   avg_pool1d => avg_pool2d, squeeze, unsqueeze_1
#   gelu => add, erf, mul, mul_1, mul_2
#   max_1 => max_1
#   unsqueeze => unsqueeze
#   x => squeeze_1
#   x_1 => mul_3
# Graph fragment:
#   %addmm : Tensor "f32[1024, 8192][8192, 1]cuda:0" = PlaceHolder[target=addmm]
#   %avg_pool2d : Tensor "f32[1024, 1, 1, 512][512, 512, 512, 1]cuda:0" = PlaceHolder[target=avg_pool2d]
#   %unsqueeze : Tensor "f32[1024, 1, 8192][8192, 8192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%addmm, 1), kwargs = {})
#   %unsqueeze_1 : Tensor "f32[1024, 1, 1, 8192][8192, 8192, 8192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, -2), kwargs = {})
#   %avg_pool2d : Tensor "f32[1024, 1, 1, 512][512, 512, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.avg_pool2d.default](args = (%unsqueeze_1, [1, 16], [1, 16]), kwargs = {})
#   %squeeze : Tensor "f32[1024, 1, 512][512, 512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%avg_pool2d, -2), kwargs = {})
#   %squeeze_1 : Tensor "f32[1024, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.squeeze.dim](args = (%squeeze, 1), kwargs = {})
#   %mul : Tensor "f32[1024, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%squeeze_1, 0.5), kwargs = {})
#   %mul_1 : Tensor "f32[1024, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%squeeze_1, 0.7071067811865476), kwargs = {})
#   %erf : Tensor "f32[1024, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%mul_1,), kwargs = {})
#   %add : Tensor "f32[1024, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%erf, 1), kwargs = {})
#   %mul_2 : Tensor "f32[1024, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %add), kwargs = {})
#   %mul_3 : Tensor "f32[1024, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, 2.0), kwargs = {})
#   %max_1 : [num_users=1] = call_function[target=torch.ops.aten.max.dim](args = (%mul_3, 1), kwargs = {})
#   return %avg_pool2d,%getitem
triton_red_fused_avg_pool2d_gelu_max_mul_squeeze_unsqueeze_0 = async_compile.triton('triton_red_fused_avg_pool2d_gelu_max_mul_squeeze_unsqueeze_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 1024, 'r0_': 512},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_avg_pool2d_gelu_max_mul_squeeze_unsqueeze_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 16, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8192, 'r0_': 0}}
)
@triton.jit
def triton_red_fused_avg_pool2d_gelu_max_mul_squeeze_unsqueeze_0(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 1024
    r0_numel = 512
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp44 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.load(in_ptr0 + (1 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tl.load(in_ptr0 + (2 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp5 = tl.load(in_ptr0 + (3 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp7 = tl.load(in_ptr0 + (4 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp9 = tl.load(in_ptr0 + (5 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp11 = tl.load(in_ptr0 + (6 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp13 = tl.load(in_ptr0 + (7 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp15 = tl.load(in_ptr0 + (8 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp17 = tl.load(in_ptr0 + (9 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp19 = tl.load(in_ptr0 + (10 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp21 = tl.load(in_ptr0 + (11 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp23 = tl.load(in_ptr0 + (12 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp25 = tl.load(in_ptr0 + (13 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp27 = tl.load(in_ptr0 + (14 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp29 = tl.load(in_ptr0 + (15 + 16*r0_1 + 8192*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp4 = tmp2 + tmp3
        tmp6 = tmp4 + tmp5
        tmp8 = tmp6 + tmp7
        tmp10 = tmp8 + tmp9
        tmp12 = tmp10 + tmp11
        tmp14 = tmp12 + tmp13
        tmp16 = tmp14 + tmp15
        tmp18 = tmp16 + tmp17
        tmp20 = tmp18 + tmp19
        tmp22 = tmp20 + tmp21
        tmp24 = tmp22 + tmp23
        tmp26 = tmp24 + tmp25
        tmp28 = tmp26 + tmp27
        tmp30 = tmp28 + tmp29
        tmp31 = tl.full([1, 1], 16.0, tl.float32)
        tmp32 = (tmp30 / tmp31)
        tmp33 = tl.full([1, 1], 0.5, tl.float32)
        tmp34 = tmp32 * tmp33
        tmp35 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp36 = tmp32 * tmp35
        tmp37 = libdevice.erf(tmp36)
        tmp38 = tl.full([1, 1], 1.0, tl.float32)
        tmp39 = tmp37 + tmp38
        tmp40 = tmp34 * tmp39
        tmp41 = tl.full([1, 1], 2.0, tl.float32)
        tmp42 = tmp40 * tmp41
        tmp43 = tl.broadcast_to(tmp42, [XBLOCK, R0_BLOCK])
        tmp45 = triton_helpers.maximum(_tmp44, tmp43)
        _tmp44 = tl.where(r0_mask & xmask, tmp45, _tmp44)
    tmp44 = triton_helpers.max2(_tmp44, 1)[:, None]
    tl.store(out_ptr1 + (x0), tmp44, xmask)
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
        assert_size_stride(arg0_1, (8192, 8192), (8192, 1))
        assert_size_stride(arg1_1, (8192, ), (1, ))
        assert_size_stride(arg2_1, (1024, 8192), (8192, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1024, 8192), (8192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [linear], Original ATen: [aten.t, aten.addmm]
            extern_kernels.addmm(arg1_1, arg2_1, reinterpret_tensor(arg0_1, (8192, 8192), (1, 8192), 0), alpha=1, beta=1, out=buf0)
            del arg0_1
            del arg1_1
            del arg2_1
            buf2 = empty_strided_cuda((1024, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [unsqueeze, avg_pool1d, x, gelu, x_1, max_1], Original ATen: [aten.unsqueeze, aten.avg_pool2d, aten.squeeze, aten.gelu, aten.mul, aten.max]
            stream0 = get_raw_stream(0)
            triton_red_fused_avg_pool2d_gelu_max_mul_squeeze_unsqueeze_0.run(buf0, buf2, 1024, 512, stream=stream0)
            del buf0
        return (buf2, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((8192, 8192), (8192, 1), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((8192, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg2_1 = rand_strided((1024, 8192), (8192, 1), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
