"""depthwise_conv.default.0: emitted by KernelOPT 0.1.0 (emit-python, style standalone).

Source: /tmp/kernelopt-optimize-_pbwgx6z/default/depthwise_conv.default.0.py (inductor output module, captured with torch 2.11.0+cu130, device cuda:0)
Emitted with: torch 2.11.0+cu130, triton 3.6.0, on 2026-12-03
Launch configs tuned on: NVIDIA H200
Launch config sources: capture x1, retune x1
Precision policy: strict (fp32 math stays fp32: no TF32 or bf16 dots)
Needs at run time: torch and triton only on a GPU (no torch._inductor).

Rewritten kernels (accepted by the legality gate):
  @triton_per_fused_convolution_gelu_native_layer_norm_permute_1:
    proposer: retune
    strategy: retune XBLOCK=2 num_warps=2 num_stages=1
    speedup: 1.0729
    time_us: 75.904
    baseline_us: 81.44
    timed_by: cuda-events
    evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 1.1957181353763557e-07}
    recheck: ACCEPT
  @convolution_vendor2:
    proposer: templates
    strategy: templates:depthwise-conv2d 7x7 BLOCK_W=8 BLOCK_C=128 warps=4
    speedup: 1.1787
    time_us: 415.6
    baseline_us: 489.856
    timed_by: cuda-events
    evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 1.2451373561476552e-07}
    recheck: ACCEPT
    replaces: ['extern_kernels.convolution']
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



# ---- triton_poi_fused_convolution_0 (pointwise) ----
@triton.jit
def triton_poi_fused_convolution_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 8192
    xnumel = 3136
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = (yindex % 256)
    y1 = yindex // 256
    tmp0 = tl.load(in_ptr0 + (x2 + 3136*y3), xmask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 256*x2 + 802816*y1), tmp0, xmask)


# ---- triton_per_fused_convolution_gelu_native_layer_norm_permute_1 (persistent_reduction) ----
# REWRITTEN by KernelOPT:
#   proposer: retune
#   strategy: retune XBLOCK=2 num_warps=2 num_stages=1
#   speedup: 1.0729
#   time_us: 75.904
#   baseline_us: 81.44
#   timed_by: cuda-events
#   evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 1.1957181353763557e-07}
#   recheck: ACCEPT
@triton.jit
def triton_per_fused_convolution_gelu_native_layer_norm_permute_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 100352
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
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 256*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1), None, eviction_policy='evict_last')
    tmp26 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last')
    tmp28 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp8 = tl.where(xmask, tmp6, 0)
    tmp9 = tl.sum(tmp8, 1)[:, None].to(tl.float32)
    tmp10 = tl.full([1, 1], 256, tl.int32)
    tmp11 = tmp10.to(tl.float32)
    tmp12 = (tmp9 / tmp11)
    tmp13 = tmp3 - tmp12
    tmp14 = tmp13 * tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp17 = tl.where(xmask, tmp15, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tmp19 = tmp2 - tmp12
    tmp20 = tl.full([1, 1], 256.0, tl.float32)
    tmp21 = (tmp18 / tmp20)
    tmp22 = tl.full([1, 1], 1e-06, tl.float32)
    tmp23 = tmp21 + tmp22
    tmp24 = libdevice.rsqrt(tmp23)
    tmp25 = tmp19 * tmp24
    tmp27 = tmp25 * tmp26
    tmp29 = tmp27 + tmp28
    tmp30 = tl.full([1, 1], 0.5, tl.float32)
    tmp31 = tmp29 * tmp30
    tmp32 = tl.full([1, 1], 0.7071067811865476, tl.float32)
    tmp33 = tmp29 * tmp32
    tmp34 = libdevice.erf(tmp33)
    tmp35 = tl.full([1, 1], 1.0, tl.float32)
    tmp36 = tmp34 + tmp35
    tmp37 = tmp31 * tmp36
    tl.store(in_out_ptr0 + (r0_1 + 256*x0), tmp37, xmask)


# ---- rewrite of convolution_vendor2 (candidate format: run(*args) with the original launch arguments) ----
# REWRITTEN by KernelOPT:
#   proposer: templates
#   strategy: templates:depthwise-conv2d 7x7 BLOCK_W=8 BLOCK_C=128 warps=4
#   speedup: 1.1787
#   time_us: 415.6
#   baseline_us: 489.856
#   timed_by: cuda-events
#   evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 1.2451373561476552e-07}
#   recheck: ACCEPT
#   replaces: ['extern_kernels.convolution']
# KernelOPT expert template: depthwise conv2d 7x7 (stride 1x1, padding 3x3, dilation 1x1), fp32 accumulation
# Applies when: F.conv2d(x, weight, None, stride=(1, 1), padding=(3, 3), dilation=(1, 1), groups=C) on x [N, C, H, W] (bf16/fp16/fp32, any strides; channels-last is the fast case), weight [C, 1, 7, 7] any strides; out [N, C, OH, OW] preallocated, any strides and float dtype.
# Rendered by kernelopt.proposers.templates; candidate format: _rw_convolution_vendor2_run(*args) with the original launch's
# positional arguments, results left in the original output tensors.
# One program per (output row n*OH + oh, BLOCK_W (=8) output columns, BLOCK_C (=128) channels):
# a [BLOCK_W, BLOCK_C] tile with channels as the fast axis, so in channels-last memory every tap's load is
# BLOCK_W runs of BLOCK_C contiguous elements (vectorised once the unit channel stride is specialised).
# The 49 taps are unrolled (tl.static_range): each tap loads one weight vector (BLOCK_C values, once
# per program) and one shifted input tile; padding is a masked load with other=0. Neighbouring taps and
# neighbouring output rows (consecutive programs along grid axis 0) re-read the same input lines, which
# L1/L2 serve. Offsets are int64 (tensors can exceed 2**31 bytes); shapes and strides are read at call time.


@triton.jit
def _rw_convolution_vendor2_ko_depthwise_conv2d(x_ptr, w_ptr, b_ptr, out_ptr, C, H, W, OH, OW,
                        sxn, sxc, sxh, sxw, swc, swh, sww, sb, son, soc, soh, sow,
                        SH: tl.constexpr, SW: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr,
                        DH: tl.constexpr, DW: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
                        HAS_BIAS: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_C: tl.constexpr):
    row = tl.program_id(0)
    n = (row // OH).to(tl.int64)
    oh = row % OH
    ow = tl.program_id(1) * BLOCK_W + tl.arange(0, BLOCK_W)
    ch = (tl.program_id(2) * BLOCK_C + tl.arange(0, BLOCK_C)).to(tl.int64)
    ow_ok = ow < OW
    ch_ok = ch < C
    zeros_w = tl.zeros([BLOCK_W], tl.int32)
    # The tap-independent part of the input offset, computed once; each tap adds a scalar shift.
    x_tile = x_ptr + n * sxn + (ow * SW).to(tl.int64)[:, None] * sxw + ch[None, :] * sxc
    w_ch = w_ptr + ch * swc
    acc = tl.zeros([BLOCK_W, BLOCK_C], tl.float32)
    for i in tl.static_range(KH):
        ih = oh * SH - PH + i * DH
        # The row test is made on a [BLOCK_W] vector, not a scalar bool: the Triton interpreter (3.9)
        # broadcasts scalar bools as int32, which its masked load rejects. A padding row masks the whole
        # tile (masked lanes cause no memory traffic).
        row_ok = ow_ok & (ih + zeros_w >= 0) & (ih + zeros_w < H)
        x_line = x_tile + ih.to(tl.int64) * sxh
        for j in tl.static_range(KW):
            iw = ow * SW + (j * DW - PW)
            ok = (row_ok & (iw >= 0) & (iw < W))[:, None] & ch_ok[None, :]
            wv = tl.load(w_ch + (i * swh + j * sww), mask=ch_ok, other=0.0).to(tl.float32)
            xv = tl.load(x_line + (j * DW - PW) * sxw, mask=ok, other=0.0).to(tl.float32)
            acc += xv * wv[None, :]
    if HAS_BIAS:
        acc += tl.load(b_ptr + ch * sb, mask=ch_ok, other=0.0).to(tl.float32)[None, :]
    out_tile = out_ptr + n * son + oh.to(tl.int64) * soh + ow.to(tl.int64)[:, None] * sow + ch[None, :] * soc
    tl.store(out_tile, acc.to(out_ptr.dtype.element_ty), mask=ow_ok[:, None] & ch_ok[None, :])


def _rw_convolution_vendor2_run(*args):
    x = args[0]
    weight = args[1]
    bias = None
    out = args[2]
    n_batch, channels, height, width = x.shape
    out_h, out_w = out.shape[2], out.shape[3]
    if out.numel() == 0:
        return
    # Without a bias the kernel never dereferences b_ptr (HAS_BIAS is constexpr); x stands in for it.
    _rw_convolution_vendor2_ko_depthwise_conv2d[(n_batch * out_h, triton.cdiv(out_w, 8), triton.cdiv(channels, 128))](
        x, weight, x, out, channels, height, width, out_h, out_w,
        x.stride(0), x.stride(1), x.stride(2), x.stride(3),
        weight.stride(0), weight.stride(2), weight.stride(3), 0,
        out.stride(0), out.stride(1), out.stride(2), out.stride(3),
        SH=1, SW=1, PH=3, PW=3, DH=1, DW=1, KH=7, KW=7,
        HAS_BIAS=False, BLOCK_W=8, BLOCK_C=128,
        num_warps=4)


_KERNELS = globals()

# One launch object per launch site: kernel, grid, block sizes, num_warps, num_stages.
launch_triton_poi_fused_convolution_0 = _Launch('triton_poi_fused_convolution_0', grid=(98, 256, 1), meta={'YBLOCK': 32, 'XBLOCK': 32}, options={'num_warps': 4, 'num_stages': 1}, tensors=(0, 1), direct=True)  # config: capture
launch_triton_per_fused_convolution_gelu_native_layer_norm_permute_1 = _Launch('triton_per_fused_convolution_gelu_native_layer_norm_permute_1', grid=(50176, 1, 1), meta={'XBLOCK': 2}, options={'num_warps': 2, 'num_stages': 1}, tensors=(0, 1, 2, 3), direct=True)  # config: retune


def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1, arg4_1 = args
    args.clear()
    assert_size_stride(arg0_1, (256, 1, 7, 7), (49, 49, 7, 1))
    assert_size_stride(arg1_1, (256,), (1,))
    assert_size_stride(arg2_1, (32, 256, 56, 56), (802816, 3136, 56, 1))
    assert_size_stride(arg3_1, (256,), (1,))
    assert_size_stride(arg4_1, (256,), (1,))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided((32, 256, 56, 56), (802816, 1, 14336, 256), torch.float32)
        # Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
        stream0 = get_raw_stream(0)
        launch_triton_poi_fused_convolution_0(stream0, arg2_1, buf0, 8192, 3136)
        del arg2_1
        buf1 = empty_strided((32, 256, 56, 56), (802816, 1, 14336, 256), torch.float32)
        _rw_convolution_vendor2_run(buf0, arg0_1, buf1)
        assert_size_stride(buf1, (32, 256, 56, 56), (802816, 1, 14336, 256))
        del arg0_1
        del buf0
        buf5 = reinterpret_tensor(buf1, (32, 56, 56, 256), (802816, 14336, 256, 1), 0)  # reuse
        buf6 = buf5  # reuse
        # Topologically Sorted Source Nodes: [conv2d, y, layer_norm, gelu], Original ATen: [aten.convolution, aten.permute, aten.native_layer_norm, aten.gelu]
        launch_triton_per_fused_convolution_gelu_native_layer_norm_permute_1(stream0, buf6, arg1_1, arg3_1, arg4_1, 100352, 256)
        del arg1_1
        del arg3_1
        del arg4_1
        buf6_v0 = reinterpret_tensor(buf6, (32, 256, 56, 56), (802816, 1, 14336, 256), 0)
    return (buf6_v0, )


def get_args():
    arg0_1 = rand_strided((256, 1, 7, 7), (49, 49, 7, 1), torch.float32)
    arg1_1 = rand_strided((256,), (1,), torch.float32)
    arg2_1 = rand_strided((32, 256, 56, 56), (802816, 3136, 56, 1), torch.float32)
    arg3_1 = rand_strided((256,), (1,), torch.float32)
    arg4_1 = rand_strided((256,), (1,), torch.float32)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1]


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
