"""A forward returning None and Python numbers beside its tensors (found by the tenth holdout pass).

`return y, None, 3, self.scale * 2.0, (y.sum(-1), None)`: the capture recorded no output structure for a result
with non-tensor leaves, so the module `kernelopt optimize` wrote (one rewrite accepted, exit 0, no word of it) and
the one `kernelopt.optimize` returned never ran: every call warned "the forward returns values that are not the
module's outputs (a NoneType); running the original model instead". Dynamo returns such values as the constants
they were at compile time; the loaded module now returns them in place, and a changed setting that made them
still runs the model.
"""
from __future__ import annotations

import os
import warnings

os.environ.setdefault("TRITON_INTERPRET", "1")

import torch  # noqa: E402
from torch import nn  # noqa: E402

import kernelopt  # noqa: E402
from kernelopt.capture.capture import output_structure  # noqa: E402


class ScaledReluWithConstants(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        y = torch.relu(x) * self.scale
        return y, None, 3, self.scale * 2.0, (y.sum(dim=-1), None)


def test_the_structure_records_none_and_numbers_as_constants_at_their_leaf_positions():
    result = (torch.ones(2), None, 3, 1.0, (torch.ones(1), "mean"))
    structure = output_structure(result)
    assert structure["spec"] is not None and "why" not in structure
    assert structure["constants"] == [[1, None], [2, 3], [3, 1.0], [5, "mean"]]
    assert output_structure((torch.ones(2), torch.float32))["spec"] is None   # a dtype is no constant it records


def test_the_optimized_module_runs_and_returns_the_constants_beside_its_tensors(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))
    torch.manual_seed(0)
    model = ScaledReluWithConstants(0.5).eval()
    fast = kernelopt.optimize(model, [torch.randn(7, 65)], output=str(tmp_path / "fast.py"),
                              cost_model="static", proposers="retune", max_candidates=1)
    x = torch.randn(7, 65)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error")     # the model running itself instead warns
        got = fast(x)
    want = model(x)
    assert (got[1], got[2], got[3], got[4][1]) == (None, 3, 1.0, None)
    torch.testing.assert_close(got[0], want[0])
    torch.testing.assert_close(got[4][0], want[4][0])
    model.scale = 0.7                     # the constant 1.0 was compiled for 0.5: the model runs itself
    with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert fast(x)[3] == 1.4
    assert any("`scale` is 0.7" in str(w.message) for w in caught)
