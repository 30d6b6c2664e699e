"""Models Dynamo splits into several graphs (graph breaks), through `kernelopt.optimize` and `kernelopt optimize`.

`kernelopt.optimize` returns the model compiled through the Dynamo backend, every graph the example inputs reach
optimized before it returns; the job alone (the command) writes the first graph's module, in whose place
`kernelopt.load` runs the model itself. On the CPU the backend searches with the static cost model only
(Triton's interpreter runs the kernels).
"""
from __future__ import annotations

import json
import logging
import os
import warnings

import pytest
import torch

import kernelopt
from kernelopt.api import BackendOptimizedModule
from kernelopt.backend.cache import ModuleCache
from kernelopt.backend.dynamo import recorded_graphs
from kernelopt.optimize_job import OptimizeOptions, optimize_model
from test_dynamo_backend import fresh_dynamo  # noqa: F401 (autouse: a fresh Dynamo and cache folder per test)

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="the backend's CPU path: needs TRITON_INTERPRET=1 (scripts/test.sh sets it)")

STATIC = {"cost_model": "static", "proposers": []}    # the pipeline, no search: about a second a graph




class BrokenSoftmax(torch.nn.Module):
    """Two graphs: a scaled sigmoid, then (after the break) a softmax over rows of 129, a size that needs masks."""

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.randn(129))

    def forward(self, x):
        h = torch.sigmoid(x) * self.scale
        torch._dynamo.graph_break()
        return torch.softmax(h, dim=-1) + h


def test_every_graph_of_a_model_with_a_graph_break_is_optimized_through_the_backend(tmp_path, caplog):
    """kernelopt.optimize optimized the first of the two graphs only, and the module it returned ran the model
    itself (with a warning) on every call: no speed-up at all for a model with a graph break."""
    torch.manual_seed(0)
    model = BrokenSoftmax().eval()
    out = tmp_path / "broken_opt.py"         # a module an earlier run wrote there: this model has no single one
    out.write_text("# kernelopt-output\ndef call(args):\n    return ()\n")
    out.with_suffix(".json").write_text(json.dumps({"kernelopt_module": True, "graphs": 1}))
    with caplog.at_level(logging.INFO, logger="kernelopt.backend"):
        optimized = kernelopt.optimize(model, [torch.randn(7, 129)], output=str(out), cost_model="static",
                                       proposers=["retune"], max_candidates=2, report_dir=str(tmp_path / "report"))
    assert isinstance(optimized, BackendOptimizedModule)
    assert [(graph.emitted, graph.entry is not None) for graph in optimized.graphs] == [(True, True)] * 2
    assert sorted(entry.path for entry in ModuleCache().entries()) == sorted(optimized.modules)
    remark = [r for r in caplog.records if r.getMessage().startswith("kernelopt.optimize:")]
    assert len(remark) == 1 and remark[0].levelno == logging.WARNING     # `output` names a file it does not write
    assert remark[0].getMessage() == optimized.remark
    assert "the model compiles to 2 graphs (graph breaks)" in optimized.remark
    assert "optimized 2 of the 2 graph(s)" in optimized.remark and f"none is written to {out}" in optimized.remark
    assert not out.exists() and not out.with_suffix(".json").exists()
    report = (tmp_path / "report" / "report.md").read_text()
    assert "several_graphs" in report and "every graph is optimized through torch.compile" in report
    with recorded_graphs() as compiled_later, torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)       # the compiled graphs run: no fallback to the model
        for _ in range(3):
            fresh = torch.randn(7, 129)       # not the example: the modules compute the function, not a replay
            torch.testing.assert_close(optimized(fresh), model(fresh), rtol=1e-5, atol=1e-6)
    assert compiled_later == [], "a graph the example inputs reach was compiled again after optimize returned"


class PrintingDropout(torch.nn.Module):
    """A `print` breaks the graph; the dropout computes otherwise in training mode."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(40, 24)
        self.drop = torch.nn.Dropout(0.25)

    def forward(self, x, shift):
        h = self.drop(torch.relu(self.linear(x)))
        print("kernelopt test: between the graphs")
        return torch.tanh(h + shift)


def test_a_model_with_a_graph_break_keeps_its_mode_and_runs_itself_for_training_mode_or_autograd(tmp_path):
    torch.manual_seed(0)
    model = PrintingDropout()                # in training mode, as built
    x, shift = torch.randn(19, 40), torch.randn(24)
    optimized = kernelopt.optimize(model, [x, shift], **STATIC)
    assert model.training and model.drop.training, "optimize left the model in eval mode"
    assert "compiles to 2 graphs" in optimized.remark and "none is written" not in optimized.remark
    with pytest.warns(UserWarning, match=r"its graphs were optimized with the model in eval mode, and drop compute "
                                         r"otherwise in training mode.*running the original model instead"):
        assert optimized(x, shift).shape == (19, 24)
    model.eval()
    fresh = torch.randn(19, 40)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        torch.testing.assert_close(optimized(fresh, shift=shift), model(fresh, shift), rtol=1e-5, atol=1e-6)
    with pytest.warns(UserWarning, match=r"autograd is recording and `linear\.weight` requires grad: the optimized "
                                         r"graphs compute no gradients"):
        optimized(fresh, shift).sum().backward()
    assert model.linear.weight.grad is not None


ITEM_BREAK_FILE = '''
import torch


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(96, 80)

    def forward(self, x):
        h = torch.relu(self.linear(x)) + 0.25
        return torch.softmax(h / h.abs().amax().item(), dim=-1)


def get_inputs():
    return [torch.randn(21, 96)]


def get_init_inputs():
    return []
'''


def _item_scaled_class():
    """The problem file's Model: `.item()` breaks the graph, and the second graph reads the number it returns."""
    namespace: dict = {}
    exec(ITEM_BREAK_FILE, namespace)
    return namespace["Model"]


ItemScaled = _item_scaled_class()


def test_a_python_number_between_the_graphs_gives_the_models_outputs_on_fresh_inputs():
    torch.manual_seed(0)
    model = ItemScaled().eval()
    optimized = kernelopt.optimize(model, [torch.randn(21, 96)], **STATIC)
    assert "compiles to 2 graphs" in optimized.remark
    with torch.no_grad():
        for _ in range(2):      # the number differs from the example's: Dynamo compiles the second graph for it
            fresh = torch.randn(21, 96)
            torch.testing.assert_close(optimized(fresh), model(fresh), rtol=1e-5, atol=1e-6)





def test_the_command_writes_the_first_graphs_module_and_load_runs_the_model_in_its_place(tmp_path):
    """The written module computes the first graph only: loaded for a model with an `.item()` graph break it
    returned that graph's two outputs (the ReLU's [21, 80] and its max), not the model's softmax, silently."""
    problem = tmp_path / "item_break.py"
    problem.write_text(ITEM_BREAK_FILE)
    out = tmp_path / "break_opt.py"
    result = optimize_model(str(problem), str(out), OptimizeOptions(report_dir=str(tmp_path / "report")), stream=None)
    assert result.graphs == 2 and out.is_file()
    report = (tmp_path / "report" / "report.md").read_text()
    assert "2 graph(s): a graph break; only the first graph is optimized" in report
    torch.manual_seed(0)
    model = ItemScaled().eval()
    fresh = torch.randn(21, 96)
    with pytest.warns(UserWarning, match=r"the model compiles to 2 graphs \(a graph break\).*only the first"
                                         r".*running the original model instead"):
        got = kernelopt.load(str(out), model)(fresh)
    with torch.no_grad():
        torch.testing.assert_close(got, model(fresh))
