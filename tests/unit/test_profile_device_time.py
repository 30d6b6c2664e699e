"""Device-time measurement for annotate-profile: the batching and rotation arithmetic, how measured
times become attributes and bounds, the cache key's method version (all on the CPU), and on a GPU the
CUDA-graph timing, its fallback and the per-op sum against the whole module."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from kernelopt.lift import lift_file
from kernelopt.passes.annotate_profile import AnnotateProfile
from kernelopt.passes.base import PassContext
from kernelopt.profile import timed_module
from kernelopt.profile.ceilings import load_ceilings
from kernelopt.profile.counting import Cost
from kernelopt.profile.measure import _clone_args, environment
from kernelopt.profile.timed_module import OpTime, ProfileTimes
from kernelopt.runtime import timing

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "inductor-2.11-h200"
needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


# -- arithmetic -------------------------------------------------------------------------------------

def test_a_step_holds_about_a_batch_of_work():
    assert timing.calls_per_step(0.01, batch_ms=1.0) == 100
    assert timing.calls_per_step(5.0, batch_ms=1.0) == 1            # a long op: one call per step
    assert timing.calls_per_step(0.0001, batch_ms=1.0, max_calls=256) == 256
    assert timing.calls_per_step(0.0, max_calls=64) == 64            # no estimate: the most calls


def test_a_step_holds_whole_turns_through_the_rotated_inputs():
    # 100 calls wanted, 32 input sets: 4 turns (128 calls), so each set is read equally often
    assert timing.calls_per_step(0.01, copies=32, batch_ms=1.0) == 128
    # a long op still reads every set once per step: one turn
    assert timing.calls_per_step(5.0, copies=13, batch_ms=1.0) == 13
    # the cap is kept in whole turns: 256 // 24 = 10 turns
    assert timing.calls_per_step(0.0001, copies=24, batch_ms=1.0, max_calls=256) == 240
    # more sets than the cap allows: one turn all the same
    assert timing.calls_per_step(0.0001, copies=40, max_calls=32) == 40


def test_steps_per_round():
    assert timing.steps_per_round(1.0, 10.0) == 10
    assert timing.steps_per_round(3.0, 10.0) == 4
    assert timing.steps_per_round(50.0, 10.0) == 1
    assert timing.steps_per_round(0.0, 10.0, max_steps=7) == 7


def test_rotated_copies_keep_the_arguments_layout_and_aliasing():
    bias, buffer = torch.randn(8), torch.randn(4, 8)
    expanded, rows, flat_view = bias.expand(4, 8), buffer[1:3], buffer.view(32)[8:24].view(2, 8)
    copied = _clone_args([expanded, rows, 3, flat_view])
    # an expanded bias stays a stride-0 view of 8 elements (a clone() would be a 4x8 matrix)
    assert copied[0].stride() == (0, 1) and copied[0].untyped_storage().nbytes() == 32
    assert copied[1].storage_offset() == 8 and copied[2] == 3
    assert all(torch.equal(a, b) for a, b in zip(copied, [expanded, rows, 3, flat_view]) if isinstance(a, torch.Tensor))
    # two views of one buffer still alias each other, not the original
    copied[1].add_(1.0)
    assert torch.equal(copied[3], copied[1]) and torch.equal(rows, buffer[1:3]) and not torch.equal(copied[1], rows)


def test_on_the_cpu_device_time_is_the_per_call_host_time():
    measured = timing.device_time(lambda: sum(range(1000)), device="cpu", rounds=2, min_time_ms=2.0)
    assert measured.method == "host" and measured.ms > 0 and measured.host_ms == measured.ms
    assert measured.fallback == ""


# -- attributes and bounds --------------------------------------------------------------------------

def test_launch_bound_means_device_time_below_the_host_launch_cost():
    ceilings = load_ceilings("h200")
    attrs = {"floor_us": 1.0, "floor_basis": "memory"}
    # 8 µs on the GPU, 11 µs to issue on the host: the GPU would wait for the host
    assert AnnotateProfile._bound(attrs, Cost(), ceilings, 8.0, launch_us=11.0) == "launch"
    assert AnnotateProfile._bound(attrs, Cost(), ceilings, 8.0, launch_us=6.0) == "memory"
    # below the GPU's own fixed launch cost whatever the host does
    assert AnnotateProfile._bound(attrs, Cost(), ceilings, 3.0, launch_us=1.0) == "launch"
    # near-optimal wins: the kernel is as fast as it can be
    assert AnnotateProfile._bound({"floor_us": 8.0, "floor_basis": "memory"}, Cost(), ceilings, 8.5,
                                  launch_us=11.0) == "near-optimal"


def _fake_times(module, graph_us):
    ops = [op for op in module.body if op.name in ("ko.launch", "ko.extern", "ko.call")]
    first, second = ops
    return ProfileTimes({id(first): OpTime(150.0, "graph", 7.5), id(second): OpTime(4.0, "batched", 9.0, "x")},
                        module_us=180.0, module_graph_us=graph_us)


@pytest.mark.parametrize("graph_us", [160.0, None])
def test_measured_times_become_attributes(monkeypatch, graph_us):
    module = lift_file(FIXTURES / "ce.default.0.py")
    monkeypatch.setattr(AnnotateProfile, "_measured_times", lambda self, ctx, m, ops: _fake_times(m, graph_us))
    ctx = PassContext(current_pass="annotate-profile", options={})
    AnnotateProfile(gpu="h200").apply(ctx, module)
    first, second = module.launches()
    assert (first.attrs["time_us"], first.attrs["time_method"], first.attrs["launch_us"]) == (150.0, "graph", 7.5)
    assert second.attrs["time_method"] == "batched" and second.attrs["bound"] == "launch"
    # shares are of the module's device time: its graph replay when captured, else its back-to-back time
    assert first.attrs["share"] == pytest.approx(150.0 / (graph_us or 180.0), rel=1e-3)
    assert module.attrs["module_time_us"] == 180.0
    assert module.attrs.get("module_graph_us") == graph_us


# -- the cache --------------------------------------------------------------------------------------

def test_cache_keys_change_with_the_measuring_method(monkeypatch):
    module = lift_file(FIXTURES / "ce.default.0.py")
    op = module.launches()[0]
    env = {**environment(), "device": "cuda"}
    key = timed_module.op_key(op, module, env, 3)
    monkeypatch.setattr(timed_module, "METHOD_VERSION", timed_module.METHOD_VERSION + 1)
    assert timed_module.op_key(op, module, env, 3) != key


def test_cached_fallbacks_are_remarked_again(tmp_path, monkeypatch):
    module = lift_file(FIXTURES / "ce.default.0.py")
    ops = module.launches()
    measured = _fake_times(module, None)
    measured.module_fallback = "RuntimeError: capture refused"
    monkeypatch.setattr(timed_module, "_measure", lambda *args: measured)
    first_remarks, second_remarks = [], []
    timed_module.timed_ops(module, ops, str(FIXTURES / "ce.default.0.py"), cache_dir=str(tmp_path),
                           remark=lambda op, text: first_remarks.append(text))
    monkeypatch.setattr(timed_module, "_measure", lambda *args: pytest.fail("not served from the cache"))
    again = timed_module.timed_ops(module, ops, str(FIXTURES / "ce.default.0.py"), cache_dir=str(tmp_path),
                                   remark=lambda op, text: second_remarks.append(text))
    assert again == measured
    assert first_remarks == second_remarks and len(first_remarks) == 2
    assert "capture failed: x" in first_remarks[0] and "capture refused" in first_remarks[1]


# -- on a GPU ---------------------------------------------------------------------------------------

def _in_fresh_process(body: str) -> None:
    """Other test modules switch this process to the CPU interpreter (TRITON_INTERPRET)."""
    prelude = ("import torch\nfrom pathlib import Path\nfrom kernelopt.runtime import timing\n"
               f"FIXTURES = Path({str(FIXTURES)!r})\n")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(body)], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.gpu
@needs_gpu
def test_graph_timing_excludes_the_host_launch_latency():
    _in_fresh_process("""
    x = torch.randn(1024, device="cuda")
    y = torch.empty_like(x)
    add = lambda: torch.add(x, 1.0, out=y)
    measured = timing.device_time(add, rounds=3, min_time_ms=10.0)
    assert measured.method == "graph" and measured.fallback == "" and measured.calls > 1, measured
    single = timing.median_time_ms(add, reps=50)      # one call per event pair: the GPU waits for the host
    assert measured.ms < single, (measured.ms, single)
    assert measured.ms < 0.010 and measured.host_ms > 0, measured   # a 4 KB add: a few µs at most
    """)


def test_on_the_cpu_compare_device_times_both_sides_on_the_host():
    fast, slow = (lambda: sum(range(10))), (lambda: sum(range(20000)))
    result = timing.compare_device(fast, slow, rounds=3, device="cpu", min_time_ms=3.0)
    assert result.rounds == 3 and result.ratio > 1.0, result


@pytest.mark.gpu
@needs_gpu
def test_compare_device_charges_neither_side_the_host_s_launch_cost():
    # The search's side-by-side timing: the same GPU work issued with 2 ms of host work per call (a slow launch
    # path) and without. compare() sees the host's 2 ms; compare_device sees the same device time on both sides.
    _in_fresh_process("""
    import time
    x = torch.randn(1 << 22, device="cuda")
    y = torch.empty_like(x)
    plain = lambda: torch.mul(x, 2.0, out=y)
    def slow_launch():
        time.sleep(0.002)
        torch.mul(x, 2.0, out=y)
    as_called = timing.compare(plain, slow_launch, rounds=3)
    assert as_called.ratio > 2.0, as_called
    device = timing.compare_device(plain, slow_launch, rounds=3, min_time_ms=10.0)
    assert 0.8 < device.ratio < 1.25 and device.median_a_ms < 0.5, device
    """)


@pytest.mark.gpu
@needs_gpu
def test_an_op_that_synchronizes_falls_back_to_batches_and_leaves_cuda_usable():
    _in_fresh_process("""
    x = torch.randn(1 << 20, device="cuda")

    def syncing():
        torch.mul(x, 2.0)
        torch.cuda.synchronize()          # refused while a stream is being captured

    measured = timing.device_time(syncing, rounds=2, min_time_ms=5.0)
    assert measured.method == "batched" and measured.fallback and measured.ms > 0, measured
    after = timing.device_time(lambda: torch.mul(x, 2.0), rounds=2, min_time_ms=5.0)
    assert after.method == "graph", after
    assert torch.mul(x, 2.0).sum().item() == (x * 2).sum().item()
    """)


@pytest.mark.gpu
@needs_gpu
def test_per_op_device_times_add_up_to_the_module_graph_time():
    _in_fresh_process("""
    from kernelopt.profile.measure import measure_module
    # conv: small kernels, host-bound as written; block: Inductor's bias_addmm on an expanded bias
    for name in ("conv.default.0", "block.max-autotune-no-cudagraphs.0"):
        measured = measure_module(str(FIXTURES / f"{name}.py"), rounds=3, min_time_ms=15.0)
        assert {e.method for e in measured.events} == {"graph"}, [(e.name, e.fallback) for e in measured.events]
        assert all(e.launch_us and e.launch_us > 0 for e in measured.events)
        assert measured.module_graph_us is not None, measured.module_fallback
        total = sum(e.time_us for e in measured.events)
        assert abs(total / measured.module_graph_us - 1) <= 0.15, (name, total, measured.module_graph_us)
    """)


@pytest.mark.gpu
@needs_gpu
def test_back_to_back_calls_hide_host_work_that_a_synchronized_call_pays():
    # The report's headline timing: host work overlapping the previous call's device work, as a
    # model loop issues it; a large enough op makes the device, not the host, set the pace.
    _in_fresh_process("""
    x = torch.randn(64 * 1024 * 1024, device="cuda")
    y = torch.empty_like(x)
    def slow_host_then_copy():
        sum(range(20000))            # ~0.3 ms of host work before the launch
        y.copy_(x)                   # ~0.13 ms of device work (512 MB moved)
    per_call = timing.back_to_back_ms(slow_host_then_copy, rounds=3)
    latency = timing.median_time_ms(slow_host_then_copy, reps=20)
    assert per_call < latency, (per_call, latency)
    """)
