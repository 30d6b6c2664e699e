"""Work the Triton interpreter does whose result it throws away, switched off.

Every integer `+`, `-` and `*` in a kernel goes through Triton's overflow sanitizer
(`binary_op_sanitize_overflow_impl`): it widens both operands to int64, redoes the operation,
compares the result with the type's bounds and hands the comparison to `device_assert`. The
interpreter builds with `debug=False`, and `device_assert` returns at once without `debug`, so the
comparison is computed and dropped: no kernel's result or error changes. It was most of the time of
index-heavy kernels (a 7x7 convolution template ran 2.2x slower with it). When `debug` is on, the
check fires and is kept.
"""
from __future__ import annotations

import dataclasses


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
