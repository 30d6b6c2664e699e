"""The table of measured ceilings per GPU (`ceilings.json` next to this file) and roofline floors."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kernelopt.errors import UsageError

TABLE_PATH = Path(__file__).with_name("ceilings.json")


@dataclass(frozen=True)
class Ceilings:
    gpu: str
    bandwidth: float                      # bytes/s, read + write
    peaks: dict[str, float]               # flop class -> FLOP/s
    statuses: dict[str, str]              # "bandwidth" / flop class -> "measured" | "to be measured"
    launch_us: float

    def peak(self, flop_class: str) -> float:
        return self.peaks.get(flop_class) or self.peaks["fp32"]

    def status(self, flop_class: str) -> str:
        return self.statuses.get(flop_class, self.statuses.get("fp32", "to be measured"))

    def memory_us(self, nbytes: int) -> float:
        return nbytes / self.bandwidth * 1e6

    def compute_us(self, flops: int, flop_class: str) -> float:
        return flops / self.peak(flop_class) * 1e6

    def floor_us(self, nbytes: int, flops: int, flop_class: str) -> float:
        return max(self.memory_us(nbytes), self.compute_us(flops, flop_class))


@lru_cache(maxsize=1)
def _table() -> dict:
    return json.loads(TABLE_PATH.read_text())


def known_gpus() -> list[str]:
    return sorted(_table()["gpus"])


def gpu_key_for_device_name(device_name: str) -> str | None:
    """`NVIDIA H200` -> `h200`; None when no table entry matches."""
    for key, entry in _table()["gpus"].items():
        if any(m.lower() in device_name.lower() for m in entry.get("match", [key])):
            return key
    return None


def load_ceilings(gpu: str) -> Ceilings:
    table = _table()
    if gpu not in table["gpus"]:
        raise UsageError(f"no ceilings for GPU '{gpu}' (known: {', '.join(known_gpus())}); "
                         f"add it to {TABLE_PATH}")
    entry = table["gpus"][gpu]
    peaks = {k: float(v["value"]) for k, v in entry["peak_flops_per_s"].items()}
    statuses = {k: v["status"] for k, v in entry["peak_flops_per_s"].items()}
    statuses["bandwidth"] = entry["bandwidth_bytes_per_s"]["status"]
    return Ceilings(gpu, float(entry["bandwidth_bytes_per_s"]["value"]), peaks, statuses,
                    float(entry["launch_overhead_us"]["value"]))


def default_gpu() -> str:
    return _table()["default"]
