"""`kernelopt optimize` and the Python API on a machine without a GPU.

Without CUDA the command still captures (Inductor's Triton backend for CPU tensors), lifts, analyses
and emits, says which steps it skipped and why, and the result is a drop-in replacement for the
model: same outputs on fresh inputs, a fallback with a warning on other shapes.
"""
from __future__ import annotations

import gc
import json
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import pytest
import torch

import kernelopt
from kernelopt.errors import InputError

REPO = Path(__file__).resolve().parents[2]


class SmallMLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(32, 64)
        self.fc2 = torch.nn.Linear(64, 16)

    def forward(self, x):
        return self.fc2(torch.nn.functional.gelu(self.fc1(x))).softmax(-1)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))


def test_python_api_returns_a_drop_in_module_that_matches_the_model(tmp_path):
    torch.manual_seed(0)
    model = SmallMLP().eval()
    example = [torch.randn(8, 32)]
    optimized = kernelopt.optimize(model, example, output=str(tmp_path / "mlp_opt.py"))
    fresh = torch.randn(8, 32)  # not the example: the module must compute the function, not replay it
    with torch.no_grad():
        torch.testing.assert_close(optimized(fresh), model(fresh), rtol=1e-5, atol=1e-6)
    with pytest.warns(UserWarning, match="running the original model instead"):
        other = optimized(torch.randn(3, 32))
    assert other.shape == (3, 16)
    reloaded = kernelopt.load(str(tmp_path / "mlp_opt.py"), model)
    with torch.no_grad():
        torch.testing.assert_close(reloaded(fresh), model(fresh), rtol=1e-5, atol=1e-6)


class ConvBatchNorm(torch.nn.Module):
    """A KernelBench file's model as constructed: in training mode, where its batch norm uses the batch's
    statistics and updates its running ones."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 5, 3)
        self.bn = torch.nn.BatchNorm2d(5)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


def test_a_model_in_training_mode_with_a_batch_norm_runs_itself_not_the_eval_mode_module(tmp_path):
    """The capture runs the model in eval mode. Called in training mode, the optimized module gave the eval-mode
    batch norm's outputs (9.2 off on a [3, 5, 17, 19] batch) and left the running statistics untouched."""
    torch.manual_seed(0)
    model, twin = ConvBatchNorm(), ConvBatchNorm()
    twin.load_state_dict(model.state_dict())
    example = [torch.randn(2, 3, 11, 13)]
    optimized = kernelopt.optimize(model, example, output=str(tmp_path / "bn_opt.py"))
    assert model.training and model.bn.training, "optimize left the caller's model in eval mode"
    x = torch.randn(2, 3, 11, 13) * 3 + 1
    with pytest.warns(UserWarning, match=r"optimized with the model in eval mode, and bn compute otherwise in "
                                         r"training mode .* call model.eval\(\)"):
        got = optimized(x)
    torch.testing.assert_close(got, twin(x))
    torch.testing.assert_close(model.bn.running_mean, twin.bn.running_mean)
    model.eval(), twin.eval()
    with torch.no_grad():
        torch.testing.assert_close(optimized(x), twin(x), rtol=1e-5, atol=1e-5)
        assert optimized._fast is not None          # the next call skips most checks: not the mode's
        model.train(), twin.train()
        with pytest.warns(UserWarning, match="in training mode"):
            torch.testing.assert_close(optimized(x), twin(x))


class ScaledSquareError(torch.nn.Module):
    """A forward with a Python float argument: Dynamo compiles the value into the graph as a constant."""

    def forward(self, x, y, alpha: float):
        return ((alpha * x - y) ** 2).mean()


def test_a_python_number_other_than_the_optimized_one_runs_the_model(tmp_path):
    """The module computed with the float it was optimized for: called with alpha=2.0 it returned the
    result for 0.37 (1.13 where the model gives 4.95), silently."""
    torch.manual_seed(0)
    model = ScaledSquareError()
    x, y = torch.randn(17, 613), torch.randn(17, 613)
    optimized = kernelopt.optimize(model, [x, y, 0.37], output=str(tmp_path / "scaled_opt.py"))
    torch.testing.assert_close(optimized(x, y, 0.37), model(x, y, 0.37), rtol=1e-5, atol=1e-6)
    with pytest.warns(UserWarning, match=r"input 2 is 2\.0, optimized for 0\.37 .*running the original model"):
        got = optimized(x, y, 2.0)
    torch.testing.assert_close(got, model(x, y, 2.0))


class EluLeaky(torch.nn.Module):
    def __init__(self, alpha: float, negative_slope: float):
        super().__init__()
        self.elu = torch.nn.ELU(alpha=alpha)
        self.negative_slope = negative_slope

    def forward(self, x):
        return self.elu(x) + torch.nn.functional.leaky_relu(x, self.negative_slope)


def test_a_model_built_with_other_init_arguments_runs_itself(tmp_path):
    """Optimized for ELU(alpha=1.7) and a slope of 0.13, the module loaded for a model built with 2.0 and 0.5
    returned the 1.7 / 0.13 results (4.2 off the model), silently: init arguments are graph constants."""
    torch.manual_seed(0)
    x = torch.randn(19, 177) * 3
    optimized = kernelopt.optimize(EluLeaky(1.7, 0.13), [x], output=str(tmp_path / "elu_opt.py"))
    same = kernelopt.load(str(tmp_path / "elu_opt.py"), EluLeaky(1.7, 0.13))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)    # the same arguments: the optimized module runs
        torch.testing.assert_close(same(x), EluLeaky(1.7, 0.13)(x), rtol=1e-5, atol=1e-6)
    del optimized
    other = EluLeaky(1.7, 0.5)
    with pytest.warns(UserWarning, match=r"`negative_slope` is 0\.5, optimized for 0\.13 .*running the original model"):
        got = kernelopt.load(str(tmp_path / "elu_opt.py"), other)(x)
    torch.testing.assert_close(got, other(x))
    other = EluLeaky(2.0, 0.13)
    with pytest.warns(UserWarning, match=r"`elu\.alpha` is 2\.0, optimized for 1\.7"):
        got = kernelopt.load(str(tmp_path / "elu_opt.py"), other)(x)
    torch.testing.assert_close(got, other(x))


class TanhProduct(torch.nn.Module):
    def forward(self, a, b):
        return torch.tanh(a) * b


def test_an_input_in_another_memory_layout_runs_the_model_not_an_assertion(tmp_path):
    """Optimized for a transposed input, the module was called with a contiguous one of the same shape and
    raised `AssertionError: expected size 53==53, stride 41==1` from its call()."""
    torch.manual_seed(0)
    model = TanhProduct()
    a, b = torch.randn(41, 53).t(), torch.randn(53, 41)
    optimized = kernelopt.optimize(model, [a, b], output=str(tmp_path / "tanh_opt.py"))
    fresh = torch.randn(41, 53).t()
    torch.testing.assert_close(optimized(fresh, b), model(fresh, b), rtol=1e-5, atol=1e-6)
    contiguous = fresh.contiguous()
    with pytest.warns(UserWarning, match=r"input 0 has strides \(41, 1\), optimized for \(1, 53\)"):
        got = optimized(contiguous, b)
    torch.testing.assert_close(got, model(contiguous, b))


class RunningMean(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("running", torch.zeros(37))

    def forward(self, x):
        self.running.mul_(0.9).add_(x.mean(dim=0), alpha=0.1)
        return x - self.running


def test_optimize_leaves_the_callers_buffers_and_inputs_as_they_were(tmp_path):
    """The capture ran the forward twice (eager, then compiled) on the caller's model: its running mean came
    back updated twice (1.9x one update) before the optimized module was ever called."""
    torch.manual_seed(0)
    model, twin = RunningMean(), RunningMean()
    x = torch.randn(301, 37)
    optimized = kernelopt.optimize(model, [x], output=str(tmp_path / "running_opt.py"))
    assert torch.count_nonzero(model.running) == 0, "optimize updated the caller's buffer"
    with torch.no_grad():
        torch.testing.assert_close(optimized(x), twin(x), rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(model.running, twin.running, rtol=1e-5, atol=1e-7)


def test_a_call_that_autograd_records_runs_the_model_so_backward_reaches_the_parameters(tmp_path):
    """The module is an inference module: called with autograd on and parameters that require grad (a training
    step), it returned outputs with no grad_fn, and `loss.backward()` left the Linear's bias gradient None and
    its weight's zero, silently. Under no_grad the module runs, with no warning."""
    torch.manual_seed(0)
    model = SmallMLP()
    x = torch.randn(8, 32)
    optimized = kernelopt.optimize(model, [x], output=str(tmp_path / "mlp_opt.py"))
    twin = SmallMLP()
    twin.load_state_dict(model.state_dict())
    fresh = torch.randn(8, 32)
    weight = torch.randn(8, 16)
    for loaded in (optimized, kernelopt.load(str(tmp_path / "mlp_opt.py"), model)):
        model.zero_grad(), twin.zero_grad()
        with pytest.warns(UserWarning, match=r"autograd is recording and `fc1\.weight` requires grad: the optimized "
                                             r"module computes no gradients \(call it under torch\.no_grad\(\).*\); running the original model instead"):
            loss = (loaded(fresh) * weight).sum()
        loss.backward()
        (twin(fresh) * weight).sum().backward()
        for (name, got), want in zip(model.named_parameters(), twin.parameters()):
            assert got.grad is not None, name
            torch.testing.assert_close(got.grad, want.grad, msg=name)
    x_needs_grad = fresh.clone().requires_grad_()
    frozen = kernelopt.load(str(tmp_path / "mlp_opt.py"), model.requires_grad_(False))
    with pytest.warns(UserWarning, match=r"autograd is recording and input 0 requires grad"):
        frozen(x_needs_grad).sum().backward()
    assert x_needs_grad.grad is not None
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("error", UserWarning)    # inference: the optimized module runs
        torch.testing.assert_close(optimized(fresh), twin(fresh), rtol=1e-5, atol=1e-6)


class MaskedRowSum(torch.nn.Module):
    def forward(self, x, counts, keep):
        return torch.where(keep, x * counts.to(x.dtype), torch.zeros_like(x)).sum(dim=1)


def test_inputs_passed_by_keyword_reach_the_module_as_the_forward_names_them(tmp_path):
    """A drop-in for the forward takes its keyword arguments: `fast(x, counts, keep=mask)` raised `TypeError:
    OptimizedModule.__call__() got an unexpected keyword argument 'keep'`."""
    torch.manual_seed(0)
    model = MaskedRowSum()
    x, counts, keep = torch.randn(19, 211), torch.randint(-3, 4, (19, 211), dtype=torch.int32), torch.rand(19, 211) > 0.3
    optimized = kernelopt.optimize(model, [x, counts, keep], output=str(tmp_path / "masked_opt.py"))
    x, counts, keep = torch.randn(19, 211), torch.randint(-3, 4, (19, 211), dtype=torch.int32), torch.rand(19, 211) > 0.3
    want = model(x, counts, keep)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)     # the optimized module runs, whichever way they are passed
        for got in (optimized(x, counts, keep=keep), optimized(keep=keep, x=x, counts=counts)):
            torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    with pytest.raises(TypeError, match="mask"):        # the forward's own error for a call it does not take
        optimized(x, counts, mask=keep)


def test_a_parameter_or_layer_assigned_after_loading_is_the_one_the_module_reads(tmp_path):
    """The module read the tensors the model had when it was loaded: after `model.fc1.weight = Parameter(...)`
    (weights loaded by assignment) it returned the old weights' results (595 off on a Linear(200, 150)), and
    after `model.fc2 = Linear(...)` the old layer's, silently."""
    torch.manual_seed(0)
    model = SmallMLP().eval()
    x = torch.randn(8, 32)
    optimized = kernelopt.optimize(model, [x], output=str(tmp_path / "mlp_opt.py"))
    fresh = torch.randn(8, 32)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        model.fc1.weight = torch.nn.Parameter(torch.randn(64, 32))
        torch.testing.assert_close(optimized(fresh), model(fresh), rtol=1e-5, atol=1e-6)
        model.fc2 = torch.nn.Linear(64, 16)
        torch.testing.assert_close(optimized(fresh), model(fresh), rtol=1e-5, atol=1e-6)
        model.load_state_dict({name: torch.randn_like(value) for name, value in model.state_dict().items()})
        torch.testing.assert_close(optimized(fresh), model(fresh), rtol=1e-5, atol=1e-6)
    model.fc2.bias = torch.nn.Parameter(torch.randn(1))  # a tensor of another shape: the module cannot read it
    with torch.no_grad(), pytest.warns(UserWarning, match=r"the model's `fc2\.bias` is \(1,\) torch\.float32 "
                                                          r"with strides \(1,\), optimized for \(16,\)"):
        torch.testing.assert_close(optimized(fresh), model(fresh))


class ConvTanhPool(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return torch.nn.functional.avg_pool2d(torch.tanh(self.conv(x) - 0.3), 2)


def test_weights_moved_to_another_memory_layout_run_the_model_not_an_assertion(tmp_path):
    """After `model.to(memory_format=torch.channels_last)` (the conv weight's strides become (27, 1, 9, 3)) the
    loaded module raised `AssertionError: expected size 3==3, stride 1==9 at dim=1` from its call(); `.data`
    swaps are no assignment torch reports, so the layouts are checked at each call."""
    torch.manual_seed(0)
    model = ConvTanhPool().eval()
    x = torch.randn(2, 3, 18, 22)
    optimized = kernelopt.optimize(model, [x], output=str(tmp_path / "conv_opt.py"))
    fresh = torch.randn(2, 3, 18, 22)
    with torch.no_grad():
        model.to(memory_format=torch.channels_last)
        with pytest.warns(UserWarning, match=r"the model's `conv\.weight` is \(8, 3, 3, 3\) torch\.float32 with "
                                             r"strides \(27, 1, 9, 3\), optimized for .* strides \(27, 9, 3, 1\)"):
            got = optimized(fresh)
        torch.testing.assert_close(got, model(fresh))
        model.to(memory_format=torch.contiguous_format)
        model.conv.weight.data = torch.randn(8, 3, 3, 3)     # the same layout: the module runs, with the new values
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            torch.testing.assert_close(optimized(fresh), model(fresh), rtol=1e-5, atol=1e-5)


def test_calls_after_a_checked_one_still_see_every_change_to_the_model_and_inputs(tmp_path):
    """A call that passed the checks lets the next ones skip most of them (one C++ guard on the parameters' and
    inputs' layouts, arguments from a template): every change a check exists for must still be seen after it."""
    torch.manual_seed(0)
    model = ConvTanhPool().eval()
    x = torch.randn(2, 3, 18, 22)
    optimized = kernelopt.optimize(model, [x], output=str(tmp_path / "conv_opt.py"))

    def warm(fresh):
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            torch.testing.assert_close(optimized(fresh), model(fresh), rtol=1e-5, atol=1e-5)
        assert optimized._fast is not None

    fresh = torch.randn(2, 3, 18, 22)
    with torch.no_grad():
        warm(fresh)
        model.conv.weight.data = torch.randn(8, 3, 3, 3)      # new values, same layout: read as they are now
        warm(fresh)
        model.to(memory_format=torch.channels_last)           # a `.data` swap to another layout
        with pytest.warns(UserWarning, match=r"the model's `conv\.weight` is .* strides \(27, 1, 9, 3\)"):
            torch.testing.assert_close(optimized(fresh), model(fresh))
        model.to(memory_format=torch.contiguous_format)
        warm(fresh)
        with pytest.warns(UserWarning, match=r"input 0 is \(2, 3, 18, 23\)"):
            optimized(torch.randn(2, 3, 18, 23))
        warm(torch.randn(2, 3, 18, 22))
    with pytest.warns(UserWarning, match="autograd is recording"):    # grad mode on, the weights require grad
        optimized(fresh)


def test_an_init_value_changed_after_loading_runs_the_model(tmp_path):
    """The plain values were compared once, when the module was loaded: `model.negative_slope = 0.5` set
    afterwards left the module computing with 0.13 (6.4 off on a GEMM chain's divisor), silently."""
    torch.manual_seed(0)
    x = torch.randn(19, 177) * 3
    model = EluLeaky(1.7, 0.13)
    optimized = kernelopt.optimize(model, [x], output=str(tmp_path / "elu_opt.py"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        torch.testing.assert_close(optimized(x), model(x), rtol=1e-5, atol=1e-6)
    model.negative_slope = 0.5
    with pytest.warns(UserWarning, match=r"`negative_slope` is 0\.5, optimized for 0\.13"):
        torch.testing.assert_close(optimized(x), model(x))
    model.negative_slope = 0.13
    model.elu = torch.nn.ELU(alpha=2.0)                  # a layer replaced by one built with another value
    with pytest.warns(UserWarning, match=r"`elu\.alpha` is 2\.0, optimized for 1\.7"):
        torch.testing.assert_close(optimized(x), model(x))
    model.elu.alpha = 1.7                                # back to the optimized values: the module runs again
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        torch.testing.assert_close(optimized(x), model(x), rtol=1e-5, atol=1e-6)


class NamedOutputs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(16, 8)

    def forward(self, x):
        h = self.linear(x)
        return {"probs": h.softmax(-1), "pair": (torch.tanh(h), [h.sigmoid()])}


class TensorAndCount(torch.nn.Module):
    def forward(self, x):
        return x.sin(), 3


def test_the_module_returns_what_the_forward_returns_nested_or_not_a_flat_tuple(tmp_path):
    """A forward returning a dict with a nested tuple got a flat tuple of three tensors (`out["probs"]` raised
    TypeError: tuple indices must be integers); one returning `(x.sin(), 3)` got the bare tensor (then, until the
    tenth holdout pass, ran the model itself with a warning: the 3 is now returned as the constant it is)."""
    torch.manual_seed(0)
    model = NamedOutputs().eval()
    optimized = kernelopt.optimize(model, [torch.randn(5, 16)], output=str(tmp_path / "named_opt.py"))
    fresh = torch.randn(5, 16)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        for got in (optimized(fresh), kernelopt.load(str(tmp_path / "named_opt.py"), model)(fresh)):
            want = model(fresh)
            assert isinstance(got, dict) and list(got) == ["probs", "pair"]
            assert isinstance(got["pair"], tuple) and isinstance(got["pair"][1], list)
            torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)
    counted = kernelopt.optimize(TensorAndCount(), [torch.randn(5, 16)], output=str(tmp_path / "count_opt.py"))
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        got = counted(fresh)
    assert got[1] == 3
    torch.testing.assert_close(got[0], fresh.sin())


class ReluInPlaceViews(torch.nn.Module):
    """ReLU in place on the input, then the input and views of it beside a fresh tensor."""

    def __init__(self):
        super().__init__()
        self.relu = torch.nn.ReLU(inplace=True)

    def forward(self, x):
        x = self.relu(x)
        return x, x[:, :3], x.t(), x.amax(dim=1)


def _optimized_and_loaded(model, example_inputs: list, path) -> tuple:
    """kernelopt.optimize's result and kernelopt.load of the module it wrote: a fault must show in each."""
    torch.manual_seed(0)
    optimized = kernelopt.optimize(model, example_inputs, output=str(path))
    return optimized, kernelopt.load(str(path), model)


def test_views_of_an_input_updated_in_place_are_views_of_the_callers_tensor(tmp_path):
    """Eager's x[:, :3] and x.t() of an input updated in place are views of the caller's tensor (torch.compile's
    too); the module's were views of a buffer of its own holding the same values, so writing to the input (or to
    the first output, which is the input) after the call left them stale, and writing to them left the input."""
    model = ReluInPlaceViews().eval()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        for fast in _optimized_and_loaded(model, [torch.randn(7, 11)], tmp_path / "relu_opt.py"):
            storage = torch.randn(8, 11)
            fresh = storage[1:]                       # an input at a storage offset
            expected = model(fresh.clone())
            got = fast(fresh)
            torch.testing.assert_close(got, expected)
            assert got[0] is fresh
            for view in got[1:3]:
                assert view.untyped_storage().data_ptr() == fresh.untyped_storage().data_ptr()
            fresh.add_(1.0)
            torch.testing.assert_close(got[1], fresh[:, :3])
            torch.testing.assert_close(got[2], fresh.t())


class RunningViews(torch.nn.Module):
    """A buffer updated in place, returned as views."""

    def __init__(self):
        super().__init__()
        self.register_buffer("running", torch.zeros(7, 11))

    def forward(self, x):
        self.running.mul_(0.9).add_(x, alpha=0.1)
        return x * 2, self.running[:, :3], self.running.t()


def test_views_of_a_buffer_updated_in_place_are_views_of_the_models_buffer(tmp_path):
    """As for inputs: self.running[:, :3] of a buffer the forward updates was a view of the module's own copy."""
    model = RunningViews().eval()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        for fast in _optimized_and_loaded(model, [torch.randn(7, 11)], tmp_path / "run_opt.py"):
            got = fast(torch.randn(7, 11))
            for view in got[1:]:
                assert view.untyped_storage().data_ptr() == model.running.untyped_storage().data_ptr()
            model.running.zero_()
            torch.testing.assert_close(got[1], torch.zeros(7, 3))
            torch.testing.assert_close(got[2], torch.zeros(11, 7))


class WeightView(torch.nn.Module):
    """A product and a view of the parameter it multiplies by."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(11, 5))

    def forward(self, x):
        return x @ self.w, self.w[:2]


def test_a_view_of_a_parameter_is_the_parameters_own_view_without_grad_on_every_call(tmp_path):
    """call() takes the parameters as they are (not detached copies): the view of one it returns still shares the
    parameter's storage and carries no grad, as the forward's own view under no_grad, on the first (fully checked)
    call and on the ones after it."""
    model = WeightView().eval()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        for fast in _optimized_and_loaded(model, [torch.randn(7, 11)], tmp_path / "view_opt.py"):
            for _ in range(2):
                product, view = fast(torch.randn(7, 11))
                assert view.untyped_storage().data_ptr() == model.w.untyped_storage().data_ptr()
                assert not view.requires_grad
                torch.testing.assert_close(view, model.w[:2])


class TemperatureSoftmax(torch.nn.Module):
    def forward(self, x, temperature):
        return torch.softmax(x / temperature, dim=-1)


def test_a_number_where_a_tensor_was_optimized_runs_the_model_not_a_type_error(tmp_path):
    """Optimized with a 0-dim tensor temperature, called with the Python float 0.7 (which the forward takes):
    the module's call() raised `TypeError: expected Tensor()` instead of the documented fallback."""
    torch.manual_seed(0)
    model = TemperatureSoftmax().eval()
    optimized = kernelopt.optimize(model, [torch.randn(4, 9), torch.tensor(0.7)], output=str(tmp_path / "t_opt.py"))
    fresh = torch.randn(4, 9)
    with torch.no_grad():
        for fast in (optimized, kernelopt.load(str(tmp_path / "t_opt.py"), model)):
            with pytest.warns(UserWarning, match=r"input 1 is the float 0.7, optimized for a \(\) float32 tensor"):
                got = fast(fresh, 0.7)
            torch.testing.assert_close(got, model(fresh, 0.7))
            with warnings.catch_warnings():
                warnings.simplefilter("error", UserWarning)
                torch.testing.assert_close(fast(fresh, torch.tensor(1.3)), model(fresh, torch.tensor(1.3)))


class BrokenForward(torch.nn.Module):
    def forward(self, x):
        return x @ x      # [4, 9] @ [4, 9]: fails in eager


def test_optimize_without_output_leaves_no_folder_in_the_temp_dir(tmp_path, monkeypatch):
    """kernelopt.optimize(model, inputs) wrote its module to a kernelopt-* folder of its own in the temp dir and
    left it there for good (one per call), also when the job failed before writing anything."""
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    torch.manual_seed(0)
    model = TemperatureSoftmax().eval()
    optimized = kernelopt.optimize(model, [torch.randn(4, 9), torch.tensor(0.7)])
    assert Path(optimized.path).is_file()            # while the module is in use its file is there
    fresh = torch.randn(4, 9)
    with torch.no_grad():
        torch.testing.assert_close(optimized(fresh, torch.tensor(0.5)), model(fresh, torch.tensor(0.5)))
    del optimized
    gc.collect()
    with pytest.raises(InputError, match="fails in eager mode"):
        kernelopt.optimize(BrokenForward(), [torch.randn(4, 9)])
    assert sorted(path.name for path in temp.iterdir() if path.name.startswith("kernelopt-")) == []


def run_cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", *args], capture_output=True,
                          text=True, cwd=REPO, timeout=600)


def test_optimize_says_a_kernelbench_model_built_in_training_mode_ran_in_eval_mode(tmp_path):
    problem = tmp_path / "bn_problem.py"
    problem.write_text("import torch\nfrom torch import nn\n\n\nclass Model(nn.Module):\n"
                       "    def __init__(self):\n        super().__init__()\n        self.bn = nn.BatchNorm2d(4)\n\n"
                       "    def forward(self, x):\n        return self.bn(x)\n\n\n"
                       "def get_inputs():\n    return [torch.randn(2, 4, 5, 7)]\n\n\n"
                       "def get_init_inputs():\n    return []\n")
    done = run_cli(str(problem), "--device", "cpu", "-o", str(tmp_path / "bn_opt.py"), "--report", str(tmp_path / "r"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "built in training mode, ran in eval mode: bn compute otherwise in training mode" in done.stdout + done.stderr
    assert "ran in eval mode: bn" in (tmp_path / "r" / "report.md").read_text()


def test_a_time_limit_that_leaves_the_search_no_time_says_so(tmp_path):
    # --time-limit 20 on the CPU: capture took 7 s, 60 s are kept for the steps after the search, and the job
    # printed only "0 rewrite(s) accepted (0.5 s)".
    proc = run_cli("tests/zoo/softmax.py", "--cost-model", "static", "--time-limit", "5", "-o", str(tmp_path / "o.py"))
    assert proc.returncode == 0, proc.stderr
    assert "search: no time left for it within the job's 5 s target" in proc.stderr
    assert "give a larger --time-limit" in proc.stderr


def test_optimize_command_says_what_it_skipped_and_writes_module_and_report(tmp_path):
    out = tmp_path / "softmax_opt.py"
    proc = run_cli("tests/zoo/softmax.py", "-o", str(out), "--report", str(tmp_path / "report"))
    assert proc.returncode == 0, proc.stderr
    assert "no CUDA device: capturing the model's small size" in proc.stderr
    assert "agentic-rewrite proposes nothing, because no candidate can be timed" in proc.stderr
    assert "--cost-model static" in proc.stderr        # the README's CPU flag, which the user had not given
    assert "guard: skipped: timing the emitted module against the Inductor module needs a CUDA device" in proc.stderr
    assert out.exists() and json.loads(out.with_suffix(".json").read_text())["arguments"]
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    assert report["end_to_end_note"].startswith("not measured: end-to-end timing needs a CUDA device")
    assert {row["dispatch"] for row in report["kernels"]} >= {"triton.persistent_reduction"}
    # the job's temp folder is gone when the report is read: its disk use is told, not its path (issue 20)
    assert report["disk"]["folder"] is None and report["disk"]["removed"] is True, report["disk"]
    assert report["disk"]["peak_growth_bytes"] > 0
    markdown = (tmp_path / "report" / "report.md").read_text()
    assert "| capture | done |" in markdown and "## Kernels" in markdown
    assert ", removed at the end." in markdown
    assert "| guard | skipped |" in markdown
    assert (tmp_path / "report" / "report.png").stat().st_size > 1000


def test_an_existing_output_module_skips_capture(tmp_path):
    module = REPO / "tests" / "corpus" / "cpu-2.13" / "mlp" / "small.default" / "mlp.default.0.py"
    proc = run_cli(str(module), "-o", str(tmp_path / "o.py"))
    assert proc.returncode == 0, proc.stderr
    assert "capture: skipped: " in proc.stderr and "is already an Inductor output module" in proc.stderr
    assert "nothing to search" not in proc.stderr    # it launches Triton kernels


def test_a_module_with_symbolic_sizes_passes_through_unchanged(tmp_path):
    module = REPO / "tests" / "lit" / "lift" / "Inputs" / "dynamic-mm-softmax.cuda-2.11.py"
    proc = run_cli(str(module), "-o", str(tmp_path / "o.py"), "--report", str(tmp_path / "r"))
    assert proc.returncode == 0, proc.stderr
    assert "optimize: skipped: the module has symbolic sizes" in proc.stderr
    report = (tmp_path / "r" / "report.md").read_text()
    assert "| optimize | skipped | the module has symbolic sizes" in report


def test_a_module_of_aten_fallbacks_only_says_there_is_nothing_to_search(tmp_path):
    # AdaptiveAvgPool2d with uneven windows: Inductor calls aten._adaptive_avg_pool2d and launches no Triton
    # kernel; "0 launches, 0 kernels ... 0 rewrite(s) accepted" alone read like a search that found nothing
    problem = REPO / "benchmarks" / "holdout_problems" / "adaptive_avgpool2d.py"
    out = tmp_path / "o.py"
    proc = run_cli(str(problem), "-o", str(out), "--device", "cpu", "--cost-model", "static",
                   "--report", str(tmp_path / "r"))
    assert proc.returncode == 0, proc.stderr
    assert ("0 launches, 0 kernels: Inductor's module runs no Triton kernel, only ATen fallbacks "
            "(aten._adaptive_avg_pool2d)") in proc.stderr
    assert "nothing to search" in (tmp_path / "r" / "report.md").read_text()
    assert out.exists()


def test_bad_input_is_a_clear_error_not_a_traceback(tmp_path):
    proc = run_cli("no/such/model.py", "-o", str(tmp_path / "o.py"))
    assert proc.returncode == 1
    assert "no such file" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("tests/zoo/softmax.py", "-o", str(tmp_path / "o.py"), "--precision", "fast")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
    assert not (tmp_path / "o.py").exists()


def test_a_module_with_cpp_kernels_passes_through_unchanged_and_emit_says_why(tmp_path):
    module = REPO / "tests" / "lit" / "lift" / "Inputs" / "partitions-devcopy.cuda-2.11.py"
    proc = run_cli(str(module), "-o", str(tmp_path / "o.py"))
    assert proc.returncode == 0, proc.stderr
    assert "optimize: skipped: the module has C++ kernels (@cpp_fused" in proc.stderr
    assert (tmp_path / "o.py").read_text() == "# kernelopt-output\n" + module.read_text()   # the input, behind the -o marker line
    emit = subprocess.run([sys.executable, "-m", "kernelopt.opt", str(module), "-p", "emit-python"],
                          capture_output=True, text=True, cwd=REPO)
    assert emit.returncode == 1 and "is a C++ kernel (Inductor's CPU backend)" in emit.stderr
    assert "Traceback" not in emit.stderr


# -- --base best with two modes (GPU only: the timing below stands in for the H200's) ----------------
def _two_bases(monkeypatch, tmp_path, times: dict[str, float]):
    """Two captured modes whose modules the side-by-side timing reports at `times` (ms per call)."""
    from kernelopt import guard
    from kernelopt import optimize_job as optimize

    bases = [optimize.Base(mode, str(tmp_path / f"{mode}.py"), [torch.ones(2)], {"graphs": [{"module": "m.py"}]})
             for mode in times]

    def timed(first, second, inputs, rounds=5):
        mode_of = {b.module_path: b.mode for b in bases}
        return guard.GuardResult(times[mode_of[first]], times[mode_of[second]])

    monkeypatch.setattr(guard, "time_side_by_side", timed)
    return optimize, bases


@pytest.mark.parametrize("slower_ms,both", [(0.105, True), (0.2, False)])
def test_base_best_also_optimizes_the_slower_mode_when_it_is_close(monkeypatch, tmp_path, slower_ms, both):
    optimize, bases = _two_bases(monkeypatch, tmp_path, {"default": slower_ms, "max-autotune-no-cudagraphs": 0.1})
    steps = optimize.Steps(None)
    ordered = [b.mode for b in optimize._order_bases(bases, steps)]
    expected = ["max-autotune-no-cudagraphs", "default"]
    assert ordered == (expected if both else expected[:1])
    assert steps.records[-1].detail.startswith("default ")
    assert ("optimizing default too" in steps.records[-1].detail) is both


def test_base_best_writes_the_faster_of_the_two_optimized_results(monkeypatch, tmp_path):
    from kernelopt import guard

    from kernelopt import optimize_job as optimize

    def timed(first, second, inputs, rounds=5):   # the default result (second) is faster
        return guard.GuardResult(0.13, 0.10)

    monkeypatch.setattr(guard, "time_side_by_side", timed)
    outcomes = [optimize.Outcome(optimize.Base(mode, f"{mode}.py", [], {}), None, None, f"# {mode} result\n")
                for mode in ("max-autotune-no-cudagraphs", "default")]
    steps = optimize.Steps(None)
    chosen = optimize._choose_step(outcomes, tmp_path, steps)
    assert chosen.base.mode == "default"
    assert steps.records[-1].name == "choose" and "writing the default result" in steps.records[-1].detail
    assert (tmp_path / "final-default.py").read_text() == "# default result\n"


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_base_best_on_the_gpu_reports_each_modes_guard_and_the_choice(tmp_path):
    from kernelopt.optimize_job import OptimizeOptions, optimize_model

    options = OptimizeOptions(size="small", proposers=("retune",), gpu_seconds=5, max_candidates=2,
                              report_dir=str(tmp_path / "report"))
    result = optimize_model(str(REPO / "tests" / "zoo" / "mlp.py"), str(tmp_path / "mlp_opt.py"), options, stream=None)
    names = [s.name for s in result.steps]
    assert names[:3] == ["capture", "capture", "base"]
    if "optimizing" in result.steps[2].detail:          # both modes within 1.25x: both optimized, then chosen
        assert sum(1 for s in result.steps if s.name == "guard") == 2 and "choose" in names
    assert result.report["base_mode"] in ("default", "max-autotune-no-cudagraphs")


def test_a_long_capture_leaves_the_slower_mode_unoptimized():
    import io

    from kernelopt import job_clock, optimize_job as optimize
    bases = [optimize.Base(m, f"{m}.py", None, None) for m in ("max-autotune-no-cudagraphs", "default")]
    stream = io.StringIO()
    assert optimize._within_wall(bases, 60.0, optimize.Steps(stream)) == bases
    kept = optimize._within_wall(bases, job_clock.SECOND_BASE_WALL_S + 1, optimize.Steps(stream))
    assert [b.mode for b in kept] == ["max-autotune-no-cudagraphs"]
    assert "only max-autotune-no-cudagraphs is optimized" in stream.getvalue()


def test_kernelopt_optimize_stays_callable_once_the_job_module_is_imported():
    # The job lived in kernelopt/optimize.py: importing it (every call of the API does) replaced the
    # package's `optimize` function with the submodule, so a second kernelopt.optimize() call failed.
    from kernelopt.optimize_job import optimize_model  # noqa: F401

    assert callable(kernelopt.optimize) and callable(kernelopt.load)


def test_time_limit_ends_the_search_in_time_and_still_writes_module_and_report(tmp_path):
    """A job run under a harness's time limit is told it with --time-limit: the search stops at the target
    (a remark says so), and the module and the report are still written. A limit that is not a positive
    number is a usage error that names the option."""
    module = REPO / "tests" / "corpus" / "cpu-2.13" / "mlp" / "small.default" / "mlp.default.0.py"
    out = tmp_path / "o.py"
    proc = run_cli(str(module), "-o", str(out), "--report", str(tmp_path / "r"), "--cost-model", "static",
                   "--time-limit", "1")
    assert proc.returncode == 0, proc.stderr
    assert out.exists() and (tmp_path / "r" / "report.md").exists()
    # with the static cost model the search does run: the log must not say it proposes nothing
    assert "ranks candidates with the static cost model" in proc.stderr
    assert "proposes nothing" not in proc.stderr
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert any("wall-clock target was reached" in str(remark) for remark in report.get("remarks", [])), \
        report.get("remarks")
    bad = run_cli(str(module), "-o", str(tmp_path / "b.py"), "--time-limit", "0")
    assert bad.returncode == 2 and "--time-limit must be a positive number of seconds" in bad.stderr, bad.stderr
    assert "Traceback" not in bad.stderr and not (tmp_path / "b.py").exists()


def test_a_fallback_reason_names_the_innermost_cause():
    """Triton's CompilationError says only where (`at 23:11:` and the source); the reason a user reads in
    the log and the report must say what: the exception it was raised from."""
    from kernelopt.optimize_job import _one_line
    try:
        try:
            raise NameError("pack is not defined")
        except NameError as err:
            raise RuntimeError("at 23:11:\n    tmp6 = triton_helpers.exclusive_scan_decoupled_lookback(") from err
    except RuntimeError as outer:
        assert _one_line(outer) == "RuntimeError: at 23:11: (from NameError: pack is not defined)"
    assert _one_line(ValueError("plain\nsecond line")) == "ValueError: plain"
    try:
        try:
            raise KeyError("internal")
        except KeyError:
            raise RuntimeError("guard: could not time the emitted module") from None
    except RuntimeError as hidden:
        assert _one_line(hidden) == "RuntimeError: guard: could not time the emitted module"


def test_a_failure_after_the_search_keeps_its_findings_in_the_report(monkeypatch, tmp_path):
    """The graph-path check or the guard failing (the emitted module did not compile on the H100) falls
    back to Inductor's module for that base, but the report still shows what the pipeline found (its
    kernel table from the optimized IR), and the reason names the cause. (The failure is injected: the
    graph path and the guard run only on a GPU.)"""
    from kernelopt import optimize_job
    from kernelopt.optimize_job import OptimizeOptions, optimize_model

    def failing(*args, **kwargs):
        try:
            raise NameError("pack is not defined")
        except NameError as err:
            raise RuntimeError("at 23:11:\n    tmp6 = ...") from err
    monkeypatch.setattr(optimize_job, "_graph_path_step", failing)
    module = REPO / "tests" / "corpus" / "cpu-2.13" / "mlp" / "small.default" / "mlp.default.0.py"
    out = tmp_path / "o.py"
    # two retunes are search enough: what the report keeps comes from the IR, whatever the search tried
    options = OptimizeOptions(report_dir=str(tmp_path / "r"), cost_model="static", proposers=("retune",),
                              max_candidates=2)
    result = optimize_model(str(module), str(out), options, stream=None)
    assert result.status == "fallback" and "(from NameError: pack is not defined)" in result.reason, result.reason
    assert out.read_text().splitlines()[0].startswith("# kernelopt-output")
    assert "async_compile" in out.read_text()                           # Inductor's module, marked
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert report["status"] == "fallback"
    assert any(row.get("dispatch") for row in report["kernels"]), report["kernels"]   # the pipeline's IR


def test_the_time_kept_after_the_search_grows_with_the_model_and_leaves_a_short_limit_a_search():
    """Under `--time-limit 135` a job whose capture took 75 s on a 0.3 GB model must still search: the
    time kept for the checks, guard and report after the search scales with the model (25-30 s measured
    under 0.6 GB on an H200, about a minute at 7.5 GB), not a flat minute for every model."""
    from kernelopt.job_clock import search_reserve_s

    small, large = search_reserve_s(300 * 2**20), search_reserve_s(int(7.5 * 2**30))
    assert 25 <= small <= 35 and 55 <= large <= 65
    assert 135 - 75 - small >= 20
    assert search_reserve_s(None) >= large      # unknown size: as much as the largest measured
    sizes = [0, 2**20, 2**30, 2**33, 2**36]
    assert [search_reserve_s(b) for b in sizes] == sorted(search_reserve_s(b) for b in sizes)
