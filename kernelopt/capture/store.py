"""Write a capture to disk: tensors (small shapes) or their checksums (large shapes), and the manifest."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

MANIFEST = "manifest.json"
FORMAT_VERSION = 1


def flatten_tensors(value: Any) -> list[Any]:
    """Tensors of a (nested) result in order: model outputs may be tensors, tuples, lists or dicts."""
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in flatten_tensors(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in flatten_tensors(v)]
    if hasattr(value, "to_tuple"):  # transformers ModelOutput
        return flatten_tensors(value.to_tuple())
    return []


def checksum(t) -> dict[str, Any]:
    """Enough to tell whether a rebuilt tensor equals the captured one, without storing it."""
    import torch

    host = t.detach().to("cpu").contiguous()
    raw = host.reshape(-1).view(torch.uint8)
    summary: dict[str, Any] = {
        "shape": list(t.shape),
        "stride": list(t.stride()),
        "dtype": str(t.dtype).replace("torch.", ""),
        "sha256": hashlib.sha256(raw.numpy().tobytes()).hexdigest(),
    }
    if host.numel() and (host.is_floating_point() or host.dtype in (torch.int64, torch.int32, torch.bool)):
        wide = host.double()
        summary.update(sum=float(wide.sum()), abs_sum=float(wide.abs().sum()),
                       min=float(wide.min()), max=float(wide.max()))
    return summary


def to_host(values: list[Any]) -> list[Any]:
    import torch

    return [v.detach().to("cpu").clone() if isinstance(v, torch.Tensor) else v for v in values]


def save_tensors(path: Path, key: str, values: list[Any], **extra: Any) -> None:
    import torch

    torch.save({key: to_host(values), **extra}, path)


def write_manifest(directory: Path, manifest: dict[str, Any]) -> Path:
    path = directory / MANIFEST
    path.write_text(json.dumps(manifest, indent=1, sort_keys=False) + "\n")
    return path


def read_manifest(directory: Path) -> dict[str, Any]:
    return json.loads((directory / MANIFEST).read_text())
