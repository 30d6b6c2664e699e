"""CUDA graphs in the emitted module, on a GPU (skipped without CUDA; the CPU side is test_graph_replay.py).

Real capture and replay (graph_capture.GraphCudaBackend): replay bits == plain bits, after the inputs'
contents change, on a side stream, with LRU eviction returning memory, with no reference kept to the
caller's inputs, and the legality gate's graph-path check on an emitted module.
"""
from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest
import torch

from kernelopt.codegen import emit_python
from kernelopt.codegen.standalone_module import EmitOptions
from kernelopt.lift import lift_file
from kernelopt.runtime.graph_replay import GraphReplay

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA graphs need a CUDA device")

REPO = Path(__file__).resolve().parents[2]
LN_GELU = REPO / "tests" / "fixtures" / "inductor-2.11-h200" / "ln_gelu.default.0.py"


def plain(args):
    """A two-op module (matmul + pointwise, in place into its first argument) written with torch ops."""
    x, w, acc = args
    args.clear()
    y = torch.mm(x, w)
    acc.add_(y.sum(0))
    return (torch.nn.functional.gelu(y), acc[:2])


def inputs(rows=37, seed=0):
    generator = torch.Generator(device="cuda").manual_seed(seed)
    return [torch.randn(rows, 24, device="cuda", generator=generator),
            torch.randn(24, 24, device="cuda", generator=generator), torch.zeros(24, device="cuda")]


def bits_equal(a, b):
    return all(torch.equal(x.view(torch.uint8), y.view(torch.uint8)) for x, y in zip(a, b))


def test_replay_gives_the_plain_bits_as_contents_change_and_mutates_in_place():
    replay = GraphReplay(plain, mode="on")
    args = inputs()
    mirror = [a.clone() for a in args]
    for step in range(5):
        new = inputs(seed=step + 1)
        for a, m, n in zip(args[:2], mirror[:2], new[:2]):
            a.copy_(n)
            m.copy_(n)
        got = replay.run(list(args))
        want = plain(list(mirror))
        torch.cuda.synchronize()
        assert bits_equal(got, want) and torch.equal(args[2], mirror[2])
        assert got[1].data_ptr() == args[2].data_ptr()         # a view of the argument, as plain's
    assert replay.counts["replay"] == 4 and replay.memory_bytes > 0


def test_side_stream_replay_is_ordered_with_the_current_stream():
    replay = GraphReplay(plain, mode="on")
    args = inputs()
    replay.run(list(args))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for step in range(3):
            args[0].copy_(inputs(seed=10 + step)[0])       # written on the side stream, right before the call
            expected = plain([a.clone() for a in args])
            got = replay.run(list(args))
            assert bits_equal(got[:1], expected[:1])
    torch.cuda.synchronize()


def test_lru_eviction_releases_memory_and_no_input_is_kept_alive():
    replay = GraphReplay(plain, mode="on", max_graphs=2)
    ring = [inputs(seed=s) for s in range(3)]
    for args in (ring[0], ring[0], ring[1], ring[1], ring[2], ring[2]):
        replay.run(list(args))
    assert replay.counts["evicted"] == 1 and len(replay.graphs) == 2
    held = replay.memory_bytes
    replay.release_all()
    assert held > 0 and replay.memory_bytes == 0
    probe = inputs(seed=99)
    watch = weakref.ref(probe[0])
    replay = GraphReplay(plain, mode="on")
    replay.run(list(probe))
    replay.run(list(probe))
    del probe
    gc.collect()
    assert watch() is None                                    # the graph reads pointers, it holds no tensor


def test_a_call_inside_the_callers_capture_runs_plain():
    replay = GraphReplay(plain, mode="on")
    args = inputs()
    replay.run(list(args))
    outer = torch.cuda.CUDAGraph()
    with torch.cuda.graph(outer):
        replay.run(list(args))
    assert replay.counts["capture"] == 0 and any("being captured" in r for r in replay.remarks)


def test_emitted_module_passes_the_gates_graph_path_check(tmp_path):
    from kernelopt.legality.graph_path import check_graph_path

    module = lift_file(str(LN_GELU))
    path = tmp_path / "ln_gelu_graphs.py"
    path.write_text(emit_python(module, "standalone", options=EmitOptions(cuda_graphs="on", config_policy="first")))
    verdict = check_graph_path(str(path))
    assert verdict.accepted and verdict.check == "accept", verdict.reason
    stats = verdict.evidence["graph calls"]
    assert stats["replay"] > 0 and stats["copy"] > 0 and stats["memory_bytes"] > 0


def test_lent_outputs_are_never_overwritten_while_held_and_outlive_their_graph():
    replay = GraphReplay(plain, mode="on", max_graphs=1)
    args = inputs()
    replay.run(list(args))
    kept, y = [], None
    for step in range(6):
        args[0].copy_(inputs(seed=step + 1)[0])
        y = replay.run(list(args))        # `y = f(x)`: the last y is alive during the call
        kept.append((y[0], torch.nn.functional.gelu(torch.mm(args[0], args[1]))))
        if step % 2:
            del kept[0]
    torch.cuda.synchronize()
    assert all(torch.equal(got, want) for got, want in kept)
    assert replay.counts["capture"] == 2                  # the key's graph and its twin
    # evicting the graphs leaves the outputs the caller holds valid (their storage keeps its memory)
    other = inputs(rows=5)
    replay.run(list(other))
    replay.run(list(other))
    torch.cuda.synchronize()
    assert replay.counts["evicted"] >= 1 and all(torch.equal(got, want) for got, want in kept)
