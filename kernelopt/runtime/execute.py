"""Run a whole output module on given inputs: validate them, run, report outputs and mutated inputs."""
from __future__ import annotations

from typing import Any, Sequence

import torch

from kernelopt.errors import InputError
from kernelopt.runtime.loader import ArgSpec, LoadedModule, load_output_module
from kernelopt.tensor_layout import strides_match

DEFAULT_SEED = 0


def _describe(spec: ArgSpec) -> str:
    return f"argument {spec.index} ({spec.name})"


def _fmt(values: Sequence[int]) -> str:
    values = tuple(int(v) for v in values)
    return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"


def validate_inputs(module: LoadedModule, args: Sequence[Any]) -> None:
    """Check count, tensor-ness, shape, stride and dtype against get_args() and assert_size_stride."""
    specs = module.arg_specs
    if not specs:
        return  # the module declares nothing we can check against
    if len(args) != len(specs):
        names = ", ".join(s.name for s in specs)
        raise InputError(f"{module.path}: expected {len(specs)} arguments ({names}), got {len(args)}")
    for spec, value in zip(specs, args):
        if not spec.is_tensor:
            continue
        if not isinstance(value, torch.Tensor):
            raise InputError(f"{_describe(spec)}: expected a tensor, got {type(value).__name__}")
        if spec.sizes is not None and tuple(value.shape) != tuple(spec.sizes):
            raise InputError(f"{_describe(spec)}: expected shape {_fmt(spec.sizes)}, got {_fmt(value.shape)}")
        if spec.dtype is not None and value.dtype != spec.dtype:
            raise InputError(f"{_describe(spec)}: expected dtype {spec.dtype}, got {value.dtype}")
        if spec.strides is not None and value.numel() > 1 and not strides_match(value, spec.strides):
            raise InputError(f"{_describe(spec)}: expected stride {_fmt(spec.strides)}, got {_fmt(value.stride())}")
        if value.device.type != module.device:
            raise InputError(f"{_describe(spec)}: expected a {module.device} tensor, got one on {value.device}")


def _bits(t: torch.Tensor) -> torch.Tensor:
    flat = t.detach().reshape(-1)
    return flat.view(torch.uint8) if flat.dtype != torch.bool else flat


def _changed(before: torch.Tensor, after: torch.Tensor) -> bool:
    """Bitwise comparison: NaN payloads and -0.0 count, and NaN equals itself."""
    return not torch.equal(_bits(before), _bits(after))


def seeded_example_args(module: LoadedModule, seed: int = DEFAULT_SEED) -> list:
    """The module's get_args() under a fixed seed.

    Floating inputs are rand_strided's normal samples; integer inputs come out as zeros (rand_strided
    allocates them with torch.zeros), which is a valid index for every gather/embedding: we keep them.
    """
    state = torch.random.get_rng_state()
    cuda_states = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None
    torch.manual_seed(seed)
    try:
        return module.get_args()
    finally:
        torch.random.set_rng_state(state)
        if cuda_states is not None:
            torch.cuda.set_rng_state_all(cuda_states)


def _to_device(args: Sequence[Any], device: str) -> list:
    return [a.to(device) if isinstance(a, torch.Tensor) and a.device.type != device else a for a in args]


def run_loaded(module: LoadedModule, args: Sequence[Any]) -> dict:
    """Validate, run, and report `{"outputs": [...], "mutated": {index: tensor}}` for a loaded module."""
    args = list(args)
    validate_inputs(module, args)
    snapshots = {i: a.detach().clone() for i, a in enumerate(args) if isinstance(a, torch.Tensor)}
    outputs = module.call(args)
    mutated = {i: args[i] for i, before in snapshots.items() if _changed(before, args[i])}
    return {"outputs": list(outputs), "mutated": mutated}


def run_module(path: str, args: Sequence[Any] | None, device: str = "cpu") -> dict:
    """Load the output module at `path` for `device` and run it on `args` (None: seeded get_args())."""
    module = load_output_module(path, device)
    if args is None:
        args = seeded_example_args(module)
    return run_loaded(module, _to_device(args, device))
