"""Run output modules (Inductor's or KernelOPT's) on the CPU through the Triton interpreter, or on a GPU.

- `interpret.install_cpu_triton_shims()`: make Triton kernels run on the CPU.
- `loader.load_output_module(path, device)`: a module with its kernels, launches and a launch hook.
- `run_module(path, args, device)`: run it, validate inputs, report outputs and mutated inputs.
- `timing`: median times and side-by-side comparisons (GPU, or CPU for smoke tests).
"""
from __future__ import annotations


def run_module(path, args, device="cpu"):
    """Run the output module at `path` on `args`; see `kernelopt.runtime.execute.run_module`."""
    # lazy: every `import kernelopt.runtime.X` runs this file; execute pulls torch
    from kernelopt.runtime.execute import run_module as _run_module

    return _run_module(path, args, device)


def install_cpu_triton_shims() -> None:
    """Make Triton kernels run on the CPU; see `kernelopt.runtime.interpret`."""
    # lazy: the CPU shims need numpy (not a dependency of kernelopt); only CPU runs load them
    from kernelopt.runtime.interpret import install_cpu_triton_shims as _install

    _install()
