"""Prepare torch for a capture on the chosen device, and describe the software it ran with."""
from __future__ import annotations

import datetime
import os
import platform
from typing import Any

import torch

from kernelopt.errors import InputError


def prepare_cpu_triton() -> None:
    """Make Inductor write Triton kernels for CPU tensors and run them under the Triton interpreter.

    TRITON_INTERPRET is read when a kernel is decorated, which happens when Inductor loads the
    kernels of a module, so setting it here (before any capture) is early enough.
    """
    os.environ["TRITON_INTERPRET"] = "1"
    # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
    import torch._inductor.config as inductor_config

    inductor_config.cpu_backend = "triton"
    inductor_config.compile_threads = 1  # interpreted kernels compile instantly; a worker pool only costs start-up
    try:
        # lazy: the CPU shims need numpy (not a dependency of kernelopt); only --device cpu loads them
        from kernelopt.runtime.interpret import install_cpu_triton_shims
    except ImportError as err:
        raise InputError(f"--device cpu needs kernelopt.runtime.interpret.install_cpu_triton_shims ({err})") from None
    install_cpu_triton_shims()


def prepare_device(device: str, compile_threads: int | None = None) -> None:
    if device == "cpu":
        prepare_cpu_triton()
    elif device.startswith("cuda"):
        if not torch.cuda.is_available():
            raise InputError("--device cuda: no CUDA GPU is visible on this machine (use --device cpu)")
        if compile_threads:
            # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
            import torch._inductor.config as inductor_config

            inductor_config.compile_threads = compile_threads
    else:
        raise InputError(f"unknown device {device!r}: expected cpu or cuda")


def software(device: str) -> dict[str, Any]:
    """Versions and hardware a capture is tied to (the manifest's `environment`)."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton

    info: dict[str, Any] = {
        "torch": torch.__version__,
        "triton": triton.__version__,
        "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "device": device,
    }
    if device.startswith("cuda"):
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        info["gpu"] = props.name
        info["capability"] = f"{props.major}.{props.minor}"
        info["cuda"] = torch.version.cuda
        info["sm_count"] = props.multi_processor_count
    else:
        info["gpu"] = None
        info["triton_interpret"] = os.environ.get("TRITON_INTERPRET") == "1"
    try:
        # lazy: optional dependency (extra 'zoo')
        import transformers

        info["transformers"] = transformers.__version__
    except ImportError:
        info["transformers"] = None
    return info
