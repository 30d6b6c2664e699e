"""`call(args)` through CUDA graphs, with no input copies in the steady state (emit `--cuda-graphs`).

An emitted module with graphs on ends with

    call_plain = call                        # the module's launch sequence, as without graphs
    cuda_graphs = GraphReplay(call_plain, mode="on", ...)
    call = cuda_graphs.run

and is otherwise the plain module. Like graph_capture.py this file is inlined into such modules, so
it imports only torch, the standard library and graph_capture (whose import line the emitter drops).

What run(args) does with a call (the policy; tests/unit/test_graph_replay.py pins each rule):
  plain     the first call (warm-up: Triton compiles, autotunes and loads its kernels there, cuBLAS
            makes its handles), calls while the current stream is being captured (the caller's own
            graph then records the plain launches), calls on another device than the module's, with
            an argument that cannot key a graph, or when graphs cannot run here (no CUDA; a capture
            that failed: from then on). Each reason is said once (a warning, or for the expected
            ones - warm-up, capture by the caller, no CUDA under `auto` - a log line).
  replay    a call whose key (graph_capture.graph_key: signatures and data pointers) has a graph:
            the graph runs on the current stream, reading and writing the arguments where they are.
  capture   a new key that recurs while it would still be held (it was seen among the last
            `max_graphs` distinct keys): a graph of its own, the least recently used one evicted
            beyond `max_graphs`. A serving loop that calls with the same buffers captures once.
  copy      a new key seen for the first time, or one that recurs less often than that (a ring of
            more buffers than graphs): its moving arguments (those whose pointer differs from the
            copy graph's) are copied into buffers the copy graph owns, and the copy graph replays;
            arguments that stay put (parameters, buffers) are read in place and never copied.
            Arguments the module writes are copied back. The copy graph is captured at the first
            such call, and again with more moving arguments when one it reads in place moves.
Outputs are fresh tensors the caller owns, without a copy where the caller has let go of the last ones:
  lent      a captured key's graph whose outputs the caller no longer holds (no tensor outside this runtime
            shares their storage: torch's storage use count) hands out new views of its own output memory,
            which nothing overwrites while the caller holds any of them. A call that finds them still held
            (a loop `y = f(x)` holds the last y during the next call) replays the key's twin: a second
            graph of the same call with output memory of its own, captured then; the two take turns. When
            both are held (a caller keeping every output), the call runs the plain launches.
            The copy graph lends its outputs the same way (its twin reads the same input buffers).
  copied    a torch without storage use counts copies each graph-memory storage the outputs live in out
            once per call.
Either way outputs that share storage still share it. With outputs="static" they are the
graph's own tensors, overwritten by the next call that runs the same graph. An output that is (a view
of) an argument is the same view of this call's argument, as in the plain path.

mode="auto" (the emitter's default on a GPU module) keeps graphs only where they are measured faster
as the module is called: calls 2-4 run the plain path and calls 5 on go through graphs; each path is
timed on its first 3 calls (per call: the longer of its host time and its device time between CUDA
events, i.e. what a call costs when calls are issued back to back; captures are not timed):
  replay    against the plain path of calls 2-4; slower than KEEP_RATIO of it: graphs off for good
            (every graph released);
  copy      against the plain launches of new keys, the two taking turns on the first new keys (so
            both are timed in the same input regime, after the same warm-up); slower: new keys run
            the plain path (the call still computes its key, to find the graphs of known keys).
Calls keep arriving in a regime auto did not time (the buffers of a serving loop, or new tensors
each call: a ring of buffers, a data loader), so every GRAPH_REVIEW_CALLS calls it reviews what the
calls since the last review did: their count per path (replay, copy, capture: plain launches under
capture, then a replay; plain) priced at the medians timed above, against the same number of plain
calls. A graph path that cost more than KEEP_RATIO of the plain path there (e.g. a ring of more
buffers than graphs, whose copies cost more than the launches they save, or whose new keys run
plain and pay the key for nothing) turns graphs off for good, with a remark saying so.
mode="on" uses graphs without timing them.

Graphs off for good (auto's verdict, no CUDA, a failed capture) cost nothing per call from then on:
every holder registered with `add_rebinder` (the emitted module's own `call`, the torch.compile
backend's compiled graph) is pointed at the plain call, so no frame of this runtime stays in the
call path. A caller that kept `run` itself still gets plain launches through it.
"""
import logging
import statistics
import warnings
from collections import OrderedDict

import torch

from kernelopt.runtime.graph_capture import (GraphCaptureFailed, GraphCudaBackend, GraphSignatures,  # noqa: F401
                                             GraphUnhashable, graph_pointers)

GRAPH_MODES = ("auto", "on", "off")
GRAPH_OUTPUTS = ("fresh", "static")
GRAPH_MAX_GRAPHS = 8
GRAPH_TRIAL_CALLS = 3          # calls each path is timed on (auto)
GRAPH_KEEP_RATIO = 0.95        # a graph path is kept when it costs at most this share of the plain path
GRAPH_REVIEW_CALLS = 64        # auto reviews the input regime of this many calls at a time
_graph_log = logging.getLogger("kernelopt.cuda_graphs")


class _GraphEntry:
    """One captured graph: its handle, the pointers it reads, how to hand out its outputs, its memory."""

    __slots__ = ("handle", "outputs", "bytes", "signature", "pointers", "moving", "buffers", "twin")

    def __init__(self, handle, outputs, nbytes, signature, pointers, moving=(), buffers=None):
        self.handle, self.outputs, self.bytes = handle, outputs, nbytes
        self.twin = None                # a captured key's second graph, whose outputs live elsewhere (lent)
        self.signature, self.pointers = signature, pointers
        self.moving = moving            # copy graph: argument positions copied into `buffers`
        self.buffers = buffers or {}    # position -> the tensor the graph reads that argument from


class _GraphOutputs:
    """How a captured call's outputs reach the caller: an argument's view rebuilt on this call's
    argument, graph memory copied out (fresh) or handed out (static), anything else as returned."""

    def __init__(self, result, args, fresh):
        self.fresh = fresh
        self.single = not isinstance(result, (tuple, list))
        self.kind = type(result) if not self.single else None
        values = [result] if self.single else list(result)
        by_storage = {}
        for position, arg in enumerate(args):
            if isinstance(arg, torch.Tensor) and arg.untyped_storage().data_ptr():
                by_storage.setdefault(arg.untyped_storage().data_ptr(), position)
        self.plan = []          # per output: ("value", v) | ("arg", position, dtype, size, stride, byte delta)
        groups = {}             #   | ("graph", group, dtype, size, stride, elements from the span's start)
        #                         | ("clone", tensor)
        for value in values:
            if not isinstance(value, torch.Tensor):
                self.plan.append(("value", value))
                continue
            storage = value.untyped_storage().data_ptr()
            if storage and storage in by_storage:
                position = by_storage[storage]
                self.plan.append(("arg", position, value.dtype, tuple(value.shape), value.stride(),
                                  value.data_ptr() - args[position].data_ptr()))
            else:
                groups.setdefault(storage, []).append((len(self.plan), value))
                self.plan.append(None)
        self.spans = []         # per graph-memory storage: a uint8 view over every output in it
        for members in groups.values():
            self._add_group(members)
        # lent outputs are views of these: each span viewed once per dtype, so that a hand-out makes one view per
        # output (as_strided), and with the storage offset each view starts at (as_strided's offset counts from
        # the storage's start, and a span starts where its first output does, not always at the storage's start)
        self.typed = {}
        for step in self.plan:
            if step[0] == "graph" and (step[1], step[2]) not in self.typed:
                view = self.spans[step[1]].view(step[2])
                self.typed[step[1], step[2]] = (view, view.storage_offset())
        # static: the graph's own output tensors (an argument's view is rebuilt per call, and never kept:
        # holding it would keep the caller's tensor alive)
        self.static = [v if isinstance(v, torch.Tensor) and step[0] != "arg" else None
                       for v, step in zip(values, self.plan)]
        # lent: each span's storage handle, and its use count while only this runtime (and the graph's own
        # capture, in a test backend) refers to it; counted at the first hand-out, once `result` is gone
        self._storages = [span.untyped_storage()._cdata for span in self.spans]
        self._idle = None

    def idle(self):
        """Whether the caller holds none of the outputs lent out (nothing else shares their storage)."""
        if self._idle is None:
            self._idle = [GRAPH_STORAGE_USE_COUNT(c) for c in self._storages]
        return all(GRAPH_STORAGE_USE_COUNT(c) == n for c, n in zip(self._storages, self._idle))

    def _add_group(self, members):
        base = members[0][1]
        storage = base.untyped_storage()
        start = storage.data_ptr()
        low = min(v.data_ptr() for _, v in members)
        low -= (low - start) % 16        # keep each output's alignment (the kernels specialize on it)
        high = max(v.data_ptr() + _graph_extent_bytes(v) for _, v in members)
        nbytes = max(16, -(-(high - low) // 16) * 16)
        nbytes = min(nbytes, storage.nbytes() - (low - start))
        span = torch.empty(0, dtype=torch.uint8, device=base.device).set_(storage, low - start, (nbytes,), (1,))
        group = len(self.spans)
        self.spans.append(span)
        for index, value in members:
            delta = value.data_ptr() - low
            if delta % value.element_size() or nbytes % value.element_size():
                self.plan[index] = ("clone", value)      # a misaligned reinterpretation: copied on its own
            else:
                self.plan[index] = ("graph", group, value.dtype, tuple(value.shape), value.stride(),
                                    delta // value.element_size())

    def hand_out(self, args, lend=False):
        """The outputs of the replay that just ran, for a call with arguments `args`: with `lend` (the caller
        checked idle() before the replay), new views of the graph's output memory instead of copies."""
        if lend and self._idle is None:
            self.idle()
        copies = None if lend or not self.fresh else [span.clone() for span in self.spans]
        values = []
        for index, step in enumerate(self.plan):
            kind = step[0]
            if kind == "value":
                values.append(step[1])
            elif kind == "arg":
                values.append(_graph_view(args[step[1]], step[2], step[3], step[4], step[5]))
            elif not self.fresh:
                values.append(self.static[index])
            elif kind == "graph" and lend:
                view, start = self.typed[step[1], step[2]]
                values.append(view.as_strided(step[3], step[4], start + step[5]))
            elif kind == "graph":       # a copy's storage starts with the span
                values.append(copies[step[1]].view(step[2]).as_strided(step[3], step[4], step[5]))
            else:
                values.append(step[1].clone())
        if self.single:
            return values[0]
        return self.kind(values) if self.kind is not tuple else tuple(values)


# torch's count of the tensors (and storage objects) that share a storage; None on a torch without it, where
# graph outputs are always copied out
GRAPH_STORAGE_USE_COUNT = getattr(torch._C, "_storage_Use_Count", None)


def _graph_buffer_bytes(buffers):
    """Device memory of the copy graph's input buffers (position -> tensor)."""
    return sum(b.untyped_storage().nbytes() for b in buffers.values())


def _graph_extent_bytes(tensor):
    if tensor.numel() == 0:
        return 0
    return (1 + sum((n - 1) * s for n, s in zip(tensor.shape, tensor.stride()))) * tensor.element_size()


def _graph_view(arg, dtype, size, stride, delta):
    """The view at byte `delta` from `arg`'s data with this layout (an output that aliases an argument)."""
    offset = arg.storage_offset() * arg.element_size() + delta
    if dtype == arg.dtype:
        return arg.as_strided(size, stride, offset // arg.element_size())
    return torch.empty(0, dtype=dtype, device=arg.device).set_(arg.untyped_storage(), offset // torch.empty(
        (), dtype=dtype).element_size(), size, stride)


class GraphReplay:
    """`run(args)`: the plain `call(args)` through CUDA graphs (the rules are in this file's docstring).
    `stats()` says what happened: calls per path, graphs held, their device memory, the arguments a copy call copies
    in (copy_moving: positions; copy_bytes: their bytes), reasons said."""

    def __init__(self, plain, mode="on", outputs="fresh", max_graphs=GRAPH_MAX_GRAPHS, mutated=None,
                 device_index=0, name="module", backend=None):
        if mode not in GRAPH_MODES:
            raise ValueError(f"cuda graphs mode must be one of {', '.join(GRAPH_MODES)}, got {mode!r}")
        if outputs not in GRAPH_OUTPUTS:
            raise ValueError(f"outputs must be one of {', '.join(GRAPH_OUTPUTS)}, got {outputs!r}")
        if not isinstance(max_graphs, int) or max_graphs < 1:
            raise ValueError(f"max_graphs must be an integer >= 1, got {max_graphs!r}")
        self.plain = plain
        self.mode, self.fresh, self.max_graphs = mode, outputs == "fresh", max_graphs
        # fresh outputs are lent graph memory (no copy) where this torch counts a storage's users
        self.lend = self.fresh and GRAPH_STORAGE_USE_COUNT is not None
        self.mutated = None if mutated is None else frozenset(mutated)   # None: unknown, assume all
        self.device_index, self.name = device_index, name
        self.backend = backend if backend is not None else GraphCudaBackend(device_index)
        self.graphs = OrderedDict()     # key -> _GraphEntry, least recently used first
        self.copy_graph = None
        self.signatures = GraphSignatures()
        self.seen = OrderedDict()       # the last max_graphs distinct keys seen (capture when one recurs)
        # a capture is counted twice: as one (its cost: the plain launches, under capture) and as the path that
        # serves the call it happens in (a replay of the new graph, or a copy into the copy graph's buffers)
        # (copy_capture and twin_capture: how many of the captures were the copy graph's and twins')
        self.counts = {"calls": 0, "plain": 0, "replay": 0, "copy": 0, "capture": 0, "copy_capture": 0,
                       "twin_capture": 0, "evicted": 0}
        self.remarks = []               # every reason said, in order
        self.off = None                 # why graphs are off for good
        # per path, timed calls (auto): "miss" is the plain launches of a call with a new key
        self.timings = {"plain": [], "replay": [], "copy": [], "miss": []}
        self.dropped = set()            # paths auto measured slower than the plain path
        self.decision = "on" if mode == "on" else "undecided"
        self._last_stream = None
        # paths whose calls auto still times: one set lookup per call tells a decided path from one on trial
        self._measuring = {"plain", "replay", "copy", "miss"} if mode == "auto" else set()
        # calls until auto's next review of the input regime (negative: none due). The first falls on the
        # first call through graphs, after the plain trials, and opens the first window (see _review).
        self._review_left = 2 + GRAPH_TRIAL_CALLS if mode == "auto" else -1
        self._window = None             # counts at the start of the review window
        self._rebinders = []            # setters pointed at the plain call once graphs are off for good
        if mode == "off":
            self.off = "--cuda-graphs off"

    # -- accounting --------------------------------------------------------------------------------
    def _entries(self):
        """Every graph held for a key, and the copy graph (each with its twin, if it has one)."""
        return list(self.graphs.values()) + ([self.copy_graph] if self.copy_graph is not None else [])

    @property
    def memory_bytes(self):
        """Device memory the graphs hold: each graph's pool, and the copy graph's input buffers."""
        return sum(e.bytes + (e.twin.bytes if e.twin is not None else 0) for e in self._entries())

    def stats(self):
        copy = self.copy_graph
        return dict(self.counts, graphs=len(self.graphs), copy_graph=copy is not None,
                    twins=sum(e.twin is not None for e in self._entries()),
                    copy_moving=list(copy.moving) if copy is not None else [],
                    copy_bytes=_graph_buffer_bytes(copy.buffers) if copy is not None else 0,
                    memory_bytes=self.memory_bytes, mode=self.mode, decision=self.decision, off=self.off,
                    dropped=sorted(self.dropped), remarks=list(self.remarks))

    def _say(self, reason, warn):
        if reason in self.remarks:
            return
        self.remarks.append(reason)
        text = f"{self.name}: {reason}"
        if warn:
            warnings.warn(text, RuntimeWarning, stacklevel=4)
        else:
            _graph_log.info(text)

    def add_rebinder(self, setter):
        """`setter(fn)` is called with the plain call once graphs are off for good (at once if they are),
        so that whoever holds `run` (the module's `call`, a compiled graph's callable) calls the plain
        launches directly: off, the module costs what the plain module costs."""
        self._rebinders.append(setter)
        if self.off is not None:
            setter(self.plain)

    def _turn_off(self, reason, warn):
        self.off = reason
        self._measuring = set()
        self._review_left = -1
        self._say(f"CUDA graphs off, plain launches from now on: {reason}", warn)
        self.release_all()
        for setter in self._rebinders:
            setter(self.plain)

    def release_all(self):
        """Release every graph (their memory goes back to torch's allocator)."""
        for entry in self._entries():
            self._release(entry)
        self.graphs.clear()
        self.copy_graph = None

    def _release(self, entry):
        # outputs the caller still holds stay valid: their storage keeps its memory after the graph goes
        self.backend.release(entry.handle)
        if entry.twin is not None:
            self.backend.release(entry.twin.handle)

    # -- the call ----------------------------------------------------------------------------------
    def run(self, args):
        counts = self.counts
        counts["calls"] += 1
        if self.off is not None:      # a caller that kept `run` from before graphs went off
            return self._plain(args, None)
        self._review_left -= 1
        if not self._review_left:
            self._review()
            if self.off is not None:
                return self._plain(args, None)
        backend = self.backend
        if counts["calls"] == 1:
            unavailable = ("the module was emitted for the CPU: CUDA graphs need a module captured for a CUDA device"
                           if self.device_index is None else backend.unavailable())
            if unavailable is not None:
                self._turn_off(unavailable, warn=self.mode == "on")
                return self._plain(args, None)
            try:    # seen, so that a serving loop's second call (same key) captures it
                self._note_seen((self.signatures.lookup(args), graph_pointers(args)))
            except GraphUnhashable:
                pass
            return self._plain(args, "first call: plain launches (warm-up)")
        if backend.capturing():
            return self._plain(args, "called while the current stream is being captured: plain launches, "
                                     "recorded by the caller's graph")
        if backend.current_device() != self.device_index:
            return self._plain(args, f"called with cuda:{backend.current_device()} current, the module's device "
                                     f"is cuda:{self.device_index}: plain launches")
        items = list(args)
        try:
            key = (self.signatures.lookup(items), graph_pointers(items))
        except GraphUnhashable as err:
            return self._plain(args, f"{err}: plain launches")
        entry = self.graphs.get(key)
        if entry is not None:
            self.graphs.move_to_end(key)
            lend = self.lend
            if lend and not entry.outputs.idle():       # the caller holds the last outputs: the twin's turn
                entry = self._idle_twin(entry, items)
                if entry is None:
                    return self._plain(args, None)
            args.clear()
            if "replay" in self._measuring:
                return self._timed("replay", self._replay_now, entry, items)
            # the steady state of a serving loop: replay in place, no further frame of this runtime
            stream = backend.stream()
            if stream != self._last_stream:
                self._order_after_last(stream)
            backend.replay(entry.handle)
            counts["replay"] += 1
            return entry.outputs.hand_out(items, lend)
        self._note_seen(key)
        if "plain" in self._measuring:
            return self._timed("plain", self._plain, args, None)
        return self._new_key(key, items, args)

    def _plain(self, args, reason):
        if reason is not None:
            self._say(reason, warn=False)
        self.counts["plain"] += 1
        return self.plain(args)

    def _note_seen(self, key):
        recurs = key in self.seen
        self.seen[key] = recurs
        self.seen.move_to_end(key)
        while len(self.seen) > self.max_graphs:    # the key itself and the max_graphs - 1 before it
            self.seen.popitem(last=False)

    def _timed(self, path, run, *arguments):
        """Run one call on `path`, timing it while auto still measures that path."""
        if path not in self._measuring:
            return run(*arguments)
        samples = self.timings[path]
        token = self.backend.start_timing()
        result = run(*arguments)
        samples.append(self.backend.stop_timing(token))
        if len(samples) >= GRAPH_TRIAL_CALLS:
            if path == "replay":
                self._measuring.discard(path)
                self._decide("replay", "plain")
            elif path in ("copy", "miss") and len(self.timings["copy"]) >= GRAPH_TRIAL_CALLS \
                    and len(self.timings["miss"]) >= GRAPH_TRIAL_CALLS:
                self._measuring -= {"copy", "miss"}
                self._decide("copy", "miss")
        return result

    def _cost(self, path):
        """Median seconds per call timed on `path` (None: not timed yet)."""
        samples = self.timings[path]
        return statistics.median(self.backend.cost_seconds(t) for t in samples) if samples else None

    def _decide(self, path, against):
        cost, baseline = self._cost(path), self._cost(against)
        if baseline is None:        # no plain call could be timed (e.g. all ran under the caller's capture)
            return
        name = "plain" if against == "plain" else "plain launches of new keys"
        verdict = f"{path} {cost * 1e6:.1f} us vs {name} {baseline * 1e6:.1f} us per call"
        if cost <= GRAPH_KEEP_RATIO * baseline:
            self.decision = f"kept ({verdict})" if path == "replay" else self.decision
            _graph_log.info(f"{self.name}: auto: {path} kept ({verdict})")
            return
        self.dropped.add(path)
        if path == "replay":
            self.decision = f"off ({verdict})"
            self._turn_off(f"auto measured replay no faster than the plain path ({verdict})", warn=False)
        else:
            self._say(f"auto measured the copy path no faster than the plain launches, each timed on new input "
                      f"buffers ({verdict}): new input buffers run the plain path", warn=False)

    # -- auto: the input regime ----------------------------------------------------------------------
    def _start_window(self):
        self._window = dict(self.counts)
        self._review_left = GRAPH_REVIEW_CALLS

    def _review(self):
        """Price the calls since the last review at the timed medians; graphs off for good when they cost
        more than plain launches would have (see the module docstring)."""
        start, now = self._window, self.counts
        if start is None:           # the first call through graphs: the plain trials are over
            self._measuring.discard("plain")
            self._start_window()
            return
        done = {path: now[path] - start[path]
                for path in ("calls", "plain", "replay", "copy", "capture", "copy_capture", "twin_capture")}
        self._start_window()
        plain = self._cost("plain")
        miss = self._cost("miss")
        if plain is None or done["calls"] <= 0:
            return
        if miss is not None:        # the later, warmer timing of the same launches: the fairer baseline
            plain = min(plain, miss)
        replay = self._cost("replay")
        replay = plain if replay is None else replay
        copy = self._cost("copy")
        copy = plain + replay if copy is None else copy     # untimed: at least its launches and a replay
        # a capture runs the plain launches under capture and then replays (counted with the replays)
        spent = (done["replay"] * replay + done["copy"] * copy + done["capture"] * plain
                 + done["plain"] * (plain if miss is None else miss))
        per_call = spent / done["calls"]
        if per_call <= GRAPH_KEEP_RATIO * plain:
            return
        # calls whose key's graph was captured, then replayed (a twin is a capture for a key already held)
        captured = done["capture"] - done["copy_capture"] - done["twin_capture"]
        new = done["copy"] + captured + done["plain"]
        verdict = f"graph path {per_call * 1e6:.1f} us vs plain {plain * 1e6:.1f} us per call"
        self.decision = f"off ({verdict} over the last {done['calls']} calls)"
        self._turn_off(f"auto: of the last {done['calls']} calls, {new} came with input buffers no graph held "
                       f"({done['copy']} copied, {captured} captured, {done['plain']} plain launches) and "
                       f"{done['replay'] - captured} replayed a held graph: priced at the timed medians, "
                       f"{verdict}", warn=False)

    def _replay(self, entry, items):
        if "replay" in self._measuring:
            return self._timed("replay", self._replay_now, entry, items)
        return self._replay_now(entry, items)

    def _replay_now(self, entry, items):
        self._launch(entry)
        self.counts["replay"] += 1
        return entry.outputs.hand_out(items, self.lend)

    def _idle_twin(self, entry, inside):
        """The graph whose outputs the caller does not hold: `entry`'s twin, captured on the arguments it reads
        (`inside`: the call's, or the copy graph's buffers) at the first call that needs it; None when the
        caller holds both graphs' outputs (or the twin's capture failed)."""
        if entry.twin is None:
            # a copy graph's twin reads the same buffers (each call copies into them before either replays)
            entry.twin = self._capture_entry(inside, entry.signature, entry.pointers, entry.moving, entry.buffers)
            self.counts["twin_capture"] += entry.twin is not None
            return entry.twin
        return entry.twin if entry.twin.outputs.idle() else None

    def _capture_entry(self, inside, signature, pointers, moving=(), buffers=None):
        """A new graph of the plain launches on `inside` (the arguments it reads), counted as a capture; None when
        the capture failed (graphs are then off for good, with a warning). Outputs that alias one of `inside` are
        handed out as views of the caller's argument."""
        try:
            handle, result, nbytes = self.backend.capture(lambda: self.plain(list(inside)))
        except GraphCaptureFailed as err:
            self._turn_off(f"capturing the call failed ({err})", warn=True)
            return None
        entry = _GraphEntry(handle, _GraphOutputs(result, inside, self.fresh), nbytes, signature, pointers, moving,
                            buffers)
        del result
        self.counts["capture"] += 1
        return entry

    def _launch(self, entry):
        stream = self.backend.stream()
        if stream != self._last_stream:
            self._order_after_last(stream)
        self.backend.replay(entry.handle)

    def _order_after_last(self, stream):
        if self._last_stream is not None:
            self.backend.order_after(self._last_stream)
        self._last_stream = stream

    # -- a key without a graph ---------------------------------------------------------------------
    def _new_key(self, key, items, args):
        if self.seen[key]:
            return self._capture(key, items, args)
        if "copy" in self.dropped:
            return self._plain(args, None)
        if "miss" in self._measuring and self.copy_graph is not None \
                and len(self.timings["miss"]) < len(self.timings["copy"]):
            # copy and the plain launches take turns on new keys until each is timed (see the docstring)
            return self._timed("miss", self._plain, args, None)
        return self._copy(key, items, args)

    def _capture(self, key, items, args):
        args.clear()
        entry = self._capture_entry(items, key[0], key[1])
        if entry is None:
            return self._plain(items, None)
        self.graphs[key] = entry
        while len(self.graphs) > self.max_graphs:
            _, old = self.graphs.popitem(last=False)
            self._release(old)
            self.counts["evicted"] += 1
        return self._replay(entry, items)

    def _copy(self, key, items, args):
        graph = self.copy_graph
        if graph is not None and graph.signature != key[0]:
            return self._plain(args, "a call with another signature than the copy graph's: plain launches")
        pointers = key[1]
        if graph is None or any(pointers[i] != graph.pointers[i] for i in range(len(items))
                                if i not in graph.moving):
            # arguments that moved since the last call (or since the copy graph was captured) are copied
            moving = set(graph.moving) if graph is not None else set()
            previous = graph.pointers if graph is not None else self._previous_pointers(key)
            moving |= {i for i, p in enumerate(pointers) if p is not None and p != previous[i]}
            return self._capture_copy_graph(key, items, args, tuple(sorted(moving)))
        storages = [items[i].untyped_storage().data_ptr() for i in graph.moving]
        if len(set(storages)) != len(storages):
            return self._plain(args, "moving arguments that share storage cannot be copied: plain launches")
        args.clear()
        if "copy" in self._measuring:
            return self._timed("copy", self._copy_now, graph, items)
        return self._copy_now(graph, items)

    def _previous_pointers(self, key):
        for other in reversed(self.seen):
            if other != key and other[0] == key[0]:
                return other[1]
        return key[1]

    def _copy_now(self, graph, items):
        if self.lend and not graph.outputs.idle():    # the caller holds the last outputs: the twin's turn
            graph = self._idle_twin(graph, [graph.buffers.get(i, arg) for i, arg in enumerate(items)])
            if graph is None:
                return self._plain(items, None)
        buffers = graph.buffers
        for i in graph.moving:
            buffers[i].copy_(items[i])
        self._launch(graph)
        for i in graph.moving:
            if self.mutated is None or i in self.mutated:
                items[i].copy_(buffers[i])
        self.counts["copy"] += 1
        return graph.outputs.hand_out(items, self.lend)

    def _capture_copy_graph(self, key, items, args, moving):
        if self.copy_graph is not None:
            self._release(self.copy_graph)
            self.copy_graph = None
        buffers = {}
        for i in moving:
            buffers[i] = torch.empty_strided(items[i].shape, items[i].stride(), dtype=items[i].dtype,
                                             device=items[i].device)
        inside = [buffers.get(i, arg) for i, arg in enumerate(items)]
        try:
            for i in moving:
                buffers[i].copy_(items[i])
        except RuntimeError as err:   # e.g. an expanded (overlapping) argument: no buffer can hold it
            self.dropped.add("copy")
            self._say(f"the copy path cannot take these arguments ({str(err).splitlines()[0]}): new input "
                      "buffers run the plain path", warn=True)
            return self._plain(args, None)
        args.clear()
        graph = self._capture_entry(inside, key[0], graph_pointers(inside), moving, buffers)
        if graph is None:
            return self._plain(items, None)
        graph.bytes += _graph_buffer_bytes(buffers)
        self.copy_graph = graph
        self.counts["copy_capture"] += 1
        return self._copy_now(graph, items)
