"""Inputs expanded from one row (stride 0, found by the tenth holdout pass).

`torch.randn(1, 90).expand(12, 90)` has strides (0, 1), and Inductor's module asserts them. Every copy KernelOPT
made of it was dense (strides (90, 1)): `kernelopt optimize` fell back to Inductor's module with "pass
'agentic-rewrite' failed on this input: AssertionError: expected size 12==12, stride 90==0", and once the copy
kept the stride the legality gate and the backend's input copies died on `copy_` into it ("more than one element
of the written-to tensor refers to a single memory location"), so torch.compile(backend="kernelopt") ran
Inductor's module.
"""
from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")

import torch  # noqa: E402

from kernelopt.backend.graph_inputs import Layout, forward_inputs  # noqa: E402
from kernelopt.legality import LaunchInputs, check_candidate  # noqa: E402
from kernelopt.rewrite.evaluate import load_candidate  # noqa: E402
from kernelopt.tensor_layout import layout_copy  # noqa: E402
from search_helpers import optimize_on_the_cpu  # noqa: E402

EXPANDED_BIAS_MODEL = '''
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, bias_rows):
        return torch.softmax(x + bias_rows, dim=-1)


def get_inputs():
    return [torch.randn(12, 90), torch.randn(1, 90).expand(12, 90)]


def get_init_inputs():
    return []
'''

ROW_BIAS_ADD = '''
import triton
import triton.language as tl


@triton.jit
def {name}(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    x0 = xindex % 90
    x1 = xindex // 90
    tmp0 = tl.load(in_ptr0 + xindex, xmask)
    tmp1 = tl.load(in_ptr1 + ({bias_row} + x0), xmask)   # the bias's strides are (0, 1)
    tl.store(out_ptr0 + xindex, tmp0 + tmp1, xmask)


def run(*args):
    {name}[(triton.cdiv(args[3], 64),)](*args, XBLOCK=64)
'''


def _expanded_row() -> torch.Tensor:
    return torch.randn(1, 90).expand(12, 90)


def test_a_copy_of_an_expanded_input_stays_expanded():
    expanded = _expanded_row()
    copied = layout_copy(expanded)
    assert copied.stride() == (0, 1) and torch.equal(copied, expanded)
    assert copied.data_ptr() != expanded.data_ptr()
    strided_rows = torch.randn(5, 1, 7)[:, :, ::2].expand(5, 4, 4)     # broadcast and strided at once
    assert layout_copy(strided_rows).stride() == (7, 0, 2) and torch.equal(layout_copy(strided_rows), strided_rows)


def test_the_gate_checks_a_kernel_reading_an_expanded_argument():
    launch = LaunchInputs((torch.randn(12, 90), _expanded_row(), torch.empty(12, 90), 1080))
    original_source = ROW_BIAS_ADD.format(name="row_bias_add", bias_row="0")
    original = load_candidate(original_source, "row_bias_add")
    right = ROW_BIAS_ADD.format(name="row_bias_add_same", bias_row="0 * x1")
    verdict = check_candidate(original, right, [launch], output_args=[2], timeout_floor_s=3.0)
    assert verdict.accepted, verdict
    wrong = ROW_BIAS_ADD.format(name="row_bias_add_wrong", bias_row="1")     # reads the row one element on
    verdict = check_candidate(original, wrong, [launch], output_args=[2], timeout_floor_s=3.0)
    assert not verdict.accepted


def test_the_backend_copies_an_expanded_graph_input_in_its_layout():
    expanded = _expanded_row()
    (copied,) = forward_inputs([expanded], [Layout((12, 90), (0, 1), torch.float32)])
    assert copied.stride() == (0, 1) and torch.equal(copied, expanded)


def test_optimize_searches_a_model_with_an_expanded_input(tmp_path):
    path = tmp_path / "expanded_bias.py"
    path.write_text(EXPANDED_BIAS_MODEL)
    proc = optimize_on_the_cpu(path, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "warning" not in proc.stderr, proc.stderr[-2000:]
    assert "1 rewrite(s) accepted" in proc.stderr, proc.stderr[-2000:]
