"""conv-layout: a library convolution runs on copies of its operands in the memory format the module did not
choose. Inductor leaves a 3-D convolution channels-first (the H100 capture's conv3d and a torch 2.13 CPU
capture), and makes 2-D ones channels-last (a transposed conv and a depthwise conv on the CPU): each gets the
other format. The candidate's result lands in the original's layout and matches a float64 convolution on
fresh inputs of odd sizes; the job keeps it only through the gate."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from kernelopt.ir.rewrite_record import vendor_ops
from kernelopt.lift import lift_file
from kernelopt.proposers.conv_layout import ConvLayoutProposer, plan_conv_layout
from kernelopt.rewrite.evaluate import load_candidate
from kernelopt.rewrite.targets import vendor_target

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CONV3D_H100 = FIXTURES / "cuda-2.11-general" / "conv3d_batch_norm_sum" / "conv3d_batch_norm_sum.default.0.py"
CONV3D_CPU = FIXTURES / "conv3d-cpu-2.13"
TRANSPOSED = FIXTURES / "conv-transpose-cpu-2.13" / "conv_transpose_bias_tanh_mean.py"


def _target(path: Path):
    module = lift_file(str(path))
    target, why = vendor_target(module, vendor_ops(module)[0])
    assert target is not None, why
    return target


def test_a_channels_first_3d_convolution_is_offered_channels_last_and_a_channels_last_one_contiguous():
    for path, memory_format in ((CONV3D_H100, "torch.channels_last_3d"),
                                (CONV3D_CPU / "conv3d_small.default.0.py", "torch.channels_last_3d"),
                                (TRANSPOSED, "torch.contiguous_format")):
        target = _target(path)
        candidates = list(ConvLayoutProposer().propose(target, []))
        assert len(candidates) == 1 and ConvLayoutProposer.declined(target) == "", path
        assert f"contiguous(memory_format={memory_format})" in candidates[0].source, path
        # asked again with its own candidate in the history: nothing new
        attempt = type("Attempt", (), {"candidate": candidates[0]})()
        assert list(ConvLayoutProposer().propose(target, [attempt])) == []


@pytest.mark.parametrize("edit, why", [
    (lambda a: dataclasses.replace(a, strides=(a.strides[0], 1, *a.strides[2:])) if a.name == "input" else a,
     "neither contiguous nor channels-last"),
    (lambda a: dataclasses.replace(a, dtype="int32") if a.name in ("input", "weight") else a,
     "a float convolution is needed"),
])
def test_operands_it_cannot_reformat_are_declined_with_the_reason(edit, why):
    target = _target(CONV3D_H100)
    target = dataclasses.replace(target, group_args=tuple(edit(a) for a in target.group_args))
    assert list(ConvLayoutProposer().propose(target, [])) == []
    assert why in ConvLayoutProposer.declined(target)


def _run(target, sizes_in: tuple, seed: int):
    """The candidate on fresh operands of `sizes_in` in the target's formats, into an `out` of the original
    convolution's layout; (candidate's out, float64 reference, the original's out)."""
    plan = plan_conv_layout(target)
    generator = torch.Generator().manual_seed(seed)
    args = {a.name: a for a in target.group_args}
    kwargs = {k: (tuple(v) if isinstance(v, list) else v) for k, v in target.launches[0].config["kwargs"].items()}
    channels_last = not plan.to_channels_last
    fmt = (torch.channels_last if plan.dims == 4 else torch.channels_last_3d) if channels_last \
        else torch.contiguous_format
    x = torch.randn(sizes_in, generator=generator).contiguous(memory_format=fmt)
    weight = torch.randn(args["weight"].sizes, generator=generator).contiguous(memory_format=fmt)
    bias = torch.randn(args["bias"].sizes, generator=generator) if "bias" in args else None
    original = torch.ops.aten.convolution(x, weight, bias, **kwargs)
    reference = torch.ops.aten.convolution(x.double(), weight.double(), None if bias is None else bias.double(),
                                           **kwargs)
    out = torch.full_like(original, 7.0)          # the original's sizes and strides, stale contents
    values = [None] * len(target.group_args)
    for name, slot in plan.slots.items():
        if slot is not None:
            values[slot] = {"input": x, "weight": weight, "bias": bias, "out": out}[name]
    load_candidate(next(iter(ConvLayoutProposer().propose(target, []))).source, "conv_layout")(*values)
    return out, reference, original


@pytest.mark.parametrize("path, sizes_in", [
    (CONV3D_H100, (3, 16, 5, 7, 6)),                                  # 3 x 5 x 4 outputs after the 3x3x3 filter
    (CONV3D_CPU / "conv3d_small.default.0.py", (1, 3, 3, 9, 4)),
    (TRANSPOSED, (3, 5, 7, 1)),                                       # a transposed conv, a width of 1
])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_candidate_writes_the_convolution_into_the_originals_layout(path, sizes_in, seed):
    target = _target(path)
    out, reference, original = _run(target, sizes_in, seed)
    assert out.stride() == original.stride()
    error = (out.double() - reference).abs().max()
    assert error <= 4 * (original.double() - reference).abs().max() + 1e-6, (error, path)


def test_optimize_runs_the_conv_layout_candidate_through_the_gate(tmp_path):
    """The whole job on the CPU capture's model (static cost model): the candidate is checked like any other
    and the module written runs; what the job keeps is the gate's and the cost model's call."""
    env = dict(os.environ, TRITON_INTERPRET="1", TMPDIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", str(CONV3D_CPU / "conv3d_small.py"),
                           "-o", "out.py", "--report", "rep", "--cost-model", "static", "--proposers", "conv-layout",
                           "--no-cache"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "vendor:0: candidate 1/24 conv-layout channels-last operands: ACCEPT" in done.stderr, done.stderr[-3000:]
    report = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert report["status"] in ("optimized", "fallback"), report.get("fallback_reason")
