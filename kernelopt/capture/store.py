"""Write a capture to disk: tensors (small shapes) or their checksums (large shapes), and the manifest."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import torch

from kernelopt.tensor_layout import layout_copy

MANIFEST = "manifest.json"
FORMAT_VERSION = 1


def flatten_tensors(value: Any) -> list[Any]:
    """Tensors of a (nested) result in order: model outputs may be tensors, tuples, lists or dicts."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in flatten_tensors(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in flatten_tensors(v)]
    if hasattr(value, "to_tuple"):  # transformers ModelOutput
        return flatten_tensors(value.to_tuple())
    return []


# Above this size a checksum skips the sha256 (hashing 7.5 GB on the host took longer than the rest of
# the capture) and computes its statistics on the tensor's own device, chunk by chunk, so that no host
# copy or float64 copy of the whole tensor is ever made.
HASH_LIMIT_BYTES = 256 * 2**20
_STAT_CHUNK = 1 << 24


def checksum(t) -> dict[str, Any]:
    """Enough to tell whether a rebuilt tensor equals the captured one, without storing it."""
    if t.numel() * t.element_size() > HASH_LIMIT_BYTES:
        return _large_checksum(t)
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


def _large_checksum(t) -> dict[str, Any]:
    flat = t.detach().reshape(-1)
    summary: dict[str, Any] = {"shape": list(t.shape), "stride": list(t.stride()),
                               "dtype": str(t.dtype).replace("torch.", ""), "sha256": None,
                               "sha256_skipped": f"larger than {HASH_LIMIT_BYTES >> 20} MiB"}
    if t.is_floating_point() or t.dtype in (torch.int64, torch.int32, torch.bool):
        total = absolute = 0.0
        low, high = float("inf"), float("-inf")
        for start in range(0, flat.numel(), _STAT_CHUNK):
            chunk = flat[start:start + _STAT_CHUNK].double()
            total += float(chunk.sum())
            absolute += float(chunk.abs().sum())
            low, high = min(low, float(chunk.min())), max(high, float(chunk.max()))
        summary.update(sum=total, abs_sum=absolute, min=low, max=high)
    return summary


def to_host(values: list[Any]) -> list[Any]:
    return [layout_copy(v.detach(), "cpu") if isinstance(v, torch.Tensor) else v for v in values]


def save_tensors(path: Path, key: str, values: list[Any], **extra: Any) -> None:
    torch.save({key: to_host(values), **extra}, path)


def write_manifest(directory: Path, manifest: dict[str, Any]) -> Path:
    path = directory / MANIFEST
    path.write_text(json.dumps(manifest, indent=1, sort_keys=False) + "\n")
    return path


def read_manifest(directory: Path) -> dict[str, Any]:
    return json.loads((directory / MANIFEST).read_text())
