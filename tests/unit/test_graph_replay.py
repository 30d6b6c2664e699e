"""CUDA graphs in the emitted module (kernelopt/runtime/graph_replay.py), on the CPU.

CUDA graphs do not exist on a CPU, so the policy runs here on `RecordingBackend`: a graph is the list
of "kernel launches" (closures over the capture's tensors, so over their addresses) recorded while
the plain call ran under capture, and a replay runs that list again; exactly what a CUDA graph does.
The plain calls below launch through `cuda.launch(...)`, so capture records and does not run them.
Every numeric check compares against the plain path on fresh random inputs.
GPU behaviour (real capture, streams, bits): test_graph_replay_gpu.py.
"""
from __future__ import annotations

import math
import re

import importlib.util
import runpy
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelopt.codegen import emit_python
from kernelopt.codegen.graph_runtime import runtime_names
from kernelopt.ir.effects import mutated_arguments
from kernelopt.codegen.standalone_module import EmitOptions
from kernelopt.cuda_graph_options import check_graph_options
from kernelopt.errors import UsageError
from kernelopt.guard import graphs_summary
from kernelopt.lift import lift_file
from kernelopt.runtime.graph_capture import GraphCaptureFailed, GraphSignatures, graph_key, graph_signature
from kernelopt.runtime.graph_replay import GRAPH_REVIEW_CALLS, GRAPH_TRIAL_CALLS, GraphReplay

REPO = Path(__file__).resolve().parents[2]
RMSNORM = REPO / "tests" / "corpus" / "cpu-2.13" / "rmsnorm" / "small.default" / "rmsnorm.default.0.py"


class RecordingBackend:
    """The capture backend's methods, with graphs as recorded launch lists (see the file's docstring)."""

    def __init__(self, nbytes=1000, fail=None):
        self.nbytes, self.fail = nbytes, fail
        self.recording = None
        self.capturing_now = False
        self.stream_id = 7
        self.orders = []
        self.released = []
        self.clock = 0.0
        self.replay_cost = 1e-6

    def launch(self, kernel):
        if self.recording is not None:
            self.recording.append(kernel)
        else:
            kernel()

    def unavailable(self):
        return None

    def capturing(self):
        return self.capturing_now

    def current_device(self):
        return 0

    def stream(self):
        return self.stream_id

    def order_after(self, previous):
        self.orders.append((previous, self.stream_id))

    def capture(self, run):
        if self.fail:
            raise GraphCaptureFailed(self.fail)
        self.recording = []
        try:
            result = run()
            graph = list(self.recording)
        finally:
            self.recording = None
        return graph, result, self.nbytes

    def replay(self, graph):
        self.clock += self.replay_cost
        for kernel in graph:
            kernel()

    def release(self, graph):
        self.released.append(graph)

    def start_timing(self):
        return [self.clock]

    def stop_timing(self, token):
        token.append(self.clock)
        return token

    def cost_seconds(self, token):
        return token[1] - token[0]


@pytest.fixture
def cuda():
    return RecordingBackend()


def scale_add(cuda, cost=0.0):
    """call(args) of a module computing (x * w + 1, x.sum(-1)) with x an input and w a parameter."""
    def plain(args):
        x, w = args
        args.clear()
        cuda.clock += cost
        out = torch.empty_like(x)
        total = torch.empty(x.shape[:-1], dtype=x.dtype)
        cuda.launch(lambda: torch.mul(x, w, out=out).add_(1))
        cuda.launch(lambda: torch.sum(x, -1, out=total))
        return (out, total)
    return plain


def fresh(shape, dtype=torch.float32):
    return torch.randn(shape, dtype=torch.float64).to(dtype)


def reference(x, w):
    return (x.double() * w.double() + 1).to(x.dtype), x.double().sum(-1).to(x.dtype)


def assert_close_to_reference(outputs, x, w):
    expected = reference(x, w)
    for got, want in zip(outputs, expected):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


# -- the key ---------------------------------------------------------------------------------------

layouts = st.tuples(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.sampled_from(
    [torch.float32, torch.float16, torch.int64]), st.booleans())


def make(layout, storage=None):
    sizes, dtype, transposed = layout
    tensor = torch.zeros(sizes, dtype=dtype) if storage is None else storage
    return tensor.t() if transposed and tensor.dim() == 2 else tensor


@settings(max_examples=40, deadline=None)
@given(layouts, layouts)
def test_keys_are_equal_exactly_when_layout_and_address_are(first, second):
    a = make(first)
    b = make(second)
    same_layout = (tuple(a.shape), a.stride(), a.dtype) == (tuple(b.shape), b.stride(), b.dtype)
    assert (graph_key([a]) == graph_key([b])) == (same_layout and a.data_ptr() == b.data_ptr())
    view = a.as_strided(a.shape, a.stride(), a.storage_offset())   # same address, another tensor object
    assert graph_key([a, 3]) == graph_key([view, 3]) and graph_key([a, 3]) != graph_key([a, 4])
    signatures = GraphSignatures()
    first_id = signatures.lookup([a])
    assert (signatures.lookup([b]) == first_id) == same_layout       # the C++ guard agrees with Python
    assert signatures.lookup([a]) == first_id


def test_key_sees_strides_of_size_one_dims_and_rejects_lists():
    a = torch.zeros(4, 1)
    b = torch.zeros(4, 1).as_strided((4, 1), (1, 4))
    assert graph_signature([a]) != graph_signature([b])
    with pytest.raises(Exception, match="cannot key a graph"):
        graph_signature([[1, 2]])


# -- replay, outputs, mutation ---------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (5, 33)])
def test_same_buffers_capture_once_then_replay_with_new_contents(cuda, shape):
    x, w = fresh(shape), fresh(shape[-1:])
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    for _ in range(4):
        x.copy_(fresh(shape))          # new contents at the same address: a stale graph would fail
        args = [x, w]
        outputs = replay.run(args)
        assert args == []              # the caller's list is cleared, as by the plain call
        assert_close_to_reference(outputs, x, w)
    # the capture call replays too (capture records the launches; the replay runs them). The loop holds the
    # last outputs during each call, so the key's twin is captured on the third call and the two take turns
    assert replay.counts["capture"] == 2 and replay.counts["replay"] == 3 and replay.counts["plain"] == 1


def test_fresh_outputs_are_new_tensors_each_call_and_static_ones_are_the_graphs(cuda):
    x, w = fresh((3, 5)), fresh((5,))
    for outputs_kind in ("fresh", "static"):
        replay = GraphReplay(scale_add(cuda), mode="on", outputs=outputs_kind, backend=cuda)
        replay.run([x, w])
        first = replay.run([x, w])
        kept = first[0].clone()
        x.add_(1)
        second = replay.run([x, w])
        shared = first[0].data_ptr() == second[0].data_ptr()
        assert shared == (outputs_kind == "static")
        if outputs_kind == "fresh":
            assert torch.equal(first[0], kept)        # the next call did not overwrite the caller's tensor
        assert_close_to_reference(second, x, w)


def test_outputs_the_caller_lets_go_of_are_lent_again_without_a_copy(cuda):
    x, w = fresh((4, 6)), fresh((6,))
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    replay.run([x, w])
    addresses = set()
    for _ in range(4):
        x.copy_(fresh((4, 6)))
        out, total = replay.run([x, w])
        assert_close_to_reference((out, total), x, w)
        addresses.add(out.data_ptr())
        del out, total                  # a loop that uses each result and drops it before the next call
    # one graph, its own output memory handed out every time: nothing copied, no twin
    assert len(addresses) == 1 and replay.counts["capture"] == 1 and replay.counts["replay"] == 4


def halves(cuda):
    """call(args) of a module whose outputs are views at offsets into one buffer it allocates, as Inductor returns
    `reinterpret_tensor(buf0, ..., offset)`: x * 2 + 1 from element 8 on (32 bytes: past the 16-byte alignment a
    span keeps) and, after it, x.sum() in the buffer's last element."""
    def plain(args):
        (x,) = args
        args.clear()
        n = x.numel()
        buf = torch.empty(n + 9, dtype=x.dtype)
        cuda.launch(lambda: torch.mul(x.reshape(-1), 2, out=buf[8:n + 8]).add_(1))
        cuda.launch(lambda: buf[n + 8:].copy_(x.sum().reshape(1)))
        return (buf[8:n + 8], buf[n + 8:])
    return plain


@pytest.mark.parametrize("outputs_kind", ["fresh", "static"])
@pytest.mark.parametrize("hold", [False, True])
def test_outputs_at_an_offset_into_their_buffer_are_handed_out_where_they_lie(cuda, outputs_kind, hold):
    # the lent views once counted their offset from the storage's start instead of the outputs' span: every call
    # after the first returned the buffer's first elements
    replay = GraphReplay(halves(cuda), mode="on", outputs=outputs_kind, backend=cuda)
    x, kept = fresh((7,)), []
    for _ in range(5):
        x.copy_(fresh((7,)))
        body, total = replay.run([x])
        torch.testing.assert_close(body, x * 2 + 1)
        torch.testing.assert_close(total, x.sum().reshape(1))
        if hold and outputs_kind == "fresh":      # the caller keeps every result: twins, then plain launches
            kept.append(((body, body.clone()), (total, total.clone())))
        del body, total
    assert all(torch.equal(a, b) for pair in kept for a, b in pair)
    assert replay.counts["replay"] >= (2 if hold else 4)


# An output plan: views of one buffer the call allocates (as Inductor returns `reinterpret_tensor(buf, size,
# stride, offset)`), each at an element offset, with a shape and a stride order, in float32 or reinterpreted as
# int32 (a view(dtype) of the same bytes), plus one output aliasing the input.
view_plans = st.lists(st.tuples(st.integers(0, 40),                       # element offset into the buffer
                                st.lists(st.integers(1, 4), min_size=1, max_size=3),
                                st.booleans(),                             # transposed (reversed strides)
                                st.sampled_from([torch.float32, torch.int32])),
                      min_size=1, max_size=4)


def views_of_one_buffer(cuda, plan):
    """call(args) writing x's values (cycled, plus a call-dependent shift) into one buffer, returning `plan`'s views
    of it and x[1:] (an argument's view)."""
    size = max(offset + math.prod(shape) for offset, shape, _, _ in plan)

    def plain(args):
        (x,) = args
        args.clear()
        buf = torch.empty(size, dtype=torch.float32)
        cuda.launch(lambda: buf.copy_(x.repeat(size // x.numel() + 1)[:size] * 3 + x[0]))
        outputs = []
        for offset, shape, transposed, dtype in plan:
            strides = [math.prod(shape[i + 1:]) for i in range(len(shape))]
            if transposed:
                strides = [math.prod(shape[:i]) for i in range(len(shape))]
            outputs.append(buf.view(dtype).as_strided(shape, strides, offset))
        return (*outputs, x[1:])
    return plain


@settings(max_examples=30, deadline=None)
@given(plan=view_plans, outputs_kind=st.sampled_from(["fresh", "static"]), hold=st.booleans())
def test_lent_outputs_are_the_plain_outputs_whatever_their_layout_in_the_buffer(plan, outputs_kind, hold):
    cuda = RecordingBackend()
    replay = GraphReplay(views_of_one_buffer(cuda, plan), mode="on", outputs=outputs_kind, backend=cuda)
    plain = views_of_one_buffer(RecordingBackend(), plan)
    x, kept = fresh((6,)), []
    for _ in range(5):
        x.copy_(fresh((6,)))
        got, want = replay.run([x]), plain([x])
        for mine, theirs in zip(got, want):
            assert mine.shape == theirs.shape and mine.stride() == theirs.stride() and mine.dtype == theirs.dtype
            assert torch.equal(mine, theirs)
        assert got[-1].data_ptr() == x.data_ptr() + x.element_size()       # the argument's view, rebuilt
        if hold and outputs_kind == "fresh":
            kept.append([(t, t.clone()) for t in got[:-1]])
        del got
    assert all(torch.equal(a, b) for pairs in kept for a, b in pairs)      # nothing the caller held changed


def test_held_outputs_are_never_overwritten_and_the_twin_takes_turns(cuda):
    x, w = fresh((4, 6)), fresh((6,))
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    replay.run([x, w])
    y, addresses = None, []
    for _ in range(5):
        x.copy_(fresh((4, 6)))
        held, held_values = (y, [t.clone() for t in y]) if y is not None else (None, None)
        y = replay.run([x, w])        # `y = f(x)`: the last y is alive during the call
        assert_close_to_reference(y, x, w)
        if held is not None:
            assert all(torch.equal(a, b) for a, b in zip(held, held_values))
        del held
        addresses.append(y[0].data_ptr())
    assert addresses[0] != addresses[1] and addresses[::2] == [addresses[0]] * 3 and addresses[1::2] == [addresses[1]] * 2
    assert replay.counts["capture"] == 2 and replay.counts["plain"] == 1


def test_a_view_the_caller_keeps_holds_its_graph_back(cuda):
    x, w = fresh((4, 6)), fresh((6,))
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    replay.run([x, w])
    out, total = replay.run([x, w])
    row = out[1:3]                    # only a view of one output survives
    kept = row.clone()
    del out, total
    for _ in range(3):
        x.copy_(fresh((4, 6)))
        assert_close_to_reference(replay.run([x, w]), x, w)
        assert torch.equal(row, kept)


# Each step: call on one of 12 input buffers (more than the 8 graphs: keys recur, are captured, evicted or
# run the copy graph), then keep the outputs (True) or drop them; `release` drops the oldest kept ones first.
hold_patterns = st.lists(st.tuples(st.booleans(), st.integers(0, 2), st.integers(0, 11)), min_size=1, max_size=16)


@settings(max_examples=60, deadline=None)
@given(hold_patterns)
def test_every_output_the_caller_holds_keeps_its_values_whatever_it_holds(pattern):
    cuda = RecordingBackend()
    xs, w = [fresh((3, 5)) for _ in range(12)], fresh((5,))
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    kept = []                          # (outputs, the reference computed when they were returned)
    for keep, release, buffer in [(False, 0, 0)] + pattern:
        x = xs[buffer]
        x.copy_(fresh((3, 5)))
        outputs = replay.run([x, w])
        assert_close_to_reference(outputs, x, w)
        if keep:
            kept.append((outputs, reference(x, w)))
        del outputs
        del kept[:release]
        for held, want in kept:
            for got, expected in zip(held, want):
                torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)


def test_the_copy_graph_lends_its_outputs_and_its_twin_reads_the_same_buffers(cuda):
    xs, w = [fresh((4, 6)) for _ in range(12)], fresh((5,))[:1].expand(6).contiguous()
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    addresses, y = [], None
    for step in range(24):             # a ring of 12 buffers: more than 8 graphs hold, so the copy graph
        x = xs[step % 12]
        x.copy_(fresh((4, 6)))
        if step < 12:
            out, _ = replay.run([x, w])       # results dropped before the next call: lent again
            assert_close_to_reference((out, _), x, w)
            addresses.append(out.data_ptr())
            del out, _
        else:
            held = y
            kept = [t.clone() for t in held] if held is not None else None
            y = replay.run([x, w])            # `y = f(x)`: the copy graph's twin
            assert_close_to_reference(y, x, w)
            if held is not None:
                assert all(torch.equal(a, b) for a, b in zip(held, kept))
            del held
    assert replay.counts["copy"] >= 20 and replay.counts["copy_capture"] == 1
    assert len(set(addresses[2:12])) == 1     # one copy graph, its output memory lent each call
    assert replay.copy_graph.twin is not None and replay.copy_graph.twin.buffers is replay.copy_graph.buffers


def test_all_outputs_kept_run_the_plain_path_once_both_graphs_are_held(cuda):
    x, w = fresh((3, 5)), fresh((5,))
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    kept = [replay.run([x, w]) for _ in range(5)]
    assert replay.counts["capture"] == 2 and replay.counts["replay"] == 2 and replay.counts["plain"] == 3
    assert len({out.data_ptr() for out, _ in kept}) == 5
    assert replay.memory_bytes == 2 * cuda.nbytes       # the twin's memory is counted
    assert replay.stats()["twins"] == 1
    assert "1 graph(s) + no copy graph (1 with a twin for outputs the caller held) holding" in graphs_summary(
        replay.stats())


def test_outputs_that_alias_inputs_or_each_other_keep_doing_so(cuda):
    def plain(args):
        x, = args
        args.clear()
        buf = torch.empty(2, x.shape[0])
        cuda.launch(lambda: (buf[0].copy_(x * 2), buf[1].copy_(x + 1)))
        return (buf[0], buf[1], x[1:], 5)
    replay = GraphReplay(plain, mode="on", backend=cuda)
    x = fresh((6,))
    replay.run([x])
    for _ in range(2):
        y = fresh((6,))
        x.copy_(y)
        a, b, view, five = replay.run([x])
        torch.testing.assert_close(a, y * 2) and torch.testing.assert_close(b, y + 1)
        assert a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()   # one storage, as plain's
        assert view.data_ptr() == x.data_ptr() + x.element_size() and five == 5


def mutating(cuda):
    """A module that adds 1 to its first argument in place and returns x * 2."""
    def plain(args):
        x, = args
        args.clear()
        out = torch.empty_like(x)
        cuda.launch(lambda: (x.add_(1), torch.mul(x, 2, out=out)))
        return (out,)
    return plain


@pytest.mark.parametrize("ring", [1, 12])
def test_in_place_mutation_happens_once_per_call_on_replay_and_copy(cuda, ring):
    replay = GraphReplay(mutating(cuda), mode="on", backend=cuda, mutated=(0,))
    buffers = [fresh((7,)) for _ in range(ring)]
    for call in range(2 * ring + 2):
        x = buffers[call % ring]
        before = x.clone()
        (out,) = replay.run([x])
        torch.testing.assert_close(x, before + 1)
        torch.testing.assert_close(out, (before + 1) * 2)
    assert replay.counts["copy" if ring > 8 else "replay"] > 0


# -- new keys: capture (LRU) or copy ---------------------------------------------------------------

def test_a_ring_within_the_lru_is_captured_and_then_only_replayed(cuda):
    w = fresh((4,))
    ring = [fresh((3, 4)) for _ in range(4)]
    replay = GraphReplay(scale_add(cuda), mode="on", max_graphs=4, backend=cuda)
    for call in range(12):
        x = ring[call % 4]
        assert_close_to_reference(replay.run([x, w]), x, w)
    assert replay.counts["capture"] == 4 + 1        # one graph per buffer, and the copy graph of call 2
    assert replay.stats()["graphs"] == 4 and replay.counts["evicted"] == 0
    # first sightings of buffers 1-3 are copied; every call from each buffer's second sighting replays
    assert replay.counts["copy"] == 3 and replay.counts["replay"] == 12 - 1 - 3


def test_a_ring_larger_than_the_lru_copies_only_the_moving_input(cuda):
    w = fresh((4,))
    ring = [fresh((3, 4)) for _ in range(10)]
    replay = GraphReplay(scale_add(cuda), mode="on", max_graphs=4, backend=cuda)
    for call in range(25):
        x = ring[call % 10]
        assert_close_to_reference(replay.run([x, w]), x, w)
    assert replay.counts["copy"] == 24 and replay.counts["capture"] == 1 and replay.stats()["graphs"] == 0
    assert set(replay.copy_graph.buffers) == {0}           # w (a parameter) is read in place, never copied
    assert replay.memory_bytes == 1000 + 3 * 4 * 4
    # what a ring's calls copy, as stats() tells the suite: the moving positions and their bytes per call
    assert replay.stats()["copy_moving"] == [0] and replay.stats()["copy_bytes"] == 3 * 4 * 4


def test_lru_evicts_the_least_recently_used_graph_and_counts_memory(cuda):
    w = fresh((4,))
    a, b, c = (fresh((2, 4)) for _ in range(3))
    replay = GraphReplay(scale_add(cuda), mode="on", max_graphs=2, backend=cuda)
    for x in (a, a, b, b, a, c, c):      # a and b captured; a used again; c's capture evicts b
        assert_close_to_reference(replay.run([x, w]), x, w)
    held = {key[1][0] for key in replay.graphs}
    assert held == {a.data_ptr(), c.data_ptr()} and replay.counts["evicted"] == 1
    assert replay.memory_bytes == 2 * 1000 + replay.copy_graph.bytes
    replay.release_all()
    assert replay.memory_bytes == 0 and len(cuda.released) == 4


def test_a_parameter_that_moves_widens_the_copy_graph(cuda):
    ring = [fresh((2, 3)) for _ in range(10)]
    weights = [fresh((3,)) for _ in range(10)]
    replay = GraphReplay(scale_add(cuda), mode="on", max_graphs=2, backend=cuda)
    for call in range(10):
        x, w = ring[call], weights[0 if call < 5 else call]
        assert_close_to_reference(replay.run([x, w]), x, w)
    assert set(replay.copy_graph.buffers) == {0, 1}


# -- fallbacks -------------------------------------------------------------------------------------

def test_capture_failure_warns_once_and_runs_plain_from_then_on(cuda):
    cuda.fail = "operation not permitted when stream is capturing"
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    x, w = fresh((3, 4)), fresh((4,))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(4):
            assert_close_to_reference(replay.run([x, w]), x, w)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and "capturing the call failed" in messages[0] and "not permitted" in messages[0]
    assert replay.counts["plain"] == 4 and replay.off


def test_calls_under_the_callers_capture_and_unhashable_arguments_run_plain(cuda):
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    x, w = fresh((3, 4)), fresh((4,))
    replay.run([x, w])
    cuda.capturing_now = True
    cuda.recording = []                 # the caller's graph records our plain launches
    replay.run([x, w])
    assert len(cuda.recording) == 2 and replay.counts["capture"] == 0
    cuda.capturing_now, cuda.recording = False, None
    assert any("being captured" in r for r in replay.remarks)

    def with_list(args):
        return scale_add(cuda)([args[0], args[1]])
    replay = GraphReplay(with_list, mode="on", backend=cuda)
    replay.run([x, w, [1]])
    replay.run([x, w, [1]])
    assert replay.counts["plain"] == 2 and any("cannot key a graph" in r for r in replay.remarks)


class NoCuda(RecordingBackend):
    def unavailable(self):
        return "no CUDA device (torch.cuda.is_available() is False)"


@pytest.mark.parametrize("mode, warns", [("on", True), ("auto", False)])
def test_no_cuda_runs_plain_and_says_why(mode, warns):
    cuda = NoCuda()
    replay = GraphReplay(scale_add(cuda), mode=mode, backend=cuda)
    x, w = fresh((3, 4)), fresh((4,))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            assert_close_to_reference(replay.run([x, w]), x, w)
    assert bool(caught) == warns and replay.counts["plain"] == 3
    assert "no CUDA device" in replay.stats()["off"]


def test_replay_on_another_stream_is_ordered_after_the_last_one(cuda):
    replay = GraphReplay(scale_add(cuda), mode="on", backend=cuda)
    x, w = fresh((3, 4)), fresh((4,))
    for stream in (7, 7, 7, 9, 9):
        cuda.stream_id = stream
        replay.run([x, w])
    assert cuda.orders == [(7, 9)]


# -- auto ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("plain_cost, keeps", [(10e-6, True), (0.5e-6, False)])
def test_auto_keeps_graphs_only_when_replay_is_timed_faster(cuda, plain_cost, keeps):
    replay = GraphReplay(scale_add(cuda, cost=plain_cost), mode="auto", backend=cuda)
    x, w = fresh((3, 4)), fresh((4,))
    for _ in range(1 + GRAPH_TRIAL_CALLS + GRAPH_TRIAL_CALLS + 3):
        assert_close_to_reference(replay.run([x, w]), x, w)
    assert (replay.off is None) == keeps
    assert replay.decision.startswith("kept" if keeps else "off")
    assert ("replay" in replay.stats()["dropped"]) is (not keeps)   # what optimize reads to write graphs off
    if not keeps:
        assert replay.memory_bytes == 0 and cuda.released      # graphs released when dropped



def warming(cuda, cold, warm, cold_calls=4):
    """scale_add whose plain launches cost `cold` seconds on the first `cold_calls` calls (caches, clocks
    and allocator still warming up: when auto times the plain path) and `warm` after."""
    calls = []

    def plain(args):
        calls.append(1)
        return scale_add(cuda, cost=cold if len(calls) <= cold_calls else warm)(args)
    return plain


class CostlyCopies(RecordingBackend):
    """Replaying the copy graph also pays for its input copies (one kernel each on a GPU)."""

    def __init__(self, copy_cost):
        super().__init__()
        self.copy_cost, self.copy_handle = copy_cost, None

    def replay(self, graph):
        if graph is self.copy_handle:
            self.clock += self.copy_cost
        super().replay(graph)


def bind_like_a_module(replay):
    """A holder of `call` as the emitted module and the torch.compile backend hold it."""
    holder = {"call": replay.run}
    replay.add_rebinder(lambda plain: holder.__setitem__("call", plain))
    return holder


def run_ring(holder, ring, w, calls):
    for call in range(calls):
        x = ring[call % len(ring)]
        assert_close_to_reference(holder["call"]([x, w]), x, w)


def assert_review_adds_up(replay):
    """The review's remark accounts for every call of its window once: on new buffers (copied, captured into a
    graph, plain) or replaying a held graph."""
    said = next(r for r in replay.remarks if "came with input buffers no graph held" in r)
    window, new, copied, captured, plain_calls, held = map(int, re.search(
        r"of the last (\d+) calls, (\d+) came with input buffers no graph held \((\d+) copied, (\d+) captured, "
        r"(\d+) plain launches\) and (-?\d+) replayed", said).groups())
    assert new == copied + captured + plain_calls and new + held == window and held >= 0, said


def test_fresh_buffers_from_the_first_call_turn_graphs_off_and_the_review_counts_each_call_once():
    # Every call brings new buffers: the copy graph is captured in the first review's window, copies are
    # dropped as costlier than plain launches, and the review turns graphs off. The copy graph's capture is
    # one copied call (it once counted as a capture and a copy too: "65 of the last 64 calls ... and -1
    # replayed a held graph", seen on an H100).
    cuda = CostlyCopies(copy_cost=2.5e-6)
    replay = GraphReplay(warming(cuda, cold=10e-6, warm=2e-6), mode="auto", backend=cuda)
    holder = bind_like_a_module(replay)
    w = fresh((4,))
    ring = [fresh((3, 4)) for _ in range(12)]
    for call in range(3 * GRAPH_REVIEW_CALLS):
        if replay.copy_graph is not None:
            cuda.copy_handle = replay.copy_graph.handle
        x = ring[call % len(ring)]
        assert_close_to_reference(holder["call"]([x, w]), x, w)
    assert replay.decision.startswith("off") and holder["call"] is not replay.run
    assert_review_adds_up(replay)


def test_auto_times_copies_against_plain_launches_of_new_keys_and_turns_graphs_off_for_a_ring():
    # The plain path is slow while auto times it (calls 2-4) and fast later. A ring of more buffers than
    # graphs brings a new key every call: copies (replay + input copies, 3.5 us) against the warm plain
    # launches (2 us) are a loss, so the copy path goes, and the review then finds graphs buy nothing.
    cuda = CostlyCopies(copy_cost=2.5e-6)
    plain = warming(cuda, cold=10e-6, warm=2e-6)
    replay = GraphReplay(plain, mode="auto", backend=cuda)
    holder = bind_like_a_module(replay)
    w = fresh((4,))
    run_ring(holder, [fresh((3, 4))], w, 1 + 2 * GRAPH_TRIAL_CALLS)     # same buffers: replay kept
    assert replay.decision.startswith("kept") and holder["call"] == replay.run
    ring = [fresh((3, 4)) for _ in range(12)]
    for call in range(2 * GRAPH_REVIEW_CALLS):
        x = ring[call % len(ring)]
        if replay.copy_graph is not None:
            cuda.copy_handle = replay.copy_graph.handle
        assert_close_to_reference(holder["call"]([x, w]), x, w)
    assert "copy" in replay.dropped
    assert any("copy path no faster than the plain launches" in r for r in replay.remarks)
    assert replay.decision.startswith("off") and replay.memory_bytes == 0
    assert_review_adds_up(replay)
    # off for good: the holder calls the plain launches themselves, no frame of the runtime in between
    assert holder["call"] is plain
    before = dict(replay.counts)
    run_ring(holder, ring, w, 3)
    assert replay.counts == before


@pytest.mark.parametrize("copy_cost, hits_per_miss, keeps", [
    (0.5e-6, 0, True),      # copies cheaper than plain launches: a ring is served by the copy graph
    (2.5e-6, 3, True),      # copies dropped, but most calls replay a held graph: graphs pay
    (2.5e-6, 0, False),     # copies dropped and no call replays: graphs only cost the key
])
def test_auto_review_prices_the_callers_regime(copy_cost, hits_per_miss, keeps):
    cuda = CostlyCopies(copy_cost=copy_cost)
    plain = warming(cuda, cold=2e-6, warm=2e-6)
    replay = GraphReplay(plain, mode="auto", backend=cuda)
    holder = bind_like_a_module(replay)
    w, x = fresh((4,)), fresh((3, 4))
    ring = [fresh((3, 4)) for _ in range(12)]
    run_ring(holder, [x], w, 1 + 2 * GRAPH_TRIAL_CALLS)
    misses = 0
    for call in range(3 * GRAPH_REVIEW_CALLS):
        if replay.copy_graph is not None:
            cuda.copy_handle = replay.copy_graph.handle
        arg = x
        if not (hits_per_miss and call % (hits_per_miss + 1)):     # the ring's next buffer: a new key
            arg, misses = ring[misses % len(ring)], misses + 1
        assert_close_to_reference(holder["call"]([arg, w]), arg, w)
    assert (replay.off is None) == keeps, replay.remarks
    assert ("copy" in replay.dropped) == (copy_cost > 2e-6)
    assert (holder["call"] is plain) == (not keeps)


def test_graphs_off_rebinds_the_emitted_modules_call_to_the_plain_launches(rmsnorm, tmp_path):
    from kernelopt.runtime.loader import load_output_module

    _, path = emitted(rmsnorm, "on", tmp_path)
    loaded = load_output_module(str(path), "cpu", hooks=False)
    namespace = loaded.namespace
    args = loaded.get_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # "CUDA graphs off ... emitted for the CPU", said once
        first = namespace["call"](list(args))
    assert namespace["call"] is namespace["call_plain"]     # no GraphReplay.run frame from the second call
    second = namespace["call"](list(args))
    assert all(torch.equal(a, b) for a, b in zip(first, second))
    assert namespace["cuda_graphs"].stats()["calls"] == 1

# -- options and the emitted module ----------------------------------------------------------------

def test_option_errors_name_the_flag_and_the_fix():
    check_graph_options("auto", "fresh")
    for bad, text in [(("sometimes", "fresh"), "--cuda-graphs must be one of auto, on, off"),
                      (("on", "shared"), "--outputs must be one of fresh, static"),
                      (("off", "static"), "needs --cuda-graphs on or auto")]:
        with pytest.raises(UsageError, match=text):
            check_graph_options(*bad)
    with pytest.raises(ValueError, match="max_graphs"):
        GraphReplay(lambda a: a, max_graphs=0)


def test_backend_takes_a_cuda_graphs_option():
    from kernelopt.backend.options import backend_options

    assert backend_options({"cuda_graphs": "on"}).cuda_graphs == "on"
    assert backend_options({}).cuda_graphs == "auto"
    with pytest.raises(UsageError, match="cuda-graphs must be one of auto, on, off"):
        backend_options({"cuda_graphs": "always"})


@pytest.mark.parametrize("command", ["emit", "optimize"])
def test_cli_help_documents_the_flags(command):
    text = subprocess.run([sys.executable, "-m", "kernelopt.cli", command, "--help"], capture_output=True,
                          text=True, check=True).stdout
    assert "--cuda-graphs {auto,on,off}" in text and "--outputs {fresh,static}" in text
    assert "no input copy" in " ".join(text.split())


@pytest.fixture(scope="module")
def rmsnorm():
    return lift_file(str(RMSNORM))


def emitted(module, cuda_graphs, tmp_path):
    source = emit_python(module, "standalone", options=EmitOptions(cuda_graphs=cuda_graphs, date="2026-01-01"))
    path = tmp_path / f"rmsnorm_{cuda_graphs}.py"
    path.write_text(source)
    return source, path


def test_cpu_module_auto_has_no_graphs_and_on_runs_plain_saying_why(rmsnorm, tmp_path):
    source, _ = emitted(rmsnorm, "auto", tmp_path)
    assert "GraphReplay" not in source and "CUDA graphs: off" in source
    source, path = emitted(rmsnorm, "on", tmp_path)
    assert "import kernelopt" not in source and "from kernelopt.runtime.graph" not in source
    namespace = runpy.run_path(str(path))
    args = namespace["get_args"]()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = namespace["call"](list(args)) + namespace["call"](list(args))
    want = namespace["call_plain"](list(args))
    assert all(torch.equal(a, b) for a, b in zip(got, want + want))
    messages = [str(c.message) for c in caught]
    assert len(messages) == 1 and "CUDA graphs off" in messages[0] and "emitted for the CPU" in messages[0]
    assert namespace["cuda_graphs"].stats()["plain"] == 2


def test_inlined_runtime_names_do_not_clash_and_the_module_lifts_again(rmsnorm, tmp_path):
    plain_source, _ = emitted(rmsnorm, "off", tmp_path)
    import ast
    module_names = {t.id for node in ast.parse(plain_source).body if isinstance(node, ast.Assign)
                    for t in node.targets if isinstance(t, ast.Name)}
    module_names |= {node.name for node in ast.parse(plain_source).body
                     if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert not (runtime_names() - {"torch", "time"}) & module_names
    assert all(n.startswith(("graph_", "Graph", "_graph_", "GRAPH_", "_Graph")) for n in runtime_names())
    _, path = emitted(rmsnorm, "on", tmp_path)
    relifted = lift_file(str(path))
    assert len(relifted.launches()) == len(rmsnorm.launches())


def test_mutated_arguments_come_from_the_ir_effects(rmsnorm):
    assert mutated_arguments(rmsnorm) == ()


# -- the legality gate's graph-path check ----------------------------------------------------------

def test_gate_accepts_a_faithful_graph_path_and_rejects_a_stale_one(cuda):
    from kernelopt.legality.graph_path import compare_graph_path

    x, w = fresh((3, 5)), fresh((5,))
    plain = scale_add(cuda)
    verdict = compare_graph_path(plain, GraphReplay(plain, mode="on", backend=cuda).run, [x, w])
    assert verdict.accepted, verdict.reason

    def stale(args):     # reads a value on the host while capturing: the graph bakes it in
        x, w = args
        args.clear()
        scale = float(x.sum())
        out = torch.empty_like(w)
        cuda.launch(lambda: torch.mul(w, scale, out=out))
        return (out,)
    verdict = compare_graph_path(stale, GraphReplay(stale, mode="on", backend=cuda).run, [x, w])
    assert not verdict.accepted and verdict.check == "graph-path"
    # round 1 captures (and is right), round 2 captures the twin (the gate still holds round 1's outputs, and
    # the twin reads the sum anew), round 3 replays the first graph: stale
    assert "round 3 (same buffers)" in verdict.reason and "bits differ" in verdict.reason


def test_gate_skips_the_graph_path_without_cuda_and_says_why():
    from kernelopt.legality.graph_path import check_graph_path

    if torch.cuda.is_available():
        pytest.skip("a CUDA device is present: test_graph_replay_gpu.py runs the check")
    verdict = check_graph_path("unused.py")
    assert verdict.accepted and verdict.check == "skipped" and "needs a CUDA device" in verdict.reason


def test_the_suite_lists_its_cases_and_refuses_without_a_gpu(capsys):
    spec = importlib.util.spec_from_file_location("cuda_graphs_suite", REPO / "benchmarks" / "cuda_graphs_suite.py")
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)
    assert suite.main(["--list"]) == 0
    listed = capsys.readouterr().out.split()
    assert len(listed) == 16 and listed[0] == "transformer_block:decode_b1" and "embedding_pos:decode_b8" in listed
    if not torch.cuda.is_available():
        assert suite.main(["--out-dir", "unused"]) == 2
        refusal = capsys.readouterr().err
        assert "needs a CUDA GPU" in refusal and "--dry-run checks the harness" in refusal


def test_the_suite_prints_where_each_regime_spends_its_calls_with_profile():
    # --profile's ops land in the markdown a person reads, per case and regime, host and device side by side
    spec = importlib.util.spec_from_file_location("cuda_graphs_suite", REPO / "benchmarks" / "cuda_graphs_suite.py")
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)
    ops = {"host": [{"op": "cudaStreamSynchronize", "us_per_call": 41.5, "count_per_call": 1.0}],
           "device": [{"op": "Memcpy DtoD", "us_per_call": 1.2, "count_per_call": 1.0},
                      {"op": "gemv_kernel", "us_per_call": 20.0, "count_per_call": 2.0}]}
    row = {"model": "mlp", "size": "decode_b1", "us_per_call": {"ring64": {"inductor default": 1.0, "kernelopt": 2.0}},
           "speedups": {"ring64": {"vs_best_no_graphs": 0.5, "vs_max_autotune": 0.5}}, "graphs": {},
           "profile": {"ring64": ops}}
    text = suite.markdown({"device": "d", "torch": "t", "triton": "tr", "date": "now", "kernelopt_options": {},
                           "calls": 1, "rounds": 1, "geomean": {}, "rows": [row]})
    assert "mlp decode_b1, ring64:" in text
    assert "| cudaStreamSynchronize | 41.5 | 1 | Memcpy DtoD | 1.2 | 1 |" in text
    assert "|  |  |  | gemv_kernel | 20.0 | 2 |" in text


def test_auto_leaves_graphs_off_for_modules_with_over_a_gib_of_arguments():
    # A call that moves a GiB takes a quarter of a millisecond on an H200: the host's launches run ahead of
    # the GPU, so a graph saves nothing, and its copy path would hold another copy of the inputs.
    from kernelopt.codegen.graph_runtime import AUTO_MAX_ARGUMENT_BYTES, argument_bytes, graph_settings
    from kernelopt.ir.parser import parse_module

    def module(rows: int):
        return parse_module(f'ko.module @m version 1 attributes {{device = "cuda:0"}} {{\n'
                            f'  %x = ko.arg 0 : tensor<{rows}x1024xf32, [1024, 1]>\n  ko.return %x\n}}\n')

    small, large = module(1024), module(AUTO_MAX_ARGUMENT_BYTES // 4096 + 1)
    assert argument_bytes(small) == 4 << 20 and argument_bytes(large) > AUTO_MAX_ARGUMENT_BYTES
    assert graph_settings(small, "auto", "fresh", 8) is not None
    assert graph_settings(large, "auto", "fresh", 8) is None
    assert graph_settings(large, "on", "fresh", 8) is not None        # asked for: on, whatever the size


def test_graph_path_rounds_draw_reproducible_new_contents_on_the_arguments_device():
    """Each round of the graph-path check gives floating arguments new values, drawn where the argument lives
    (on a GPU, not on the host and copied: that took seconds a round at real sizes), the same for the same
    seed, new at every round; integer arguments (indices) keep theirs; layouts are kept."""
    from kernelopt.legality.graph_path import _new_contents, _SeededGenerators

    x = torch.zeros(6, 5).t()                  # a transposed view: its strides must survive
    index = torch.tensor([3, 1, 4])
    first, again = _SeededGenerators(7), _SeededGenerators(7)
    a, b = _new_contents([x, index, 2], first), _new_contents([x, index, 2], again)
    assert torch.equal(a[0], b[0]) and a[0].stride() == x.stride() and a[0].device == x.device
    assert torch.equal(a[1], index) and a[2] == 2
    assert not torch.equal(_new_contents([x], first)[0], a[0])      # the next round: new values
    half = _new_contents([torch.zeros(4, 300, dtype=torch.bfloat16)], first)[0]
    assert half.dtype == torch.bfloat16 and 0.5 < float(half.float().std()) < 2    # drawn in its own dtype
