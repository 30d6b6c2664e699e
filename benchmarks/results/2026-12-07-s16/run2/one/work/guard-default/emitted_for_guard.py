"""linear_shift_sum_over_batch.default.0: emitted by KernelOPT 0.1.0 (emit-python, style standalone).

Source: /tmp/tmp.tJqGuldxmp/one/work/linear_shift_sum_over_batch.default.0.py (inductor output module, captured with torch 2.11.0+cu130, device cuda:0)
Emitted with: torch 2.11.0+cu130, triton 3.6.0, on 2026-12-07
Launch configs tuned on: NVIDIA H100 80GB HBM3
Launch config sources: capture x2
Precision policy: strict (fp32 math stays fp32: no TF32 or bf16 dots)
Needs at run time: torch and triton only on a GPU (no torch._inductor).
CUDA graphs: auto (kept only where timed faster than plain launches at the first calls); at most 8 per module; outputs fresh tensors; `cuda_graphs.stats()` says what ran and the memory graphs hold, `call_plain(args)` skips them.

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
            launch, device = fast    # the key holds the tensors' device: the stream is that device's current one
            try:
                launch((tuple(map(int, grid)) + (1, 1))[:3], get_raw_stream(device), args)
                return None
            except (TypeError, ValueError, RuntimeError):   # refused before launching (a grid of numpy ints)
                self.paths[key] = fast = False
        kernel = self.fn[grid](*args, **meta)
        if fast is None and len(self.paths) < self.MAX_PATHS \
                and all(not isinstance(a, torch.Tensor) or a.device.type != "cpu" for a in args):
            device = next((a.device.index for a in args if isinstance(a, torch.Tensor)), None) or 0
            try:
                self.paths[key] = (_StaticKernel(kernel, len(args)).launch, device)
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



# ---- triton_red_fused_addmm_mul_sub_sum_0 (reduction) ----
@triton.jit
def triton_red_fused_addmm_mul_sub_sum_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 131072
    r0_numel = 512
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = (xindex % 4096)
    tmp0 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last')
    x1 = xindex // 4096
    tmp5 = tl.load(in_ptr2 + (x0), None, eviction_policy='evict_last')
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp1 = tl.load(in_ptr1 + (x0 + 4096*r0_2 + 2097152*x1), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp3 = tl.full([1, 1], 0.5, tl.float32)
        tmp4 = tmp2 * tmp3
        tmp6 = tmp4 - tmp5
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp8, None)


# ---- triton_per_fused_addmm_mul_sub_sum_1 (persistent_reduction) ----
@triton.jit
def triton_per_fused_addmm_mul_sub_sum_1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4096
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
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
    tmp0 = tl.load(in_ptr0 + (x0 + 4096*r0_1), None)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.sum(tmp1, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp3, None)

_KERNELS = globals()

# The `@triton_heuristics` decorator Inductor gave each kernel (its launch decisions are the _Launch
# objects below). Unused at run time: kept so that KernelOPT lifts this module again like Inductor's.
_INDUCTOR_DECORATORS = {
    'triton_red_fused_addmm_mul_sub_sum_0': "@triton_heuristics.reduction(\n    size_hints={'x': 131072, 'r0_': 512},\n    reduction_hint=ReductionHint.OUTER,\n    filename=__file__,\n    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},\n    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_addmm_mul_sub_sum_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 269516800, 'r0_': 0}}\n)",
    'triton_per_fused_addmm_mul_sub_sum_1': "@triton_heuristics.persistent_reduction(\n    size_hints={'x': 4096, 'r0_': 32},\n    reduction_hint=ReductionHint.OUTER,\n    filename=__file__,\n    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},\n    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_addmm_mul_sub_sum_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 557056, 'r0_': 0}}\n)",
}

# One launch object per launch site: kernel, grid, block sizes, num_warps, num_stages.
launch_triton_red_fused_addmm_mul_sub_sum_0 = _Launch('triton_red_fused_addmm_mul_sub_sum_0', grid=(2048, 1, 1), meta={'XBLOCK': 64, 'R0_BLOCK': 8}, options={'num_warps': 4, 'num_stages': 1}, tensors=(0, 1, 2, 3), direct=True)  # config: capture
launch_triton_per_fused_addmm_mul_sub_sum_1 = _Launch('triton_per_fused_addmm_mul_sub_sum_1', grid=(32, 1, 1), meta={'XBLOCK': 128}, options={'num_warps': 8, 'num_stages': 1}, tensors=(0, 1), direct=True)  # config: capture


def call(args):
    arg0_1, arg1_1, arg2_1, arg3_1 = args
    args.clear()
    assert_size_stride(arg0_1, (4096, 4096), (4096, 1))
    assert_size_stride(arg1_1, (4096,), (1,))
    assert_size_stride(arg2_1, (16384, 4096), (4096, 1))
    assert_size_stride(arg3_1, (4096,), (1,))
    with torch.cuda._DeviceGuard(0):
        torch._C._cuda_setDevice(0)
        buf0 = empty_strided((16384, 4096), (4096, 1), torch.float32)
        arg0_1_v0 = reinterpret_tensor(arg0_1, (4096, 4096), (1, 4096), 0)
        # Topologically Sorted Source Nodes: [linear], Original ATen: [aten.t, aten.addmm]
        extern_kernels.mm(arg2_1, arg0_1_v0, out=buf0)
        del arg0_1
        del arg2_1
        buf1 = empty_strided((4096, 32), (1, 4096), torch.float32)
        # Topologically Sorted Source Nodes: [linear, mul, sub, sum_1], Original ATen: [aten.addmm, aten.mul, aten.sub, aten.sum]
        stream0 = get_raw_stream(0)
        launch_triton_red_fused_addmm_mul_sub_sum_0(stream0, arg1_1, buf0, arg3_1, buf1, 131072, 512)
        del arg1_1
        del arg3_1
        del buf0
        buf2 = empty_strided((4096,), (1,), torch.float32)
        # Topologically Sorted Source Nodes: [linear, mul, sub, sum_1], Original ATen: [aten.addmm, aten.mul, aten.sub, aten.sum]
        launch_triton_per_fused_addmm_mul_sub_sum_1(stream0, buf1, buf2, 4096, 32)
        del buf1
    return (buf2, )


# ---------------------------------------------------------------------------------------------
# CUDA graphs (--cuda-graphs auto, --outputs fresh): call(args) goes through
# cuda_graphs.run, which replays a graph captured for the call's input pointers, shapes and strides
# (no input copy), and falls back to call_plain (the launches above) where graphs cannot serve.
# Inlined from KernelOPT (kernelopt/runtime/graph_capture.py, graph_replay.py): the rules are there.
# ---------------------------------------------------------------------------------------------
"""CUDA graphs for an emitted module: the call key, and the capture backend graph_replay.py drives.

Also inlined verbatim into every module emitted with `--cuda-graphs on|auto` (the emitted module needs
only torch and triton, so it cannot import KernelOPT): this file imports only the standard library and
torch, and every top-level name starts with `graph_`, `Graph` or `_graph_` so that it cannot clash with
the emitted module's own names (tests/unit/test_graph_replay.py checks both).

The key of a call is (signature, data pointers): the signature is each tensor argument's sizes,
strides, dtype, device and requires_grad (a non-tensor argument: its value); the pointers are each
tensor's data_ptr(). A graph captured for a key reads and writes exactly the memory at those pointers,
so replaying it for a call with the same key is the call, with no copy.
"""
import time

import torch

# torch's C++ tensor guard (what Dynamo checks tensors with): one call checks every argument's sizes,
# strides, dtype, device and dispatch keys; ~6x cheaper than reading them from Python (15 tensors:
# 2.6 us against 14 us on the development machine). Absent: the Python signature is compared instead.
_graph_tensor_guards = getattr(getattr(getattr(torch._C, "_dynamo", None), "guards", None), "TensorGuards", None)


class GraphUnhashable(Exception):
    """An argument that cannot be part of a key (a list, a dict, ...): such a call runs the plain path."""


def graph_signature(args):
    """What a graph captured for `args` assumes besides the pointers: per argument, a tensor's sizes,
    strides, dtype, device and requires_grad; anything else by value (a captured graph bakes it in)."""
    parts = []
    for arg in args:
        if isinstance(arg, torch.Tensor):
            parts.append((tuple(arg.shape), arg.stride(), arg.dtype, arg.device, arg.requires_grad))
        else:
            try:
                hash(arg)
            except TypeError:
                raise GraphUnhashable(f"argument of type {type(arg).__name__} cannot key a graph") from None
            parts.append(("value", type(arg).__name__, arg))
    return tuple(parts)


_graph_data_ptr = torch.Tensor.data_ptr


def graph_pointers(args):
    """Each tensor argument's data pointer (None for a non-tensor: the signature holds its value)."""
    try:    # all tensors (every call of a module with only tensor arguments): one C-level pass, no frame
        return tuple(map(_graph_data_ptr, args))
    except TypeError:
        return tuple([arg.data_ptr() if isinstance(arg, torch.Tensor) else None for arg in args])


def graph_key(args):
    """The key of a call: equal keys mean equal signatures and every tensor at the same address."""
    return graph_signature(args), graph_pointers(args)


def graph_tensor_guard(tensors):
    """torch's C++ guard on these tensors' sizes, strides, dtypes, devices and requires_grad as they are now
    (`guard.check(*tensors)` is True while they still are); None where this torch has none, or it disagrees."""
    if _graph_tensor_guards is None or not tensors:
        return None
    try:
        guard = _graph_tensor_guards(*tensors, dynamic_dims_sizes=[list(t.shape) for t in tensors],
                                     dynamic_dims_strides=[list(t.stride()) for t in tensors])
        return guard if guard.check(*tensors) else None
    except Exception:  # noqa: BLE001 - another torch's guard API: the caller checks in Python instead
        return None


class GraphSignatures:
    """Signature -> small integer, with the first signature also checked by torch's C++ tensor guard, so
    that the steady state (one signature: an emitted module has static shapes) costs one C++ call."""

    def __init__(self):
        self.ids = {}
        self._fast = None        # (TensorGuards, signature id) of the first all-tensor signature
        self._fast_length = -1

    def lookup(self, args):
        """The signature id of `args` (raises GraphUnhashable)."""
        fast = self._fast
        if fast is not None and len(args) == self._fast_length:
            try:
                if fast[0].check(*args):
                    return fast[1]
            except TypeError:   # a non-tensor among the arguments
                pass
        signature = graph_signature(args)
        found = self.ids.get(signature)
        if found is None:
            found = self.ids[signature] = len(self.ids)
            if self._fast is None and args and all(isinstance(a, torch.Tensor) for a in args):
                guard = graph_tensor_guard(args)
                if guard is not None:          # it agrees with the Python signature on this call
                    self._fast, self._fast_length = (guard, found), len(args)
        return found


class GraphCaptureFailed(Exception):
    """Capturing the call into a CUDA graph failed; the message says why (the plain path serves)."""


class GraphTiming:
    """Host seconds and, on a GPU, the device's elapsed time between two events of one call."""

    __slots__ = ("host", "start_event", "stop_event")

    def __init__(self, host, start_event=None, stop_event=None):
        self.host, self.start_event, self.stop_event = host, start_event, stop_event


class GraphCudaBackend:
    """Captures and replays CUDA graphs for graph_replay.GraphReplay. Tests pass another object with the
    same methods (CUDA graphs do not exist on a CPU); this is the only one a module uses."""

    def __init__(self, device_index=0):
        self.device_index = device_index
        self._side_stream = None

    def unavailable(self):
        """Why graphs cannot run here, or None."""
        if not torch.cuda.is_available():
            return "no CUDA device (torch.cuda.is_available() is False)"
        if not hasattr(torch.cuda, "CUDAGraph"):
            return f"this torch ({torch.__version__}) has no torch.cuda.CUDAGraph"
        return None

    def capturing(self):
        """Whether the current stream is being captured (by the caller's own graph)."""
        return torch._C._cuda_isCurrentStreamCapturing()

    def current_device(self):
        return torch._C._cuda_getDevice()

    def stream(self):
        """The current stream of the module's device, as an integer (cheap to compare each call)."""
        return torch._C._cuda_getCurrentRawStream(self.device_index)

    def order_after(self, previous_stream):
        """Make the current stream wait for the work issued on `previous_stream` (a graph's memory is reused
        by its next replay: a replay on another stream must not overtake the last one)."""
        current = torch.cuda.current_stream(self.device_index)
        previous = torch.cuda.ExternalStream(previous_stream, device=torch.device("cuda", self.device_index))
        current.wait_stream(previous)

    def capture(self, run):
        """Capture `run()` into a new graph with its own memory pool, on a side stream ordered after the
        current one. Returns (graph, run's result, bytes of device memory the graph's pool took)."""
        device = torch.device("cuda", self.device_index)
        if self._side_stream is None:
            self._side_stream = torch.cuda.Stream(device)
        side = self._side_stream
        side.wait_stream(torch.cuda.current_stream(device))
        graph = torch.cuda.CUDAGraph()
        reserved = torch.cuda.memory_reserved(device)
        failure = None
        with torch.cuda.stream(side):
            # thread_local: CUDA work of other threads does not invalidate this capture (nor fail itself)
            graph.capture_begin(pool=torch.cuda.graph_pool_handle(), capture_error_mode="thread_local")
            try:
                result = run()
            except Exception as err:  # noqa: BLE001 - reported as the capture's failure below
                failure = err
            finally:
                try:
                    graph.capture_end()
                except Exception as err:  # noqa: BLE001
                    failure = failure or err
        torch.cuda.current_stream(device).wait_stream(side)
        if failure is not None:
            graph.reset()
            raise GraphCaptureFailed(f"{type(failure).__name__}: {str(failure).splitlines()[0] if str(failure) else ''}")
        return graph, result, max(0, torch.cuda.memory_reserved(device) - reserved)

    def replay(self, graph):
        graph.replay()

    def release(self, graph):
        """Drop a graph: wait for its last replay first (its pool is handed back to the allocator)."""
        torch.cuda.synchronize(self.device_index)
        graph.reset()

    def start_timing(self):
        event = torch.cuda.Event(enable_timing=True)
        event.record()
        return GraphTiming(time.perf_counter(), event)

    def stop_timing(self, timing):
        timing.host = time.perf_counter() - timing.host
        timing.stop_event = torch.cuda.Event(enable_timing=True)
        timing.stop_event.record()
        return timing

    def cost_seconds(self, timing):
        """What one call costs when calls are issued back to back: its host time or its device time,
        whichever is longer."""
        timing.stop_event.synchronize()
        return max(timing.host, timing.start_event.elapsed_time(timing.stop_event) / 1e3)


"""`call(args)` through CUDA graphs, with no input copies in the steady state (emit `--cuda-graphs`).

An emitted module with graphs on ends with

    call_plain = call                        # the module's launch sequence, as without graphs
    cuda_graphs = GraphReplay(call_plain, mode="on", ...)
    call = cuda_graphs.run

and is otherwise the plain module. Like graph_capture.py this file is inlined into such modules, so
it imports only torch, the standard library and graph_capture (whose import line the emitter drops).

What run(args) does with a call (the policy; tests/unit/test_graph_replay.py pins each rule):
  plain     the first call (warm-up: Triton compiles, autotunes and loads its kernels there, cuBLAS
            makes its handles), calls while the current stream is being captured (the caller's own
            graph then records the plain launches), calls on another device than the module's, with
            an argument that cannot key a graph, or when graphs cannot run here (no CUDA; a capture
            that failed: from then on). Each reason is said once (a warning, or for the expected
            ones - warm-up, capture by the caller, no CUDA under `auto` - a log line).
  replay    a call whose key (graph_capture.graph_key: signatures and data pointers) has a graph:
            the graph runs on the current stream, reading and writing the arguments where they are.
  capture   a new key that recurs while it would still be held (it was seen among the last
            `max_graphs` distinct keys): a graph of its own, the least recently used one evicted
            beyond `max_graphs`. A serving loop that calls with the same buffers captures once.
  copy      a new key seen for the first time, or one that recurs less often than that (a ring of
            more buffers than graphs): its moving arguments (those whose pointer differs from the
            copy graph's) are copied into buffers the copy graph owns, and the copy graph replays;
            arguments that stay put (parameters, buffers) are read in place and never copied.
            Arguments the module writes are copied back. The copy graph is captured at the first
            such call, and again with more moving arguments when one it reads in place moves.
Outputs are fresh tensors the caller owns, without a copy where the caller has let go of the last ones:
  lent      a captured key's graph whose outputs the caller no longer holds (no tensor outside this runtime
            shares their storage: torch's storage use count) hands out new views of its own output memory,
            which nothing overwrites while the caller holds any of them. A call that finds them still held
            (a loop `y = f(x)` holds the last y during the next call) replays the key's twin: a second
            graph of the same call with output memory of its own, captured then; the two take turns. When
            both are held (a caller keeping every output), the call runs the plain launches.
            The copy graph lends its outputs the same way (its twin reads the same input buffers).
  copied    a torch without storage use counts copies each graph-memory storage the outputs live in out
            once per call.
Either way outputs that share storage still share it. With outputs="static" they are the
graph's own tensors, overwritten by the next call that runs the same graph. An output that is (a view
of) an argument is the same view of this call's argument, as in the plain path.

mode="auto" (the emitter's default on a GPU module) keeps graphs only where they are measured faster
as the module is called: calls 2-4 run the plain path and calls 5 on go through graphs; each path is
timed on its first 3 calls (per call: the longer of its host time and its device time between CUDA
events, i.e. what a call costs when calls are issued back to back; captures are not timed):
  replay    against the plain path of calls 2-4; slower than KEEP_RATIO of it: graphs off for good
            (every graph released);
  copy      against the plain launches of new keys, the two taking turns on the first new keys (so
            both are timed in the same input regime, after the same warm-up); slower: new keys run
            the plain path (the call still computes its key, to find the graphs of known keys).
Calls keep arriving in a regime auto did not time (the buffers of a serving loop, or new tensors
each call: a ring of buffers, a data loader), so every GRAPH_REVIEW_CALLS calls it reviews what the
calls since the last review did: their count per path (replay, copy, capture: plain launches under
capture, then a replay; plain) priced at the medians timed above, against the same number of plain
calls. A graph path that cost more than KEEP_RATIO of the plain path there (e.g. a ring of more
buffers than graphs, whose copies cost more than the launches they save, or whose new keys run
plain and pay the key for nothing) turns graphs off for good, with a remark saying so.
mode="on" uses graphs without timing them.

Graphs off for good (auto's verdict, no CUDA, a failed capture) cost nothing per call from then on:
every holder registered with `add_rebinder` (the emitted module's own `call`, the torch.compile
backend's compiled graph) is pointed at the plain call, so no frame of this runtime stays in the
call path. A caller that kept `run` itself still gets plain launches through it.
"""
import logging
import statistics
import warnings
from collections import OrderedDict

import torch


GRAPH_MODES = ("auto", "on", "off")
GRAPH_OUTPUTS = ("fresh", "static")
GRAPH_MAX_GRAPHS = 8
GRAPH_TRIAL_CALLS = 3          # calls each path is timed on (auto)
GRAPH_KEEP_RATIO = 0.95        # a graph path is kept when it costs at most this share of the plain path
GRAPH_REVIEW_CALLS = 64        # auto reviews the input regime of this many calls at a time
_graph_log = logging.getLogger("kernelopt.cuda_graphs")


class _GraphEntry:
    """One captured graph: its handle, the pointers it reads, how to hand out its outputs, its memory."""

    __slots__ = ("handle", "outputs", "bytes", "signature", "pointers", "moving", "buffers", "twin")

    def __init__(self, handle, outputs, nbytes, signature, pointers, moving=(), buffers=None):
        self.handle, self.outputs, self.bytes = handle, outputs, nbytes
        self.twin = None                # a captured key's second graph, whose outputs live elsewhere (lent)
        self.signature, self.pointers = signature, pointers
        self.moving = moving            # copy graph: argument positions copied into `buffers`
        self.buffers = buffers or {}    # position -> the tensor the graph reads that argument from


class _GraphOutputs:
    """How a captured call's outputs reach the caller: an argument's view rebuilt on this call's
    argument, graph memory copied out (fresh) or handed out (static), anything else as returned."""

    def __init__(self, result, args, fresh):
        self.fresh = fresh
        self.single = not isinstance(result, (tuple, list))
        self.kind = type(result) if not self.single else None
        values = [result] if self.single else list(result)
        by_storage = {}
        for position, arg in enumerate(args):
            if isinstance(arg, torch.Tensor) and arg.untyped_storage().data_ptr():
                by_storage.setdefault(arg.untyped_storage().data_ptr(), position)
        self.plan = []          # per output: ("value", v) | ("arg", position, dtype, size, stride, byte delta)
        groups = {}             #   | ("graph", group, dtype, size, stride, elements from the span's start)
        #                         | ("clone", tensor)
        for value in values:
            if not isinstance(value, torch.Tensor):
                self.plan.append(("value", value))
                continue
            storage = value.untyped_storage().data_ptr()
            if storage and storage in by_storage:
                position = by_storage[storage]
                self.plan.append(("arg", position, value.dtype, tuple(value.shape), value.stride(),
                                  value.data_ptr() - args[position].data_ptr()))
            else:
                groups.setdefault(storage, []).append((len(self.plan), value))
                self.plan.append(None)
        self.spans = []         # per graph-memory storage: a uint8 view over every output in it
        for members in groups.values():
            self._add_group(members)
        # lent outputs are views of these: each span viewed once per dtype, so that a hand-out makes one view per
        # output (as_strided), and with the storage offset each view starts at (as_strided's offset counts from
        # the storage's start, and a span starts where its first output does, not always at the storage's start)
        self.typed = {}
        for step in self.plan:
            if step[0] == "graph" and (step[1], step[2]) not in self.typed:
                view = self.spans[step[1]].view(step[2])
                self.typed[step[1], step[2]] = (view, view.storage_offset())
        # static: the graph's own output tensors (an argument's view is rebuilt per call, and never kept:
        # holding it would keep the caller's tensor alive)
        self.static = [v if isinstance(v, torch.Tensor) and step[0] != "arg" else None
                       for v, step in zip(values, self.plan)]
        # lent: each span's storage handle, and its use count while only this runtime (and the graph's own
        # capture, in a test backend) refers to it; counted at the first hand-out, once `result` is gone
        self._storages = [span.untyped_storage()._cdata for span in self.spans]
        self._idle = None

    def idle(self):
        """Whether the caller holds none of the outputs lent out (nothing else shares their storage)."""
        if self._idle is None:
            self._idle = [GRAPH_STORAGE_USE_COUNT(c) for c in self._storages]
        return all(GRAPH_STORAGE_USE_COUNT(c) == n for c, n in zip(self._storages, self._idle))

    def _add_group(self, members):
        base = members[0][1]
        storage = base.untyped_storage()
        start = storage.data_ptr()
        low = min(v.data_ptr() for _, v in members)
        low -= (low - start) % 16        # keep each output's alignment (the kernels specialize on it)
        high = max(v.data_ptr() + _graph_extent_bytes(v) for _, v in members)
        nbytes = max(16, -(-(high - low) // 16) * 16)
        nbytes = min(nbytes, storage.nbytes() - (low - start))
        span = torch.empty(0, dtype=torch.uint8, device=base.device).set_(storage, low - start, (nbytes,), (1,))
        group = len(self.spans)
        self.spans.append(span)
        for index, value in members:
            delta = value.data_ptr() - low
            if delta % value.element_size() or nbytes % value.element_size():
                self.plan[index] = ("clone", value)      # a misaligned reinterpretation: copied on its own
            else:
                self.plan[index] = ("graph", group, value.dtype, tuple(value.shape), value.stride(),
                                    delta // value.element_size())

    def hand_out(self, args, lend=False):
        """The outputs of the replay that just ran, for a call with arguments `args`: with `lend` (the caller
        checked idle() before the replay), new views of the graph's output memory instead of copies."""
        if lend and self._idle is None:
            self.idle()
        copies = None if lend or not self.fresh else [span.clone() for span in self.spans]
        values = []
        for index, step in enumerate(self.plan):
            kind = step[0]
            if kind == "value":
                values.append(step[1])
            elif kind == "arg":
                values.append(_graph_view(args[step[1]], step[2], step[3], step[4], step[5]))
            elif not self.fresh:
                values.append(self.static[index])
            elif kind == "graph" and lend:
                view, start = self.typed[step[1], step[2]]
                values.append(view.as_strided(step[3], step[4], start + step[5]))
            elif kind == "graph":       # a copy's storage starts with the span
                values.append(copies[step[1]].view(step[2]).as_strided(step[3], step[4], step[5]))
            else:
                values.append(step[1].clone())
        if self.single:
            return values[0]
        return self.kind(values) if self.kind is not tuple else tuple(values)


# torch's count of the tensors (and storage objects) that share a storage; None on a torch without it, where
# graph outputs are always copied out
GRAPH_STORAGE_USE_COUNT = getattr(torch._C, "_storage_Use_Count", None)


def _graph_extent_bytes(tensor):
    if tensor.numel() == 0:
        return 0
    return (1 + sum((n - 1) * s for n, s in zip(tensor.shape, tensor.stride()))) * tensor.element_size()


def _graph_view(arg, dtype, size, stride, delta):
    """The view at byte `delta` from `arg`'s data with this layout (an output that aliases an argument)."""
    offset = arg.storage_offset() * arg.element_size() + delta
    if dtype == arg.dtype:
        return arg.as_strided(size, stride, offset // arg.element_size())
    return torch.empty(0, dtype=dtype, device=arg.device).set_(arg.untyped_storage(), offset // torch.empty(
        (), dtype=dtype).element_size(), size, stride)


class GraphReplay:
    """`run(args)`: the plain `call(args)` through CUDA graphs (the rules are in this file's docstring).
    `stats()` says what happened: calls per path, graphs held, their device memory, reasons said."""

    def __init__(self, plain, mode="on", outputs="fresh", max_graphs=GRAPH_MAX_GRAPHS, mutated=None,
                 device_index=0, name="module", backend=None):
        if mode not in GRAPH_MODES:
            raise ValueError(f"cuda graphs mode must be one of {', '.join(GRAPH_MODES)}, got {mode!r}")
        if outputs not in GRAPH_OUTPUTS:
            raise ValueError(f"outputs must be one of {', '.join(GRAPH_OUTPUTS)}, got {outputs!r}")
        if not isinstance(max_graphs, int) or max_graphs < 1:
            raise ValueError(f"max_graphs must be an integer >= 1, got {max_graphs!r}")
        self.plain = plain
        self.mode, self.fresh, self.max_graphs = mode, outputs == "fresh", max_graphs
        # fresh outputs are lent graph memory (no copy) where this torch counts a storage's users
        self.lend = self.fresh and GRAPH_STORAGE_USE_COUNT is not None
        self.mutated = None if mutated is None else frozenset(mutated)   # None: unknown, assume all
        self.device_index, self.name = device_index, name
        self.backend = backend if backend is not None else GraphCudaBackend(device_index)
        self.graphs = OrderedDict()     # key -> _GraphEntry, least recently used first
        self.copy_graph = None
        self.signatures = GraphSignatures()
        self.seen = OrderedDict()       # the last max_graphs distinct keys seen (capture when one recurs)
        # a capture is counted twice: as one (its cost: the plain launches, under capture) and as the path that
        # serves the call it happens in (a replay of the new graph, or a copy into the copy graph's buffers)
        # (copy_capture and twin_capture: how many of the captures were the copy graph's and twins')
        self.counts = {"calls": 0, "plain": 0, "replay": 0, "copy": 0, "capture": 0, "copy_capture": 0,
                       "twin_capture": 0, "evicted": 0}
        self.remarks = []               # every reason said, in order
        self.off = None                 # why graphs are off for good
        # per path, timed calls (auto): "miss" is the plain launches of a call with a new key
        self.timings = {"plain": [], "replay": [], "copy": [], "miss": []}
        self.dropped = set()            # paths auto measured slower than the plain path
        self.decision = "on" if mode == "on" else "undecided"
        self._last_stream = None
        # paths whose calls auto still times: one set lookup per call tells a decided path from one on trial
        self._measuring = {"plain", "replay", "copy", "miss"} if mode == "auto" else set()
        # calls until auto's next review of the input regime (negative: none due). The first falls on the
        # first call through graphs, after the plain trials, and opens the first window (see _review).
        self._review_left = 2 + GRAPH_TRIAL_CALLS if mode == "auto" else -1
        self._window = None             # counts at the start of the review window
        self._rebinders = []            # setters pointed at the plain call once graphs are off for good
        if mode == "off":
            self.off = "--cuda-graphs off"

    # -- accounting --------------------------------------------------------------------------------
    def _entries(self):
        """Every graph held for a key, and the copy graph (each with its twin, if it has one)."""
        return list(self.graphs.values()) + ([self.copy_graph] if self.copy_graph is not None else [])

    @property
    def memory_bytes(self):
        """Device memory the graphs hold: each graph's pool, and the copy graph's input buffers."""
        return sum(e.bytes + (e.twin.bytes if e.twin is not None else 0) for e in self._entries())

    def stats(self):
        return dict(self.counts, graphs=len(self.graphs), copy_graph=self.copy_graph is not None,
                    twins=sum(e.twin is not None for e in self._entries()),
                    memory_bytes=self.memory_bytes, mode=self.mode, decision=self.decision, off=self.off,
                    dropped=sorted(self.dropped), remarks=list(self.remarks))

    def _say(self, reason, warn):
        if reason in self.remarks:
            return
        self.remarks.append(reason)
        text = f"{self.name}: {reason}"
        if warn:
            warnings.warn(text, RuntimeWarning, stacklevel=4)
        else:
            _graph_log.info(text)

    def add_rebinder(self, setter):
        """`setter(fn)` is called with the plain call once graphs are off for good (at once if they are),
        so that whoever holds `run` (the module's `call`, a compiled graph's callable) calls the plain
        launches directly: off, the module costs what the plain module costs."""
        self._rebinders.append(setter)
        if self.off is not None:
            setter(self.plain)

    def _turn_off(self, reason, warn):
        self.off = reason
        self._measuring = set()
        self._review_left = -1
        self._say(f"CUDA graphs off, plain launches from now on: {reason}", warn)
        self.release_all()
        for setter in self._rebinders:
            setter(self.plain)

    def release_all(self):
        """Release every graph (their memory goes back to torch's allocator)."""
        for entry in self._entries():
            self._release(entry)
        self.graphs.clear()
        self.copy_graph = None

    def _release(self, entry):
        # outputs the caller still holds stay valid: their storage keeps its memory after the graph goes
        self.backend.release(entry.handle)
        if entry.twin is not None:
            self.backend.release(entry.twin.handle)

    # -- the call ----------------------------------------------------------------------------------
    def run(self, args):
        counts = self.counts
        counts["calls"] += 1
        if self.off is not None:      # a caller that kept `run` from before graphs went off
            return self._plain(args, None)
        self._review_left -= 1
        if not self._review_left:
            self._review()
            if self.off is not None:
                return self._plain(args, None)
        backend = self.backend
        if counts["calls"] == 1:
            unavailable = ("the module was emitted for the CPU: CUDA graphs need a module captured for a CUDA device"
                           if self.device_index is None else backend.unavailable())
            if unavailable is not None:
                self._turn_off(unavailable, warn=self.mode == "on")
                return self._plain(args, None)
            try:    # seen, so that a serving loop's second call (same key) captures it
                self._note_seen((self.signatures.lookup(args), graph_pointers(args)))
            except GraphUnhashable:
                pass
            return self._plain(args, "first call: plain launches (warm-up)")
        if backend.capturing():
            return self._plain(args, "called while the current stream is being captured: plain launches, "
                                     "recorded by the caller's graph")
        if backend.current_device() != self.device_index:
            return self._plain(args, f"called with cuda:{backend.current_device()} current, the module's device "
                                     f"is cuda:{self.device_index}: plain launches")
        items = list(args)
        try:
            key = (self.signatures.lookup(items), graph_pointers(items))
        except GraphUnhashable as err:
            return self._plain(args, f"{err}: plain launches")
        entry = self.graphs.get(key)
        if entry is not None:
            self.graphs.move_to_end(key)
            lend = self.lend
            if lend and not entry.outputs.idle():       # the caller holds the last outputs: the twin's turn
                entry = self._idle_twin(entry, items)
                if entry is None:
                    return self._plain(args, None)
            args.clear()
            if "replay" in self._measuring:
                return self._timed("replay", self._replay_now, entry, items)
            # the steady state of a serving loop: replay in place, no further frame of this runtime
            stream = backend.stream()
            if stream != self._last_stream:
                self._order_after_last(stream)
            backend.replay(entry.handle)
            counts["replay"] += 1
            return entry.outputs.hand_out(items, lend)
        self._note_seen(key)
        if "plain" in self._measuring:
            return self._timed("plain", self._plain, args, None)
        return self._new_key(key, items, args)

    def _plain(self, args, reason):
        if reason is not None:
            self._say(reason, warn=False)
        self.counts["plain"] += 1
        return self.plain(args)

    def _note_seen(self, key):
        recurs = key in self.seen
        self.seen[key] = recurs
        self.seen.move_to_end(key)
        while len(self.seen) > self.max_graphs:    # the key itself and the max_graphs - 1 before it
            self.seen.popitem(last=False)

    def _timed(self, path, run, *arguments):
        """Run one call on `path`, timing it while auto still measures that path."""
        if path not in self._measuring:
            return run(*arguments)
        samples = self.timings[path]
        token = self.backend.start_timing()
        result = run(*arguments)
        samples.append(self.backend.stop_timing(token))
        if len(samples) >= GRAPH_TRIAL_CALLS:
            if path == "replay":
                self._measuring.discard(path)
                self._decide("replay", "plain")
            elif path in ("copy", "miss") and len(self.timings["copy"]) >= GRAPH_TRIAL_CALLS \
                    and len(self.timings["miss"]) >= GRAPH_TRIAL_CALLS:
                self._measuring -= {"copy", "miss"}
                self._decide("copy", "miss")
        return result

    def _cost(self, path):
        """Median seconds per call timed on `path` (None: not timed yet)."""
        samples = self.timings[path]
        return statistics.median(self.backend.cost_seconds(t) for t in samples) if samples else None

    def _decide(self, path, against):
        cost, baseline = self._cost(path), self._cost(against)
        if baseline is None:        # no plain call could be timed (e.g. all ran under the caller's capture)
            return
        name = "plain" if against == "plain" else "plain launches of new keys"
        verdict = f"{path} {cost * 1e6:.1f} us vs {name} {baseline * 1e6:.1f} us per call"
        if cost <= GRAPH_KEEP_RATIO * baseline:
            self.decision = f"kept ({verdict})" if path == "replay" else self.decision
            _graph_log.info(f"{self.name}: auto: {path} kept ({verdict})")
            return
        self.dropped.add(path)
        if path == "replay":
            self.decision = f"off ({verdict})"
            self._turn_off(f"auto measured replay no faster than the plain path ({verdict})", warn=False)
        else:
            self._say(f"auto measured the copy path no faster than the plain launches, each timed on new input "
                      f"buffers ({verdict}): new input buffers run the plain path", warn=False)

    # -- auto: the input regime ----------------------------------------------------------------------
    def _start_window(self):
        self._window = dict(self.counts)
        self._review_left = GRAPH_REVIEW_CALLS

    def _review(self):
        """Price the calls since the last review at the timed medians; graphs off for good when they cost
        more than plain launches would have (see the module docstring)."""
        start, now = self._window, self.counts
        if start is None:           # the first call through graphs: the plain trials are over
            self._measuring.discard("plain")
            self._start_window()
            return
        done = {path: now[path] - start[path]
                for path in ("calls", "plain", "replay", "copy", "capture", "copy_capture", "twin_capture")}
        self._start_window()
        plain = self._cost("plain")
        miss = self._cost("miss")
        if plain is None or done["calls"] <= 0:
            return
        if miss is not None:        # the later, warmer timing of the same launches: the fairer baseline
            plain = min(plain, miss)
        replay = self._cost("replay")
        replay = plain if replay is None else replay
        copy = self._cost("copy")
        copy = plain + replay if copy is None else copy     # untimed: at least its launches and a replay
        # a capture runs the plain launches under capture and then replays (counted with the replays)
        spent = (done["replay"] * replay + done["copy"] * copy + done["capture"] * plain
                 + done["plain"] * (plain if miss is None else miss))
        per_call = spent / done["calls"]
        if per_call <= GRAPH_KEEP_RATIO * plain:
            return
        # calls whose key's graph was captured, then replayed (a twin is a capture for a key already held)
        captured = done["capture"] - done["copy_capture"] - done["twin_capture"]
        new = done["copy"] + captured + done["plain"]
        verdict = f"graph path {per_call * 1e6:.1f} us vs plain {plain * 1e6:.1f} us per call"
        self.decision = f"off ({verdict} over the last {done['calls']} calls)"
        self._turn_off(f"auto: of the last {done['calls']} calls, {new} came with input buffers no graph held "
                       f"({done['copy']} copied, {captured} captured, {done['plain']} plain launches) and "
                       f"{done['replay'] - captured} replayed a held graph: priced at the timed medians, "
                       f"{verdict}", warn=False)

    def _replay(self, entry, items):
        if "replay" in self._measuring:
            return self._timed("replay", self._replay_now, entry, items)
        return self._replay_now(entry, items)

    def _replay_now(self, entry, items):
        self._launch(entry)
        self.counts["replay"] += 1
        return entry.outputs.hand_out(items, self.lend)

    def _idle_twin(self, entry, inside):
        """The graph whose outputs the caller does not hold: `entry`'s twin, captured on the arguments it reads
        (`inside`: the call's, or the copy graph's buffers) at the first call that needs it; None when the
        caller holds both graphs' outputs (or the twin's capture failed)."""
        if entry.twin is None:
            # a copy graph's twin reads the same buffers (each call copies into them before either replays)
            entry.twin = self._capture_entry(inside, entry.signature, entry.pointers, entry.moving, entry.buffers)
            self.counts["twin_capture"] += entry.twin is not None
            return entry.twin
        return entry.twin if entry.twin.outputs.idle() else None

    def _capture_entry(self, inside, signature, pointers, moving=(), buffers=None):
        """A new graph of the plain launches on `inside` (the arguments it reads), counted as a capture; None when
        the capture failed (graphs are then off for good, with a warning). Outputs that alias one of `inside` are
        handed out as views of the caller's argument."""
        try:
            handle, result, nbytes = self.backend.capture(lambda: self.plain(list(inside)))
        except GraphCaptureFailed as err:
            self._turn_off(f"capturing the call failed ({err})", warn=True)
            return None
        entry = _GraphEntry(handle, _GraphOutputs(result, inside, self.fresh), nbytes, signature, pointers, moving,
                            buffers)
        del result
        self.counts["capture"] += 1
        return entry

    def _launch(self, entry):
        stream = self.backend.stream()
        if stream != self._last_stream:
            self._order_after_last(stream)
        self.backend.replay(entry.handle)

    def _order_after_last(self, stream):
        if self._last_stream is not None:
            self.backend.order_after(self._last_stream)
        self._last_stream = stream

    # -- a key without a graph ---------------------------------------------------------------------
    def _new_key(self, key, items, args):
        if self.seen[key]:
            return self._capture(key, items, args)
        if "copy" in self.dropped:
            return self._plain(args, None)
        if "miss" in self._measuring and self.copy_graph is not None \
                and len(self.timings["miss"]) < len(self.timings["copy"]):
            # copy and the plain launches take turns on new keys until each is timed (see the docstring)
            return self._timed("miss", self._plain, args, None)
        return self._copy(key, items, args)

    def _capture(self, key, items, args):
        args.clear()
        entry = self._capture_entry(items, key[0], key[1])
        if entry is None:
            return self._plain(items, None)
        self.graphs[key] = entry
        while len(self.graphs) > self.max_graphs:
            _, old = self.graphs.popitem(last=False)
            self._release(old)
            self.counts["evicted"] += 1
        return self._replay(entry, items)

    def _copy(self, key, items, args):
        graph = self.copy_graph
        if graph is not None and graph.signature != key[0]:
            return self._plain(args, "a call with another signature than the copy graph's: plain launches")
        pointers = key[1]
        if graph is None or any(pointers[i] != graph.pointers[i] for i in range(len(items))
                                if i not in graph.moving):
            # arguments that moved since the last call (or since the copy graph was captured) are copied
            moving = set(graph.moving) if graph is not None else set()
            previous = graph.pointers if graph is not None else self._previous_pointers(key)
            moving |= {i for i, p in enumerate(pointers) if p is not None and p != previous[i]}
            return self._capture_copy_graph(key, items, args, tuple(sorted(moving)))
        storages = [items[i].untyped_storage().data_ptr() for i in graph.moving]
        if len(set(storages)) != len(storages):
            return self._plain(args, "moving arguments that share storage cannot be copied: plain launches")
        args.clear()
        if "copy" in self._measuring:
            return self._timed("copy", self._copy_now, graph, items)
        return self._copy_now(graph, items)

    def _previous_pointers(self, key):
        for other in reversed(self.seen):
            if other != key and other[0] == key[0]:
                return other[1]
        return key[1]

    def _copy_now(self, graph, items):
        if self.lend and not graph.outputs.idle():    # the caller holds the last outputs: the twin's turn
            graph = self._idle_twin(graph, [graph.buffers.get(i, arg) for i, arg in enumerate(items)])
            if graph is None:
                return self._plain(items, None)
        buffers = graph.buffers
        for i in graph.moving:
            buffers[i].copy_(items[i])
        self._launch(graph)
        for i in graph.moving:
            if self.mutated is None or i in self.mutated:
                items[i].copy_(buffers[i])
        self.counts["copy"] += 1
        return graph.outputs.hand_out(items, self.lend)

    def _capture_copy_graph(self, key, items, args, moving):
        if self.copy_graph is not None:
            self._release(self.copy_graph)
            self.copy_graph = None
        buffers = {}
        for i in moving:
            buffers[i] = torch.empty_strided(items[i].shape, items[i].stride(), dtype=items[i].dtype,
                                             device=items[i].device)
        inside = [buffers.get(i, arg) for i, arg in enumerate(items)]
        try:
            for i in moving:
                buffers[i].copy_(items[i])
        except RuntimeError as err:   # e.g. an expanded (overlapping) argument: no buffer can hold it
            self.dropped.add("copy")
            self._say(f"the copy path cannot take these arguments ({str(err).splitlines()[0]}): new input "
                      "buffers run the plain path", warn=True)
            return self._plain(args, None)
        args.clear()
        graph = self._capture_entry(inside, key[0], graph_pointers(inside), moving, buffers)
        if graph is None:
            return self._plain(items, None)
        graph.bytes += sum(b.untyped_storage().nbytes() for b in buffers.values())
        self.copy_graph = graph
        self.counts["copy_capture"] += 1
        return self._copy_now(graph, items)


call_plain = call
cuda_graphs = GraphReplay(call_plain, mode='auto', outputs='fresh', max_graphs=8, mutated=(), device_index=0, name='linear_shift_sum_over_batch.default.0')
call = cuda_graphs.run
# graphs off for good (auto measured them slower, or they cannot run here): call() is the plain launches
cuda_graphs.add_rebinder(lambda plain: globals().__setitem__("call", plain))


def get_args():
    arg0_1 = rand_strided((4096, 4096), (4096, 1), torch.float32)
    arg1_1 = rand_strided((4096,), (1,), torch.float32)
    arg2_1 = rand_strided((16384, 4096), (4096, 1), torch.float32)
    arg3_1 = rand_strided((4096,), (1,), torch.float32)
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
