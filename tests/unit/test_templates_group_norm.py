"""The group_norm matcher on real captures of both torch eras: what it binds in each form Inductor writes
GroupNorm in (one fused kernel; statistics + normalise, 1D or 2D-tiled, torch 2.11; statistics +
per-channel scale/shift + normalise, torch 2.13), why it refuses the forms its template cannot cover,
and the numeric equivalence of every rendered candidate with the ORIGINAL kernels and with a float64
reference, on fresh random inputs (TRITON_INTERPRET=1; groups of 70 and 15 elements, one channel per
group, N = 1).

Captures: tests/corpus/cuda-2.11-h200 (H200, torch 2.11), tests/corpus/cpu-2.13 (CPU, torch 2.13),
tests/fixtures/cuda-2.11-general (H200) and tests/fixtures/cpu-2.13-templates (tiny CPU models)."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
import triton

from test_templates_fixtures import DTYPES, original_kernel, run_candidate

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.base import RewriteTarget
from kernelopt.proposers.templates import TemplatesProposer
from kernelopt.rewrite.targets import group_target, kernel_target
from kernelopt.templates.kernel_template import Refusal
from kernelopt.templates.kernels.group_norm import GroupNormMatch, match_group_norm

TESTS = Path(__file__).resolve().parents[1]
H200 = TESTS / "corpus" / "cuda-2.11-h200" / "groupnorm_silu"
CPU = TESTS / "corpus" / "cpu-2.13" / "groupnorm_silu"
GENERAL = TESTS / "fixtures" / "cuda-2.11-general"
TINY = TESTS / "fixtures" / "cpu-2.13-templates"


def _capture(path: Path, kernel: str | None = None) -> RewriteTarget:
    """The capture's detect-fusion group 0, or the target of one kernel, as agentic-rewrite builds them."""
    module = lift_file(str(path))
    ctx = PassContext()
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    if kernel is not None:
        return kernel_target(module, kernel)
    target, why = group_target(module, 0)
    assert target is not None, why
    return target


CASES = {   # id -> (capture, kernel for a kernel-scope target or None for group 0)
    "2.11-h200-2d": (H200 / "small.default" / "groupnorm_silu.default.0.py", None),
    "2.11-h200-autotune": (H200 / "small.max-autotune-no-cudagraphs" / "groupnorm_silu.max-autotune-no-cudagraphs.0.py",
                           None),
    "2.13-cpu-zoo": (CPU / "small.default" / "groupnorm_silu.default.0.py", None),
    "2.13-ragged-n1": (TINY / "group_norm_silu_ragged" / "group_norm_silu_ragged.default.0.py", None),
    "2.13-one-channel-per-group": (TINY / "group_norm_per_channel" / "group_norm_per_channel.default.0.py",
                                   "triton_per_fused_native_group_norm_0"),
    "2.11-instance-norm-welford": (GENERAL / "instance_norm_affine_many_rows" /
                                   "instance_norm_affine_many_rows.default.0.py",
                                   "triton_red_fused__native_batch_norm_legit_repeat_view_0"),
}
SILU = "(y / (tl.exp((-y)) + 1.0))"
# id -> (N, C, groups, group length, epilogue, roles by the original kernel's parameter (kernel.param))
BINDS = {
    "2.11-h200-2d": (2, 32, 8, 256, SILU, {
        "x": "0.in_ptr0", "mean": "0.out_ptr0", "m2": "0.out_ptr1", "out": "1.in_out_ptr0", "weight": "1.in_ptr3",
        "bias": "1.in_ptr4"}),
    "2.13-cpu-zoo": (2, 32, 8, 256, SILU, {
        "x": "0.in_ptr0", "mean": "0.in_out_ptr0", "m2": "0.out_ptr0", "weight": "1.in_ptr1", "bias": "1.in_ptr3",
        "scale": "1.out_ptr0", "shift": "1.out_ptr1", "out": "2.out_ptr0"}),
    "2.13-ragged-n1": (1, 6, 3, 70, SILU, {
        "x": "0.in_ptr0", "mean": "0.in_out_ptr0", "m2": "0.out_ptr0", "weight": "1.in_ptr1", "bias": "1.in_ptr3",
        "scale": "1.out_ptr0", "shift": "1.out_ptr1", "out": "2.out_ptr0"}),
    "2.13-one-channel-per-group": (3, 4, 4, 15, "", {"x": "0.in_ptr0", "weight": "0.in_ptr1", "bias": "0.in_ptr2",
                                                     "out": "0.out_ptr0"}),
    "2.11-instance-norm-welford": (64, 256, 256, 4096, "", {"x": "0.in_ptr0", "weight": "0.in_ptr1",
                                                             "bias": "0.in_ptr2", "out": "0.out_ptr2"}),
}


def _parameters(target: RewriteTarget) -> dict[int, str]:
    """Argument position of run(*args) -> "launch.parameter" of its first use."""
    if not target.group_args:
        return {i: f"0.{a.name}" for i, a in enumerate(target.launches[0].args)}
    named: dict[int, str] = {}
    for number, (launch, where) in enumerate(zip(target.launches, target.group_positions)):
        for arg, slot in zip(launch.args, where):
            named.setdefault(slot, f"{number}.{arg.name}")
    return named


@pytest.mark.parametrize("case", sorted(BINDS))
def test_the_matcher_binds_what_the_kernels_compute(case):
    target = _capture(*CASES[case])
    match = match_group_norm(target)
    assert isinstance(match, GroupNormMatch), match
    n, c, groups, group_len, epilogue, roles = BINDS[case]
    assert (match.n_batch, match.n_channels, match.groups, match.group_len, match.eps, match.epilogue) == \
        (n, c, groups, group_len, 1e-5, epilogue)
    names = _parameters(target)
    assert {role: names[pos] for role, pos in match.roles.items() if pos is not None} == roles
    strategies = [c.strategy for c in TemplatesProposer().propose(target, [])]
    assert any(s.startswith("templates:groupnorm") for s in strategies)


def test_the_max_autotune_capture_binds_like_the_default_one():
    default, autotune = (match_group_norm(_capture(*CASES[case])) for case in ("2.11-h200-2d", "2.11-h200-autotune"))
    assert default == autotune


def test_groups_too_long_for_registers_are_refused_with_the_reason():
    """The zoo's large GroupNorm (groups of 16 channels x 64 x 64 = 65536 elements, torch 2.11, Welford
    statistics) is the idiom, but the template keeps a whole group in registers."""
    target = _capture(H200 / "large.default" / "groupnorm_silu.default.0.py")
    refusal = match_group_norm(target)
    assert isinstance(refusal, Refusal) and "65536 elements" in refusal.reason
    proposer = TemplatesProposer()
    assert not [c for c in proposer.propose(target, []) if "groupnorm" in c.strategy]
    assert ("group_norm", refusal.reason) in proposer.refusals[target.id]


def test_an_epilogue_reading_more_than_the_normalised_value_is_refused():
    """GroupNorm(x) + x: the residual is a second read of x in the epilogue; the template's epilogue is
    elementwise in the normalised value only."""
    target = _capture(TINY / "group_norm_residual" / "group_norm_residual.default.0.py")
    refusal = match_group_norm(target)
    assert isinstance(refusal, Refusal) and "residual" in refusal.reason


def test_a_lone_kernel_of_a_split_group_norm_is_not_matched():
    """The statistics kernel alone is var_mean's idiom; the normalise kernel alone reads statistics it
    cannot recompute: neither is a GroupNorm."""
    path = CPU / "small.default" / "groupnorm_silu.default.0.py"
    for kernel in ("triton_per_fused_native_group_norm_0", "triton_poi_fused_native_group_norm_1",
                   "triton_poi_fused_native_group_norm_silu_2"):
        assert match_group_norm(_capture(path, kernel)) is None, kernel


# ---------------------------------------------------------------------------------------------------
# Numeric equivalence with the original kernels and a float64 reference

def _run_originals(target: RewriteTarget, values: list) -> None:
    """Each original launch of the target, in order, on the run(*args) values."""
    kernels = {k.name: k for k in target.kernels}
    positions = target.group_positions or (tuple(range(len(values))),)
    for launch, where in zip(target.launches, positions):
        kernel = kernels[launch.kernel]
        args = [values[slot] for slot in where]
        sizes = {a.name: a.value for a in launch.args if not a.is_tensor}
        meta = {"XBLOCK": 1 if "r0_numel" in sizes else 16}
        if kernel.signature.get("R0_BLOCK") == "constexpr":
            meta["R0_BLOCK"] = 16                     # several chunks per group in a looped kernel
        grid = (triton.cdiv(sizes["xnumel"], meta["XBLOCK"]),)
        if "ynumel" in sizes:
            meta["YBLOCK"] = 16
            grid = grid + (triton.cdiv(sizes["ynumel"], meta["YBLOCK"]),)
        original_kernel(kernel)[grid](*args, **meta)


def _fresh_values(target: RewriteTarget) -> list:
    """Random inputs (new every run), NaN-poisoned outputs, the launch's own scalars."""
    gen = torch.Generator().manual_seed(int(torch.randint(0, 2**31, ())))
    values = []
    for arg in target.group_args or target.launches[0].args:
        if not arg.is_tensor:
            values.append(arg.value)
            continue
        tensor = torch.empty_strided(arg.sizes, arg.strides, dtype=DTYPES[arg.dtype])
        if arg.written:
            tensor.fill_(float("nan"))
        else:
            tensor.copy_(torch.randn(arg.sizes, generator=gen) * 2 + 3)   # an offset: the centring matters
        values.append(tensor)
    return values


def _reference(match: GroupNormMatch, values: list) -> torch.Tensor:
    x = values[match.roles["x"]].double()
    weight, bias = (values[match.roles[r]].double() if match.roles[r] is not None else None for r in ("weight", "bias"))
    y = F.group_norm(x, match.groups, weight, bias, match.eps)
    assert match.epilogue in ("", SILU)
    return y * torch.sigmoid(y) if match.epilogue else y


@pytest.mark.parametrize("case", ["2.11-h200-2d", "2.13-cpu-zoo", "2.13-ragged-n1", "2.13-one-channel-per-group"])
def test_candidates_match_the_original_kernels_and_float64(case):
    target = _capture(*CASES[case])
    match = match_group_norm(target)
    candidates = [c for c in TemplatesProposer().propose(target, []) if "groupnorm" in c.strategy]
    assert candidates and isinstance(match, GroupNormMatch)
    values = _fresh_values(target)
    original = [v.clone() if isinstance(v, torch.Tensor) else v for v in values]
    _run_originals(target, original)
    expected = _reference(match, values)
    torch.testing.assert_close(original[match.roles["out"]].double(), expected, rtol=1e-5, atol=1e-5)
    written = [i for i, a in enumerate(target.group_args or target.launches[0].args) if a.written]
    for candidate in candidates:
        mine = [v.clone() if isinstance(v, torch.Tensor) else v for v in values]
        run_candidate(candidate.source, mine)
        for i in written:                  # the output and every intermediate the original group leaves
            torch.testing.assert_close(mine[i], original[i], rtol=2e-5, atol=2e-5,
                                       msg=lambda m: f"{candidate.strategy}, argument {i}: {m}")
        torch.testing.assert_close(mine[match.roles["out"]].double(), expected, rtol=1e-5, atol=1e-5)
        for i, value in enumerate(values):  # inputs untouched
            if i not in written and isinstance(value, torch.Tensor):
                assert torch.equal(mine[i], value)
