"""`load_output_module(..., autotune_cache=False)`: the text it runs turns Inductor's autotune caches off in
every kernel's `inductor_meta` (Inductor bakes the flags into each decorator), so that a kernel keeps every
configuration its heuristics list and the evaluator can pin the one a capture recorded (the GPU side is in
test_pin_config_gpu.py)."""
from __future__ import annotations

import ast
from pathlib import Path

from kernelopt.inductor_source import kernel_sources
from kernelopt.runtime.autotuner_pin import without_autotune_cache

MODULE = (Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general" / "exclusive_cumsum"
          / "exclusive_cumsum.default.0.py")


def test_every_kernel_of_the_module_reads_no_autotune_cache():
    original = MODULE.read_text()
    assert "'autotune_local_cache': True" in original
    text = without_autotune_cache(original)
    ast.parse(text)
    kernels = kernel_sources(text)
    assert kernels and set(kernels) == set(kernel_sources(original))
    for name, source in kernels.items():
        assert "'autotune_local_cache': False" in source, name
        assert "'autotune_local_cache': True" not in source and "'autotune_remote_cache': True" not in source


def test_only_the_cache_flags_change():
    original = MODULE.read_text()
    text = without_autotune_cache(original)
    assert text.replace("'autotune_local_cache': False", "'autotune_local_cache': True") == original
