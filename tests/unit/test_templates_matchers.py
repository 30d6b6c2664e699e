"""The matchers of var_mean, cumsum, arg_reduce, and the torch 2.13 (non-finite guarded) forms of
row_softmax / row_kl_div, on real captures of both torch eras: what each binds, why it refuses a
form its template cannot cover, and the numeric equivalence of every rendered candidate with the
ORIGINAL kernel on fresh random inputs (TRITON_INTERPRET=1, shapes with masks: non-powers of two,
length 1).

Captures: tests/corpus/cuda-2.11-h200 (H200, torch 2.11), tests/corpus/cpu-2.13 (CPU, torch 2.13),
and tests/fixtures/cpu-2.13-templates (tiny models captured on the CPU where no zoo model has the
kernel: cumsum, argmax, var_mean, and the per-row KL, which the zoo's small size fuses away)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import torch

from test_templates_fixtures import DTYPES, load_fixture, make_tensors, run_candidate, run_original

from kernelopt.proposers.templates import TemplatesProposer
from kernelopt.templates.kernel_template import Refusal
from kernelopt.templates.template_registry import registry

TESTS = Path(__file__).resolve().parents[1]
H200 = TESTS / "corpus" / "cuda-2.11-h200"
CPU = TESTS / "corpus" / "cpu-2.13"
TINY = TESTS / "fixtures" / "cpu-2.13-templates"

GROUPNORM_211 = H200 / "groupnorm_silu" / "small.default" / "groupnorm_silu.default.0.py"
GROUPNORM_211_LARGE = H200 / "groupnorm_silu" / "large.default" / "groupnorm_silu.default.0.py"
GROUPNORM_213 = CPU / "groupnorm_silu" / "small.default" / "groupnorm_silu.default.0.py"
SOFTMAX_211 = H200 / "softmax" / "small.default" / "softmax.default.0.py"
SOFTMAX_213 = CPU / "softmax" / "small.default" / "softmax.default.0.py"
KL_211 = H200 / "kl_div" / "large.default" / "kl_div.default.0.py"
KL_213 = TINY / "kl_div_rows" / "kl_div_rows.default.0.py"
GPT2 = {"2.11": H200 / "gpt2" / "small.default" / "gpt2.default.0.py",
        "2.13": CPU / "gpt2" / "small.default" / "gpt2.default.0.py"}


def _single(path: Path, kernel_prefix: str, shrink: dict[int, int] | None = None):
    """(fixture, launch index, target, launch argument names) of the first launch of a kernel."""
    fixture = load_fixture(str(path), shrink=shrink)
    index = next(i for i, launch in enumerate(fixture.launches) if launch.kernel.startswith(kernel_prefix))
    target, names = fixture.target([index])
    return fixture, index, target, names


# ---------------------------------------------------------------------------------------------------
# What each matcher binds on real captures of both eras

# (template, capture, kernel, the match's fields as {field: value}, roles by launch variable)
MATCHES = [
    ("var_mean", GROUPNORM_211, "triton_per_fused_native_group_norm_0",        # GroupNorm's statistics: mean, m2
     {"n_rows": 16, "n_cols": 256, "correction": 255}, {"x": "arg2_1", "mean": "buf0", "var": "buf1"}),
    ("var_mean", GROUPNORM_211_LARGE, "triton_red_fused_native_group_norm_0",  # looped Welford
     {"n_rows": 512, "n_cols": 65536, "correction": 65535}, {"x": "arg2_1", "mean": "buf0", "var": "buf1"}),
    ("var_mean", GROUPNORM_213, "triton_per_fused_native_group_norm_0",        # the mean in an in_out buffer
     {"n_rows": 16, "n_cols": 256, "correction": 255}, {"x": "arg2_1", "mean": "buf1", "var": "buf2"}),
    ("var_mean", TINY / "var_mean_rows" / "var_mean_rows.default.0.py", "triton_per_fused_var_mean_0",
     {"n_rows": 6, "n_cols": 100, "correction": 1}, {"x": "arg0_1", "mean": "buf1", "var": "buf3"}),
    ("cumsum", TINY / "cumsum_rows" / "cumsum_rows.default.0.py", "triton_per_fused_cumsum_0",
     {"n_rows": 6, "n_cols": 100}, {"x": "arg0_1", "out": "buf0"}),
    ("arg_reduce", TINY / "argmax_rows" / "argmax_rows.default.0.py", "triton_per_fused_argmax_0",
     {"op": "argmax", "n_rows": 6, "n_cols": 100}, {"x": "arg0_1", "out": "buf0"}),
    ("row_softmax", SOFTMAX_211, "triton_per_fused__softmax",                  # persistent, 2.11
     {"n_rows": 8, "n_cols": 256, "scale": 1.0, "temperature_scale": 0.125}, {"x": "arg0_1", "out": "buf2"}),
    ("row_softmax", SOFTMAX_213, "triton_per_fused__softmax",                  # non-finite guard, x * 0.125
     {"n_rows": 8, "n_cols": 256, "scale": 1.0, "temperature_scale": 0.125}, {"x": "arg0_1", "out": "buf5"}),
    ("row_kl_div", KL_211, "triton_red_fused__log_softmax",
     {"n_rows": 4096, "n_cols": 32000, "scale": 1.0, "temperature_scale": 0.5},
     {"p_logits": "arg0_1", "q_logits": "arg1_1", "out": "buf4"}),
    ("row_kl_div", KL_213, "triton_red_fused__log_softmax",                    # non-finite guard, x / 2.0
     {"n_rows": 64, "n_cols": 3000, "scale": 1.0, "temperature_scale": 0.5},
     {"p_logits": "arg0_1", "q_logits": "arg1_1", "out": "buf11"}),
]


@pytest.mark.parametrize("template,path,kernel,fields,roles", MATCHES,
                         ids=[f"{m[0]}-{m[1].parts[-3]}-{m[1].parts[-4]}" for m in MATCHES])
def test_the_matcher_binds_what_the_kernel_computes(template, path, kernel, fields, roles):
    _, _, target, names = _single(path, kernel)
    match = registry()[template].match(target)
    assert match is not None and not isinstance(match, Refusal), match
    assert {field: getattr(match, field) for field in fields} == fields
    assert {role: names[pos] for role, pos in match.roles.items()} == roles
    offered = [c.strategy for c in TemplatesProposer().propose(target, [])]
    expected = [f"templates:{registry()[template].strategy(match, v)}" for v in registry()[template].variants(match)]
    assert [s for s in offered if s in expected] == expected


@pytest.mark.parametrize("era", sorted(GPT2))
def test_cumsum_refuses_gpt2s_integer_position_scan_and_says_why(era):
    """GPT-2's position ids are an int64 cumsum of a mask computed in the kernel: the template scans
    loaded float rows in fp32, so the matcher refuses, with the reason."""
    fixture = load_fixture(str(GPT2[era]))
    index = next(i for i, l in enumerate(fixture.launches) if "cumsum" in l.kernel)
    target, _ = fixture.target([index])
    refusal = registry()["cumsum"].match(target)
    assert isinstance(refusal, Refusal) and "i64 prefix sum" in refusal.reason
    proposer = TemplatesProposer()
    assert list(proposer.propose(target, [])) == []
    assert proposer.refusals[target.id] == [("cumsum", refusal.reason)]


def test_var_mean_refuses_a_variance_without_its_mean():
    _, _, target, _ = _single(TINY / "var_mean_rows" / "var_mean_rows.default.0.py", "triton_per_fused_var_mean_0")
    kernel = target.kernels[0]
    source = kernel.source.replace("tl.store(in_out_ptr0 + (x0), tmp6, xmask)", "")
    alone = replace(target, kernels=(replace(kernel, source=source),))
    refusal = registry()["var_mean"].match(alone)
    assert isinstance(refusal, Refusal) and "without the mean" in refusal.reason


# ---------------------------------------------------------------------------------------------------
# Numeric equivalence with the original kernel

def _check_candidates(fixture, index, target, names, tolerance, r0_block=64, prepare=None, compare=None, xblock=1):
    candidates = list(TemplatesProposer().propose(target, []))
    assert candidates
    values = make_tensors(fixture, seed=int(torch.randint(0, 2**31, ())))     # fresh inputs every run
    if prepare:
        prepare(values)
    outputs = [v for v, a in zip(fixture.launch_vars[index], target.launches[0].args) if a.written]
    reference = {k: v.clone() for k, v in values.items()}
    run_original(fixture, index, reference, xblock=xblock, r0_block=r0_block)
    for candidate in candidates:
        mine = {k: (v.clone() if not k.startswith("buf") else torch.full_like(v, float("nan"))
                    if v.is_floating_point() else torch.full_like(v, -7)) for k, v in values.items()}
        run_candidate(candidate.source, [mine[n] if isinstance(n, str) else n for n in names])
        for out in outputs:
            if compare:
                compare(mine[out], reference[out])
            else:
                torch.testing.assert_close(mine[out], reference[out], rtol=tolerance, atol=tolerance, equal_nan=True,
                                           msg=lambda m: f"{candidate.strategy} {out}: {m}")
        for name, value in values.items():            # inputs untouched
            if name.startswith("arg"):
                torch.testing.assert_close(mine[name], value, rtol=0, atol=0, equal_nan=True)


# the captured shape; a ragged row; length 1; a row past the captured block (the interpreter runs
# argmax's tl.reduce slowly: its captured shape is left out)
ROWS_SHRINKS = {"6x100": None, "6x37": {100: 37}, "1x1": {100: 1, 6: 1}, "3x129": {100: 129, 6: 3}}


@pytest.mark.parametrize("case,shape", [(case, shape) for case in ("var_mean", "cumsum", "argmax")
                                        for shape in ROWS_SHRINKS if (case, shape) != ("argmax", "6x100")])
def test_tiny_capture_candidates_match_the_original(case, shape):
    shrink = ROWS_SHRINKS[shape]
    path = {"var_mean": TINY / "var_mean_rows" / "var_mean_rows.default.0.py",
            "cumsum": TINY / "cumsum_rows" / "cumsum_rows.default.0.py",
            "argmax": TINY / "argmax_rows" / "argmax_rows.default.0.py"}[case]
    if shrink:
        shrink = dict(shrink)
        if shrink[100] > 128:
            shrink[128] = 256                        # the persistent kernel's R0_BLOCK must cover the row
        if case == "var_mean":
            shrink[99] = shrink[100] - 1             # the unbiased divisor N - 1 (0 for one element: NaN)
    fixture, index, target, names = _single(path, "triton_per_fused_", shrink=shrink)

    def ties_and_nan(values):
        x = values["arg0_1"]
        if x.shape[-1] > 4:
            x[0, 3] = x[0, 1] = x[0].max() + 1        # a tie: the first index wins
        if x.shape[0] > 2 and x.shape[-1] > 2:
            x[2, 2] = float("nan")                   # NaN is the extreme, as in torch

    _check_candidates(fixture, index, target, names, tolerance=2e-5 if case != "cumsum" else 1e-4,
                      prepare=ties_and_nan if case == "argmax" else None,
                      compare=(lambda a, b: torch.testing.assert_close(a, b, rtol=0, atol=0)) if case == "argmax" else None)


@pytest.mark.parametrize("path", [GROUPNORM_211, GROUPNORM_213], ids=["2.11", "2.13"])
def test_group_norm_statistics_candidates_match_the_original(path):
    fixture, index, target, names = _single(path, "triton_per_fused_native_group_norm_0")
    _check_candidates(fixture, index, target, names, tolerance=3e-5)


def test_group_norm_welford_statistics_candidates_match_the_original():
    """The looped (Welford) form, shrunk from [16, 512, 64, 64] to [2, 64, 3, 3]: 32 groups of 2 channels
    x 3x3 = 18 elements (the original has no r0 mask: Inductor saw 65536 % R0_BLOCK == 0, so it runs in
    chunks of 2; the candidates' blocks are ragged)."""
    shrink = {16: 2, 512: 64, 64: 3, 4096: 9, 65536: 18, 2097152: 576, 33554432: 1152}
    fixture, index, target, names = _single(GROUPNORM_211_LARGE, "triton_red_fused_native_group_norm_0", shrink)
    assert "r0_numel = 18" in target.kernels[0].source and "xnumel = 64" in target.kernels[0].source
    _check_candidates(fixture, index, target, names, tolerance=3e-5, r0_block=2, xblock=16)


@pytest.mark.parametrize("path", [SOFTMAX_211, SOFTMAX_213], ids=["2.11", "2.13"])
@pytest.mark.parametrize("kind", ["random", "non-finite"])
def test_softmax_candidates_match_the_original(path, kind):
    fixture, index, target, names = _single(path, "triton_per_fused__softmax")

    def poison(values):
        x = values["arg0_1"]
        x[1, 5] = float("inf")                       # a row holding inf: NaN in eager and in the original
        x[2, :] = float("-inf")                      # a row of -inf: NaN
        x[3, 7] = float("nan")
        x[4, 9] = float("-inf")                      # one -inf: that element is 0

    _check_candidates(fixture, index, target, names, tolerance=2e-2, prepare=poison if kind == "non-finite" else None)


@pytest.mark.parametrize("shrink", [{64: 3, 3000: 150}, {64: 3, 3000: 1}], ids=["3x150", "3x1"])
def test_kl_div_213_candidates_match_the_original(shrink):
    fixture, index, target, names = _single(KL_213, "triton_red_fused__log_softmax", shrink=shrink)
    _check_candidates(fixture, index, target, names, tolerance=2e-5)
