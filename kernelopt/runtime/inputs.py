"""Reading and writing the tensors `kernelopt run` and `kernelopt bench` take and produce."""
from __future__ import annotations

import os
from typing import Any

import torch

from kernelopt.errors import InputError


def load_inputs(path: str) -> list:
    """ARGS.pt: a torch.save file holding a list of call() arguments, or a dict with it under "args"."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such inputs file")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # a pickle we refuse, or not a torch file at all
        raise InputError(f"{path}: not a torch.save file of tensors: {err}") from None
    if isinstance(data, dict):
        if "args" not in data:
            raise InputError(f"{path}: a dict of inputs needs the argument list under 'args' "
                             f"(keys found: {', '.join(map(str, data)) or 'none'})")
        data = data["args"]
    if not isinstance(data, (list, tuple)):
        raise InputError(f"{path}: expected a list of call() arguments, got {type(data).__name__}")
    return list(data)


def to_cpu(value: Any) -> Any:
    return value.detach().cpu() if isinstance(value, torch.Tensor) else value


def save_result(path: str, result: dict) -> None:
    """OUT.pt: {"outputs": [tensors], "mutated": {index: tensor}}, all on the CPU."""
    torch.save({"outputs": [to_cpu(o) for o in result["outputs"]],
                "mutated": {int(i): to_cpu(t) for i, t in result["mutated"].items()}}, path)


def describe(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        dtype = str(value.dtype).replace("torch.", "")
        return f"{dtype}[{', '.join(map(str, value.shape))}]"
    return repr(value)
