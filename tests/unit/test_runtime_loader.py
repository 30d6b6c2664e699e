"""load_output_module / run_module on a module Inductor wrote on this machine (Triton for CPU tensors).

The module is captured once per test session with `cpu_backend="triton"` and
`run_and_get_code`, written to a file, then loaded and run by our runtime (a fresh namespace,
kernels re-compiled for the interpreter), and compared with eager PyTorch on fresh inputs.
"""
from __future__ import annotations

import pytest
import torch

from kernelopt.errors import InputError
from kernelopt.runtime.interpret import install_cpu_triton_shims

install_cpu_triton_shims()

from kernelopt.runtime.execute import run_module  # noqa: E402
from kernelopt.runtime.loader import load_output_module  # noqa: E402

# Distinct shapes: the module's argument order is Inductor's, we find each input by its shape.
SHAPES = [(64, 32), (1, 64), (16, 32), (64,), (16,), (4, 2048)]
COUNTER = 4


def model(w, b, x, ln_w, counter, wide):
    h = torch.nn.functional.gelu(torch.nn.functional.layer_norm(x @ w.t() + b, (64,), ln_w))
    y = torch.tanh(h) + torch.rsqrt(h.abs() + 1) + torch.erf(h) + torch.log1p(h.abs())
    counter.add_(1.0)  # an input the module mutates in place
    var, mean = torch.var_mean(wide, dim=1)  # a looped (non-persistent) Welford reduction
    return y.softmax(-1), y.argmax(-1), var, mean, wide.amax(dim=1)


def fresh_inputs(seed: int) -> list[torch.Tensor]:
    """Model inputs, in the model's argument order."""
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, generator=gen) for shape in SHAPES]


def module_order(loaded_module) -> list[int]:
    """For each module argument, the index of the model input with its shape."""
    return [SHAPES.index(tuple(spec.sizes)) for spec in loaded_module.arg_specs]


def module_inputs(loaded_module, seed: int) -> list[torch.Tensor]:
    inputs = fresh_inputs(seed)
    return [inputs[i] for i in module_order(loaded_module)]


@pytest.fixture(scope="session")
def captured_module(tmp_path_factory) -> str:
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    torch._dynamo.reset()
    with inductor_config.patch(cpu_backend="triton"), torch.no_grad():
        _, sources = run_and_get_code(torch.compile(model), *fresh_inputs(0))
    torch._dynamo.reset()
    path = tmp_path_factory.mktemp("capture") / "cpu_triton_module.py"
    path.write_text(sources[0])
    return str(path)


@pytest.fixture(scope="session")
def loaded(captured_module):
    return load_output_module(captured_module, "cpu")


def test_module_matches_eager_on_fresh_inputs(loaded):
    assert sorted(module_order(loaded)) == list(range(len(SHAPES)))
    inputs = fresh_inputs(1234)
    expected_inputs = [t.clone() for t in inputs]
    outputs = loaded.call([inputs[i].clone() for i in module_order(loaded)])
    expected = model(*expected_inputs)
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected):
        assert got.shape == want.shape and got.dtype == want.dtype
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


def test_every_launch_goes_through_the_hook_with_its_real_arguments(loaded):
    seen = []

    def hook(kernel_name, launch_index, args, run_original):
        seen.append((kernel_name, launch_index, args))
        run_original()

    inputs = module_inputs(loaded, 7)
    counter = inputs[module_order(loaded).index(COUNTER)]
    loaded.launch_hook = hook
    try:
        loaded.call(list(inputs))
    finally:
        loaded.launch_hook = None
    assert [name for name, _, _ in seen] == [site.kernel_name for site in loaded.launch_sites]
    assert [index for _, index, _ in seen] == list(range(len(seen)))
    for name, _, args in seen:
        assert len(args) == len(loaded.kernels[name].arg_names)
    # the in-place add receives the caller's own counter tensor, not a copy
    assert any(any(a is counter for a in args) for _, _, args in seen)


def test_hook_can_substitute_a_launch(loaded):
    inputs = module_inputs(loaded, 8)
    counter = inputs[module_order(loaded).index(COUNTER)]

    def skip_mutation(kernel_name, launch_index, args, run_original):
        if not any(a is counter for a in args):
            run_original()

    before = counter.clone()
    loaded.launch_hook = skip_mutation
    try:
        loaded.call(list(inputs))
    finally:
        loaded.launch_hook = None
    assert torch.equal(counter, before)


def test_kernel_handle_reproduces_a_launch_alone(loaded):
    recorded = {}

    def clone_keeping_aliases(args):
        copies = {}  # an in-place kernel gets the same buffer twice (in_ptr0 and out_ptr0)
        return [copies.setdefault(id(a), a.clone()) if isinstance(a, torch.Tensor) else a for a in args]

    def record(kernel_name, launch_index, args, run_original):
        before = clone_keeping_aliases(args)
        run_original()
        after = clone_keeping_aliases(args)
        recorded.setdefault(kernel_name, (before, after))

    loaded.launch_hook = record
    try:
        loaded.call(module_inputs(loaded, 9))
    finally:
        loaded.launch_hook = None
    assert set(recorded) == set(loaded.kernels)
    for name, (before, after) in recorded.items():
        handle = loaded.kernels[name]
        assert handle.config_choice and handle.config is not None
        handle.run(*before)
        for got, want in zip(before, after):
            if isinstance(got, torch.Tensor):
                assert torch.equal(got, want) or torch.allclose(got, want, equal_nan=True)


def test_run_module_reports_outputs_and_in_place_mutation(captured_module, loaded):
    inputs = module_inputs(loaded, 10)
    where = module_order(loaded).index(COUNTER)
    counter_before = inputs[where].clone()
    result = run_module(captured_module, [t.clone() for t in inputs], "cpu")
    assert set(result["mutated"]) == {where}
    torch.testing.assert_close(result["mutated"][where], counter_before + 1.0)
    assert len(result["outputs"]) == 5


def test_input_validation_names_the_argument(captured_module, loaded):
    inputs = module_inputs(loaded, 11)
    with pytest.raises(InputError, match=r"expected 6 arguments"):
        run_module(captured_module, inputs[:5], "cpu")
    x_at = module_order(loaded).index(2)  # x: (16, 32)
    bad_shape = list(inputs)
    bad_shape[x_at] = torch.randn(16, 31)
    with pytest.raises(InputError, match=rf"argument {x_at} \(arg{x_at}_1\): expected shape \(16, 32\), got \(16, 31\)"):
        run_module(captured_module, bad_shape, "cpu")
    bad_dtype = list(inputs)
    bad_dtype[x_at] = inputs[x_at].double()
    with pytest.raises(InputError, match=rf"argument {x_at} \(arg{x_at}_1\): expected dtype torch.float32, got torch.float64"):
        run_module(captured_module, bad_dtype, "cpu")
    bad_stride = list(inputs)
    bad_stride[x_at] = torch.randn(32, 16).t()
    with pytest.raises(InputError, match=rf"argument {x_at} \(arg{x_at}_1\): expected stride \(32, 1\), got \(1, 16\)"):
        run_module(captured_module, bad_stride, "cpu")
    with pytest.raises(InputError, match="argument 3 .*expected a tensor"):
        run_module(captured_module, inputs[:3] + [1.0] + inputs[4:], "cpu")  # argument 3 is a tensor too


def test_missing_module_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_output_module(str(tmp_path / "absent.py"))


HELPER_MODULE = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _twice(x):
    return x * 2.0


@triton.jit
def double_kernel(in_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, _twice(tl.load(in_ptr + offs, mask=mask)), mask=mask)


def call(args):
    x, = args
    out = torch.empty_like(x)
    double_kernel[(triton.cdiv(x.numel(), 64),)](x, out, x.numel(), BLOCK=64)
    return (out,)
'''


@pytest.mark.parametrize("hooks", [True, False])
def test_a_kernel_calling_a_jit_helper_runs_and_only_launches_are_hooked(tmp_path, hooks):
    # Triton resolves `_twice` in the module's globals when it compiles double_kernel: the loader must
    # leave device helpers unwrapped (wrapping them broke candidates with helpers, seen on the H200).
    path = tmp_path / "helper_module.py"
    path.write_text(HELPER_MODULE)
    module = load_output_module(str(path), "cpu", hooks=hooks)
    seen = []
    module.launch_hook = lambda name, index, args, run: (seen.append(name), run())
    x = torch.randn(100)
    (out,) = module.call([x])
    torch.testing.assert_close(out, 2 * x)
    assert set(module.kernels) == {"_twice", "double_kernel"}
    assert seen == (["double_kernel"] if hooks else [])


def test_an_emitted_module_runs_its_own_helpers_vectorised_on_the_cpu(captured_module, tmp_path):
    # An emitted module defines its own `triton_helpers`; under the interpreter their @triton.jit
    # reductions ran one element at a time (an emitted softmax took 100x the original's time), so
    # the loader swaps in the same vectorised stand-ins it gives Inductor's helpers.
    from kernelopt.codegen import emit_python
    from kernelopt.lift import lift_file
    from kernelopt.runtime.fast_reductions import FAST_HELPERS

    emitted = tmp_path / "emitted.py"
    emitted.write_text(emit_python(lift_file(str(captured_module))))
    helpers = load_output_module(str(emitted), "cpu").namespace["triton_helpers"]
    used = [name for name in FAST_HELPERS if hasattr(helpers, name)]
    assert used and all(getattr(helpers, name) is FAST_HELPERS[name] for name in used)


# -- pinning Inductor's autotuner to the recorded configuration (the gate's original runs as the module does)
# Inductor's CachingAutotuner compiles for a GPU when it is made, so it cannot exist here: the stand-in has
# only what pin_config reads (real triton.Config objects; launchers carry the config they were built for).

def _autotuner_stand_in(configs, compiled: bool):
    import types
    launchers = [types.SimpleNamespace(config=c) for c in configs] if compiled else []
    return types.SimpleNamespace(configs=list(configs), launchers=launchers)


@pytest.mark.parametrize("compiled", [False, True])
def test_pin_config_keeps_only_the_recorded_configuration(compiled):
    import triton
    from kernelopt.runtime.loader import KernelHandle
    configs = [triton.Config({"R0_BLOCK": 1024}, num_warps=2, num_stages=1),
               triton.Config({"R0_BLOCK": 2048}, num_warps=16, num_stages=1),
               triton.Config({"R0_BLOCK": 2048}, num_warps=8, num_stages=1)]
    target = _autotuner_stand_in(configs, compiled)
    handle = KernelHandle("triton_spl_fused_cumsum_0", target, "cuda")
    assert handle.pin_config({"R0_BLOCK": 2048, "num_warps": 16, "num_stages": 1, "occurrence": 0})
    assert target.configs == [configs[1]]
    assert [launcher.config for launcher in target.launchers] == ([configs[1]] if compiled else [])


def test_pin_config_pins_the_launchers_of_a_precompiled_autotuner_whose_configs_are_emptied():
    """Inductor precompiles a kernel's launchers at load and then empties its `configs` (seen on an H100:
    configs [], two launchers). Pinning reads the launchers then; it had returned False for every such
    kernel, so the gate's original autotuned again in the evaluator's process, and nothing said so."""
    import triton
    from kernelopt.runtime.loader import KernelHandle
    configs = [triton.Config({"XBLOCK": 1024}, num_warps=4, num_stages=1),
               triton.Config({"XBLOCK": 512}, num_warps=8, num_stages=1)]
    target = _autotuner_stand_in(configs, compiled=True)
    target.configs = []
    handle = KernelHandle("triton_poi_fused_constant_pad_nd_slice_1", target, "cuda")
    assert handle.choices() == 2
    assert handle.pin_config({"XBLOCK": 512, "num_warps": 8, "num_stages": 1})
    assert [launcher.config for launcher in target.launchers] == [configs[1]] and handle.choices() == 1
    other = _autotuner_stand_in(configs, compiled=True)
    other.configs = []
    assert not KernelHandle("k", other, "cuda").pin_config({"XBLOCK": 256, "num_warps": 8, "num_stages": 1})
    assert len(other.launchers) == 2


def test_pin_config_leaves_the_autotuner_alone_when_nothing_matches_or_on_the_cpu():
    import triton
    from kernelopt.runtime.loader import KernelHandle
    configs = [triton.Config({"XBLOCK": 256}, num_warps=4, num_stages=1),
               triton.Config({"XBLOCK": 1024}, num_warps=4, num_stages=1)]
    target = _autotuner_stand_in(configs, compiled=True)
    assert not KernelHandle("k", target, "cuda").pin_config({"XBLOCK": 512, "num_warps": 4})
    assert not KernelHandle("k", target, "cuda").pin_config({"XBLOCK": 256, "num_warps": 8})
    assert not KernelHandle("k", target, "cpu").pin_config({"XBLOCK": 256, "num_warps": 4})
    assert target.configs == configs and len(target.launchers) == 2


def test_pin_config_refuses_an_autotuner_that_already_chose_another_and_cannot_compile_one():
    """Once run, Inductor's autotuner keeps only its pick: without a way to compile a launcher for the
    recorded configuration, pinning must say it cannot and leave the autotuner as it is."""
    import triton
    from kernelopt.runtime.loader import KernelHandle
    configs = [triton.Config({"R0_BLOCK": 1024}, num_warps=2, num_stages=1),
               triton.Config({"R0_BLOCK": 2048}, num_warps=16, num_stages=1)]
    target = _autotuner_stand_in(configs, compiled=True)
    target.launchers = target.launchers[1:]              # autotuned: R0_BLOCK=2048 won
    assert not KernelHandle("k", target, "cuda").pin_config({"R0_BLOCK": 1024, "num_warps": 2, "num_stages": 1})
    assert target.configs == configs and [launcher.config for launcher in target.launchers] == [configs[1]]


def test_recorded_configs_keeps_kernels_whose_launches_agree():
    from kernelopt.rewrite.evaluate import recorded_configs
    a, b = {"XBLOCK": 256, "num_warps": 4}, {"XBLOCK": 512, "num_warps": 4}
    pairs = [("k1", a), ("k1", a), ("k2", a), ("k2", b), ("k3", None), ("k4", b)]
    assert recorded_configs(pairs) == {"k1": a, "k4": b}


def test_only_the_captures_autotuner_choices_are_pinned():
    """A configuration the emitter picked from Inductor's heuristics (no capture manifest) is not what the
    module runs on a GPU (it autotunes): only `config_source = "capture"` launches are pinned."""
    import json
    from pathlib import Path

    from kernelopt.codegen.configs import apply_recorded_configs
    from kernelopt.lift import lift_file
    from kernelopt.rewrite.evaluate import capture_configs
    capture = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general" / "exclusive_cumsum"
    module = lift_file(str(capture / "exclusive_cumsum.default.0.py"))
    assert capture_configs(module) == {}
    apply_recorded_configs(module, json.loads((capture / "manifest.json").read_text()))
    assert capture_configs(module) == {
        "triton_spl_fused_cumsum_0": {"R0_BLOCK": 2048, "num_warps": 16, "num_stages": 1},
        "triton_poi_fused_constant_pad_nd_slice_1": {"XBLOCK": 1024, "num_warps": 4, "num_stages": 1}}


class _CompilingAutotuner:
    """What pin_config uses of Inductor's CachingAutotuner to compile a launcher for a configuration its list
    lacks (the API Inductor's own coordinate descent calls: `_precompile_config(cfg).make_launcher()`)."""

    def __init__(self, configs, fails=False):
        import threading
        import types
        self.configs, self.lock, self.fails, self.compiled = [], threading.Lock(), fails, []
        self.launchers = [types.SimpleNamespace(config=c) for c in configs]

    def _ensure_kernel_loaded(self):
        self.loaded = True           # Inductor drops the kernel's Python function after precompiling

    def _precompile_config(self, config):
        import types
        assert getattr(self, "loaded", False), "compiled before the kernel was loaded again"
        if self.fails:
            raise RuntimeError("out of resources")
        self.compiled.append(config)
        return types.SimpleNamespace(make_launcher=lambda: types.SimpleNamespace(config=config))


def test_pin_config_compiles_a_launcher_for_a_configuration_coordinate_descent_found():
    """Under max-autotune Inductor's coordinate descent tunes past the listed configurations (a split scan
    recorded R0_BLOCK=4096 with 16 warps, its list holding neither): the recorded one is compiled, and marked
    as coordinate descent's result so that the first run does not tune away from it."""
    import triton
    from kernelopt.runtime.loader import KernelHandle
    listed = [triton.Config({"R0_BLOCK": 8192}, num_warps=4, num_stages=1),
              triton.Config({"R0_BLOCK": 2048}, num_warps=16, num_stages=1)]
    target = _CompilingAutotuner(listed)
    handle = KernelHandle("triton_spl_fused_cumsum_0", target, "cuda")
    assert handle.pin_config({"R0_BLOCK": 4096, "num_warps": 16, "num_stages": 1, "grid": "unused"})
    [launcher] = target.launchers
    assert (launcher.config.kwargs, launcher.config.num_warps, launcher.config.num_stages) == ({"R0_BLOCK": 4096}, 16, 1)
    assert launcher.config.found_by_coordesc and handle.choices() == 1
    broken = _CompilingAutotuner(listed, fails=True)
    assert not KernelHandle("k", broken, "cuda").pin_config({"R0_BLOCK": 4096, "num_warps": 16, "num_stages": 1})
    assert len(broken.launchers) == 2


def test_a_listed_configuration_is_pinned_as_coordinate_descents_result():
    import triton
    from kernelopt.runtime.loader import KernelHandle
    listed = [triton.Config({"XBLOCK": 1024}, num_warps=4, num_stages=1),
              triton.Config({"XBLOCK": 512}, num_warps=8, num_stages=1)]
    target = _CompilingAutotuner(listed)
    assert KernelHandle("k", target, "cuda").pin_config({"XBLOCK": 512, "num_warps": 8, "num_stages": 1})
    assert target.compiled == [] and target.launchers[0].config is listed[1] and listed[1].found_by_coordesc


def test_a_release_without_ensure_kernel_loaded_gets_its_kernel_back_from_the_stashed_callback():
    """torch releases differ in how an autotuner reloads the function it dropped after precompiling: where
    `_ensure_kernel_loaded` is missing, the `_reload_kernel` callback Inductor stashes is what it calls."""
    import types
    from kernelopt.runtime.autotuner_pin import reload_kernel_function
    function = types.SimpleNamespace(fn=lambda: None)
    target = types.SimpleNamespace(fn=types.SimpleNamespace(fn=None), _reload_kernel=lambda: types.SimpleNamespace(fn=function))
    reload_kernel_function(target)
    assert target.fn is function
    loaded = types.SimpleNamespace(fn=function, _reload_kernel=lambda: 1 / 0)      # present: nothing is reloaded
    reload_kernel_function(loaded)
    assert loaded.fn is function
