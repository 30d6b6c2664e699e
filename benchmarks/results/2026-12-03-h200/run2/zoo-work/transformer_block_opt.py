"""transformer_block.default.0: emitted by KernelOPT 0.1.0 (emit-python, style standalone).

Source: /tmp/kernelopt-optimize-9h4_epba/default/transformer_block.default.0.py (inductor output module, captured with torch 2.11.0+cu130, device cuda:0)
Emitted with: torch 2.11.0+cu130, triton 3.6.0, on 2026-12-03
Launch configs tuned on: NVIDIA H200
Launch config sources: capture x3, retune x1
Precision policy: strict (fp32 math stays fp32: no TF32 or bf16 dots)
Needs at run time: torch and triton only on a GPU (no torch._inductor).

Rewritten kernels (accepted by the legality gate):
  @triton_poi_fused_gelu_view_2:
    proposer: retune
    strategy: retune XBLOCK=2048 num_warps=4 num_stages=1
    speedup: 1.0623
    time_us: 58.592
    baseline_us: 62.24
    timed_by: cuda-events
    evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 0.0017881390478144757}
    recheck: ACCEPT
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



# ---- triton_per_fused_native_layer_norm_0 (persistent_reduction) ----
@triton.jit
def triton_per_fused_native_layer_norm_0(in_ptr0, in_ptr1, in_ptr2, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8192
    r0_numel = 1024
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 1024*x0), None).to(tl.float32)
    tmp22 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp25 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp6 = tl.sum(tmp4, 1)[:, None].to(tl.float32)
    tmp7 = tl.full([1, 1], 1024, tl.int32)
    tmp8 = tmp7.to(tl.float32)
    tmp9 = (tmp6 / tmp8)
    tmp10 = tmp2 - tmp9
    tmp11 = tmp10 * tmp10
    tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp14 = tl.sum(tmp12, 1)[:, None].to(tl.float32)
    tmp15 = tmp1 - tmp9
    tmp16 = tl.full([1, 1], 1024.0, tl.float32)
    tmp17 = (tmp14 / tmp16)
    tmp18 = tl.full([1, 1], 1e-05, tl.float32)
    tmp19 = tmp17 + tmp18
    tmp20 = libdevice.rsqrt(tmp19)
    tmp21 = tmp15 * tmp20
    tmp23 = tmp22.to(tl.float32)
    tmp24 = tmp21 * tmp23
    tmp26 = tmp25.to(tl.float32)
    tmp27 = tmp24 + tmp26
    tmp28 = tmp27.to(tl.float32)
    tl.store(out_ptr2 + (r0_1 + 1024*x0), tmp28, None)


# ---- triton_per_fused_add_native_layer_norm_view_1 (persistent_reduction) ----
@triton.jit
def triton_per_fused_add_native_layer_norm_view_1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8192
    r0_numel = 1024
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 1024*x0), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 1024*x0), None).to(tl.float32)
    tmp24 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp27 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp8 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp9 = tl.full([1, 1], 1024, tl.int32)
    tmp10 = tmp9.to(tl.float32)
    tmp11 = (tmp8 / tmp10)
    tmp12 = tmp4 - tmp11
    tmp13 = tmp12 * tmp12
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp17 = tmp3 - tmp11
    tmp18 = tl.full([1, 1], 1024.0, tl.float32)
    tmp19 = (tmp16 / tmp18)
    tmp20 = tl.full([1, 1], 1e-05, tl.float32)
    tmp21 = tmp19 + tmp20
    tmp22 = libdevice.rsqrt(tmp21)
    tmp23 = tmp17 * tmp22
    tmp25 = tmp24.to(tl.float32)
    tmp26 = tmp23 * tmp25
    tmp28 = tmp27.to(tl.float32)
    tmp29 = tmp26 + tmp28
    tmp30 = tmp29.to(tl.float32)
    tl.store(out_ptr2 + (r0_1 + 1024*x0), tmp30, None)


# ---- triton_poi_fused_gelu_view_2 (pointwise) ----
# REWRITTEN by KernelOPT:
#   proposer: retune
#   strategy: retune XBLOCK=2048 num_warps=4 num_stages=1
#   speedup: 1.0623
#   time_us: 58.592
#   baseline_us: 62.24
#   timed_by: cuda-events
#   evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 0.0017881390478144757}
#   recheck: ACCEPT
@triton.jit
def triton_poi_fused_gelu_view_2(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 33554432
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


# ---- triton_poi_fused_add_view_3 (pointwise) ----
@triton.jit
def triton_poi_fused_add_view_3(in_out_ptr0, in_ptr0, in_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8388608
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None).to(tl.float32)
    tmp1 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)
    tmp3 = tl.load(in_ptr1 + (x0), None).to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tl.store(in_out_ptr0 + (x0), tmp4, None)

_KERNELS = globals()

# One launch object per launch site: kernel, grid, block sizes, num_warps, num_stages.
launch_triton_per_fused_native_layer_norm_0 = _Launch('triton_per_fused_native_layer_norm_0', grid=(8192, 1, 1), meta={'XBLOCK': 1}, options={'num_warps': 1, 'num_stages': 1}, tensors=(0, 1, 2, 3), direct=True)  # config: capture
launch_triton_per_fused_add_native_layer_norm_view_1 = _Launch('triton_per_fused_add_native_layer_norm_view_1', grid=(8192, 1, 1), meta={'XBLOCK': 1}, options={'num_warps': 1, 'num_stages': 1}, tensors=(0, 1, 2, 3, 4), direct=True)  # config: capture
launch_triton_poi_fused_gelu_view_2 = _Launch('triton_poi_fused_gelu_view_2', grid=(16384, 1, 1), meta={'XBLOCK': 2048}, options={'num_warps': 4, 'num_stages': 1}, tensors=(0,), direct=True)  # config: retune
launch_triton_poi_fused_add_view_3 = _Launch('triton_poi_fused_add_view_3', grid=(8192, 1, 1), meta={'XBLOCK': 1024}, options={'num_warps': 4, 'num_stages': 1}, tensors=(0, 1, 2), direct=True)  # config: capture


def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1 = args
    args.clear()
    assert_size_stride(arg0_1, (8, 1024, 1024), (1048576, 1024, 1))
    assert_size_stride(arg1_1, (1024,), (1,))
    assert_size_stride(arg2_1, (1024,), (1,))
    assert_size_stride(arg3_1, (3072, 1024), (1024, 1))
    assert_size_stride(arg4_1, (3072,), (1,))
    assert_size_stride(arg5_1, (1024, 1024), (1024, 1))
    assert_size_stride(arg6_1, (1024,), (1,))
    assert_size_stride(arg7_1, (1024,), (1,))
    assert_size_stride(arg8_1, (1024,), (1,))
    assert_size_stride(arg9_1, (4096, 1024), (1024, 1))
    assert_size_stride(arg10_1, (4096,), (1,))
    assert_size_stride(arg11_1, (1024, 4096), (4096, 1))
    assert_size_stride(arg12_1, (1024,), (1,))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf3 = empty_strided((8, 1024, 1024), (1048576, 1024, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [layer_norm], Original ATen: [aten.native_layer_norm]
        stream0 = get_raw_stream(0)
        launch_triton_per_fused_native_layer_norm_0(stream0, arg0_1, arg1_1, arg2_1, buf3, 8192, 1024)
        del arg1_1
        del arg2_1
        buf4 = empty_strided((8192, 3072), (3072, 1), torch.bfloat16)
        buf3_v0 = reinterpret_tensor(buf3, (8192, 1024), (1024, 1), 0)
        arg3_1_v0 = reinterpret_tensor(arg3_1, (1024, 3072), (1, 1024), 0)
        # Topologically Sorted Source Nodes: [layer_norm, linear], Original ATen: [aten.native_layer_norm, aten.view, aten.t, aten.addmm]
        extern_kernels.addmm(arg4_1, buf3_v0, arg3_1_v0, alpha=1, beta=1, out=buf4)
        del arg3_1
        del arg4_1
        buf4_v0 = reinterpret_tensor(buf4, (8, 16, 1024, 64), (3145728, 64, 3072, 1), 0)
        buf4_v1 = reinterpret_tensor(buf4, (8, 16, 1024, 64), (3145728, 64, 3072, 1), 1024)
        buf4_v2 = reinterpret_tensor(buf4, (8, 16, 1024, 64), (3145728, 64, 3072, 1), 2048)
        # Topologically Sorted Source Nodes: [linear, view, permute, q, k, v, attn], Original ATen: [aten.view, aten.permute, aten.select, aten._scaled_dot_product_cudnn_attention]
        buf5 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(buf4_v0, buf4_v1, buf4_v2, None, False, 0.0, True)
        del buf4
        buf6 = buf5[0]
        assert_size_stride(buf6, (8, 16, 1024, 64), (1048576, 64, 1024, 1))
        assert_alignment(buf6, 16)
        del buf5
        buf10 = reinterpret_tensor(buf3, (8192, 1024), (1024, 1), 0)  # reuse
        buf6_v0 = reinterpret_tensor(buf6, (8192, 1024), (1024, 1), 0)
        arg5_1_v0 = reinterpret_tensor(arg5_1, (1024, 1024), (1, 1024), 0)
        # Topologically Sorted Source Nodes: [transpose, reshape, linear_1], Original ATen: [aten.transpose, aten.view, aten.t, aten.addmm]
        extern_kernels.addmm(arg6_1, buf6_v0, arg5_1_v0, alpha=1, beta=1, out=buf10)
        del arg5_1
        del arg6_1
        buf14 = reinterpret_tensor(buf6, (8, 1024, 1024), (1048576, 1024, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [linear_1, x, layer_norm_1], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
        launch_triton_per_fused_add_native_layer_norm_view_1(stream0, arg0_1, buf10, arg7_1, arg8_1, buf14, 8192, 1024)
        del arg7_1
        del arg8_1
        buf15 = empty_strided((8192, 4096), (4096, 1), torch.bfloat16)
        buf14_v0 = reinterpret_tensor(buf14, (8192, 1024), (1024, 1), 0)
        arg9_1_v0 = reinterpret_tensor(arg9_1, (1024, 4096), (1, 1024), 0)
        # Topologically Sorted Source Nodes: [linear_1, x, layer_norm_1, linear_2], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.t, aten.addmm]
        extern_kernels.addmm(arg10_1, buf14_v0, arg9_1_v0, alpha=1, beta=1, out=buf15)
        del arg10_1
        del arg9_1
        del buf14
        buf16 = reinterpret_tensor(buf15, (8, 1024, 4096), (4194304, 4096, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [linear_2, gelu], Original ATen: [aten.view, aten.gelu]
        launch_triton_poi_fused_gelu_view_2(stream0, buf16, 33554432)
        buf17 = empty_strided((8192, 1024), (1024, 1), torch.bfloat16)
        buf16_v0 = reinterpret_tensor(buf16, (8192, 4096), (4096, 1), 0)
        arg11_1_v0 = reinterpret_tensor(arg11_1, (4096, 1024), (1, 4096), 0)
        # Topologically Sorted Source Nodes: [linear_2, gelu, linear_3], Original ATen: [aten.view, aten.gelu, aten.t, aten.addmm]
        extern_kernels.addmm(arg12_1, buf16_v0, arg11_1_v0, alpha=1, beta=1, out=buf17)
        del arg11_1
        del arg12_1
        del buf16
        buf18 = reinterpret_tensor(buf10, (8, 1024, 1024), (1048576, 1024, 1), 0)  # reuse
        # Topologically Sorted Source Nodes: [linear_1, x, linear_3, add_1], Original ATen: [aten.view, aten.add]
        launch_triton_poi_fused_add_view_3(stream0, buf18, arg0_1, buf17, 8388608)
        del arg0_1
        del buf17
    return (buf18, )


def get_args():
    arg0_1 = rand_strided((8, 1024, 1024), (1048576, 1024, 1), torch.bfloat16)
    arg1_1 = rand_strided((1024,), (1,), torch.bfloat16)
    arg2_1 = rand_strided((1024,), (1,), torch.bfloat16)
    arg3_1 = rand_strided((3072, 1024), (1024, 1), torch.bfloat16)
    arg4_1 = rand_strided((3072,), (1,), torch.bfloat16)
    arg5_1 = rand_strided((1024, 1024), (1024, 1), torch.bfloat16)
    arg6_1 = rand_strided((1024,), (1,), torch.bfloat16)
    arg7_1 = rand_strided((1024,), (1,), torch.bfloat16)
    arg8_1 = rand_strided((1024,), (1,), torch.bfloat16)
    arg9_1 = rand_strided((4096, 1024), (1024, 1), torch.bfloat16)
    arg10_1 = rand_strided((4096,), (1,), torch.bfloat16)
    arg11_1 = rand_strided((1024, 4096), (4096, 1), torch.bfloat16)
    arg12_1 = rand_strided((1024,), (1,), torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1]


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
