"""The `fuse` and `epilogue` proposers on fresh CPU captures (Triton under the interpreter).

Captures run in a subprocess: the chain model turns Inductor's own fusion off through
`torch._inductor.config`, which must not leak into other tests.
"""
import os

os.environ.setdefault("TRITON_INTERPRET", "1")

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from fusion_helpers import grouped_module

from kernelopt.proposers.epilogue import EpilogueProposer
from kernelopt.proposers.fuse import FuseProposer, plan_fusion
from kernelopt.proposers.registry import make_proposer
from kernelopt.rewrite.evaluate import ModuleEvaluator, load_candidate
from kernelopt.rewrite.targets import epilogue_target, group_target

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "inductor-2.11-h200"

CHAIN = '''
"""Two pointwise kernels in a chain: Inductor's fusion is off, the intermediate is returned."""
import torch
from torch import nn
import torch._inductor.config as inductor_config

inductor_config.max_fusion_size = 1


class Model(nn.Module):
    def forward(self, x, y):
        a = torch.sin(x) * 2.0
        return a, {consumer}


def get_init_inputs():
    return []


def get_inputs():
    return [torch.randn(40, 33), torch.randn(40, 33)]
'''

LINEAR_ACT = '''
"""Linear then an activation: the GEMM stays extern_kernels.addmm, the activation a Triton kernel."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(32, 48)

    def forward(self, x):
        return {activation}(self.lin(x))


def get_init_inputs():
    return []


def get_inputs():
    return [torch.randn(16, 32)]
'''


def _capture(tmp: Path, name: str, text: str) -> Path:
    model = tmp / f"{name}.py"
    model.write_text(textwrap.dedent(text))
    out = tmp / f"{name}_capture"
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-m", "kernelopt.commands.capture", str(model), "--device", "cpu",
                           "-o", str(out)], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (module,) = out.glob(f"{name}.default.*.py")
    return module


_CAPTURES = {"chain": (CHAIN, {"consumer": "torch.cos(a) + y"}),
             "flipped": (CHAIN, {"consumer": "torch.cos(a.flip(0)) + y"}),
             "relu": (LINEAR_ACT, {"activation": "torch.relu"}),
             "gelu": (LINEAR_ACT, {"activation": "nn.functional.gelu"})}


@pytest.fixture(scope="module")
def captures(tmp_path_factory):
    """name -> capture path, each captured (~10 s) the first time a test asks for it."""
    tmp = tmp_path_factory.mktemp("fuse_epilogue")
    made: dict[str, Path] = {}

    class Lazy(dict):
        def __missing__(self, name):
            text, fields = _CAPTURES[name]
            made[name] = _capture(tmp, name, text.format(**fields))
            self[name] = made[name]
            return made[name]

    return Lazy()


# -- fuse ----------------------------------------------------------------------------------------

def test_fuse_candidates_for_a_pointwise_chain_pass_the_gate(captures):
    module = grouped_module(captures["chain"])
    target, why = group_target(module, 0)
    assert target is not None, why
    candidates = list(make_proposer("fuse").propose(target, []))
    labels = [c.strategy for c in candidates]
    assert labels and all(label.startswith("fuse 2 kernels ") for label in labels)
    assert any("forward" in label for label in labels) and any("forward" not in label for label in labels)
    evaluator = ModuleEvaluator(module.attrs["file"], None, device="cpu")
    barrier = next(c for c in candidates if "forward" not in c.strategy)
    forward = next(c for c in candidates if "forward" in c.strategy)
    for candidate in (barrier, forward):
        assert "tl.debug_barrier()" in candidate.source
        verdict = evaluator.evaluate(target, candidate)
        assert verdict.accepted, (candidate.strategy, verdict.reason)


def test_fuse_does_not_repeat_candidates_already_tried(captures):
    from kernelopt.proposers.base import Attempt

    module = grouped_module(captures["chain"])
    target, _ = group_target(module, 0)
    first = list(FuseProposer().propose(target, []))
    history = [Attempt(c, True, "ACCEPT", 1.1) for c in first]
    assert not {c.strategy for c in FuseProposer().propose(target, history)} & {c.strategy for c in first}


def test_fused_candidate_launches_separately_when_outputs_alias_inputs_unprovably(captures):
    module = grouped_module(captures["chain"])
    target, _ = group_target(module, 0)
    plan = plan_fusion(target)
    candidate = next(FuseProposer().propose(target, []))
    run = load_candidate(candidate.source, "alias")
    # the consumer's output overlaps the producer's input one element further on: fusing would let
    # a program overwrite x before a later program's producer part read it
    storage = torch.randn(1320 + 1)
    x, out = storage[:1320].view(40, 33), storage[1:].view(40, 33)
    a, y = torch.empty(40, 33), torch.randn(40, 33)
    x0 = x.clone()
    slots = {0: x, 1: a, 3: y, 4: out}
    args = [slots.get(i, 1320) for i in range(6)]
    assert plan.written == {1, 4}
    run(*args)
    want_a = torch.sin(x0) * 2.0
    torch.testing.assert_close(a, want_a)
    torch.testing.assert_close(out, torch.cos(want_a) + y)


def test_fuse_declines_a_consumer_reading_another_element(captures):
    module = grouped_module(captures["flipped"])
    target, why = group_target(module, 0)
    assert target is not None, why
    assert list(FuseProposer().propose(target, [])) == []
    assert "not at the program's own xindex" in FuseProposer.explain(target)


@pytest.mark.parametrize("fixture, reason", [("ce", "reduction kernel, not pointwise"), ("conv", "Grid2D")])
def test_fuse_declines_fixture_groups_it_cannot_prove(fixture, reason):
    module = grouped_module(FIXTURES / f"{fixture}.default.0.py")
    target, why = group_target(module, 0)
    assert target is not None, why
    assert list(FuseProposer().propose(target, [])) == []
    assert reason in FuseProposer.explain(target)


# -- epilogue ------------------------------------------------------------------------------------

def _epilogue_group(module) -> int:
    return next(op.attrs["fusion_group"] for op in module.body if op.attrs.get("fusion_kind") == "epilogue")


@pytest.mark.parametrize("name, activation", [("relu", "relu"), ("gelu", "gelu-erf")])
def test_epilogue_candidate_is_legal_on_cpu(captures, name, activation):
    module = grouped_module(captures[name])
    target, why = epilogue_target(module, _epilogue_group(module))
    assert target is not None, why
    assert [a.name for a in target.launches[0].args] == ["input", "mat1", "mat2", "alpha", "beta", "out"]
    assert target.group_positions[1][0] == target.group_positions[0][-1]  # the kernel works on `out` in place
    (candidate,) = make_proposer("epilogue").propose(target, [])
    assert activation in candidate.strategy and "torch._addmm_activation" in candidate.source
    evaluator = ModuleEvaluator(module.attrs["file"], None, device="cpu")
    verdict = evaluator.evaluate(target, candidate)
    assert verdict.accepted, verdict.reason


def test_epilogue_declines_where_the_vendor_gelu_differs():
    # an H200 capture: erf-GELU after addmm, but cuBLASLt's GELU epilogue is the tanh approximation
    module = grouped_module(FIXTURES / "mlp.default.0.py")
    target, why = epilogue_target(module, _epilogue_group(module))
    assert target is not None, why
    assert list(EpilogueProposer().propose(target, [])) == []
    assert "another GELU" in EpilogueProposer.explain(target)


def test_epilogue_maps_mm_bias_tanh_gelu_to_the_vendor_epilogue_on_gpu_captures():
    module = grouped_module(FIXTURES / "gpt2_2l.default.0.py")
    proposed = []
    for group in sorted({op.attrs["fusion_group"] for op in module.body if op.attrs.get("fusion_kind") == "epilogue"}):
        target, _ = epilogue_target(module, group)
        proposed += list(EpilogueProposer().propose(target, [])) if target else []
    assert proposed and all("mm+gelu-tanh" in c.strategy and "use_gelu=True" in c.source for c in proposed)


def test_epilogue_declines_a_two_input_product():
    module = grouped_module(FIXTURES / "rms_swiglu.default.0.py")
    target, why = epilogue_target(module, _epilogue_group(module))
    assert target is not None, why
    assert list(EpilogueProposer().propose(target, [])) == []


def test_a_committed_epilogue_keeps_the_gemm_operands_alive_until_it_runs():
    # H200 mlp capture: `addmm(...); del arg0_1; del arg1_1; del arg2_1; ...; gelu.run(buf1)`. The fused
    # replacement runs where the gelu ran, so the frees between the two must move after it (a GPU run
    # of the zoo failed IR verification here).
    from types import SimpleNamespace

    from kernelopt.ir.verifier import verify
    from kernelopt.passes.check_legality import CheckLegality

    module = grouped_module(FIXTURES / "mlp.default.0.py")
    group = _epilogue_group(module)
    target, why = epilogue_target(module, group)
    assert target is not None, why
    members = [op for op in module.body if op.attrs.get("fusion_group") == group]
    members[-1].attrs["rewrite"] = {
        "status": "proposed", "source": "def run(*args):\n    pass\n", "proposer": "epilogue", "strategy": "test",
        "group": group, "group_kind": "epilogue", "replaces": [op.symbol or op.callee for op in members],
        "group_positions": [list(p) for p in target.group_positions]}
    verdict = SimpleNamespace(line=lambda: "ACCEPT", cases_run=1, worst_rel_err=0.0)
    CheckLegality._commit(module, members[-1], verdict)
    errors = [d for d in verify(module) if d.severity == "error"]
    assert errors == [], [d.message for d in errors]
    launch = next(op for op in module.body if op.name == "ko.launch" and op.attrs.get("fusion_group") == group)
    freed_after = [op.args[0].value.name for op in module.body[module.body.index(launch) + 1:] if op.name == "ko.free"]
    assert {"arg0_1", "arg1_1", "arg2_1"} <= set(freed_after)
