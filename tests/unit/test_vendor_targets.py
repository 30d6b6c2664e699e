"""Vendor targets: a library call that returns its result (a depthwise convolution) replaced on its own.

On the CPU capture of the zoo's depthwise_conv (Inductor's output module calls
`buf1 = extern_kernels.convolution(buf0, arg0_1, arg1_1, ..., groups=16)`, the bias positional), with the real legality
gate: the target's slots, a correct and a wrong replacement through the evaluator, and the commit
check-legality makes (the result allocated where the call was, the replacement launched into it).
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from kernelopt.ir.verifier import verify
from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.check_legality import CheckLegality
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.base import Candidate
from kernelopt.rewrite.evaluate import ModuleEvaluator
from kernelopt.rewrite.targets import vendor_ops, vendor_target

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "tests" / "corpus" / "cpu-2.13" / "depthwise_conv" / "small.default"
MODULE = FOLDER / "depthwise_conv.default.0.py"

TORCH_CONV = """import torch


def run(x, weight, bias, out):
    out.copy_(torch.nn.functional.conv2d(x, weight, bias, 1, 3, 1, {groups}))
"""


@pytest.fixture(autouse=True)
def interpreter(monkeypatch, tmp_path):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))


def analysed():
    module = lift_file(str(MODULE))
    ctx = PassContext()
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    return module


def inputs() -> list:
    return torch.load(FOLDER / "inputs.pt")["args"]


def test_a_convolution_becomes_a_target_with_its_tensors_and_a_result_slot():
    module = analysed()
    (conv,) = vendor_ops(module)
    target, why = vendor_target(module, conv)
    assert target is not None, why
    assert target.id == "vendor:0" and target.kernels[0].kind == "vendor"
    assert [a.name for a in target.group_args] == ["input", "weight", "bias", "out"]
    out = target.group_args[-1]
    assert out.written and out.sizes == (2, 16, 16, 16) and out.strides == (4096, 1, 256, 16)
    assert target.launches[0].config["kwargs"]["groups"] == 16
    assert target.launches[0].config["kwargs"]["padding"] == [3, 3]


def evaluate(source: str):
    module = analysed()
    target, _ = vendor_target(module, vendor_ops(module)[0])
    evaluator = ModuleEvaluator(str(MODULE), inputs(), device="cpu")
    return evaluator.evaluate(target, Candidate(source, "test", "test"))


def test_the_gate_accepts_an_equivalent_replacement():
    verdict = evaluate(TORCH_CONV.format(groups=16))
    assert verdict.accepted, verdict.reason


def test_the_gate_rejects_a_replacement_that_computes_another_convolution():
    wrong = TORCH_CONV.format(groups=16).replace("conv2d(x, weight,", "conv2d(x, weight.flip(-1),")   # a true convolution
    verdict = evaluate(wrong)
    assert not verdict.accepted and verdict.reason.startswith("mismatch"), verdict.reason


def test_the_gate_rejects_a_replacement_that_leaves_the_result_unwritten():
    verdict = evaluate("def run(x, weight, bias, out):\n    pass\n")
    assert not verdict.accepted, verdict.reason


def test_a_committed_replacement_allocates_the_result_where_the_call_was():
    module = analysed()
    (conv,) = vendor_ops(module)
    result_name = conv.result.name
    conv.attrs["rewrite"] = {"status": "proposed", "source": TORCH_CONV.format(groups=16), "proposer": "test",
                             "strategy": "torch conv", "replaces": [conv.callee]}
    CheckLegality._commit(module, conv, SimpleNamespace(line=lambda: "ACCEPT", cases_run=1, worst_rel_err=0.0))
    assert vendor_ops(module) == []
    errors = [d for d in verify(module) if d.severity == "error"]
    assert errors == [], [d.message for d in errors]
    alloc = next(op for op in module.body if op.name == "ko.alloc" and op.result.name == result_name)
    launch = module.body[module.body.index(alloc) + 1]
    assert launch.name == "ko.launch" and launch.attrs["rewrite_of"] == ["extern_kernels.convolution"]
    assert [a.value.name for a in launch.args][-1] == result_name
    assert module.kernel(launch.symbol).attrs["kind"] == "candidate"


def test_the_emitted_module_runs_the_replacement_and_matches_inductor(tmp_path):
    from kernelopt.passes.pass_manager import PassManager
    from kernelopt.passes.pipeline import parse_pipeline
    from kernelopt.runtime import run_module

    module = analysed()
    (conv,) = vendor_ops(module)
    marker = "# the replacement ran\n"
    conv.attrs["rewrite"] = {"status": "proposed", "source": TORCH_CONV.format(groups=16) + marker,
                             "proposer": "test", "strategy": "torch conv", "replaces": [conv.callee]}
    ctx = PassContext(options={"device": "cpu", "inputs": inputs()})
    PassManager(parse_pipeline("check-legality,emit-python")).run(module, ctx)
    assert ctx.statistics["check-legality"]["accepted"] == 1
    emitted = tmp_path / "depthwise_opt.py"
    emitted.write_text(ctx.artifacts["python"])
    text = emitted.read_text()
    assert marker in text and "extern_kernels.convolution(" not in text
    expected = torch.load(FOLDER / "outputs.pt")["outputs"]
    outputs = run_module(str(emitted), inputs(), "cpu")["outputs"]
    for got, want in zip(outputs, expected):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


def test_the_templates_proposer_replaces_the_depthwise_convolution_end_to_end(tmp_path):
    # the whole pipeline on the CPU: the search (static cost model: no GPU to time on) finds the
    # depthwise template legal, check-legality re-proves it, and the emitted module matches Inductor's
    from kernelopt.passes.pass_manager import PassManager
    from kernelopt.passes.pipeline import parse_pipeline
    from kernelopt.runtime import run_module

    module = lift_file(str(MODULE))
    ctx = PassContext(options={"device": "cpu", "inputs": inputs()})
    pipeline = ("classify-dispatch,detect-fusion,annotate-profile,"
                "agentic-rewrite{cost-model=static max-candidates=1 proposers=templates},check-legality,emit-python")
    PassManager(parse_pipeline(pipeline)).run(module, ctx)
    assert ctx.statistics["check-legality"]["accepted"] == 1
    launch = next(op for op in module.body if op.attrs.get("rewrite_of") == ["extern_kernels.convolution"])
    record = module.kernel(launch.symbol).attrs["rewrite"]
    assert record["strategy"].startswith("templates:depthwise-conv2d 7x7")
    emitted = tmp_path / "depthwise_opt.py"
    emitted.write_text(ctx.artifacts["python"])
    assert "ko_depthwise_conv2d" in emitted.read_text()
    expected = torch.load(FOLDER / "outputs.pt")["outputs"]
    outputs = run_module(str(emitted), inputs(), "cpu")["outputs"]
    for got, want in zip(outputs, expected):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
