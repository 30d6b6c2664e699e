"""CUDA graphs for an emitted module: the call key, and the capture backend graph_replay.py drives.

Also inlined verbatim into every module emitted with `--cuda-graphs on|auto` (the emitted module needs
only torch and triton, so it cannot import KernelOPT): this file imports only the standard library and
torch, and every top-level name starts with `graph_`, `Graph` or `_graph_` so that it cannot clash with
the emitted module's own names (tests/unit/test_graph_replay.py checks both).

The key of a call is (signature, data pointers): the signature is each tensor argument's sizes,
strides, dtype, device and requires_grad (a non-tensor argument: its value); the pointers are each
tensor's data_ptr(). A graph captured for a key reads and writes exactly the memory at those pointers,
so replaying it for a call with the same key is the call, with no copy.
"""
import time

import torch

# torch's C++ tensor guard (what Dynamo checks tensors with): one call checks every argument's sizes,
# strides, dtype, device and dispatch keys; ~6x cheaper than reading them from Python (15 tensors:
# 2.6 us against 14 us on the development machine). Absent: the Python signature is compared instead.
_graph_tensor_guards = getattr(getattr(getattr(torch._C, "_dynamo", None), "guards", None), "TensorGuards", None)


class GraphUnhashable(Exception):
    """An argument that cannot be part of a key (a list, a dict, ...): such a call runs the plain path."""


def graph_signature(args):
    """What a graph captured for `args` assumes besides the pointers: per argument, a tensor's sizes,
    strides, dtype, device and requires_grad; anything else by value (a captured graph bakes it in)."""
    parts = []
    for arg in args:
        if isinstance(arg, torch.Tensor):
            parts.append((tuple(arg.shape), arg.stride(), arg.dtype, arg.device, arg.requires_grad))
        else:
            try:
                hash(arg)
            except TypeError:
                raise GraphUnhashable(f"argument of type {type(arg).__name__} cannot key a graph") from None
            parts.append(("value", type(arg).__name__, arg))
    return tuple(parts)


_graph_data_ptr = torch.Tensor.data_ptr


def graph_pointers(args):
    """Each tensor argument's data pointer (None for a non-tensor: the signature holds its value)."""
    try:    # all tensors (every call of a module with only tensor arguments): one C-level pass, no frame
        return tuple(map(_graph_data_ptr, args))
    except TypeError:
        return tuple([arg.data_ptr() if isinstance(arg, torch.Tensor) else None for arg in args])


def graph_key(args):
    """The key of a call: equal keys mean equal signatures and every tensor at the same address."""
    return graph_signature(args), graph_pointers(args)


def graph_tensor_guard(tensors):
    """torch's C++ guard on these tensors' sizes, strides, dtypes, devices and requires_grad as they are now
    (`guard.check(*tensors)` is True while they still are); None where this torch has none, or it disagrees."""
    if _graph_tensor_guards is None or not tensors:
        return None
    try:
        guard = _graph_tensor_guards(*tensors, dynamic_dims_sizes=[list(t.shape) for t in tensors],
                                     dynamic_dims_strides=[list(t.stride()) for t in tensors])
        return guard if guard.check(*tensors) else None
    except Exception:  # noqa: BLE001 - another torch's guard API: the caller checks in Python instead
        return None


class GraphSignatures:
    """Signature -> small integer, with the first signature also checked by torch's C++ tensor guard, so
    that the steady state (one signature: an emitted module has static shapes) costs one C++ call."""

    def __init__(self):
        self.ids = {}
        self._fast = None        # (TensorGuards, signature id) of the first all-tensor signature
        self._fast_length = -1

    def lookup(self, args):
        """The signature id of `args` (raises GraphUnhashable)."""
        fast = self._fast
        if fast is not None and len(args) == self._fast_length:
            try:
                if fast[0].check(*args):
                    return fast[1]
            except TypeError:   # a non-tensor among the arguments
                pass
        signature = graph_signature(args)
        found = self.ids.get(signature)
        if found is None:
            found = self.ids[signature] = len(self.ids)
            if self._fast is None and args and all(isinstance(a, torch.Tensor) for a in args):
                guard = graph_tensor_guard(args)
                if guard is not None:          # it agrees with the Python signature on this call
                    self._fast, self._fast_length = (guard, found), len(args)
        return found


class GraphCaptureFailed(Exception):
    """Capturing the call into a CUDA graph failed; the message says why (the plain path serves)."""


class GraphTiming:
    """Host seconds and, on a GPU, the device's elapsed time between two events of one call."""

    __slots__ = ("host", "start_event", "stop_event")

    def __init__(self, host, start_event=None, stop_event=None):
        self.host, self.start_event, self.stop_event = host, start_event, stop_event


class GraphCudaBackend:
    """Captures and replays CUDA graphs for graph_replay.GraphReplay. Tests pass another object with the
    same methods (CUDA graphs do not exist on a CPU); this is the only one a module uses."""

    def __init__(self, device_index=0):
        self.device_index = device_index
        self._side_stream = None

    def unavailable(self):
        """Why graphs cannot run here, or None."""
        if not torch.cuda.is_available():
            return "no CUDA device (torch.cuda.is_available() is False)"
        if not hasattr(torch.cuda, "CUDAGraph"):
            return f"this torch ({torch.__version__}) has no torch.cuda.CUDAGraph"
        return None

    def capturing(self):
        """Whether the current stream is being captured (by the caller's own graph)."""
        return torch._C._cuda_isCurrentStreamCapturing()

    def current_device(self):
        return torch._C._cuda_getDevice()

    def stream(self):
        """The current stream of the module's device, as an integer (cheap to compare each call)."""
        return torch._C._cuda_getCurrentRawStream(self.device_index)

    def order_after(self, previous_stream):
        """Make the current stream wait for the work issued on `previous_stream` (a graph's memory is reused
        by its next replay: a replay on another stream must not overtake the last one)."""
        current = torch.cuda.current_stream(self.device_index)
        previous = torch.cuda.ExternalStream(previous_stream, device=torch.device("cuda", self.device_index))
        current.wait_stream(previous)

    def capture(self, run):
        """Capture `run()` into a new graph with its own memory pool, on a side stream ordered after the
        current one. Returns (graph, run's result, bytes of device memory the graph's pool took)."""
        device = torch.device("cuda", self.device_index)
        if self._side_stream is None:
            self._side_stream = torch.cuda.Stream(device)
        side = self._side_stream
        side.wait_stream(torch.cuda.current_stream(device))
        graph = torch.cuda.CUDAGraph()
        reserved = torch.cuda.memory_reserved(device)
        failure = None
        with torch.cuda.stream(side):
            # thread_local: CUDA work of other threads does not invalidate this capture (nor fail itself)
            graph.capture_begin(pool=torch.cuda.graph_pool_handle(), capture_error_mode="thread_local")
            try:
                result = run()
            except Exception as err:  # noqa: BLE001 - reported as the capture's failure below
                failure = err
            finally:
                try:
                    graph.capture_end()
                except Exception as err:  # noqa: BLE001
                    failure = failure or err
        torch.cuda.current_stream(device).wait_stream(side)
        if failure is not None:
            graph.reset()
            raise GraphCaptureFailed(f"{type(failure).__name__}: {str(failure).splitlines()[0] if str(failure) else ''}")
        return graph, result, max(0, torch.cuda.memory_reserved(device) - reserved)

    def replay(self, graph):
        graph.replay()

    def release(self, graph):
        """Drop a graph: wait for its last replay first (its pool is handed back to the allocator)."""
        torch.cuda.synchronize(self.device_index)
        graph.reset()

    def start_timing(self):
        event = torch.cuda.Event(enable_timing=True)
        event.record()
        return GraphTiming(time.perf_counter(), event)

    def stop_timing(self, timing):
        timing.host = time.perf_counter() - timing.host
        timing.stop_event = torch.cuda.Event(enable_timing=True)
        timing.stop_event.record()
        return timing

    def cost_seconds(self, timing):
        """What one call costs when calls are issued back to back: its host time or its device time,
        whichever is longer."""
        timing.stop_event.synchronize()
        return max(timing.host, timing.start_event.elapsed_time(timing.stop_event) / 1e3)
