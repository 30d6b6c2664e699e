"""Work the Triton interpreter repeats or throws away, skipped (every result stays the same).

Overflow checks. Every integer `+`, `-` and `*` in a kernel goes through Triton's overflow sanitizer
(`binary_op_sanitize_overflow_impl`): it widens both operands to int64, redoes the operation,
compares the result with the type's bounds and hands the comparison to `device_assert`. The
interpreter builds with `debug=False`, and `device_assert` returns at once without `debug`, so the
comparison is computed and dropped: no kernel's result or error changes. It was most of the time of
index-heavy kernels (a 7x7 convolution template ran 2.2x slower with it). When `debug` is on, the
check fires and is kept.

Re-patching the language. A launch patches `triton.language` once for its whole grid
(`_patch_lang`, restored when the launch ends), but every call of a `@triton.jit` helper inside the
kernel (Inductor's `triton_helpers.maximum`, `promote_to_tensor`, a Welford combine, ...) patches it
again: it walks every member of `tl`, `tl.math` and `tl.tensor` (about 2 ms) to find builtins the
launch has already replaced, and sets stateless stand-ins equal to the ones in place. A kernel calling
a helper per program spent most of its time there. Inside a launch, a helper's call is skipped once the
modules it sees were patched in that launch (by the launch, or by an earlier helper call, whose
patching Triton never restores); outside a launch Triton's own patching runs as before.

Broadcasts to the same shape. Every binary operation on two blocks broadcasts them to a common shape
first (`broadcast_impl_value`); it compares the operand's shape, a tuple, with the common one, a
list, so the two never compare equal and both operands are copied into read-only views of
themselves, with new types, even when their shapes already agree. Two blocks of the same shape are
now returned as they are: same data, dtype and shape, and nothing in the interpreter writes into an
operand's array (the views were read-only).

Numpy dtypes. The interpreter maps a Triton type to its numpy dtype (`_get_np_dtype`) for every value
it makes, rebuilding a table of 19 numpy dtypes each time; the answer depends on the type's name
alone, so it is kept per name.
"""
from __future__ import annotations

import dataclasses
import threading


def skip_discarded_overflow_checks() -> None:
    """Turn off the interpreter's overflow sanitizer while its assertions are disabled (idempotent)."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton.runtime import interpreter

    builder = getattr(interpreter, "interpreter_builder", None)
    options = getattr(builder, "options", None)
    if not dataclasses.is_dataclass(options) or not hasattr(options, "sanitize_overflow"):
        return  # another triton layout: leave it as it is
    if options.sanitize_overflow and not getattr(options, "debug", True):
        builder.options = dataclasses.replace(options, sanitize_overflow=False)


class _NothingToRestore:
    """The scope of a patching that was skipped (the launch's own scope restores the modules)."""

    def restore(self) -> None:
        pass


def skip_repatching_inside_a_launch() -> None:
    """Patch `triton.language` once per launch, not again at every jit helper call (idempotent)."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton.language as tl
    from triton.runtime import interpreter

    executor = getattr(interpreter, "GridExecutor", None)
    patch_lang = getattr(interpreter, "_patch_lang", None)
    if executor is None or patch_lang is None or getattr(patch_lang, "_kernelopt_once", False):
        return  # another triton layout (leave it as it is), or done already
    launch = threading.local()   # per thread: which language modules the running launch has patched

    def language_modules(fn) -> frozenset:
        # the modules Triton's _patch_lang patches for `fn`: tl and tl.core among its globals
        return frozenset(id(value) for value in fn.__globals__.values() if value is tl or value is tl.core)

    def patch_once(fn):
        patched = getattr(launch, "patched", None)
        if patched is not None:                            # a helper called by the running kernel
            seen = language_modules(fn)
            if seen and seen <= patched:
                return _NothingToRestore()
            scope = patch_lang(fn)      # Triton never restores a helper's patching: it lasts the launch
            launch.patched = patched | seen
            return scope
        scope = patch_lang(fn)
        if getattr(launch, "starting", False):             # the launch's own patching, for its whole grid
            launch.starting = False
            launch.patched = language_modules(fn)
        return scope

    original_call = executor.__call__

    def call(self, *args, **kwargs):
        outer = getattr(launch, "patched", None), getattr(launch, "starting", False)
        launch.patched, launch.starting = None, True
        try:
            return original_call(self, *args, **kwargs)
        finally:
            launch.patched, launch.starting = outer

    patch_once._kernelopt_once = True
    interpreter._patch_lang = patch_once
    executor.__call__ = call


def skip_broadcasts_of_equal_shapes() -> None:
    """Let two blocks of the same shape through the interpreter's broadcast unchanged (idempotent)."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton.runtime import interpreter

    semantic = getattr(interpreter, "interpreter_semantic", None)   # the interpreter's only: not the compiler's
    original = getattr(semantic, "broadcast_impl_value", None)
    if original is None or getattr(original, "_kernelopt_same_shape", False):
        return  # another triton layout (leave it as it is), or done already

    def broadcast_impl_value(lhs, rhs):
        lhs_type, rhs_type = lhs.type, rhs.type
        if lhs_type.is_block() and rhs_type.is_block() and \
                tuple(lhs_type.get_block_shapes()) == tuple(rhs_type.get_block_shapes()):
            return lhs, rhs
        return original(lhs, rhs)

    broadcast_impl_value._kernelopt_same_shape = True
    semantic.broadcast_impl_value = broadcast_impl_value


def remember_numpy_dtypes() -> None:
    """Keep the interpreter's Triton-to-numpy dtype answers per type name (idempotent)."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton.runtime import interpreter

    original = getattr(interpreter, "_get_np_dtype", None)
    if original is None or getattr(original, "_kernelopt_remembered", False):
        return  # another triton layout (leave it as it is), or done already
    known: dict[str, object] = {}

    def get_np_dtype(tt_dtype):
        name = getattr(tt_dtype, "name", None)    # "fp32", "pointer<fp32>", "<(64, 16), fp32>": the whole type
        if not isinstance(name, str):
            return original(tt_dtype)
        found = known.get(name)
        if found is None:
            found = known[name] = original(tt_dtype)
        return found

    get_np_dtype._kernelopt_remembered = True
    interpreter._get_np_dtype = get_np_dtype
