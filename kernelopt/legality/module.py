"""The gate on a real output module: capture a kernel's launches, then check a candidate on them.

Uses `kernelopt.runtime.loader`: the module runs on the given (or its own `get_args()`) inputs with a
launch hook that snapshots the arguments of every launch of the kernel just before it runs. Those are
the realistic inputs; the original is the loaded kernel's own `.run`; the float64 reference is the same
module with that kernel's source rewritten to float64 (see inductor_source.float64_variant), loaded the
same way, when it loads and agrees with the original.
"""
from __future__ import annotations

import os
import shutil
from typing import Any, Callable

import torch

from kernelopt.job_workdir import owned_temp_folder
from kernelopt import inductor_source
from kernelopt.errors import InputError
from kernelopt.legality.cases import LaunchInputs
from kernelopt.legality.gate import Verdict, check_candidate
from kernelopt.runtime.loader import load_output_module


def snapshot_args(args) -> tuple:
    """Deep copies of a launch's arguments that keep which tensors share storage."""
    copies: dict[int, torch.Tensor] = {}
    out = []
    for arg in args:
        if not isinstance(arg, torch.Tensor):
            out.append(arg)
            continue
        storage = arg.untyped_storage()
        key = storage.data_ptr()
        if key not in copies:
            raw = torch.empty(0, dtype=torch.uint8, device=arg.device).set_(storage)
            copies[key] = raw.clone()
        buffer = copies[key].view(arg.dtype)
        out.append(torch.as_strided(buffer, arg.shape, arg.stride(), arg.storage_offset()))
    return tuple(out)


def capture_launches(loaded, kernel: str, inputs: list) -> list[LaunchInputs]:
    captured: list[LaunchInputs] = []

    def hook(name, index, args, run_original):
        if name == kernel:
            captured.append(LaunchInputs(snapshot_args(args), label=f"module launch #{index}"))
        return run_original()

    loaded.launch_hook = hook
    try:
        loaded.call(list(inputs))
    finally:
        loaded.launch_hook = None
    return captured


def float64_module(module_path: str, kernels, device: str, native_inputs: bool | dict = False,
                   autotune_cache: bool = True):
    """The module loaded with the given kernels rewritten to float64 (see
    inductor_source.float64_variant), or None when it cannot be built or loaded. Its kernels are
    launched on their own, with float64 arguments; `call()` is never run. With `native_inputs` (True:
    every kernel's read-only float inputs; a dict: kernel -> the inputs that keep theirs), those inputs
    keep their dtype where every kernel allows it (float64_native_inputs_variant); the loaded module's
    `native_inputs` says whether they do. `autotune_cache`: as load_output_module's."""
    with open(module_path) as handle:
        original = handle.read()
    try:
        text, native = original, bool(native_inputs)
        for kernel in kernels:
            wanted = set(native_inputs.get(kernel, ())) if isinstance(native_inputs, dict) else native_inputs
            text, kept = inductor_source.float64_module_text(text, kernel, wanted)
            native = native and kept
        if native_inputs and not native:        # all kernels one way: the caller passes one kind of args
            text = original
            for kernel in kernels:
                text, _ = inductor_source.float64_module_text(text, kernel)
    except InputError:
        return None
    directory = owned_temp_folder("kernelopt-f64-")
    path = os.path.join(directory, os.path.basename(module_path))
    with open(path, "w") as handle:
        handle.write(text)
    try:
        loaded = load_output_module(path, device=device, autotune_cache=autotune_cache)
        loaded.native_inputs = bool(native_inputs) and native
        for kernel in kernels:
            if kernel in loaded.kernels:
                _widen_scan_workspace(loaded.kernels[kernel], inductor_source.kernel_source(text, kernel), kernel)
        return loaded
    except Exception:  # noqa: BLE001 - no reference is a note, not an error
        return None
    finally:  # loading read the text (kernels keep their source): one folder per reference piled up in /tmp
        shutil.rmtree(directory, ignore_errors=True)


def _widen_scan_workspace(handle, source: str, kernel: str) -> None:
    """A float64 split scan exchanges its carries in three words per chunk where Inductor's fp32 workspace
    gives one: each launch gets a zeroed workspace that large (inductor_source.float64_scan_workspace_position).
    Without it a scan launched at a small chunk (Inductor's 256 on a CPU capture) had no reference."""
    at = inductor_source.float64_scan_workspace_position(source, kernel)
    if at is None:
        return
    run = handle.run

    def run_widened(*args, **kwargs):
        if at < len(args):
            wider = args[at].new_zeros(args[at].numel() * inductor_source.FLOAT64_SCAN_WORKSPACE_SCALE)
            args = (*args[:at], wider, *args[at + 1:])
        return run(*args, **kwargs)
    handle.run = run_widened


def float64_reference(module_path: str, kernel: str, device: str, launched=None):
    """A float64 version of the kernel from the same module, or None when it cannot be built. `launched`:
    the original kernel's handle, whose launches give a bare @triton.jit kernel (an emitted module's) its
    grid and constexprs."""
    loaded64 = float64_module(module_path, [kernel], device, native_inputs=True)
    if loaded64 is None or kernel not in loaded64.kernels:
        return None
    handle64 = loaded64.kernels[kernel]
    if launched is not None:
        handle64.seen_launches = launched.seen_launches
    return reference_of(handle64.run, loaded64)


def reference_of(run, loaded64) -> Callable[..., Any]:
    """`run` (launches of float64_module's kernels) as the gate's reference_fn: it carries
    `native_inputs`, which tells the gate to pass read-only inputs as they are (gate._run_reference)."""
    def reference(*args):
        return run(*args)
    reference.native_inputs = loaded64.native_inputs
    return reference


def check_module_kernel(module_path: str, kernel: str, candidate_source: str, *, inputs: list | None = None,
                        device: str = "cpu", precision: str = "strict", launch: int | None = None,
                        **options) -> Verdict:
    loaded = load_output_module(module_path, device=device)
    if kernel not in loaded.kernels:
        raise InputError(f"{module_path}: no Triton kernel named {kernel!r} (known: {', '.join(sorted(loaded.kernels))})")
    handle = loaded.kernels[kernel]
    with open(module_path) as stream:
        text = stream.read()
    source = handle.source or inductor_source.kernel_source(text, kernel, module_path)
    arg_names = handle.arg_names or inductor_source.kernel_params(source, kernel)
    inputs = [t.to(device) if isinstance(t, torch.Tensor) else t for t in (inputs if inputs is not None else loaded.get_args())]
    launches = capture_launches(loaded, kernel, inputs)
    if not launches:
        raise InputError(f"{module_path}: kernel {kernel} is never launched by call(args)")
    if launch is not None:
        if not 0 <= launch < len(launches):
            raise InputError(f"--launch {launch}: {kernel} has {len(launches)} launch(es) (0..{len(launches) - 1})")
        launches = [launches[launch]]
    output_args = {i for i, name in enumerate(arg_names)
                   if name.startswith(("out_ptr", "in_out_ptr")) or name in inductor_source.mutated_arg_names(source)}
    verdict = check_candidate(lambda *args: handle.run(*args), candidate_source, launches,
                              output_args=output_args, precision=precision,
                              reference_fn=float64_reference(module_path, kernel, device, handle),
                              original_source=source, arg_names=arg_names, **options)
    return verdict
