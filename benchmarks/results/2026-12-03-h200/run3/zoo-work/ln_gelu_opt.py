"""ln_gelu.default.0: emitted by KernelOPT 0.1.0 (emit-python, style standalone).

Source: /tmp/kernelopt-optimize-xdnm4mf6/default/ln_gelu.default.0.py (inductor output module, captured with torch 2.11.0+cu130, device cuda:0)
Emitted with: torch 2.11.0+cu130, triton 3.6.0, on 2026-12-03
Launch configs tuned on: NVIDIA H200
Launch config sources: none
Precision policy: strict (fp32 math stays fp32: no TF32 or bf16 dots)
Needs at run time: torch and triton only on a GPU (no torch._inductor).

Rewritten kernels (accepted by the legality gate):
  @triton_red_fused_add_gelu_mul_native_layer_norm_0:
    proposer: templates
    strategy: templates:layernorm + epilogue row-on-chip BLOCK=4096 rows=1 warps=4
    speedup: 1.1567
    time_us: 95.776
    baseline_us: 110.784
    timed_by: cuda-events
    evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 0.0017008255878488187}
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



# ---- rewrite of triton_red_fused_add_gelu_mul_native_layer_norm_0 (candidate format: run(*args) with the original launch arguments) ----
# REWRITTEN by KernelOPT:
#   proposer: templates
#   strategy: templates:layernorm + epilogue row-on-chip BLOCK=4096 rows=1 warps=4
#   speedup: 1.1567
#   time_us: 95.776
#   baseline_us: 110.784
#   timed_by: cuda-events
#   evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 0.0017008255878488187}
#   recheck: ACCEPT
# KernelOPT expert template: LayerNorm over the last dim, row on chip (input read once)
# Applies when: LayerNorm of x [M, N] + residual r [M, N] (bf16/fp16/fp32, unit stride along N, any row stride), eps=1e-05, weight [N], bias [N]; out [M, N] any float dtype; N <= BLOCK (4096), max row length 32768; then out = ((((y * 0.5) * (tl.math.erf((y * 0.7071067811865476)) + 1.0)) * 0.5) + e0) elementwise, y the normalised value.
# Rendered by kernelopt.proposers.templates; candidate format: _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0_run(*args) with the original launch's
# positional arguments, results left in the original output tensors.
# Statistics in fp32 from registers: mean = sum(x)/N, var = sum((x-mean)^2)/N (two moments, no cancellation);
# rstd = rsqrt(var + eps); y = (x - mean) * rstd * w + b, cast to out's dtype once.


@triton.jit
def _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0_ko_row_norm(x_ptr, r_ptr, w_ptr, b_ptr, out_ptr, mean_ptr, rstd_ptr,
                M, N, stride_x, stride_r, stride_out, stride_mean, stride_rstd, eps,
                e0_ptr, stride_e0,
                ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = (tl.program_id(0) * ROWS + tl.arange(0, ROWS)).to(tl.int64)
    cols = tl.arange(0, BLOCK)[None, :]
    col_ok = cols < N
    ok = (rows[:, None] < M) & col_ok
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols, mask=ok, other=0.0).to(tl.float32)
    x = x + tl.load(r_ptr + rows[:, None] * stride_r + cols, mask=ok, other=0.0).to(tl.float32)
    mean = tl.sum(x, 1) / N
    xc = tl.where(col_ok, x - mean[:, None], 0.0)
    var = tl.sum(xc * xc, 1) / N
    rstd = tl.rsqrt(var + eps)
    y = xc * rstd[:, None]
    y = y * tl.load(w_ptr + cols, mask=col_ok, other=0.0).to(tl.float32)
    y = y + tl.load(b_ptr + cols, mask=col_ok, other=0.0).to(tl.float32)
    e0 = tl.load(e0_ptr + rows[:, None] * stride_e0 + cols, mask=ok, other=0.0).to(tl.float32)
    y = ((((y * 0.5) * (tl.math.erf((y * 0.7071067811865476)) + 1.0)) * 0.5) + e0)      # the original's elementwise epilogue, in fp32 like the original
    tl.store(out_ptr + rows[:, None] * stride_out + cols, y.to(out_ptr.dtype.element_ty), mask=ok)


def _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0__rows(t, n_cols):
    return t if t is None or t.dim() == 2 else t.view(-1, n_cols)


def _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0_run(*args):
    x = args[0]
    residual = args[1]
    weight = args[2]
    bias = args[3]
    out = args[4]
    mean = None
    rstd = None
    e0 = args[1]
    n_cols = 4096
    x2, r2, out2 = _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0__rows(x, n_cols), _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0__rows(residual, n_cols), _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0__rows(out, n_cols)
    n_rows = x2.shape[0]
    mean_buf = mean if mean is not None else out2
    rstd_buf = rstd if rstd is not None else out2
    _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0_ko_row_norm[(triton.cdiv(n_rows, 1),)](
        x2, r2 if r2 is not None else x2, weight if weight is not None else x2, bias if bias is not None else x2,
        out2, mean_buf, rstd_buf, n_rows, n_cols, x2.stride(0), r2.stride(0) if r2 is not None else 0,
        out2.stride(0), 1, 1, 1e-05,
        _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0__rows(e0, n_cols), _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0__rows(e0, n_cols).stride(0),
        ROWS=1, BLOCK=4096, num_warps=4)


_KERNELS = globals()

# One launch object per launch site: kernel, grid, block sizes, num_warps, num_stages.


def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1 = args
    args.clear()
    assert_size_stride(arg0_1, (8192, 4096), (4096, 1))
    assert_size_stride(arg1_1, (8192, 4096), (4096, 1))
    assert_size_stride(arg2_1, (4096,), (1,))
    assert_size_stride(arg3_1, (4096,), (1,))
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf4 = empty_strided((8192, 4096), (4096, 1), torch.bfloat16)
        # Topologically Sorted Source Nodes: [add, layer_norm, gelu, mul, add_1], Original ATen: [aten.add, aten.native_layer_norm, aten.gelu, aten.mul]
        stream0 = get_raw_stream(0)
        _rw_triton_red_fused_add_gelu_mul_native_layer_norm_0_run(arg0_1, arg1_1, arg2_1, arg3_1, buf4, 8192, 4096)
        del arg0_1
        del arg1_1
        del arg2_1
        del arg3_1
    return (buf4, )


def get_args():
    arg0_1 = rand_strided((8192, 4096), (4096, 1), torch.bfloat16)
    arg1_1 = rand_strided((8192, 4096), (4096, 1), torch.bfloat16)
    arg2_1 = rand_strided((4096,), (1,), torch.bfloat16)
    arg3_1 = rand_strided((4096,), (1,), torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1]


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
