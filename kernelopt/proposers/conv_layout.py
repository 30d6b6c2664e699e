"""conv-layout: run a library convolution with its operands in the other memory format.

cuDNN picks its kernels by the operands' memory format: channels-last (NHWC, NDHWC) kernels run the
convolution's inner products over contiguous channels, and on recent GPUs they are often the fast ones;
Inductor's layout optimisation turns 2-D convolutions channels-last when it judges that pays, and leaves
3-D ones (and the graphs it judges otherwise) channels-first. Which format is faster for a given shape is
for the timing to say, so the proposer offers the convolution in the format the module did not choose:

- operands channels-first (contiguous NCHW / NCDHW): the convolution on channels-last copies of the input
  and the weight (`torch.channels_last` / `torch.channels_last_3d`);
- operands channels-last: the convolution on contiguous copies.

Read from the call itself (a vendor target, `targets.vendor_target`: `extern_kernels.convolution`, its
operands' strides and its literal arguments), whatever the model is. The result is written into the
target's `out` slot in the layout the original returned (a copy where the formats differ), so everything
after the call reads what it read. The copies are part of the candidate's time; the search keeps the
candidate only where the whole is faster. They also hold as much device memory as the operands and the
result while the call runs (a candidate that runs out of memory in the gate is rejected like any other). The same aten convolution runs, under the process's own
precision flags (`torch.backends.cudnn.allow_tf32`), so the candidate computes in the class of precision
the original did; cuDNN's algorithm for the other format may round otherwise, which the legality gate
judges against the float64 reference.

Declined: a call that is not a convolution of 4-D or 5-D operands, operands in neither format (or mixed),
non-float dtypes, and a convolution with a single channel in and out (both formats are the same memory).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from kernelopt.ir.types import dense_in_order

from .base import Attempt, Candidate, RewriteTarget

CONVOLUTION = "extern_kernels.convolution"
ARGUMENTS = ("stride", "padding", "dilation", "transposed", "output_padding", "groups")   # the call's literals
FLOATS = ("float32", "float16", "bfloat16", "float64")


class ConvLayoutDeclined(Exception):
    """Why the convolution gets no candidate (the message goes to the remarks)."""


@dataclass(frozen=True)
class ConvLayoutPlan:
    slots: dict             # input, weight, bias (or None), out -> position in the target's arguments
    kwargs: dict            # stride, padding, dilation, transposed, output_padding, groups
    dims: int               # 4 (2-D convolution) or 5 (3-D)
    to_channels_last: bool  # the candidate's format: channels-last (True) or contiguous (False)


def _format(sizes, strides) -> str:
    """'first' (contiguous), 'last' (channels-last) or '' for a tensor's strides; sizes of 1 match either."""
    dims = len(sizes)
    found = [name for name, order in (("first", range(dims)), ("last", (0, *range(2, dims), 1)))
             if dense_in_order(sizes, strides, order)]
    return found[0] if len(found) == 1 else ("both" if found else "")


def plan_conv_layout(target: RewriteTarget) -> ConvLayoutPlan:
    launch = target.launches[0] if len(target.launches) == 1 else None
    if launch is None or launch.kernel != CONVOLUTION or not launch.config.get("returns"):
        raise ConvLayoutDeclined("not a library convolution that returns its result")
    slots = {arg.name: index for index, arg in enumerate(target.group_args or launch.args)}
    args = {arg.name: arg for arg in (target.group_args or launch.args)}
    if not {"input", "weight", "out"} <= slots.keys():
        raise ConvLayoutDeclined("the call's input, weight and result are not all tensors of the target")
    x, weight = args["input"], args["weight"]
    dims = len(x.sizes)
    if dims not in (4, 5) or len(weight.sizes) != dims:
        raise ConvLayoutDeclined(f"a {dims}-D input: channels-last formats exist for 4-D and 5-D tensors")
    if x.dtype not in FLOATS or weight.dtype != x.dtype:
        raise ConvLayoutDeclined(f"operands of {x.dtype} and {weight.dtype}: a float convolution is needed")
    formats = {_format(x.sizes, x.strides), _format(weight.sizes, weight.strides)}
    if "" in formats:
        raise ConvLayoutDeclined("an operand is neither contiguous nor channels-last")
    if formats == {"both"}:
        raise ConvLayoutDeclined("its operands are the same memory in both formats (one channel, or 1x1 images)")
    formats.discard("both")
    if len(formats) != 1:
        raise ConvLayoutDeclined("its input and weight are in different memory formats")
    kwargs = dict(launch.config.get("kwargs") or {})
    if set(kwargs) != set(ARGUMENTS):
        raise ConvLayoutDeclined(f"the call's arguments ({', '.join(sorted(kwargs))}) are not the convolution's "
                                 f"({', '.join(sorted(ARGUMENTS))})")
    plan_slots = {"input": slots["input"], "weight": slots["weight"], "bias": slots.get("bias"),
                  "out": slots["out"]}
    return ConvLayoutPlan(plan_slots, kwargs, dims, formats.pop() == "first")


def candidate_module(plan: ConvLayoutPlan) -> str:
    """A candidate-format module: `run(*args)` convolves the operands in the other format and writes the
    result into the `out` slot (whatever its layout)."""
    memory_format = ("torch.channels_last" if plan.dims == 4 else "torch.channels_last_3d") \
        if plan.to_channels_last else "torch.contiguous_format"
    arguments = ", ".join(f"{key}={_literal(plan.kwargs[key])}" for key in ARGUMENTS)
    bias = f"args[{plan.slots['bias']}]" if plan.slots.get("bias") is not None else "None"
    what = "channels-last" if plan.to_channels_last else "contiguous (channels-first)"
    return "\n".join([
        f"# conv-layout: the convolution on {what} operands",
        "import torch",
        "",
        "",
        "def run(*args):",
        f"    x = args[{plan.slots['input']}].contiguous(memory_format={memory_format})",
        f"    weight = args[{plan.slots['weight']}].contiguous(memory_format={memory_format})",
        f"    result = torch.ops.aten.convolution(x, weight, {bias}, {arguments})",
        f"    args[{plan.slots['out']}].copy_(result)",
        "",
    ])


def _literal(value) -> str:
    return repr(list(value)) if isinstance(value, (list, tuple)) else repr(value)


@dataclass
class ConvLayoutProposer:
    name: str = "conv-layout"
    summary: str = ("Run a library convolution with its operands in the other memory format (channels-last or "
                    "contiguous), the result copied into the original's layout")

    def propose(self, target: RewriteTarget, history: list[Attempt]) -> Iterable[Candidate]:
        try:
            plan = plan_conv_layout(target)
        except ConvLayoutDeclined:
            return
        what = "channels-last" if plan.to_channels_last else "contiguous"
        strategy = f"{self.name} {what} operands"
        if strategy in {a.candidate.strategy for a in history}:
            return
        yield Candidate(candidate_module(plan), self.name, strategy,
                        notes=f"the convolution on {what} copies of its input and weight; its result copied "
                              "into the layout the original returned")

    @staticmethod
    def declined(target: RewriteTarget) -> str:
        """Why a library convolution gets no candidate ('' for other targets, and where it gets one)."""
        launch = target.launches[0] if len(target.launches) == 1 else None
        if launch is None or launch.kernel != CONVOLUTION:
            return ""
        try:
            plan_conv_layout(target)
        except ConvLayoutDeclined as why:
            return str(why)
        return ""
