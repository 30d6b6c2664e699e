"""hardware_minmax: Inductor's compare-and-select max/min become the GPU's NaN-propagating instruction in
the block forms (row-on-chip, block-online). The rewrite itself on a small kernel, then the real H200
cross-entropy kernel's candidates on the CPU (Triton's interpreter) with rows that hold a NaN, an inf,
only -inf and signed zeros: the same outputs as the original kernel, NaN where it has NaN."""
from __future__ import annotations

import ast

import pytest
import torch

from kernelopt.proposers.block_online import BlockOnlineProposer
from kernelopt.proposers.hardware_minmax import NAN_MAX, NAN_MIN, with_hardware_minmax
from kernelopt.proposers.row_on_chip import RowOnChipProposer
from row_loop_helpers import REPO, clone, looped_target, make_args, run_candidate, run_original

KERNEL = '''
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers

@triton.jit
def kernel(in_ptr0, out_ptr0, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    tmp0 = tl.load(in_ptr0 + tl.arange(0, R0_BLOCK)[None, :])
    tmp1 = triton_helpers.max2(tmp0, 1)[:, None]
    tmp2 = triton_helpers.minimum(tmp0, tmp1)
    tmp3 = triton_helpers.maximum(tmp2, 0.0)
    tl.store(out_ptr0 + tl.arange(0, R0_BLOCK)[None, :], tmp3 + triton_helpers.min2(tmp0, 1)[:, None])

@triton.jit
def other(in_ptr0):
    tmp0 = triton_helpers.max2(tl.load(in_ptr0 + tl.arange(0, 4)[None, :]), 1)
'''


def test_the_named_kernels_calls_become_nan_propagating_instructions_defined_once():
    module = ast.parse(KERNEL)
    assert with_hardware_minmax(module, {"kernel"}) == 4
    text = ast.unparse(module)
    assert "tmp1 = tl.reduce(tmp0, 1, _ko_nanmax)[:, None]" in text
    assert "tmp2 = _ko_nanmin(tmp0, tmp1)" in text and "tmp3 = _ko_nanmax(tmp2, 0.0)" in text
    assert "tl.reduce(tmp0, 1, _ko_nanmin)" in text
    assert "triton_helpers.max2(tl.load" in text.split("def other")[1]          # a function not named: kept
    names = [n.name for n in module.body if isinstance(n, ast.FunctionDef)]
    assert names == [NAN_MAX, NAN_MIN, "kernel", "other"]                       # defined before their user
    assert "tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)" in text
    assert with_hardware_minmax(module, {"kernel"}) == 0                        # nothing left to rewrite ...
    assert [n.name for n in module.body if isinstance(n, ast.FunctionDef)] == names   # ... or to define again
    assert with_hardware_minmax(module, {"no_such_kernel"}) == 0 and len(module.body) == len(ast.parse(text).body)


GENERAL = REPO / "tests" / "fixtures" / "cuda-2.11-general"
CE = (GENERAL / "cross_entropy_label_smoothing_bf16" / "cross_entropy_label_smoothing_bf16.default.0.py",
      "triton_red_fused__log_softmax_prepare_softmax_online_sub_sum_0")


def _special_rows(x: torch.Tensor) -> torch.Tensor:
    """Row 0 holds a NaN, row 1 an inf, row 2 only -inf, row 3 zeros of both signs and negatives."""
    x = x.clone()
    x[0, 3] = float("nan")
    x[1, 5] = float("inf")
    x[2] = float("-inf")
    x[3] = -torch.rand(x.shape[1]).to(x.dtype)
    x[3, ::2] = 0.0
    x[3, 1::4] = -0.0
    return x


@pytest.mark.parametrize("proposer", [RowOnChipProposer(), BlockOnlineProposer()], ids=["row-on-chip", "block-online"])
def test_block_forms_keep_nan_inf_and_signed_zero_rows_as_the_original_has_them(proposer):
    """The H200 label-smoothed cross-entropy's online-softmax kernel (it stores each row's max, its sum of
    exponentials and its log-softmax sum), cut to 6 rows of 300 (a masked tail)."""
    target = looped_target(*CE, {4096: 6, 32000: 300})
    candidates = list(proposer.propose(target, []))
    assert candidates and all(NAN_MAX in c.source and "triton_helpers.max" not in c.source for c in candidates[:2])
    args = make_args(target, seed=3)
    args[0] = _special_rows(args[0])
    want = run_original(target, clone(args), r0_block=64)
    for candidate in candidates[:2]:
        got = run_candidate(candidate, target, clone(args))
        for name, value in want.items():
            assert torch.equal(got[name].isnan(), value.isnan()), f"{candidate.strategy} {name}: NaN rows differ"
            torch.testing.assert_close(got[name], value, equal_nan=True, rtol=1e-5, atol=1e-5,
                                       msg=f"{candidate.strategy} {name}")
        # the stored max: the same numbers, exactly
        torch.testing.assert_close(got["out_ptr0"], want["out_ptr0"], rtol=0, atol=0, equal_nan=True)
