"""The device-memory meter on a CPU: the unavailable path says so without failing; the sampling logic
(peak over baseline, per step) against a fake reader; the disk meter on a folder a thread writes to."""
from __future__ import annotations

import os
import threading
import time

import pytest
import torch

from kernelopt.runtime.device_memory import (
    DeviceMemoryReader, DiskMeter, MemoryReading, PeakSampler, gib, nvml_index, read_device_memory,
)

NO_GPU = not torch.cuda.is_available()


@pytest.mark.skipif(not NO_GPU, reason="the unavailable path is for machines without a GPU")
def test_without_a_gpu_the_meter_reports_unavailable_cleanly():
    reader = DeviceMemoryReader()
    assert not reader.available and "no GPU memory to read" in reader.reason and reader.read() is None
    assert read_device_memory() is None
    with PeakSampler() as sampler:
        sampler.step("gate")
    assert sampler.peak is None and not sampler.available
    summary = sampler.summary()
    assert summary["available"] is False and "NVML" in summary["reason"]
    assert gib(sampler.peak) == "unavailable"


class FakeReader:
    """Device memory that follows a script: `used` is whatever the test sets."""

    available, reason = True, ""

    def __init__(self, used: int):
        self.used = used

    def read(self):
        return MemoryReading(self.used, 100 * 2**30, "fake")


def test_peak_over_the_baseline_overall_and_per_step():
    reader = FakeReader(5 * 2**30)  # in use before the job: not the job's
    with PeakSampler(reader=reader, period_s=0.005) as sampler:
        sampler.step("capture")
        reader.used = 8 * 2**30
        time.sleep(0.05)
        reader.used = 6 * 2**30
        sampler.step("gate")
        reader.used = 12 * 2**30
        time.sleep(0.05)
        reader.used = 5 * 2**30
        sampler.step("capture")  # a step named again continues its peak
        time.sleep(0.02)
    summary = sampler.summary()
    assert summary["peak_bytes"] == 7 * 2**30 and summary["baseline_bytes"] == 5 * 2**30
    assert summary["steps"] == {"capture": 3 * 2**30, "gate": 7 * 2**30}
    assert summary["total_bytes"] == 100 * 2**30 and summary["source"] == "fake"


def test_a_short_spike_between_steps_is_caught_by_the_thread():
    reader = FakeReader(0)
    with PeakSampler(reader=reader, period_s=0.002) as sampler:
        reader.used = 2**30
        time.sleep(0.03)
        reader.used = 0
    assert sampler.peak == 2**30


def test_nvml_index_follows_cuda_visible_devices(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3,1")
    assert nvml_index(0) == 3 and nvml_index(1) == 1 and nvml_index(2) == 2
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "GPU-1234")
    assert nvml_index(0) == 0


def test_disk_meter_records_the_peak_growth_of_files_a_thread_writes_and_deletes(tmp_path):
    (tmp_path / "before.bin").write_bytes(os.urandom(100_000))
    meter = DiskMeter(tmp_path, period_s=0.005)
    assert meter.used() >= 100_000

    def job():
        path = tmp_path / "job" / "tensor.pt"
        path.parent.mkdir()
        path.write_bytes(os.urandom(2_000_000))
        time.sleep(0.1)
        path.unlink()

    with meter:
        meter.step("capture")
        writer = threading.Thread(target=job)
        writer.start()
        writer.join()
    summary = meter.summary()
    assert 2_000_000 <= meter.peak < 2_500_000 and summary["steps"]["capture"] == meter.peak
    assert summary["end_bytes"] == summary["baseline_bytes"]
