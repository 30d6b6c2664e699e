"""Real inputs for the output modules of one Dynamo graph, built at compile time.

The search, the legality gate and the guard run a module on the inputs they are given, and the gate's
random cases draw their integers from those values (legality/cases.py). A module's own get_args()
gives normal samples for floats and zeros for integers: for a backward graph that means saved
activations no forward produced, boolean masks all False and saved argmax/target indices all 0, on
which a wrong candidate can pass. So the backend builds them from real data:

  forward (inference or training): copies of the real tensors Dynamo hands the backend (parameters,
      buffers, the compiling call's inputs), which AOTAutograd passes on one to one as the graph's
      primals (checked: same count, shapes and dtypes);
  backward: the tensors the forward saves, made by running Inductor's forward module on those inputs
      (each backward placeholder is named after the forward output it receives: the partitioner cuts
      both graphs from one joint graph), and normal random tangents (every gradient of the outputs is
      a valid one; a loss's is often 1.0, which a random one covers).

When an input cannot be made this way `Unrealistic` says why, and the backend runs Inductor's module
for that graph: no speedup is worth a candidate checked on made-up data.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import torch
import torch.utils._python_dispatch as python_dispatch

from kernelopt.tensor_layout import copy_into

TANGENT_PREFIX = "tangents_"    # AOTAutograd's name for the backward's incoming gradients
TANGENT_SEED = 0


class Unrealistic(Exception):
    """An input of the graph that cannot be made from real data; the message says which and why."""


@dataclass(frozen=True)
class Layout:
    """What a graph input must look like (kept instead of the FakeTensor, which holds its fake mode)."""
    shape: tuple
    stride: tuple
    dtype: torch.dtype | None     # None: not a tensor (`value` then holds it)
    value: Any = None

    @staticmethod
    def of(fake) -> "Layout":
        if isinstance(fake, torch.Tensor):
            return Layout(tuple(fake.shape), tuple(fake.stride()), fake.dtype)
        return Layout((), (), None, fake)


@dataclass
class ForwardRun:
    """Inductor's forward of a training graph and the real tensors it was compiled for: the backward's
    saved tensors are made from them when the backward compiles (AOTAutograd compiles it lazily, at
    the first `backward()`). Dropped once used, so it holds the inputs no longer than that."""
    call: Callable                 # Inductor's `call(args)` (not ours: the reference run)
    inputs: list                   # Dynamo's real example inputs (references, copied per run)
    layouts: list[Layout]          # the forward graph's placeholders
    output_names: list             # the forward graph's outputs, by FX node name (None: not a node)


def placeholder_names(gm) -> list[str]:
    return [node.name for node in gm.graph.nodes if node.op == "placeholder"]


def output_names(gm) -> list:
    outputs = gm.graph.output_node().args[0]
    return [getattr(node, "name", None) for node in (outputs if isinstance(outputs, (list, tuple)) else [outputs])]


def forward_inputs(real: Sequence, layouts: Sequence[Layout]) -> list:
    """Copies of Dynamo's real inputs in the forward graph's layouts; Unrealistic when they do not map."""
    if len(real) != len(layouts):
        raise Unrealistic(f"Dynamo gave {len(real)} inputs and the graph takes {len(layouts)} (AOTAutograd "
                          "merged or added some), so which real tensor feeds which argument is unknown")
    return [_as_layout(value, layout, f"input {i}") for i, (value, layout) in enumerate(zip(real, layouts))]


def backward_inputs(forward: ForwardRun, names: Sequence[str], layouts: Sequence[Layout]) -> list:
    """The backward graph's inputs: the forward's saved tensors (Inductor's forward run on copies of
    the real inputs) and random tangents; Unrealistic for a placeholder that is neither."""
    unknown = [n for n in names if n not in forward.output_names and not n.startswith(TANGENT_PREFIX)]
    if unknown:
        raise Unrealistic(f"backward input {unknown[0]!r} is neither a tensor the forward saves nor a tangent "
                          "(a random-number seed or a size, which cannot be made from the forward's outputs)")
    with python_dispatch._disable_current_modes(), torch.no_grad():
        outputs = list(forward.call(forward_inputs(forward.inputs, forward.layouts)))
    if len(outputs) != len(forward.output_names):
        raise Unrealistic(f"Inductor's forward returned {len(outputs)} values for the graph's "
                          f"{len(forward.output_names)} outputs")
    saved = dict(zip(forward.output_names, outputs))
    device = next((o.device for o in outputs if isinstance(o, torch.Tensor)), torch.device("cpu"))
    generator = torch.Generator(device=device).manual_seed(TANGENT_SEED)
    args = []
    for name, layout in zip(names, layouts):
        if name in saved:
            args.append(_as_layout(saved[name], layout, f"saved tensor {name!r}"))
        elif layout.dtype is None or not layout.dtype.is_floating_point:
            raise Unrealistic(f"tangent {name!r} is not a floating-point tensor ({layout.dtype})")
        else:
            with python_dispatch._disable_current_modes():
                tangent = torch.empty_strided(layout.shape, layout.stride, dtype=layout.dtype, device=device)
                args.append(tangent.normal_(generator=generator))
    return args


def _as_layout(value, layout: Layout, where: str):
    """`value` copied into a fresh tensor of `layout` (the module asserts sizes and strides), detached."""
    if layout.dtype is None:
        if isinstance(value, torch.Tensor) or value != layout.value:
            raise Unrealistic(f"{where}: the graph was compiled for {layout.value!r}, the real value is {value!r}")
        return value
    if not isinstance(value, torch.Tensor) or type(value) not in (torch.Tensor, torch.nn.Parameter):
        raise Unrealistic(f"{where}: expected a plain tensor, got {type(value).__name__}")
    if tuple(value.shape) != layout.shape or value.dtype != layout.dtype:
        raise Unrealistic(f"{where}: the graph takes {layout.shape} {layout.dtype}, the real tensor is "
                          f"{tuple(value.shape)} {value.dtype}")
    with python_dispatch._disable_current_modes(), torch.no_grad():
        copy = torch.empty_strided(layout.shape, layout.stride, dtype=layout.dtype, device=value.device)
        return copy_into(copy, value.detach())   # an expanded input stays expanded
