"""Whether a pointwise kernel maps a tensor y to m = a[c] * y + b[c], element by element, per channel c.

On a GPU, Inductor calls the library convolution without its bias and adds the bias in a pointwise kernel of its
own (`buf += bias[c]`, in place, or `(y + bias[c]) * 0.5` into another buffer) whenever the convolution's output
is read more than once per element afterwards (an average pool reads each element in a window): the bias is then
added once, not once per window read. A transform that replaces the convolution by sums of its output (over
windows, planes) can take that kernel along: a window's sum of m is a[c] * (the window's sum of y) + k * b[c].

`read_channel_affine` proves it from the kernel's code, for the tensor sizes and strides the group passes:

- the body is straight-line: loads, index arithmetic and value math, one store into m (`out`), no loop;
- the lane that stores m's element at logical coordinates i loads y at the same coordinates i, each in its own
  layout (channels-last, padded rows: the addresses are evaluated with Triton's integer arithmetic at every
  lane of sampled lines along each dimension and at random lanes), and every other load reads an address that is
  affine in i's channel coordinate alone (`base + step * c`: a bias, a per-channel scale);
- the stored value is affine in the loaded y: each value of the kernel is either free of y (a constant, a
  per-channel load, arithmetic and square roots of those: a batch norm's scale) or `slope * y + intercept` with a
  free slope and intercept; `+`, `-`, `*` and `/` by a free value, negation, a cast to float32 and a broadcast keep
  it so; anything else of y declines (a product of two y terms, a comparison, a nonlinear function, a masked load
  with a fill).

The result gives the slope and intercept as Python expressions over per-channel float64 vectors (`ChannelAffine`),
which a candidate evaluates once per call: C elements, not the tensor.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from kernelopt.inductor_source import access_mask, dotted_name

from .index_values import IndexEvaluator, parse_kernel, pointer_of, straight_line

SAMPLES = 4096               # random lanes checked on top of the lines along every dimension


class NotChannelAffine(Exception):
    """The kernel is not m = a[c] * y + b[c] (or this module cannot prove it); says why."""


@dataclass(frozen=True)
class ChannelLoad:
    """A load the slope or intercept reads: parameter `param` at `base + step * c` for channel c."""
    param: str
    base: int
    step: int


@dataclass(frozen=True)
class ChannelAffine:
    y_param: str
    out_param: str
    slope: str                   # a Python expression over `loads` (named ko_chan0, ko_chan1, ...) and constants
    intercept: str
    loads: tuple[ChannelLoad, ...]

    @property
    def identity(self) -> bool:
        return self.slope == "1.0" and self.intercept == "0.0"


@dataclass(frozen=True)
class _Value:
    slope: str | None            # None: free of y
    free: str                    # the intercept (or the value itself, when free of y)


def _is_call(node, name: str) -> bool:
    return isinstance(node, ast.Call) and dotted_name(node.func) == name


def read_channel_affine(source: str, name: str, y_param: str, y_layout: tuple, out_param: str,
                        out_layout: tuple) -> ChannelAffine:
    """The kernel `name` of `source` as m = a[c] * y + b[c]; `y_layout` and `out_layout`: (sizes, strides, storage
    offset) of y and m, the same logical sizes [N, C, ...]."""
    _, function = parse_kernel(source, name, NotChannelAffine)
    assigns, loads, store = _straight_line(function)
    out, store_offset = _pointer(store.args[0], "store")
    if out != out_param or len(store.args) < 2:
        raise NotChannelAffine(f"the kernel stores into `{out}`, not only into `{out_param}`")
    y_loads = [target for target, call in loads.items() if _pointer(call.args[0], "load")[0] == y_param]
    if len(y_loads) != 1:
        raise NotChannelAffine(f"{len(y_loads)} loads of `{y_param}`: one is handled")
    for target, call in loads.items():
        if next((k for k in call.keywords if k.arg == "other"), None) is not None:
            raise NotChannelAffine(f"the load into `{target}` is masked with a fill value")
    sizes, strides, offset = out_layout
    numel = int(np.prod(sizes))
    evaluator = IndexEvaluator(assigns, NotChannelAffine, ("xoffset", "xindex"), "channel-affine")
    if "xnumel" in assigns and int(evaluator.value(assigns["xnumel"], {})) != numel:
        raise NotChannelAffine(f"the kernel runs over {ast.unparse(assigns['xnumel'])} lanes, not m's {numel} "
                               f"elements")
    lanes = _lanes(numel)
    env = {"xindex": lanes, "xnumel": np.int64(numel)}
    for call in (*loads.values(), store):       # a mask may only drop lanes past the end
        mask = access_mask(call)
        if mask is not None and not (isinstance(mask, ast.Constant) and mask.value is None) \
                and not np.all(np.broadcast_to(evaluator.value(mask, env), lanes.shape)):
            raise NotChannelAffine(f"`{ast.unparse(mask)[:60]}` masks lanes inside m")
    coords = _coordinates(np.broadcast_to(evaluator.value(store_offset, env), lanes.shape) - offset, sizes, strides)
    if len({tuple(c) for c in coords.T.tolist()}) != len(lanes):
        raise NotChannelAffine("two lanes store the same element of m")
    y_sizes, y_strides, y_offset = y_layout
    if tuple(y_sizes) != tuple(sizes):
        raise NotChannelAffine(f"y's sizes {list(y_sizes)} are not m's {list(sizes)}")
    channel_loads = {}
    for target, call in loads.items():
        param, address = _pointer(call.args[0], "load")
        at = np.broadcast_to(evaluator.value(address, env), lanes.shape).astype(np.int64)
        if target == y_loads[0]:
            if not np.array_equal(at - y_offset, np.asarray(y_strides) @ coords):
                raise NotChannelAffine(f"a lane does not load y at the element of m it stores")
            continue
        channel_loads[target] = _per_channel(param, at, coords[1], target)
    value = _Evaluation(assigns, y_loads[0], channel_loads).value(store.args[1])
    if value.slope is None:
        raise NotChannelAffine("the stored value does not depend on y")
    return ChannelAffine(y_param, out_param, value.slope, value.free, tuple(channel_loads.values()))


def _straight_line(function: ast.FunctionDef):
    """(assignments, the loads by the name they assign, the store) of a body of assignments and one store."""
    assigns, loads, stores = straight_line(function, NotChannelAffine)
    calls = sum(1 for n in ast.walk(function) if _is_call(n, "tl.load"))
    if len(stores) != 1 or calls != len(loads):
        raise NotChannelAffine(f"{len(stores)} stores and {calls - len(loads)} loads inside expressions (one store, "
                               f"and each load assigned to a name, are handled)")
    return assigns, loads, stores[0]


def _pointer(node, what: str) -> tuple[str, ast.expr]:
    return pointer_of(node, what, NotChannelAffine)


def _lanes(numel: int) -> np.ndarray:
    """Every lane of the first and last few thousand, and random ones: enough to see each dimension's wrap."""
    rng = np.random.default_rng(0)
    edge = np.arange(min(numel, SAMPLES), dtype=np.int64)
    return np.unique(np.concatenate([edge, numel - 1 - edge, rng.integers(0, numel, SAMPLES)]))


def _coordinates(offsets: np.ndarray, sizes, strides) -> np.ndarray:
    """[dims, lanes]: the logical coordinates of m's elements at `offsets` (a layout whose strides, largest first,
    each exceed the span of the smaller ones: dense, channels-last, padded rows)."""
    order = sorted(range(len(sizes)), key=lambda d: -strides[d])
    coords = np.zeros((len(sizes), len(offsets)), np.int64)
    rest = offsets.astype(np.int64)
    for d in order:
        if sizes[d] == 1:
            continue
        coords[d] = rest // strides[d]
        rest = rest - coords[d] * strides[d]
    if np.any(rest != 0) or np.any(coords < 0) or np.any(coords >= np.asarray(sizes)[:, None]):
        raise NotChannelAffine("the store's addresses are not elements of m")
    return coords


def _per_channel(param: str, at: np.ndarray, channel: np.ndarray, target: str) -> ChannelLoad:
    """The load's address as base + step * c, checked at every lane; NotChannelAffine where it varies otherwise."""
    first = np.argmin(channel)
    other = np.flatnonzero(channel != channel[first])
    step = 0
    if len(other):
        k = other[0]
        step, remainder = divmod(int(at[k] - at[first]), int(channel[k] - channel[first]))
        if remainder:
            raise NotChannelAffine(f"the load into `{target}` is not affine in the channel")
    base = int(at[first] - step * channel[first])
    if not np.array_equal(at, base + step * channel):
        raise NotChannelAffine(f"the load into `{target}` reads an address that varies with more than the channel")
    return ChannelLoad(param, base, step)


# Square roots of values free of y (a batch norm's 1 / sqrt(var + eps)), as the candidate's helpers compute them
# (ko_sqrt, ko_rsqrt: on a per-channel tensor or a number)
_ROOTS = {"tl.sqrt_rn": "ko_sqrt", "tl.sqrt": "ko_sqrt", "libdevice.sqrt": "ko_sqrt", "tl.math.sqrt": "ko_sqrt",
          "libdevice.rsqrt": "ko_rsqrt", "tl.rsqrt": "ko_rsqrt", "tl.math.rsqrt": "ko_rsqrt"}


class _Evaluation:
    """Each value of the kernel as _Value: free of y (an expression over the channel loads and constants) or affine
    in it, in program order."""

    def __init__(self, assigns: dict[str, ast.expr], y_load: str, channel_loads: dict[str, ChannelLoad]):
        self.assigns, self.y_load = assigns, y_load
        self.names = {target: f"ko_chan{i}" for i, target in enumerate(channel_loads)}
        self.done: dict[str, _Value] = {}

    def value(self, node: ast.expr) -> _Value:
        if isinstance(node, ast.Name):
            if node.id == self.y_load:
                return _Value("1.0", "0.0")
            if node.id in self.names:
                return _Value(None, self.names[node.id])
            if node.id not in self.done:
                if node.id not in self.assigns:
                    raise NotChannelAffine(f"the stored value reads `{node.id}`, which the kernel does not assign")
                self.done[node.id] = self.value(self.assigns[node.id])
            return self.done[node.id]
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return _Value(None, repr(float(node.value)))
        if _is_call(node, "tl.full") and len(node.args) >= 2:
            return self.value(node.args[1])
        if _is_call(node, "tl.broadcast_to") and node.args:
            return self.value(node.args[0])
        if isinstance(node, ast.Subscript):                     # `[:, None]`: a shape, not a value
            return self.value(node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to" \
                and node.args and dotted_name(node.args[0]) == "tl.float32":
            return self.value(node.func.value)
        if isinstance(node, ast.Call) and dotted_name(node.func) in _ROOTS and len(node.args) == 1:
            inner = self.value(node.args[0])
            if inner.slope is not None:
                raise NotChannelAffine(f"line {node.lineno}: `{ast.unparse(node)[:60]}` is not affine in y")
            return _Value(None, f"{_ROOTS[dotted_name(node.func)]}({inner.free})")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.value(node.operand)
            return _Value(None if inner.slope is None else f"-({inner.slope})", f"-({inner.free})")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            return self._binary(node)
        raise NotChannelAffine(f"line {getattr(node, 'lineno', '?')}: `{ast.unparse(node)[:60]}` is not affine "
                               f"arithmetic")

    def _binary(self, node: ast.BinOp) -> _Value:
        left, right = self.value(node.left), self.value(node.right)
        symbol = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}[type(node.op)]
        if left.slope is None and right.slope is None:
            return _Value(None, f"({left.free}) {symbol} ({right.free})")
        if symbol in "+-":
            slope = left.slope if right.slope is None else \
                (f"{symbol}({right.slope})" if left.slope is None else f"({left.slope}) {symbol} ({right.slope})")
            return _Value(slope, f"({left.free}) {symbol} ({right.free})")
        if symbol == "*" and (left.slope is None) != (right.slope is None):
            affine, factor = (right, left) if left.slope is None else (left, right)
            return _Value(f"({affine.slope}) * ({factor.free})", f"({affine.free}) * ({factor.free})")
        if symbol == "/" and right.slope is None:
            return _Value(f"({left.slope}) / ({right.free})", f"({left.free}) / ({right.free})")
        raise NotChannelAffine(f"line {node.lineno}: `{ast.unparse(node)[:60]}` is not affine in y")


__all__ = ["ChannelAffine", "ChannelLoad", "NotChannelAffine", "read_channel_affine"]
