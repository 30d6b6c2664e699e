# kernelopt-output
"""diag_matmul.default.0: emitted by KernelOPT 0.1.0 (emit-python, style standalone).

Source: /tmp/tmp.7jm9UQ8tyE/one/work/diag_matmul.default.0.py (inductor output module, captured with torch 2.11.0+cu130, device cuda:0)
Emitted with: torch 2.11.0+cu130, triton 3.6.0, on 2026-12-07
Launch configs tuned on: NVIDIA H200
Launch config sources: none
Precision policy: strict (fp32 math stays fp32: no TF32 or bf16 dots)
Needs at run time: torch and triton only on a GPU (no torch._inductor).
CUDA graphs: off (call() launches every kernel from the host; `auto` leaves them off on the CPU and for arguments over 1 GiB, where a graph saves no time).

Rewritten kernels (accepted by the legality gate):
  @triton_poi_fused_diag_embed_0_group0:
    proposer: diagonal-operand
    strategy: diagonal-operand left XBLOCK=32 KO_BLOCK=128 num_warps=4
    speedup: 29.8714
    time_us: 91.808
    baseline_us: 2742.432
    timed_by: cuda-events
    evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 0.0}
    recheck: ACCEPT
    replaces: ['triton_poi_fused_diag_embed_0', 'extern_kernels.mm']
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


# Read once: every launch asks whether a hook is installed (a tool may add one between calls), and
# looking the knobs object up again cost ~0.4 us of the ~0.7 us that question took per launch.
_RUNTIME_KNOBS = getattr(_triton_knobs, "runtime", None)


def _launch_hooks_installed():
    runtime = _RUNTIME_KNOBS
    if runtime is None:
        return False
    enter = getattr(runtime, "launch_enter_hook", None)
    exit_hook = getattr(runtime, "launch_exit_hook", None)
    return (enter is not None and _hook_active(enter)) or (exit_hook is not None and _hook_active(exit_hook))


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


class _FastJIT:
    """A rewrite's kernel, which its `run(*args)` launches as `kernel[grid](*args, **constexprs)`. Triton's JIT
    binds the arguments, computes their specialization and looks its cache up on every such call (several
    microseconds of host time, more than a small kernel runs); here the first call with a given key goes through
    the JIT and loads the compiled kernel into torch's C++ launcher, and later calls with the same key launch it
    directly, as a `_Launch` site does. The key is finer than Triton's specialization: the keyword values, each
    tensor's dtype and 16-byte alignment, every other argument's type and exact value (a constexpr passed
    positionally is then always its own key). A callable grid, a launch hook, a CPU run or anything the C++
    launcher refuses takes the JIT, as before."""

    __slots__ = ("fn", "paths")
    MAX_PATHS = 64                    # keys past this (an argument changing every call) take the JIT

    def __init__(self, fn):
        self.fn = fn
        self.paths = {}

    def __getattr__(self, name):      # anything else a run() reads (`.run`, `.warmup`) is the kernel's own
        return getattr(self.fn, name)

    def __getitem__(self, grid):
        def launch(*args, **meta):
            return self._launch(grid, args, meta)
        return launch

    def _key(self, args, meta):
        parts = [tuple(meta.items())]
        for a in args:
            if isinstance(a, torch.Tensor):
                parts.append((a.dtype, a.data_ptr() & 15 == 0, a.device.index))
            else:
                parts.append((type(a), a))
        return tuple(parts)

    def _launch(self, grid, args, meta):
        if _STATIC is None or callable(grid) or _launch_hooks_installed():
            return self.fn[grid](*args, **meta)
        try:
            key = self._key(args, meta)
            fast = self.paths.get(key)
        except TypeError:             # an unhashable argument: the JIT decides
            return self.fn[grid](*args, **meta)
        if fast:
            index = next((a.device.index for a in args if isinstance(a, torch.Tensor)), None)
            try:
                fast((tuple(map(int, grid)) + (1, 1))[:3], get_raw_stream(index or 0), args)
                return None
            except (TypeError, ValueError, RuntimeError):   # refused before launching (a grid of numpy ints)
                self.paths[key] = fast = False
        kernel = self.fn[grid](*args, **meta)
        if fast is None and len(self.paths) < self.MAX_PATHS \
                and all(not isinstance(a, torch.Tensor) or a.device.type != "cpu" for a in args):
            try:
                self.paths[key] = _StaticKernel(kernel, len(args)).launch
            except Exception:         # what torch's launcher cannot take (see _StaticKernel): the JIT for this key
                self.paths[key] = False
        return kernel


def _fast_launches(name):
    """Launch the rewrite kernel `name` through `_FastJIT` (a plain @triton.jit function; anything else is left)."""
    if isinstance(globals()[name], _JITFunction):
        globals()[name] = _FastJIT(globals()[name])


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


# The allocator entry points Inductor's own wrappers use (C++ fast paths, torch >= 2.1) when this torch
# has them, as Inductor's module does: no Python frame per buffer. On a GPU it allocates on the current
# device, which call() sets with its device guard.
empty_strided = getattr(_guards, f"_empty_strided_{_DEVICE.type}", None) or _empty_strided_generic


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



# ---- rewrite of triton_poi_fused_diag_embed_0_group0 (candidate format: run(*args) with the original launch arguments) ----
# REWRITTEN by KernelOPT:
#   proposer: diagonal-operand
#   strategy: diagonal-operand left XBLOCK=32 KO_BLOCK=128 num_warps=4
#   speedup: 29.8714
#   time_us: 91.808
#   baseline_us: 2742.432
#   timed_by: cuda-events
#   evidence: {'verdict': 'ACCEPT', 'cases_run': 7, 'worst_rel_err': 0.0}
#   recheck: ACCEPT
#   replaces: ['triton_poi_fused_diag_embed_0', 'extern_kernels.mm']
# diagonal-operand: left operand of the GEMM is diagonal (4096 x 4096); out = scaling of the other operand

@triton.jit
def _rw_triton_poi_fused_diag_embed_0_group0_ko_nonfinite_count(ko_b, ko_count, XBLOCK: tl.constexpr, KO_BLOCK: tl.constexpr):
    ko_tiles = tl.cdiv(4096, KO_BLOCK)
    ko_pid = tl.program_id(0)
    ko_along = (ko_pid // ko_tiles) * XBLOCK + tl.arange(0, XBLOCK)
    ko_across = (ko_pid % ko_tiles) * KO_BLOCK + tl.arange(0, KO_BLOCK)
    ko_r = ko_along[:, None]
    ko_c = ko_across[None, :]
    ko_m = (ko_r < 4096) & (ko_c < 4096)
    ko_b_value = tl.load(ko_b + (ko_r * 4096 + ko_c * 1), ko_m, other=0.0).to(tl.float32)
    ko_own = ((ko_b_value != ko_b_value) | (tl.abs(ko_b_value) == float('inf'))).to(tl.int32)
    ko_part = tl.sum(tl.where(ko_m, ko_own, 0), axis=0)
    tl.atomic_add(ko_count + ko_across, ko_part, mask=(ko_across < 4096) & (ko_part > 0))


@triton.jit
def _rw_triton_poi_fused_diag_embed_0_group0_ko_diagonal_scale(in_ptr0, out_ptr0, xnumel, ko_b, ko_out, ko_count, XBLOCK: tl.constexpr, KO_BLOCK: tl.constexpr):
    # the diagonal's elements: the builder's own statements at positions i * (n + 1)
    ko_i = tl.minimum((tl.program_id(0) // tl.cdiv(4096, KO_BLOCK)) * XBLOCK + tl.arange(0, XBLOCK), 4095)
    xnumel = 16777216
    xindex = ko_i * 4097
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex % 4096
    x1 = xindex // 4096
    x2 = xindex
    tmp3 = tl.load(in_ptr0 + x0, None, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 == tmp1
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    ko_d = tl.broadcast_to((tmp5).to(tl.float32), [XBLOCK])
    ko_tiles = tl.cdiv(4096, KO_BLOCK)
    ko_pid = tl.program_id(0)
    ko_along = (ko_pid // ko_tiles) * XBLOCK + tl.arange(0, XBLOCK)
    ko_across = (ko_pid % ko_tiles) * KO_BLOCK + tl.arange(0, KO_BLOCK)
    ko_r = ko_along[:, None]
    ko_c = ko_across[None, :]
    ko_m = (ko_r < 4096) & (ko_c < 4096)
    ko_b_value = tl.load(ko_b + (ko_r * 4096 + ko_c * 1), ko_m, other=0.0).to(tl.float32)
    ko_own = ((ko_b_value != ko_b_value) | (tl.abs(ko_b_value) == float('inf'))).to(tl.int32)
    ko_others = tl.load(ko_count + ko_c, ko_c < 4096, other=0) - ko_own
    ko_product = ko_d[:, None].to(tl.float32) * ko_b_value
    ko_result = tl.where(ko_others > 0, float('nan'), ko_product)
    tl.store(ko_out + (ko_r * 4096 + ko_c * 1), ko_result.to(tl.float32), ko_m)


def _rw_triton_poi_fused_diag_embed_0_group0_run(*args):
    b, out = args[3], args[4]
    count = torch.zeros(4096, dtype=torch.int32, device=b.device)
    grid = (triton.cdiv(4096, 32) * triton.cdiv(4096, 128),)
    _rw_triton_poi_fused_diag_embed_0_group0_ko_nonfinite_count[grid](b, count, XBLOCK=32, KO_BLOCK=128, num_warps=4)
    _rw_triton_poi_fused_diag_embed_0_group0_ko_diagonal_scale[grid](args[0], args[1], args[2], b, out, count, XBLOCK=32, KO_BLOCK=128, num_warps=4)

_fast_launches("_rw_triton_poi_fused_diag_embed_0_group0_ko_nonfinite_count")
_fast_launches("_rw_triton_poi_fused_diag_embed_0_group0_ko_diagonal_scale")

_KERNELS = globals()

# One launch object per launch site: kernel, grid, block sizes, num_warps, num_stages.


def call(args):
    arg0_1, arg1_1 = args
    args.clear()
    assert_size_stride(arg0_1, (4096,), (1,))
    assert_size_stride(arg1_1, (4096, 4096), (4096, 1))
    with torch.cuda._DeviceGuard(0):
        torch._C._cuda_setDevice(0)
        buf0 = empty_strided((4096, 4096), (4096, 1), torch.float32)
        buf1 = empty_strided((4096, 4096), (4096, 1), torch.float32)
        stream0 = get_raw_stream(0)
        _rw_triton_poi_fused_diag_embed_0_group0_run(arg0_1, buf0, 16777216, arg1_1, buf1)
        del arg0_1
        del arg1_1
        del buf0
    return (buf1, )


def get_args():
    arg0_1 = rand_strided((4096,), (1,), torch.float32)
    arg1_1 = rand_strided((4096, 4096), (4096, 1), torch.float32)
    return [arg0_1, arg1_1]


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
