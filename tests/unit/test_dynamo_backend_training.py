"""Training through `torch.compile(model, backend="kernelopt")` on the CPU (Triton's interpreter).

AOTAutograd hands Inductor a forward and a backward graph; both output modules go through KernelOPT's
pipeline on real inputs (backend/graph_inputs.py) and run in place of Inductor's, so `loss.backward()`
runs emitted modules. The reference is torch.compile with Inductor writing Triton kernels for the CPU
too (the modules KernelOPT starts from), and eager in float64. `proposers: []` keeps each compile to
the pipeline's cost (the search has its own tests); one test searches a backward with `retune`.
"""
from __future__ import annotations

import os

import copy
import logging
from pathlib import Path

import pytest
import torch

from functorch.compile import make_boxed_func

from kernelopt.backend.graph_inputs import (ForwardRun, Layout, Unrealistic, backward_inputs, forward_inputs,
                                            output_names, placeholder_names)
from kernelopt.capture.models import load_model
from kernelopt.runtime.interpret import install_cpu_triton_shims

# The backend's whole path on the CPU (cost_model "static"): Triton's interpreter runs the kernels.
pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="CPU path of the backend: needs TRITON_INTERPRET=1 (scripts/test.sh sets it)")

ZOO = Path(__file__).resolve().parents[1] / "zoo"
CPU = {"cost_model": "static", "proposers": []}
INDUCTOR_CPU_TRITON = {"cpu_backend": "triton", "compile_threads": 1}
STEPS = 3


@pytest.fixture(autouse=True)
def fresh_dynamo(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))
    install_cpu_triton_shims()     # the Inductor reference compiles Triton kernels for the CPU as well
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _loss(out: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    # a fixed random weighting: the tangent reaching the backward graph is not a constant
    return (out.float() * weight).sum() / out.numel()


def _train(model, inputs, weight, compile_kwargs: dict | None, steps: int = STEPS, copy_model: bool = True):
    """(losses of `steps` AdamW steps, gradients of the first step: parameters, then float inputs)."""
    model = copy.deepcopy(model) if copy_model else model
    inputs = [x.detach().clone().requires_grad_(x.is_floating_point()) for x in inputs]
    run = torch.compile(model, dynamic=False, **compile_kwargs) if compile_kwargs is not None else model
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2) if list(model.parameters()) else None
    losses, grads = [], None
    for _ in range(steps):
        loss = _loss(run(*inputs), weight)
        loss.backward()
        losses.append(loss.item())
        if grads is None:
            grads = [p.grad.clone() for p in model.parameters()] + [x.grad.clone() for x in inputs if x.requires_grad]
        if optimizer is not None:
            optimizer.step()
            optimizer.zero_grad()
        for x in inputs:
            x.grad = None
    return losses, grads


def _float64_grads(model, inputs, weight):
    model = copy.deepcopy(model).double()
    inputs = [x.double() if x.is_floating_point() else x for x in inputs]
    _, grads = _train(model, inputs, weight.double(), None, steps=1)
    return grads


# name -> optimizer steps (a transformer block's step takes 3 s under the interpreter: two are enough)
ZOO_STEPS = {"mlp": STEPS, "rmsnorm": STEPS, "softmax": STEPS, "ln_gelu": STEPS, "transformer_block": 2}


@pytest.mark.parametrize("name", list(ZOO_STEPS))
def test_training_runs_emitted_modules_both_ways_and_matches_inductor(name, caplog):
    model, inputs, _ = load_model(str(ZOO / f"{name}.py"), device="cpu", seed=0, size="small")
    model.train()
    with torch.no_grad():
        weight = torch.randn(model(*inputs).shape, generator=torch.Generator().manual_seed(1))
    with caplog.at_level(logging.INFO, logger="kernelopt.backend"):
        ours, our_grads = _train(model, inputs, weight, {"backend": "kernelopt", "options": CPU}, ZOO_STEPS[name])
    lines = [r.getMessage() for r in caplog.records if r.name == "kernelopt.backend"]
    for part in ("(forward)", "(backward)"):
        assert any(part in line and "running the emitted module" in line for line in lines), (part, lines)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("kernelopt")]

    torch._dynamo.reset()
    theirs, their_grads = _train(model, inputs, weight, {"backend": "inductor", "options": INDUCTOR_CPU_TRITON},
                                 ZOO_STEPS[name])
    exact = _float64_grads(model, inputs, weight)
    assert len(our_grads) == len(their_grads) == len(exact) > 0
    for i, (got, inductor, want) in enumerate(zip(our_grads, their_grads, exact)):
        scale = want.abs().max().item() or 1.0
        ours_off = (got.double() - want).abs().max().item() / scale
        inductor_off = (inductor.double() - want).abs().max().item() / scale
        # as accurate as Inductor's own gradient, against float64 (bf16 rounding at most on top)
        assert ours_off <= 2 * inductor_off + 1e-2, (name, i, ours_off, inductor_off)
        torch.testing.assert_close(got, inductor, rtol=2e-2, atol=1e-2 * scale)
    for step, (a, b) in enumerate(zip(ours, theirs)):
        assert abs(a - b) <= 1e-3 * abs(b), (name, step, ours, theirs)


class LinearCrossEntropyMaxPool(torch.nn.Module):
    """Saves integer tensors for its backward: the class targets and max-pool's argmax indices."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(6, 5)

    def forward(self, x, target):
        logits = self.linear(x)
        pooled = torch.nn.functional.max_pool1d(logits[None], 2)[0]
        return torch.nn.functional.cross_entropy(logits, target) + pooled.square().sum()


def _aot_graphs(model, inputs):
    """The forward and backward FX graphs AOTAutograd makes (each run as it is: no Inductor here)."""
    from torch._dynamo.backends.common import aot_autograd

    seen = {}

    def keep(kind):
        def compiler(gm, fakes):
            seen[kind] = (gm, [Layout.of(f) for f in fakes])
            return make_boxed_func(gm.forward)
        return compiler

    def backend(gm, example_inputs):
        seen["real"] = list(example_inputs)
        return aot_autograd(fw_compiler=keep("forward"), bw_compiler=keep("backward"))(gm, example_inputs)

    torch.compile(model, backend=backend, dynamic=False)(*inputs).backward()
    return seen


def test_backward_inputs_are_what_the_forward_saves_so_the_backward_gives_the_real_gradients():
    torch.manual_seed(0)
    model = LinearCrossEntropyMaxPool()
    x, target = torch.randn(7, 6), torch.randint(0, 5, (7,))
    seen = _aot_graphs(model, (x, target))
    forward_gm, forward_layouts = seen["forward"]
    backward_gm, backward_layouts = seen["backward"]
    run = ForwardRun(make_boxed_func(forward_gm.forward), seen["real"], forward_layouts, output_names(forward_gm))
    names = placeholder_names(backward_gm)
    args = backward_inputs(run, names, backward_layouts)

    integers = {n: a for n, a in zip(names, args) if not a.is_floating_point()}
    assert any(torch.equal(a, target) for a in integers.values())       # the real targets, not zeros
    assert len(integers) >= 2 and all(0 <= a.min() and a.max() < 7 for a in integers.values())
    tangent = args[names.index(next(n for n in names if n.startswith("tangents_")))]
    got = backward_gm(*args)
    model.zero_grad()
    loss = model(x, target)
    want = torch.autograd.grad(loss, list(model.parameters()), grad_outputs=tangent.reshape(loss.shape))
    got_tensors = [g for g in got if g is not None]
    assert len(got_tensors) == len(want)
    for g, w in zip(got_tensors, want):
        torch.testing.assert_close(g, w)


def test_inputs_that_cannot_be_made_real_are_refused_with_the_reason():
    layout = Layout((2, 3), (3, 1), torch.float32)
    with pytest.raises(Unrealistic, match="Dynamo gave 1 inputs and the graph takes 2"):
        forward_inputs([torch.zeros(2, 3)], [layout, layout])
    with pytest.raises(Unrealistic, match=r"input 0: the graph takes \(2, 3\) torch.float32, the real tensor is "
                                          r"\(3, 2\) torch.float32"):
        forward_inputs([torch.zeros(3, 2)], [layout])
    run = ForwardRun(lambda args: [args[0] * 2], [torch.ones(2, 3)], [layout], ["mul"])
    with pytest.raises(Unrealistic, match="backward input 'bwd_seed' is neither a tensor the forward saves"):
        backward_inputs(run, ["mul", "bwd_seed", "tangents_1"], [layout] * 3)
    made = backward_inputs(run, ["mul", "tangents_1"], [layout, Layout((2, 3), (1, 2), torch.float32)])
    assert torch.equal(made[0], torch.full((2, 3), 2.0)) and made[1].stride() == (1, 2)


class LinearBatchNorm(torch.nn.Module):
    """Training-mode BatchNorm: the forward graph mutates its running-statistics buffers in place."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(12, 10)
        self.norm = torch.nn.BatchNorm1d(10)

    def forward(self, x):
        return torch.relu(self.norm(self.linear(x)))


def test_buffer_mutation_stays_aotautograds_running_statistics_and_gradients_match_inductor(caplog):
    torch.manual_seed(0)
    model, x = LinearBatchNorm(), torch.randn(9, 12)
    weight = torch.randn(9, 10)
    with caplog.at_level(logging.INFO, logger="kernelopt.backend"):
        ours = copy.deepcopy(model)
        our_losses, our_grads = _train(ours, [x], weight, {"backend": "kernelopt", "options": CPU}, steps=2,
                                      copy_model=False)
    assert sum("running the emitted module" in r.getMessage() for r in caplog.records) == 2   # forward, backward
    torch._dynamo.reset()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="kernelopt.backend"):     # a warm start (on a copy): both cached
        _train(ours, [x], weight, {"backend": "kernelopt", "options": CPU}, steps=1)
    assert [("(forward)" in r.getMessage(), "cache hit" in r.getMessage()) for r in caplog.records
            if r.name == "kernelopt.backend"] == [(True, True), (False, True)]
    torch._dynamo.reset()
    theirs = copy.deepcopy(model)
    their_losses, their_grads = _train(theirs, [x], weight, {"backend": "inductor", "options": INDUCTOR_CPU_TRITON},
                                       steps=2, copy_model=False)
    for got, want in zip(our_grads, their_grads):
        torch.testing.assert_close(got, want)
    torch.testing.assert_close(our_losses, their_losses)
    assert int(ours.norm.num_batches_tracked) == int(theirs.norm.num_batches_tracked) == 2
    torch.testing.assert_close(ours.norm.running_mean, theirs.norm.running_mean)
    torch.testing.assert_close(ours.norm.running_var, theirs.norm.running_var)
