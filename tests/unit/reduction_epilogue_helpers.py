"""Shared by the sum-through-gemm and sum-through-conv tests (helpers, not tests): a reduction-epilogue group's
target from a capture, its arguments, the reduction's own run, and comparisons of special values."""
from __future__ import annotations

import dataclasses

import torch

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.candidate_source import LaunchConfig, candidate_source, grid_type_of
from kernelopt.rewrite.evaluate import load_candidate
from kernelopt.rewrite.targets import fusion_target
from row_loop_helpers import assert_as_accurate


def reduction_epilogue_target(path, edit=None, kind="reduction-epilogue", **changes):
    """Fusion group 0 of the capture at `path` (a library op and the reduction reading its output; with `kind`
    "epilogue", the pointwise kernel reading it), the kernel's source edited by `edit`, other fields replaced by
    `changes`."""
    module = lift_file(str(path))
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = fusion_target(module, 0, kind)
    assert target is not None, why
    *front, reduction = target.kernels         # a group of three has a bias kernel in between
    if edit is not None:
        edited = edit(reduction.source)
        assert edited != reduction.source, "the edit changed nothing"
        reduction = dataclasses.replace(reduction, source=edited)
    return dataclasses.replace(target, kernels=(*front, reduction), **changes)


def library_roles(target) -> dict:
    """The library op's arguments (mat1, mat2, out, input, weight, bias, ...) as group slots."""
    return {a.name: s for a, s in zip(target.launches[0].args, target.group_positions[0])}


def random_args(target, seed: int) -> list:
    """Random inputs in their own layouts and dtypes, NaN in everything the group writes."""
    generator = torch.Generator().manual_seed(seed)
    args = []
    for arg in target.group_args:
        if not arg.is_tensor:
            args.append(arg.value)
            continue
        tensor = torch.empty_strided(arg.sizes, arg.strides, dtype=getattr(torch, arg.dtype))
        values = torch.full(arg.sizes, float("nan")) if arg.written else torch.randn(arg.sizes, generator=generator)
        tensor.copy_(values)
        args.append(tensor)
    return args


def copied(args: list) -> list:
    return [a.clone() if isinstance(a, torch.Tensor) else a for a in args]


def run_reduction(target, args: list) -> None:
    """The group's Triton launches after its library call, each its own code, one row per program (a pointwise
    kernel: 64 lanes per program, 64 x 16 where it tiles two dimensions): the reduction, or a bias kernel then the
    window kernel."""
    for launch, where in zip(target.launches[1:], target.group_positions[1:]):
        kernel = next(k for k in target.kernels if k.name == launch.kernel)
        blocks = (("XBLOCK", 64 if kernel.kind == "pointwise" else 1),) + \
            ((("R0_BLOCK", 1024),) if "R0_BLOCK" in kernel.signature else ()) + \
            ((("YBLOCK", 16),) if "YBLOCK" in kernel.signature else ())
        source = candidate_source(kernel.source, kernel.name, [a.name for a in launch.args], kernel.signature,
                                  grid_type_of(kernel), LaunchConfig(blocks, 1, 1))
        load_candidate(source, "reduction")(*[args[s] for s in where])


def results(target, args: list) -> list[torch.Tensor]:
    """What the group's last launch writes."""
    return [args[s] for a, s in zip(target.launches[-1].args, target.group_positions[-1]) if a.written]


def same_specials(got: torch.Tensor, want: torch.Tensor) -> bool:
    """NaN, +inf and -inf at the same places."""
    got, want = got.float(), want.float()
    return all(torch.equal(f(got), f(want)) for f in (torch.isnan, torch.isposinf, torch.isneginf))


def run_gemm_then_kernel(target, args: list) -> None:
    """A GEMM group's original: the GEMM (torch's, as the CPU module calls it), then the kernel's own code."""
    gemm = {a.name: args[s] for a, s in zip(target.launches[0].args, target.group_positions[0])}
    if "input" in gemm:
        torch.addmm(gemm["input"], gemm["mat1"], gemm["mat2"], alpha=gemm["alpha"], beta=gemm["beta"], out=gemm["out"])
    else:
        torch.mm(gemm["mat1"], gemm["mat2"], out=gemm["out"])
    run_reduction(target, args)


def conv_of(target, args: list, dtype=None) -> torch.Tensor:
    """A convolution group's library call, as torch computes it (in `dtype` where given: float64 for a reference)."""
    import torch.nn.functional as F  # lazy: only the convolution groups' tests need it

    roles = library_roles(target)
    kwargs = target.launches[0].config["kwargs"]
    x, w = args[roles["input"]], args[roles["weight"]]
    b = args[roles["bias"]] if "bias" in roles else None
    if dtype is not None:
        x, w, b = x.to(dtype), w.to(dtype), (None if b is None else b.to(dtype))
    if kwargs["transposed"]:
        conv = {3: F.conv_transpose1d, 4: F.conv_transpose2d, 5: F.conv_transpose3d}[x.dim()]
        return conv(x, w, b, stride=kwargs["stride"], padding=kwargs["padding"],
                    output_padding=kwargs["output_padding"], groups=kwargs["groups"], dilation=kwargs["dilation"])
    conv = {3: F.conv1d, 4: F.conv2d, 5: F.conv3d}[x.dim()]
    return conv(x, w, b, stride=kwargs["stride"], padding=kwargs["padding"], dilation=kwargs["dilation"],
                groups=kwargs["groups"])


def run_conv_then_kernel(target, args: list) -> None:
    """A convolution group's original: the convolution (torch's, as the CPU module calls it), then the kernel's own
    code."""
    args[library_roles(target)["out"]].copy_(conv_of(target, args))
    run_reduction(target, args)


def candidate_and_original(target, candidate, args: list, run_original) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """(the candidate's, the original's) results of the group on copies of `args`."""
    original, got = copied(args), copied(args)
    run_original(target, original)
    load_candidate(candidate.source, "candidate")(*got)
    return list(zip(results(target, got), results(target, original)))


def assert_as_accurate_as_the_original(target, candidate, args: list, run_original, reference: torch.Tensor,
                                       label: str, factor: float = 2.0) -> None:
    """Every result of the candidate at least as close to the float64 `reference` as the original's (row_loop_helpers'
    bound, `factor` times the original's largest error)."""
    for mine, theirs in candidate_and_original(target, candidate, args, run_original):
        assert_as_accurate(mine, theirs, reference.reshape(mine.shape), label, factor)


def assert_same_specials(target, candidate, args: list, run_original) -> None:
    """The candidate puts NaN, +inf and -inf where the original does, on a case that reaches them."""
    for mine, theirs in candidate_and_original(target, candidate, args, run_original):
        assert not theirs.isfinite().all(), "the case should reach the original's special values"
        assert same_specials(mine, theirs), (mine.flatten()[:8], theirs.flatten()[:8])


def assert_specials_land_alike(target, candidate, args: list, run_original, overflow: bool) -> None:
    """assert_same_specials; or, for a case whose elements `overflow`, the same finite places only: which of inf and
    NaN an overflowing element gives follows the library's own order of additions."""
    if not overflow:
        assert_same_specials(target, candidate, args, run_original)
        return
    for mine, theirs in candidate_and_original(target, candidate, args, run_original):
        assert not theirs.isfinite().all(), "the case should reach the original's special values"
        assert torch.equal(mine.isfinite(), theirs.isfinite()), (mine, theirs)


def assert_unread_columns_ignored(target, candidate, covered: int, column: int, reference) -> None:
    """A GEMM output whose last columns no window reads (from `covered` on): an infinity in the other operand's
    `column` (one of them) puts one in the original's y where nothing reads it, and the candidate's sums (over the
    first `covered` columns) leave it out too. `reference(args)`: the result in float64."""
    assert f"ko_j = {covered}" in candidate.source
    args = random_args(target, 3)
    args[library_roles(target)["mat2"]][3, column] = float("inf")
    assert_as_accurate_as_the_original(target, candidate, args, run_gemm_then_kernel, reference(args),
                                       "an infinity in a column no window reads")


def gemm_in_float64(target, args: list) -> torch.Tensor:
    """A GEMM group's output in float64 (exact products, no rounding of y), the bias added."""
    roles = library_roles(target)
    y = args[roles["mat1"]].double() @ args[roles["mat2"]].double()
    return y + args[roles["input"]].double() if "input" in roles else y
