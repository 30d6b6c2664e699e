"""Real looped Inductor reduction kernels at small sizes, for tests of the schedule-transform proposers.

A kernel is taken from a captured output module (lifted into the IR, so its target is what the
agentic-rewrite pass would hand a proposer), its hard-coded sizes shrunk (`shrink_sizes`), and its launch
arguments shrunk with it. `run_original` launches the kernel's own code at a small R0_BLOCK, so its
r-loops really loop, as they do at full size on a GPU.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import re
from pathlib import Path

os.environ.setdefault("TRITON_INTERPRET", "1")
from kernelopt.runtime.interpret import install_cpu_triton_shims  # noqa: E402

install_cpu_triton_shims()

import torch  # noqa: E402

from kernelopt.inductor_source import shrink_sizes  # noqa: E402
from kernelopt.lift import lift_file  # noqa: E402
from kernelopt.proposers.base import Candidate, LaunchSpec, RewriteTarget  # noqa: E402
from kernelopt.proposers.candidate_source import LaunchConfig, candidate_source, grid_type_of  # noqa: E402
from kernelopt.proposers.copy_map import contiguous_strides  # noqa: E402
from kernelopt.rewrite.evaluate import load_candidate  # noqa: E402
from kernelopt.passes.base import PassContext  # noqa: E402
from kernelopt.passes.classify_dispatch import ClassifyDispatch  # noqa: E402
from kernelopt.passes.detect_fusion import DetectFusion  # noqa: E402
from kernelopt.rewrite.targets import group_target, kernel_target  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LOOPED_CPU = REPO / "tests" / "fixtures" / "looped-cpu-2.13"
H200_FIXTURES = REPO / "tests" / "fixtures" / "inductor-2.11-h200"
H200_CORPUS = REPO / "tests" / "corpus" / "cuda-2.11-h200"


@functools.lru_cache(maxsize=None)
def _lifted(path: str):
    return lift_file(path)


def looped_target(path: Path, kernel: str, sizes: dict[int, int]) -> RewriteTarget:
    """The kernel's rewrite target with every hard-coded size in `sizes` shrunk, in the kernel's source,
    its tensors' shapes and its scalar arguments alike (tensors stay contiguous)."""
    target = kernel_target(_lifted(str(path)), kernel)
    spec = target.kernels[0]
    spec = dataclasses.replace(spec, source=shrink_sizes(spec.source, sizes))
    launch = target.launches[0]
    args = []
    for arg in launch.args:
        if arg.is_tensor:
            shape = tuple(sizes.get(s, s) for s in arg.sizes)
            args.append(dataclasses.replace(arg, sizes=shape, strides=contiguous_strides(shape), storage_offset=0))
        else:
            args.append(dataclasses.replace(arg, value=sizes.get(arg.value, arg.value)))
    return dataclasses.replace(target, kernels=(spec,), launches=(LaunchSpec(launch.kernel, tuple(args), {}),))


def fusion_group_target(path, number: int = 0) -> RewriteTarget:
    """The target of detect-fusion's group `number` in the captured module at `path`."""
    module = lift_file(str(path))
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = group_target(module, number)
    assert target is not None, why
    return target


def edited_target(path: Path, kernel: str, sizes: dict[int, int] | None = None, edit=lambda source: source):
    """The kernel's rewrite target (shrunk by `sizes` when given), its source passed through `edit`: a test's
    way to show a proposer a form Inductor could write."""
    target = looped_target(path, kernel, sizes) if sizes else kernel_target(_lifted(str(path)), kernel)
    spec = target.kernels[0]
    return dataclasses.replace(target, kernels=(dataclasses.replace(spec, source=edit(spec.source)),))


def label_config(candidate: Candidate) -> dict[str, int]:
    """The launch configuration a transform's candidate names in its label (`... XBLOCK=1 R0_BLOCK=64 ...`)."""
    return {key: int(value) for key, value in re.findall(r"\b([A-Z0-9_]+|num_warps|num_stages)=(\d+)", candidate.strategy)}


def make_args(target: RewriteTarget, seed: int, int_high: int = 2) -> list:
    """Fresh random launch arguments: floats ~ N(0, 2^2) (outputs too: the kernel must overwrite them),
    integers in [0, int_high)."""
    generator = torch.Generator().manual_seed(seed)
    out = []
    for arg in target.launches[0].args:
        if not arg.is_tensor:
            out.append(arg.value)
            continue
        dtype = getattr(torch, arg.dtype)
        if dtype.is_floating_point:
            out.append((2 * torch.randn(arg.sizes, generator=generator, dtype=torch.float64)).to(dtype))
        else:
            out.append(torch.randint(0, int_high, arg.sizes, generator=generator).to(dtype))
    return out


def clone(args: list) -> list:
    return [a.clone() if isinstance(a, torch.Tensor) else a for a in args]


def written(target: RewriteTarget, args: list) -> dict[str, torch.Tensor]:
    return {spec.name: value for spec, value in zip(target.launches[0].args, args) if spec.written}


def original_kernel(target: RewriteTarget, r0_block: int = 16, xblock: int = 1, num_warps: int = 1):
    """The kernel's own code as a candidate-format `run(*args)`, at R0_BLOCK=r0_block (its r-loops take
    several steps)."""
    spec, launch = target.kernels[0], target.launches[0]
    source = candidate_source(spec.source, spec.name, [a.name for a in launch.args], spec.signature, "Grid1D",
                              LaunchConfig((("XBLOCK", xblock), ("R0_BLOCK", r0_block)), num_warps, 1))
    return load_candidate(source, "original")


def run_original(target: RewriteTarget, args: list, r0_block: int = 16, xblock: int = 1) -> dict[str, torch.Tensor]:
    """The kernel's own code at R0_BLOCK=r0_block; returns what it wrote."""
    original_kernel(target, r0_block, xblock)(*args)
    return written(target, args)


def run_candidate(candidate: Candidate, target: RewriteTarget, args: list) -> dict[str, torch.Tensor]:
    load_candidate(candidate.source, "row_candidate")(*args)
    return written(target, args)


def assert_as_accurate(got: torch.Tensor, original: torch.Tensor, reference: torch.Tensor, what: str,
                       factor: float = 2.0) -> None:
    """`got` is within the original's own distance from the float64 reference (`factor` times its largest, plus one
    unit of the dtype's rounding), elementwise over the tensor."""
    ref = reference.to(torch.float64)
    eps = torch.finfo(got.dtype).eps
    allowed = factor * (original.double() - ref).abs().max() + eps * (1 + ref.abs())
    error = (got.double() - ref).abs()
    worst = int(torch.argmax(error - allowed))
    assert bool((error <= allowed).all()), (
        f"{what}: error {error.flatten()[worst]:.3g} > allowed {allowed.flatten()[worst]:.3g} at flat index {worst}")


def group_args_with(target: RewriteTarget, x: torch.Tensor) -> list:
    """A fusion group's arguments: x where a slot has its shape, NaN everywhere the kernels must write."""
    args = []
    for arg in target.group_args:
        if not arg.is_tensor:
            args.append(arg.value)
        elif tuple(arg.sizes) == tuple(x.shape):
            args.append(x.clone() if not arg.written else torch.full_like(x, float("nan")))
        else:
            args.append(torch.full(arg.sizes, float("nan")))       # partials and outputs: the kernels write them
    return args


def run_group_original(target: RewriteTarget, args: list, r0_block: int = 1024) -> None:
    """Every launch of the group, its own code, at one fixed configuration each."""
    for spec, positions in zip(target.launches, target.group_positions):
        kernel = next(k for k in target.kernels if k.name == spec.kernel)
        blocks = (("XBLOCK", 1),) + ((("R0_BLOCK", r0_block),) if "R0_BLOCK" in kernel.signature else ())
        if kernel.kind == "pointwise":     # a 2-D tile where the kernel has one
            blocks = (("YBLOCK", 16), ("XBLOCK", 64)) if "YBLOCK" in kernel.signature else (("XBLOCK", 4096),)
        source = candidate_source(kernel.source, kernel.name, [a.name for a in spec.args], kernel.signature,
                                  grid_type_of(kernel), LaunchConfig(blocks, 1, 1))
        load_candidate(source, "group_original")(*[args[p] for p in positions])


def mangled_kernel_source(data, source: str, largest: int = 5000) -> str:
    """A kernel the analyses did not foresee, for the proposers' never-a-crash properties (Hypothesis `data`):
    one line of its body dropped, or one integer in it changed to another (up to `largest`)."""
    import re  # lazy: only the property tests mangle kernels

    from hypothesis import strategies as st  # lazy: only the property tests draw (a test dependency)

    head, body = source.split("@triton.jit", 1)
    lines = body.split("\n")
    if data.draw(st.booleans()):
        lines.pop(data.draw(st.integers(2, len(lines) - 1)))
    else:
        numbers = [(i, m) for i, line in enumerate(lines) for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", line)]
        i, match = data.draw(st.sampled_from(numbers))
        lines[i] = lines[i][:match.start()] + str(data.draw(st.integers(0, largest))) + lines[i][match.end():]
    return head + "@triton.jit" + "\n".join(lines)
