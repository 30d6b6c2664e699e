# A hand-written output module with constructs the lifter has no rule for.
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
async_compile = AsyncCompile()


def call(args):
    arg0_1, = args
    args.clear()
    assert_size_stride(arg0_1, (2, 2), (2, 1))
    buf0 = empty_strided_cuda((2, 2), (2, 1), torch.float32)
    extern_kernels.mm(arg0_1, arg0_1, out=buf0)
    if buf0.numel() > 2:
        buf0.zero_()
    log_something(buf0)
    return (buf0, )


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((2, 2), (2, 1), device='cuda:0', dtype=torch.float32)
    return [arg0_1]
