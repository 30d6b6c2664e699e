"""Device memory in use, read the way the issue-18 bound is stated: for the whole device, all processes.

`torch.cuda.max_memory_allocated` sees one process's caching allocator only; a job's workers (the
candidate pool, the guard's side-by-side timing) hold memory of their own, and the bound is
"min(3x Inductor default's peak, device memory - 4 GiB)" over everything the job holds. So the meter
reads NVML (`nvmlDeviceGetMemoryInfo`, through ctypes: no new dependency, and no CUDA context of its
own), falling back to `torch.cuda.mem_get_info` (also device-wide) when libnvidia-ml is missing. On a
machine without a GPU every reading is None and the samplers say "unavailable" instead of failing.

    with PeakSampler() as sampler:           # baseline = device memory in use at entry
        sampler.step("capture"); ...
        sampler.step("gate"); ...
    sampler.summary()  # {"available": True, "peak_bytes": ..., "steps": {"capture": ..., "gate": ...}}

`DiskMeter` does the same for the bytes under a folder (the job's temp folder).
"""
from __future__ import annotations

import ctypes
import gc
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from kernelopt.job_workdir import folder_bytes

NVML_LIBRARY = "libnvidia-ml.so.1"
SAMPLE_PERIOD_S = 0.02  # an allocation that lives 20 ms is caught; an NVML read costs ~7 µs (H200)
DISK_PERIOD_S = 0.2     # walking a folder costs more than an NVML read, and files live longer


@dataclass(frozen=True)
class MemoryReading:
    used: int    # bytes in use on the device, by every process
    total: int   # bytes the device has
    source: str  # "nvml" | "torch"


class _NvmlMemory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


class DeviceMemoryReader:
    """Reads one device's memory in use. `available` is False (and `reason` says why) on a machine
    where neither NVML nor a CUDA device is there; `read()` then returns None."""

    def __init__(self, index: int = 0):
        self.index = index
        self.available, self.reason, self.source = False, "", ""
        self._nvml = None
        self._handle = ctypes.c_void_p()
        problem = self._open_nvml()
        if self._nvml is not None:
            self.available, self.source = True, "nvml"
        elif self._torch_device_count() > index:
            self.available, self.source = True, "torch"
        else:
            self.reason = f"no GPU memory to read: NVML {problem}, and torch sees no CUDA device {index}"

    def read(self) -> MemoryReading | None:
        if not self.available:
            return None
        if self._nvml is not None:
            memory = _NvmlMemory()
            if self._nvml.nvmlDeviceGetMemoryInfo(self._handle, ctypes.byref(memory)) != 0:
                return None
            return MemoryReading(int(memory.used), int(memory.total), "nvml")
        # lazy: the fallback only: a sampler on an NVML machine never loads torch
        import torch

        free, total = torch.cuda.mem_get_info(self.index)
        return MemoryReading(total - free, total, "torch")

    def close(self) -> None:
        if self._nvml is not None:
            self._nvml.nvmlShutdown()
            self._nvml = None

    def __enter__(self) -> "DeviceMemoryReader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _open_nvml(self) -> str:
        """Loads NVML and the device handle; returns what went wrong ("" when nothing did)."""
        try:
            nvml = ctypes.CDLL(NVML_LIBRARY)
        except OSError:
            return f"({NVML_LIBRARY}) is not installed"
        if nvml.nvmlInit_v2() != 0:
            return "did not initialise (no driver?)"
        if nvml.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(nvml_index(self.index)), ctypes.byref(self._handle)) != 0:
            nvml.nvmlShutdown()
            return f"has no device {nvml_index(self.index)}"
        self._nvml = nvml
        return ""

    @staticmethod
    def _torch_device_count() -> int:
        # lazy: the fallback only (see read)
        import torch

        return torch.cuda.device_count() if torch.cuda.is_available() else 0


def nvml_index(cuda_index: int) -> int:
    """NVML numbers devices physically; CUDA numbers the ones CUDA_VISIBLE_DEVICES lists. Maps a CUDA
    index to NVML's when the variable lists plain numbers (UUIDs and MIG names are left as given)."""
    visible = [v.strip() for v in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
    if cuda_index < len(visible) and visible[cuda_index].isdigit():
        return int(visible[cuda_index])
    return cuda_index


def read_device_memory(index: int = 0) -> MemoryReading | None:
    """One reading of device `index`, or None where there is no GPU memory to read."""
    with DeviceMemoryReader(index) as reader:
        return reader.read()


class _Sampler:
    """A background thread that calls `measure()` every `period_s` and keeps the peak, overall and per
    step, relative to the first reading. Shared by PeakSampler (device) and DiskMeter (folder)."""

    def __init__(self, measure: Callable[[], int | None], period_s: float):
        self._measure, self.period_s = measure, period_s
        self.baseline: int | None = None
        self.peak: int | None = None       # the highest reading minus the baseline
        self.steps: dict[str, int] = {}    # step name -> its peak minus the baseline
        self._step: str | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.baseline = self._measure()
        if self.baseline is None:
            return
        self.peak = 0
        self._thread = threading.Thread(target=self._run, name=type(self).__name__, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
        self.sample()  # the last moment counts too

    def step(self, name: str) -> None:
        """From now on, readings count toward step `name` (a name given again continues its peak)."""
        self.sample()  # what the previous step left in use belongs to it
        with self._lock:
            self._step = name
            self.steps.setdefault(name, 0)
        self.sample()

    def sample(self) -> None:
        value = self._measure() if self.baseline is not None else None
        if value is None:
            return
        grown = value - self.baseline
        with self._lock:
            self.peak = max(self.peak or 0, grown)
            if self._step is not None:
                self.steps[self._step] = max(self.steps[self._step], grown)

    def _run(self) -> None:
        while not self._stop.wait(self.period_s):
            self.sample()


class PeakSampler(_Sampler):
    """Peak device memory in use (all processes) above what was in use on entry, overall and per step.

    On a machine without a GPU it runs nothing: `available` is False, `peak` None, and `summary()`
    says why. `reader` is for tests (any object with `read() -> MemoryReading | None`).
    """

    def __init__(self, index: int = 0, period_s: float = SAMPLE_PERIOD_S, reader=None):
        self.reader = reader if reader is not None else DeviceMemoryReader(index)
        self.total: int | None = None
        self.source = ""
        super().__init__(self._used, period_s)

    @property
    def available(self) -> bool:
        return getattr(self.reader, "available", True) and self.baseline is not None

    def __enter__(self) -> "PeakSampler":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        if hasattr(self.reader, "close"):
            self.reader.close()

    def summary(self) -> dict:
        """JSON-friendly: the figures, or {"available": False, "reason": ...}."""
        if not self.available:
            return {"available": False,
                    "reason": getattr(self.reader, "reason", "") or "the device memory could not be read"}
        return {"available": True, "source": self.source, "total_bytes": self.total,
                "baseline_bytes": self.baseline, "peak_bytes": self.peak, "steps": dict(self.steps)}

    def _used(self) -> int | None:
        reading = self.reader.read()
        if reading is None:
            return None
        self.total, self.source = reading.total, reading.source
        return reading.used


class DiskMeter(_Sampler):
    """Bytes under `folder` now (`used()`), and while running as a context manager, the peak growth over
    what was there on entry (`peak`), overall and per `step(name)`."""

    def __init__(self, folder: Path | str, period_s: float = DISK_PERIOD_S):
        self.folder = Path(folder)
        super().__init__(self.used, period_s)

    def used(self) -> int:
        return folder_bytes(self.folder)

    def __enter__(self) -> "DiskMeter":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def summary(self) -> dict:
        return {"folder": str(self.folder), "baseline_bytes": self.baseline, "peak_growth_bytes": self.peak,
                "end_bytes": self.used(), "steps": dict(self.steps)}


def gib(value: int | None) -> str:
    """Bytes as GiB for messages ("unavailable" for None)."""
    return "unavailable" if value is None else f"{value / 2**30:.2f} GiB"


def release_cached_memory(device: str) -> None:
    """Give memory torch's caching allocator holds unused back to the device: a job's memory bound is read
    through NVML, which counts it, and other processes (the gate's sandbox, pool workers) cannot use it."""
    if not str(device).startswith("cuda"):
        return
    import torch  # lazy: this module reads NVML through ctypes and is imported where torch is not needed

    if torch.cuda.is_available():
        gc.collect()
        torch.cuda.empty_cache()
