"""gpt2.max-autotune-no-cudagraphs.0: emitted by KernelOPT 0.1.0 (emit-python, style standalone).

Source: /tmp/kernelopt-optimize-rahdl5l2/max-autotune-no-cudagraphs/gpt2.max-autotune-no-cudagraphs.0.py (inductor output module, captured with torch 2.11.0+cu130, device cuda:0)
Emitted with: torch 2.11.0+cu130, triton 3.6.0, on 2026-12-02
Launch configs tuned on: NVIDIA H200
Launch config sources: capture x13
Precision policy: strict (fp32 math stays fp32: no TF32 or bf16 dots)
Needs at run time: torch and triton only on a GPU (no torch._inductor).

Rewritten kernels: none (every kernel is Inductor's, with its launch config pinned).
"""
import os
import types

import torch
import triton
import triton.language as tl

# Without a GPU the kernels run in Triton's interpreter, which needs CPU versions of `libdevice`:
# `kernelopt run` installs them before loading this module; a direct run installs them here when
# KernelOPT is importable. On a GPU nothing happens here.
if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")
    try:
        from kernelopt.runtime.interpret import install_cpu_triton_shims
        install_cpu_triton_shims()
    except ImportError:
        pass

from triton.language.extra import libdevice  # noqa: E402  (after the CPU shims, which patch it)
tl_math = tl.math

precision = "strict"
# ---------------------------------------------------------------------------------------------
# Launch support: each launch site is a `_Launch` with its configuration pinned. The first call goes
# through Triton's JIT (compiles, or loads from Triton's cache). Later calls skip the JIT's argument
# binding and cache lookup, on the cheapest path this torch/Triton pair supports:
#   static   torch's C++ launcher (`torch._C._StaticCudaLauncher`, what Inductor's own modules use):
#            the cubin is loaded once and each launch is one C++ call;
#   direct   Triton's compiled launcher (`CompiledKernel.run`), when this Triton's `JITFunction.run`
#            launches the same way (checked once, from its source);
#   jit      a plain `kernel[grid](...)`: under the interpreter, with a launch hook installed, when
#            KERNELOPT_LAUNCH=jit, or when neither fast path can be set up.
# KERNELOPT_LAUNCH=direct skips the static path. A launch site falls back to the JIT whenever a
# tensor that was 16-byte aligned when the kernel was compiled is not (the compiled code assumed it),
# or when the module's kernel was replaced (a tool wrapping `module.<kernel>` sees every launch).
# ---------------------------------------------------------------------------------------------
_LAUNCH_MODE = os.environ.get("KERNELOPT_LAUNCH", "")
try:
    from triton import knobs as _triton_knobs
except ImportError:
    _triton_knobs = None
try:
    from triton.runtime.jit import JITFunction as _JITFunction
except ImportError:
    _JITFunction = ()


def _direct_launch_supported():
    if _LAUNCH_MODE == "jit" or os.environ.get("TRITON_INTERPRET") == "1":
        return False
    try:
        import inspect
        text = inspect.getsource(_JITFunction.run)
    except Exception:
        return False
    return ("kernel.run(grid_0, grid_1, grid_2, stream, kernel.function, kernel.packed_metadata" in text
            and "*bound_args.values())" in text)


_DIRECT = _direct_launch_supported()
_STATIC = getattr(torch._C, "_StaticCudaLauncher", None) if _DIRECT and _LAUNCH_MODE != "direct" else None


def _hook_active(hook):
    # Triton >= 3.5 keeps hooks in a HookChain that is never None: it is active only when it holds calls.
    if hook is None:
        return False
    calls = getattr(hook, "calls", None)
    return bool(calls) if calls is not None else True


def _launch_hooks_installed():
    runtime = getattr(_triton_knobs, "runtime", None)
    return runtime is not None and (_hook_active(getattr(runtime, "launch_enter_hook", None))
                                    or _hook_active(getattr(runtime, "launch_exit_hook", None)))


# Triton signature type -> the one-letter code torch's static launcher switches on.
_STATIC_ARG_CODES = {"i1": "i", "i8": "b", "i16": "h", "i32": "i", "i64": "l", "u1": "I", "u8": "B",
                     "u16": "H", "u32": "I", "u64": "K", "fp16": "f", "bf16": "f", "fp32": "f", "f32": "f",
                     "fp64": "d"}


class _StaticKernel:
    """A compiled kernel loaded into torch's C++ launcher. Built from the JIT's CompiledKernel; raises
    NotImplementedError for anything the C++ launcher does not handle (the caller keeps Triton's path)."""

    __slots__ = ("function", "module", "num_warps", "shared", "codes", "keep", "tail")

    def __init__(self, kernel, n_args):
        meta = kernel.metadata
        if getattr(meta, "num_ctas", 1) != 1 or getattr(meta, "launch_cooperative_grid", False) \
                or getattr(meta, "launch_pdl", False) or getattr(meta, "tensordesc_meta", None):
            raise NotImplementedError("cluster, cooperative, PDL or TMA launch")
        if getattr(meta, "global_scratch_size", 0) or getattr(meta, "profile_scratch_size", 0):
            raise NotImplementedError("kernel needs scratch memory")
        cubin = kernel.asm.get("cubin") if hasattr(kernel, "asm") else None
        if not cubin:
            raise NotImplementedError("no cubin")
        self.codes, self.keep = self._codes(kernel, n_args)
        # The compiled entry point takes (unused) scratch pointers after the arguments when this Triton
        # declares them: pass nulls, as Triton's own launcher does.
        scratch = sum(hasattr(meta, f) for f in ("global_scratch_size", "profile_scratch_size"))
        self.codes += "O" * scratch
        self.tail = (None,) * scratch
        self.num_warps, self.shared = meta.num_warps, meta.shared
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".cubin") as handle:
            handle.write(cubin)
            handle.flush()
            loaded = _STATIC._load_kernel(handle.name, meta.name, self.shared, torch.cuda.current_device())
        # torch >= 2.10 returns (module, function, registers, spills); earlier ones (function, registers, spills)
        self.module, self.function = (loaded[0], loaded[1]) if len(loaded) == 4 else (None, loaded[0])

    @staticmethod
    def _codes(kernel, n_args):
        """Type codes of the runtime (non-constexpr) positional arguments, and which positions they are
        (None: all of them, the common case, which spares a tuple rebuild per launch)."""
        src = kernel.src
        names = list(src.fn.arg_names)
        signature = {(names[k] if isinstance(k, int) else k[0] if isinstance(k, tuple) else k): v
                     for k, v in src.signature.items()}
        constants = {names[k[0]] if isinstance(k, tuple) else names[k] if isinstance(k, int) else k
                     for k in getattr(src, "constants", {})}
        codes, keep = [], []
        for position, name in enumerate(names[:n_args]):
            kind = signature.get(name, "constexpr")
            if kind == "constexpr" or name in constants:
                continue
            codes.append("O" if kind.startswith("*") else _STATIC_ARG_CODES[kind])
            keep.append(position)
        for name in names[n_args:]:  # meta-parameters passed by keyword must all be constexprs
            if signature.get(name, "constexpr") != "constexpr" and name not in constants:
                raise NotImplementedError(f"runtime argument {name} passed by keyword")
        return "".join(codes), (None if keep == list(range(n_args)) else tuple(keep))

    def launch(self, grid, stream, args):
        if self.keep is not None:
            args = tuple(args[i] for i in self.keep)
        _STATIC._launch_kernel(self.function, grid[0], grid[1], grid[2], self.num_warps, self.shared,
                               self.codes, args + self.tail if self.tail else args, stream)


class _Launch:
    """One launch site: kernel (looked up by name, so a tool that wraps the module's kernels still sees
    every launch), grid, constexpr values, num_warps/num_stages, and the fast path set up after the
    first (JIT) launch. The grid is an argument of every path, not part of the kernel's specialization,
    so one fast path serves every grid of the site."""

    __slots__ = ("name", "grid", "meta", "options", "tail", "tensors", "direct", "fast", "fn", "aligned")

    def __init__(self, name, grid, meta, options, tensors, direct=True):
        self.name = name
        self.grid = grid
        self.meta = meta
        self.options = options
        self.tail = tuple(meta.values())  # constexprs follow the positional parameters
        self.tensors = tensors            # positions of tensor arguments (their alignment specializes)
        self.direct = direct and _DIRECT
        self.fast = None                  # launcher(grid, stream, args), once the JIT compiled the kernel
        self.fn = None                    # the kernel the fast path was built from
        self.aligned = ()                 # tensor positions the fast path's kernel assumes 16-byte aligned

    def __call__(self, stream, *args):
        return self.launch(stream, self.grid, args)

    def with_grid(self, stream, grid, *args):
        return self.launch(stream, grid, args)

    def launch(self, stream, grid, args):
        fast = self.fast
        if fast is not None and _KERNELS[self.name] is self.fn and not _launch_hooks_installed():
            for i in self.aligned:
                if args[i].data_ptr() & 15:
                    break
            else:
                try:
                    fast(grid, stream, args)
                    return
                except (TypeError, ValueError, RuntimeError):  # refused before launching: JIT from now on
                    self.direct = False
                    self.fast = None
        self._jit_launch(stream, grid, args)

    def _jit_launch(self, stream, grid, args):
        fn = _KERNELS[self.name]
        kernel = fn[grid](*args, **self.meta, **self.options)
        if not self.direct or not isinstance(fn, _JITFunction) or _launch_hooks_installed():
            return
        if self.fast is not None and self.fn is fn:  # an unaligned call: keep the fast path for aligned ones
            return
        self.fn = fn
        self.aligned = tuple(i for i in self.tensors if args[i].data_ptr() % 16 == 0)
        self.fast = self._fast_path(kernel, len(args))

    def _fast_path(self, kernel, n_args):
        if _STATIC is not None:
            try:
                return _StaticKernel(kernel, n_args).launch
            except Exception:  # anything torch's launcher cannot take: Triton's own launcher below
                pass
        run, function, packed, tail = kernel.run, kernel.function, kernel.packed_metadata, self.tail

        def direct(grid, stream, args):
            run(grid[0], grid[1], grid[2], stream, function, packed, None, None, None, *args, *tail)
        return direct


# ---------------------------------------------------------------------------------------------
# Host-side helpers: torch's C++ fast paths where this torch has them, plain torch otherwise.
# ---------------------------------------------------------------------------------------------
# The device the module was captured for; the CPU (Triton interpreter) where no GPU is present.
DEVICE = "cuda:0" if torch.cuda.is_available() else "cpu"
_guards = getattr(getattr(torch._C, "_dynamo", None), "guards", None)


def _reinterpret_tensor_fallback(tensor, size, stride, offset=0):
    return tensor.as_strided(size, stride, tensor.storage_offset() + offset)


def _assert_size_stride_fallback(tensor, size, stride):
    if tuple(tensor.shape) != tuple(size) or any(
            n != 1 and a != b for n, a, b in zip(size, tensor.stride(), stride)):
        raise AssertionError(f"expected size {tuple(size)} stride {tuple(stride)}, got "
                             f"{tuple(tensor.shape)} {tuple(tensor.stride())}")


def _assert_alignment_fallback(tensor, alignment):
    if tensor.data_ptr() % alignment:
        raise AssertionError(f"expected data aligned to {alignment} bytes")


reinterpret_tensor = getattr(_guards, "_reinterpret_tensor", _reinterpret_tensor_fallback)
assert_size_stride = getattr(_guards, "assert_size_stride", _assert_size_stride_fallback)
assert_alignment = getattr(_guards, "assert_alignment", _assert_alignment_fallback)


def _raw_stream_function():
    if torch.cuda.is_available():
        return torch._C._cuda_getCurrentRawStream
    return lambda index: 0


get_raw_stream = _raw_stream_function()


_DEVICE = torch.device(DEVICE)  # parsed once: a device string costs a parse on every allocation


def _empty_strided_generic(size, stride, dtype, device=_DEVICE):
    return torch.empty_strided(size, stride, dtype=dtype, device=device)


# On a GPU, the allocator entry point Inductor's own wrappers use (a C++ fast path, torch >= 2.1) when
# this torch has it; it allocates on the current device, which call() sets with its device guard.
empty_strided = (getattr(_guards, "_empty_strided_cuda", None) if _DEVICE.type == "cuda" else None) \
    or _empty_strided_generic


def alloc_from_pool(pool, offset_bytes, dtype, size, stride):
    """A view of `pool` (a byte buffer) at `offset_bytes`, as Inductor's memory planner lays it out."""
    itemsize = torch.empty((), dtype=dtype).element_size()
    view = torch.empty((), dtype=dtype, device=pool.device)
    return view.set_(pool.untyped_storage(), pool.storage_offset() + offset_bytes // itemsize, size, stride)


def rand_strided(size, stride, dtype, device=DEVICE):
    """Example inputs as Inductor's get_args() draws them: normal floats, zero integers."""
    extent = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    if dtype.is_floating_point or dtype.is_complex:
        storage = torch.randn(extent, dtype=dtype, device=device)
    else:
        storage = torch.zeros(extent, dtype=dtype, device=device)
    return torch.as_strided(storage, size, stride)


def _extern_convolution(x, weight, bias=None, stride=(1,), padding=(0,), dilation=(1,), transposed=False,
                        output_padding=(0,), groups=1, out=None):
    # torch.convolution, as Inductor's extern_kernels.convolution: the op-overload path
    # (torch.ops.aten.convolution) costs several microseconds more per call on the host.
    result = torch.convolution(x, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    if out is None:
        return result
    out.copy_(result)
    return out


def _extern_bias_addmm(bias, mat1, mat2, *, out=None, alpha=1, beta=1):
    # A broadcast 1-D bias (stride 0 or one row) goes to addmm as a vector: cuBLASLt's fused-bias path,
    # the same call Inductor makes.
    if (bias.stride(0) == 0 and bias.size(0) != 0) or bias.size(0) == 1:
        bias = bias[0]
    return torch.addmm(bias, mat1, mat2, out=out, alpha=alpha, beta=beta)


class extern_kernels:
    """The vendor-library calls Inductor makes through `extern_kernels`, as the same torch ops."""

    mm = staticmethod(torch.mm)
    addmm = staticmethod(torch.addmm)
    bias_addmm = staticmethod(_extern_bias_addmm)
    bmm = staticmethod(torch.bmm)
    baddbmm = staticmethod(torch.baddbmm)
    convolution = staticmethod(_extern_convolution)
    _int_mm = staticmethod(torch._int_mm)


# ---------------------------------------------------------------------------------------------
# Device helpers the kernels call as `triton_helpers.<name>` (same math as Inductor's).
# ---------------------------------------------------------------------------------------------
triton_helpers = types.ModuleType("triton_helpers")


@triton.jit
def _ko_helper_welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    weight = weight_1 + weight_2
    ratio = tl.where(weight == 0.0, 0.0, weight_2 / weight)
    return (
        mean_1 + delta * ratio,
        m2_1 + m2_2 + delta * delta * weight_1 * ratio,
        weight,
    )


triton_helpers.welford_combine = _ko_helper_welford_combine
del _ko_helper_welford_combine


@triton.jit
def _ko_helper_welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, triton_helpers.welford_combine)


triton_helpers.welford = _ko_helper_welford
del _ko_helper_welford


@triton.jit
def _ko_helper_welford_reduce(value, mean, m2, weight, first_iteration):
    if first_iteration:
        next_weight = tl.full(weight.shape, 1, weight.dtype)
        next_mean = value
        next_m2 = tl.zeros_like(m2)
    else:
        delta = value - mean
        next_weight = weight + 1
        next_mean = mean + delta / next_weight
        next_m2 = m2 + delta * (value - next_mean)
    return next_mean, next_m2, next_weight


triton_helpers.welford_reduce = _ko_helper_welford_reduce
del _ko_helper_welford_reduce


# ---- triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0 (reduction) ----
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


# ---- triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1 (template) ----
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


# ---- triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2 (persistent_reduction) ----
@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

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


# ---- triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3 (pointwise) ----
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


# ---- triton_tem_fused_addmm_transpose_view_4 (template) ----
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


# ---- triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5 (persistent_reduction) ----
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


# ---- triton_poi_fused_add_addmm_mul_pow_tanh_view_6 (pointwise) ----
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


# ---- triton_per_fused_add_addmm_native_layer_norm_view_7 (persistent_reduction) ----
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


# ---- triton_per_fused_add_addmm_native_layer_norm_view_8 (persistent_reduction) ----
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


# ---- triton_per_fused_add_addmm_native_layer_norm_view_9 (persistent_reduction) ----
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

_KERNELS = globals()

# One launch object per launch site: kernel, grid, block sizes, num_warps, num_stages.
launch_triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0 = _Launch('triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', grid=(1024, 1, 1), meta={'XBLOCK': 4, 'R0_BLOCK': 128}, options={'num_warps': 8, 'num_stages': 1}, tensors=(0, 1, 2, 3, 4, 5), direct=True)  # config: capture
launch_triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1 = _Launch('triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1', grid=(1152, 1, 1), meta={}, options={'num_warps': 4, 'num_stages': 3}, tensors=(0, 1, 2, 3), direct=True)  # config: capture
launch_triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2 = _Launch('triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2', grid=(8, 1, 1), meta={'XBLOCK': 1}, options={'num_warps': 1, 'num_stages': 1}, tensors=(0,), direct=True)  # config: capture
launch_triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3 = _Launch('triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3', grid=(2048, 1, 1), meta={'XBLOCK': 1024}, options={'num_warps': 8, 'num_stages': 1}, tensors=(0, 1, 2), direct=True)  # config: capture
launch_triton_tem_fused_addmm_transpose_view_4 = _Launch('triton_tem_fused_addmm_transpose_view_4', grid=(384, 1, 1), meta={}, options={'num_warps': 4, 'num_stages': 3}, tensors=(0, 1, 2), direct=True)  # config: capture
launch_triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5 = _Launch('triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5', grid=(2048, 1, 1), meta={'XBLOCK': 2}, options={'num_warps': 8, 'num_stages': 1}, tensors=(0, 1, 2, 3, 4, 5, 6, 7), direct=True)  # config: capture
launch_triton_poi_fused_add_addmm_mul_pow_tanh_view_6 = _Launch('triton_poi_fused_add_addmm_mul_pow_tanh_view_6', grid=(12288, 1, 1), meta={'XBLOCK': 1024}, options={'num_warps': 4, 'num_stages': 1}, tensors=(0, 1), direct=True)  # config: capture
launch_triton_per_fused_add_addmm_native_layer_norm_view_7 = _Launch('triton_per_fused_add_addmm_native_layer_norm_view_7', grid=(4096, 1, 1), meta={'XBLOCK': 1}, options={'num_warps': 16, 'num_stages': 1}, tensors=(0, 1, 2, 3, 4, 5), direct=True)  # config: capture
launch_triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1_8 = _Launch('triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1', grid=(1152, 1, 1), meta={}, options={'num_warps': 4, 'num_stages': 3}, tensors=(0, 1, 2, 3), direct=True)  # config: capture
launch_triton_tem_fused_addmm_transpose_view_4_9 = _Launch('triton_tem_fused_addmm_transpose_view_4', grid=(384, 1, 1), meta={}, options={'num_warps': 4, 'num_stages': 3}, tensors=(0, 1, 2), direct=True)  # config: capture
launch_triton_per_fused_add_addmm_native_layer_norm_view_8 = _Launch('triton_per_fused_add_addmm_native_layer_norm_view_8', grid=(2048, 1, 1), meta={'XBLOCK': 2}, options={'num_warps': 16, 'num_stages': 1}, tensors=(0, 1, 2, 3, 4, 5, 6, 7), direct=True)  # config: capture
launch_triton_poi_fused_add_addmm_mul_pow_tanh_view_6_11 = _Launch('triton_poi_fused_add_addmm_mul_pow_tanh_view_6', grid=(12288, 1, 1), meta={'XBLOCK': 1024}, options={'num_warps': 4, 'num_stages': 1}, tensors=(0, 1), direct=True)  # config: capture
launch_triton_per_fused_add_addmm_native_layer_norm_view_9 = _Launch('triton_per_fused_add_addmm_native_layer_norm_view_9', grid=(2048, 1, 1), meta={'XBLOCK': 2}, options={'num_warps': 8, 'num_stages': 1}, tensors=(0, 1, 2, 3, 4), direct=True)  # config: capture


def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1 = args
    args.clear()
    assert_size_stride(arg0_1, (8, 512), (512, 1))
    assert_size_stride(arg1_1, (50257, 768), (768, 1))
    assert_size_stride(arg2_1, (1024, 768), (768, 1))
    assert_size_stride(arg3_1, (768,), (1,))
    assert_size_stride(arg4_1, (768,), (1,))
    assert_size_stride(arg5_1, (2304,), (1,))
    assert_size_stride(arg6_1, (768, 2304), (2304, 1))
    assert_size_stride(arg7_1, (768,), (1,))
    assert_size_stride(arg8_1, (768, 768), (768, 1))
    assert_size_stride(arg9_1, (768,), (1,))
    assert_size_stride(arg10_1, (768,), (1,))
    assert_size_stride(arg11_1, (3072,), (1,))
    assert_size_stride(arg12_1, (768, 3072), (3072, 1))
    assert_size_stride(arg13_1, (768,), (1,))
    assert_size_stride(arg14_1, (3072, 768), (768, 1))
    assert_size_stride(arg15_1, (768,), (1,))
    assert_size_stride(arg16_1, (768,), (1,))
    assert_size_stride(arg17_1, (2304,), (1,))
    assert_size_stride(arg18_1, (768, 2304), (2304, 1))
    assert_size_stride(arg19_1, (768,), (1,))
    assert_size_stride(arg20_1, (768, 768), (768, 1))
    assert_size_stride(arg21_1, (768,), (1,))
    assert_size_stride(arg22_1, (768,), (1,))
    assert_size_stride(arg23_1, (3072,), (1,))
    assert_size_stride(arg24_1, (768, 3072), (3072, 1))
    assert_size_stride(arg25_1, (768,), (1,))
    assert_size_stride(arg26_1, (3072, 768), (768, 1))
    assert_size_stride(arg27_1, (768,), (1,))
    assert_size_stride(arg28_1, (768,), (1,))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf3 = empty_strided((8, 512, 768), (393216, 768, 1), torch.float32)
        # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm]
        stream0 = get_raw_stream(0)
        launch_triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0(stream0, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, buf3, 4096, 768)
        del arg3_1
        del arg4_1
        buf4 = empty_strided((4096, 2304), (2304, 1), torch.float32)
        # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2, view_1, x], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm, aten.view, aten.addmm]
        launch_triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1(stream0, arg5_1, buf3, arg6_1, buf4)
        del arg5_1
        del arg6_1
        buf5 = empty_strided((8, 512), (512, 1), torch.int64)
        # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value, position_diff, ne, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
        launch_triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_2(stream0, buf5, 8, 512)
        buf6 = empty_strided((8, 1, 512, 512), (262144, 0, 512, 1), torch.float32)
        buf26 = empty_strided((8, 1, 512, 512), (262144, 0, 512, 1), torch.float32)
        # Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
        launch_triton_poi_fused__scaled_dot_product_efficient_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_3(stream0, buf5, buf6, buf26, 2097152)
        del buf5
        buf4_v0 = reinterpret_tensor(buf4, (8, 12, 512, 64), (1179648, 64, 2304, 1), 0)
        buf4_v1 = reinterpret_tensor(buf4, (8, 12, 512, 64), (1179648, 64, 2304, 1), 768)
        buf4_v2 = reinterpret_tensor(buf4, (8, 12, 512, 64), (1179648, 64, 2304, 1), 1536)
        buf6_v0 = reinterpret_tensor(buf6, (8, 12, 512, 512), (262144, 0, 512, 1), 0)
        # Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
        buf7 = torch.ops.aten._scaled_dot_product_efficient_attention.default(buf4_v0, buf4_v1, buf4_v2, buf6_v0, False, scale=0.125)
        del buf4
        del buf6
        buf8 = buf7[0]
        assert_size_stride(buf8, (8, 12, 512, 64), (393216, 64, 768, 1))
        assert_alignment(buf8, 16)
        del buf7
        buf12 = reinterpret_tensor(buf3, (4096, 768), (768, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [transpose_3, reshape, view_6, x_2], Original ATen: [aten.transpose, aten.view, aten.addmm]
        launch_triton_tem_fused_addmm_transpose_view_4(stream0, buf8, arg8_1, buf12)
        del arg8_1
        buf13 = reinterpret_tensor(buf12, (8, 512, 768), (393216, 768, 1), 0)  # reuse
        buf17 = reinterpret_tensor(buf8, (8, 512, 768), (393216, 768, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_2, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.addmm, aten.view, aten.native_layer_norm]
        launch_triton_per_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_5(stream0, buf13, arg7_1, arg0_1, arg1_1, arg2_1, arg9_1, arg10_1, buf17, 4096, 768)
        del arg0_1
        del arg10_1
        del arg2_1
        del arg7_1
        del arg9_1
        buf18 = empty_strided((4096, 3072), (3072, 1), torch.float32)
        buf17_v0 = reinterpret_tensor(buf17, (4096, 768), (768, 1), 0)
        # Topologically Sorted Source Nodes: [hidden_states_4, view_8, x_4], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
        extern_kernels.mm(buf17_v0, arg12_1, out=buf18)
        del arg12_1
        buf19 = reinterpret_tensor(buf18, (8, 512, 3072), (1572864, 3072, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [x_4, x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
        launch_triton_poi_fused_add_addmm_mul_pow_tanh_view_6(stream0, buf19, arg11_1, 12582912)
        del arg11_1
        buf20 = reinterpret_tensor(buf17, (4096, 768), (768, 1), 0)  # reuse
        buf19_v0 = reinterpret_tensor(buf19, (4096, 3072), (3072, 1), 0)
        # Topologically Sorted Source Nodes: [x_4, x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5, view_10, x_6], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
        extern_kernels.mm(buf19_v0, arg14_1, out=buf20)
        del arg14_1
        del buf19
        buf24 = empty_strided((8, 512, 768), (393216, 768, 1), torch.float32)
        # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
        launch_triton_per_fused_add_addmm_native_layer_norm_view_7(stream0, buf13, arg13_1, buf20, arg15_1, arg16_1, buf24, 4096, 768)
        del arg15_1
        del arg16_1
        buf25 = empty_strided((4096, 2304), (2304, 1), torch.float32)
        # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, hidden_states_8, view_12, x_8], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
        launch_triton_tem_fused_add_addmm_arange_embedding_native_layer_norm_unsqueeze_view_1_8(stream0, arg17_1, buf24, arg18_1, buf25)
        del arg17_1
        del arg18_1
        buf25_v0 = reinterpret_tensor(buf25, (8, 12, 512, 64), (1179648, 64, 2304, 1), 0)
        buf25_v1 = reinterpret_tensor(buf25, (8, 12, 512, 64), (1179648, 64, 2304, 1), 768)
        buf25_v2 = reinterpret_tensor(buf25, (8, 12, 512, 64), (1179648, 64, 2304, 1), 1536)
        buf26_v0 = reinterpret_tensor(buf26, (8, 12, 512, 512), (262144, 0, 512, 1), 0)
        # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_efficient_attention]
        buf27 = torch.ops.aten._scaled_dot_product_efficient_attention.default(buf25_v0, buf25_v1, buf25_v2, buf26_v0, False, scale=0.125)
        del buf25
        del buf26
        buf28 = buf27[0]
        assert_size_stride(buf28, (8, 12, 512, 64), (393216, 64, 768, 1))
        assert_alignment(buf28, 16)
        del buf27
        buf32 = reinterpret_tensor(buf24, (4096, 768), (768, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [transpose_7, reshape_1, view_17, x_10], Original ATen: [aten.transpose, aten.view, aten.addmm]
        launch_triton_tem_fused_addmm_transpose_view_4_9(stream0, buf28, arg20_1, buf32)
        del arg20_1
        buf33 = reinterpret_tensor(buf32, (8, 512, 768), (393216, 768, 1), 0)  # reuse
        buf37 = reinterpret_tensor(buf28, (8, 512, 768), (393216, 768, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [x_6, x_7, hidden_states_7, x_10, x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
        launch_triton_per_fused_add_addmm_native_layer_norm_view_8(stream0, buf33, arg19_1, buf13, arg13_1, buf20, arg21_1, arg22_1, buf37, 4096, 768)
        del arg13_1
        del arg19_1
        del arg21_1
        del arg22_1
        del buf13
        del buf20
        buf38 = empty_strided((4096, 3072), (3072, 1), torch.float32)
        buf37_v0 = reinterpret_tensor(buf37, (4096, 768), (768, 1), 0)
        # Topologically Sorted Source Nodes: [hidden_states_10, view_19, x_12], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
        extern_kernels.mm(buf37_v0, arg24_1, out=buf38)
        del arg24_1
        buf39 = reinterpret_tensor(buf38, (8, 512, 3072), (1572864, 3072, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [x_12, x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
        launch_triton_poi_fused_add_addmm_mul_pow_tanh_view_6_11(stream0, buf39, arg23_1, 12582912)
        del arg23_1
        buf40 = reinterpret_tensor(buf37, (4096, 768), (768, 1), 0)  # reuse
        buf39_v0 = reinterpret_tensor(buf39, (4096, 3072), (3072, 1), 0)
        # Topologically Sorted Source Nodes: [x_12, x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11, view_21, x_14], Original ATen: [aten.addmm, aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
        extern_kernels.mm(buf39_v0, arg26_1, out=buf40)
        del arg26_1
        del buf39
        buf44 = buf33  # reuse
        # Topologically Sorted Source Nodes: [x_14, x_15, hidden_states_13, hidden_states_14], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm]
        launch_triton_per_fused_add_addmm_native_layer_norm_view_9(stream0, buf44, arg25_1, buf40, arg27_1, arg28_1, 4096, 768)
        del arg25_1
        del arg27_1
        del arg28_1
        del buf40
        buf45 = empty_strided((4096, 50257), (50257, 1), torch.float32)
        buf44_v0 = reinterpret_tensor(buf44, (4096, 768), (768, 1), 0)
        arg1_1_v0 = reinterpret_tensor(arg1_1, (768, 50257), (1, 768), 0)
        # Topologically Sorted Source Nodes: [x_14, x_15, hidden_states_13, hidden_states_14, logits], Original ATen: [aten.addmm, aten.view, aten.add, aten.native_layer_norm, aten.t, aten.mm]
        extern_kernels.mm(buf44_v0, arg1_1_v0, out=buf45)
        del arg1_1
        del buf44
        buf45_v0 = reinterpret_tensor(buf45, (8, 512, 50257), (25731584, 50257, 1), 0)
    return (buf45_v0, )


def get_args():
    arg0_1 = rand_strided((8, 512), (512, 1), torch.int64)
    arg1_1 = rand_strided((50257, 768), (768, 1), torch.float32)
    arg2_1 = rand_strided((1024, 768), (768, 1), torch.float32)
    arg3_1 = rand_strided((768,), (1,), torch.float32)
    arg4_1 = rand_strided((768,), (1,), torch.float32)
    arg5_1 = rand_strided((2304,), (1,), torch.float32)
    arg6_1 = rand_strided((768, 2304), (2304, 1), torch.float32)
    arg7_1 = rand_strided((768,), (1,), torch.float32)
    arg8_1 = rand_strided((768, 768), (768, 1), torch.float32)
    arg9_1 = rand_strided((768,), (1,), torch.float32)
    arg10_1 = rand_strided((768,), (1,), torch.float32)
    arg11_1 = rand_strided((3072,), (1,), torch.float32)
    arg12_1 = rand_strided((768, 3072), (3072, 1), torch.float32)
    arg13_1 = rand_strided((768,), (1,), torch.float32)
    arg14_1 = rand_strided((3072, 768), (768, 1), torch.float32)
    arg15_1 = rand_strided((768,), (1,), torch.float32)
    arg16_1 = rand_strided((768,), (1,), torch.float32)
    arg17_1 = rand_strided((2304,), (1,), torch.float32)
    arg18_1 = rand_strided((768, 2304), (2304, 1), torch.float32)
    arg19_1 = rand_strided((768,), (1,), torch.float32)
    arg20_1 = rand_strided((768, 768), (768, 1), torch.float32)
    arg21_1 = rand_strided((768,), (1,), torch.float32)
    arg22_1 = rand_strided((768,), (1,), torch.float32)
    arg23_1 = rand_strided((3072,), (1,), torch.float32)
    arg24_1 = rand_strided((768, 3072), (3072, 1), torch.float32)
    arg25_1 = rand_strided((768,), (1,), torch.float32)
    arg26_1 = rand_strided((3072, 768), (768, 1), torch.float32)
    arg27_1 = rand_strided((768,), (1,), torch.float32)
    arg28_1 = rand_strided((768,), (1,), torch.float32)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1]


def benchmark(args=None, warmup=25, rep=100):
    """Median milliseconds of one call(args): triton.testing.do_bench on a GPU, a timed loop otherwise."""
    args = get_args() if args is None else args
    if torch.cuda.is_available() and DEVICE.startswith("cuda"):
        from triton.testing import do_bench
        return do_bench(lambda: call(list(args)), warmup=warmup, rep=rep, return_mode="median")
    import time
    call(list(args))
    times = []
    for _ in range(5):
        start = time.perf_counter()
        call(list(args))
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


if __name__ == "__main__":
    print(f"{__file__}: {benchmark():.4f} ms per call (median)")
