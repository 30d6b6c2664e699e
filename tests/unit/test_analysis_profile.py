"""annotate-profile: static figures, the no-GPU remark, bounds, the time cache, and the measuring
run (exercised on the CPU through the Triton interpreter: the same code path the GPU takes)."""
import json
import os
from pathlib import Path

import pytest
import torch

from kernelopt.ir.parser import parse_module
from kernelopt.lift import lift_file
from kernelopt.passes.annotate_profile import AnnotateProfile
from kernelopt.passes.base import PassContext
from kernelopt.profile.timing_cache import TimeCache
from kernelopt.profile.ceilings import load_ceilings
from kernelopt.profile.counting import Cost
from kernelopt.profile.timed_module import timed_ops

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "inductor-2.11-h200"

TINY_MODULE = '''
import torch
import triton
import triton.language as tl
from torch._inductor.select_algorithm import extern_kernels


@triton.jit
def add_one(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + xindex, xmask)
    tmp1 = tmp0 + 1.0
    tl.store(out_ptr0 + xindex, tmp1, xmask)


def call(args):
    arg0_1, = args
    args.clear()
    buf0 = torch.empty_strided((8, 8), (8, 1), dtype=torch.float32)
    add_one[(1,)](arg0_1, buf0, 64, XBLOCK=64)
    buf1 = torch.empty_strided((8, 8), (8, 1), dtype=torch.float32)
    extern_kernels.mm(buf0, buf0, out=buf1)
    buf2 = torch.ops.aten.relu.default(buf1)
    return (buf2, )


def get_args():
    return [torch.randn(8, 8)]
'''

TINY_IR = """ko.module @tiny {
  ko.kernel @add_one {kind = "pointwise", source = "SOURCE", signature = {in_ptr0 = "*fp32", out_ptr0 = "*fp32", xnumel = "i32", XBLOCK = "constexpr"}}
  %arg0_1 = ko.arg 0 : tensor<8x8xf32, [8, 1]>
  %buf0 = ko.alloc : tensor<8x8xf32, [8, 1]>
  ko.launch @add_one(%arg0_1, %buf0, 64)
  %buf1 = ko.alloc : tensor<8x8xf32, [8, 1]>
  ko.extern "extern_kernels.mm"(%buf0, %buf0, out=%buf1)
  %buf2 = ko.call "torch.ops.aten.relu.default"(%buf1) : tensor<8x8xf32, [8, 1]>
  ko.return %buf2
}
"""


def annotate(module, device=None, **options):
    ctx = PassContext(current_pass="annotate-profile", options={"device": device})
    AnnotateProfile(**options).apply(ctx, module)
    return ctx


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the behaviour without a CUDA device")
def test_without_a_gpu_one_remark_says_timing_was_skipped():
    module = lift_file(FIXTURES / "ce.default.0.py")
    ctx = annotate(module)
    remarks = [d.message for d in ctx.diagnostics if d.severity == "remark"]
    assert remarks == ["[annotate-profile] timing skipped (no CUDA device): static figures only; "
                       "bound is from arithmetic intensity"]
    first, second = module.launches()
    assert "time_us" not in first.attrs and first.attrs["bound"] == "memory"
    assert second.attrs["bound"] == "launch"          # 74 KB of traffic: far under 5 µs of work
    stats = ctx.statistics["annotate-profile"]
    assert (stats["annotated"], stats["timed"], stats["memory"], stats["launch"]) == (2, 0, 1, 1)


def test_measure_false_is_silent_and_floors_follow_the_table():
    module = lift_file(FIXTURES / "mlp.default.0.py")
    ctx = annotate(module, measure=False, gpu="h200")
    assert not list(ctx.diagnostics)
    gemm = module.ops_named("extern")[0]
    ceilings = load_ceilings("h200")
    assert gemm.attrs["floor_us"] == pytest.approx(gemm.attrs["flops"] / ceilings.peak("bf16") * 1e6, rel=1e-3)
    assert gemm.attrs["bound"] == "compute" and gemm.attrs["floor_basis"] == "compute"


def test_bound_uses_measured_time_when_there_is_one():
    ceilings = load_ceilings("h200")
    attrs = {"floor_us": 100.0, "floor_basis": "memory"}
    assert AnnotateProfile._bound(attrs, Cost(), ceilings, 105.0) == "near-optimal"
    assert AnnotateProfile._bound(attrs, Cost(), ceilings, 300.0) == "memory"
    assert AnnotateProfile._bound({"floor_us": 0.5, "floor_basis": "memory"}, Cost(), ceilings, 3.0) == "launch"
    assert AnnotateProfile._bound({"floor_us": 0.5, "floor_basis": "compute"}, Cost(), ceilings, None) == "launch"


def test_ceilings_table_says_how_each_figure_was_measured():
    table = json.loads((Path(__file__).resolve().parents[2] / "kernelopt" / "profile" / "ceilings.json").read_text())
    h200 = table["gpus"]["h200"]
    # The measured entries are the figures benchmarks/measure_ceilings.py committed for the H200.
    measured = json.loads((Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "2026-12-02-h200"
                           / "ceilings.json").read_text())
    assert h200["bandwidth_bytes_per_s"]["value"] == pytest.approx(measured["copy_bytes_per_s"], rel=1e-3)
    for name in ("bf16", "fp16", "tf32", "fp32"):
        entry = h200["peak_flops_per_s"][name]
        assert entry["status"] == "measured"
        assert entry["value"] == pytest.approx(measured[f"{name}_flops_per_s"], rel=1e-2)
    for entry in [h200["bandwidth_bytes_per_s"], *h200["peak_flops_per_s"].values()]:
        assert entry["method"]


def test_time_cache_round_trips_and_can_be_disabled(tmp_path):
    cache = TimeCache(str(tmp_path))
    assert cache.get("ab" * 32) is None
    cache.put("ab" * 32, {"time_us": 1.5})
    assert cache.get("ab" * 32) == {"time_us": 1.5}
    assert TimeCache(str(tmp_path), enabled=False).get("ab" * 32) is None


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    path = tmp_path / "tiny_module.py"
    path.write_text(TINY_MODULE)
    source = TINY_MODULE.split("@triton.jit", 1)[1].split("\n\n\ndef call", 1)[0]
    module = parse_module(TINY_IR.replace('"SOURCE"', json.dumps("@triton.jit" + source)))
    return path, module


def test_measuring_run_times_every_launch_and_library_call_and_caches(tiny, tmp_path):
    path, module = tiny
    ops = [op for op in module.body if op.name in ("ko.launch", "ko.extern", "ko.call")]
    cache_dir = str(tmp_path / "cache")
    times = timed_ops(module, ops, str(path), rounds=1, cache_dir=cache_dir, device="cpu", min_time_ms=1.0)
    assert all(times.ops[id(op)].time_us > 0 and times.ops[id(op)].method == "host" for op in ops)
    assert times.module_us > 0 and times.module_graph_us is None    # no CUDA graph on the CPU
    assert times.module_device_us == times.module_us
    files = list(Path(cache_dir).rglob("*.json"))
    assert len(files) == len(ops) + 1
    again = timed_ops(module, ops, str(path), rounds=1, cache_dir=cache_dir, device="cpu", min_time_ms=1.0)
    assert again == times       # served from the cache: the same figures, nothing re-measured


@pytest.mark.parametrize("device_name, key, bandwidth", [("NVIDIA H200", "h200", 4.138e12),
                                                          ("NVIDIA H100 80GB HBM3", "h100", 3.007e12)])
def test_each_gpu_the_device_runs_on_gets_its_own_measured_floors(device_name, key, bandwidth):
    """An H100 used to get the H200's table (one entry only), which put every kernel 1.38x farther from its
    floor than it is (the floor census of 2026-12-05)."""
    from kernelopt.profile.ceilings import gpu_key_for_device_name

    assert gpu_key_for_device_name(device_name) == key
    ceilings = load_ceilings(key)
    assert ceilings.memory_us(bandwidth) == pytest.approx(1e6, rel=1e-3)    # one second of its measured copy rate
