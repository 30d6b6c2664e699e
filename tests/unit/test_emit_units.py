"""Units of the emitter: kernel stripping, helpers, grids (against Inductor's GridExpr), configs, CLI."""
from __future__ import annotations

import io
import json
import os
import subprocess
import tokenize
import sys
from pathlib import Path

import pytest

from kernelopt.codegen import emit_python
from kernelopt.codegen.configs import LaunchConfig, apply_recorded_configs, heuristic_configs
from kernelopt.codegen.grid import launch_grid
from kernelopt.codegen.helpers import HELPERS, helpers_source, used_helpers, with_dependencies
from kernelopt.codegen.plain_jit import standalone_kernel
from kernelopt.lift import lift_file

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "inductor-2.11-h200"
CORPUS = REPO / "tests" / "corpus"


@pytest.fixture(scope="module")
def ln_gelu():
    return lift_file(str(FIXTURES / "ln_gelu.default.0.py"))


def test_kernel_loses_heuristics_and_imports_but_keeps_body(ln_gelu):
    kernel = ln_gelu.kernels[0]
    code = standalone_kernel(kernel.symbol, kernel.attrs["source"])
    assert code.heuristic == "reduction"
    assert "triton_heuristics" not in code.text and "import" not in code.text and "set_driver" not in code.text
    assert code.text.startswith("@triton.jit\ndef " + kernel.symbol)
    body = kernel.attrs["source"].split("@triton.jit\n", 1)[1]
    assert body.strip() in code.text
    assert code.constexpr_params == ["XBLOCK", "R0_BLOCK"]


def test_helpers_come_with_their_dependencies_in_order():
    ordered = with_dependencies(["online_softmax_combine"])
    assert ordered.index("maximum") < ordered.index("online_softmax_combine")
    assert ordered.index("is_floating") < ordered.index("maximum")
    text = helpers_source(["max2"])
    compile(text, "<helpers>", "exec")
    assert "triton_helpers.max2 = " in text and "triton_helpers.maximum = " in text
    assert used_helpers(["triton_helpers.maximum(a, b)\ntriton_helpers.set_driver_to_gpu()"]) == ["maximum"]


def test_every_helper_used_by_the_fixtures_is_provided():
    from kernelopt.inductor_source import kernel_sources

    for path in FIXTURES.glob("*.py"):
        for name in used_helpers(list(kernel_sources(path.read_text()).values())):
            assert name in HELPERS, f"{path.name}: triton_helpers.{name}"


def test_grids_match_inductor_gridexpr():
    from torch._inductor.runtime.triton_heuristics import GridExpr

    for path in FIXTURES.glob("*.default.0.py"):
        module = lift_file(str(path))
        for launch in module.launches():
            kernel = module.kernel(launch.symbol)
            if kernel.attrs.get("kind") == "template":
                continue
            code = standalone_kernel(kernel.symbol, kernel.attrs["source"])
            from kernelopt.codegen.grid import bind_launch, inductor_meta

            for config in heuristic_configs(kernel):
                ours = launch_grid(kernel, launch, config, code.params)
                bound = bind_launch(kernel, launch, config, code.params)
                theirs = GridExpr.from_meta(inductor_meta(kernel), config.meta).eval_slow({**bound, **config.meta})
                assert tuple(ours) == tuple(theirs), (path.name, kernel.symbol, config)


def test_template_grid_comes_from_its_fixed_grid():
    module = lift_file(str(FIXTURES / "mlp.max-autotune-no-cudagraphs.0.py"))
    emit_python(module)
    template = next(op for op in module.launches() if op.symbol.startswith("triton_tem"))
    assert template.attrs["config"]["grid"] == [1024, 1, 1]
    assert template.attrs["config"]["num_warps"] == 4 and template.attrs["config"]["num_stages"] == 3


def _record_ln_gelu_config(ln_gelu) -> None:
    name = ln_gelu.launches()[0].symbol
    manifest = {"graphs": [{"module": "ln_gelu.default.0.py", "kernels": {
        name: {"chosen": {"kwargs": {"XBLOCK": 1, "R0_BLOCK": 1024}, "num_warps": 8, "num_stages": 1}}}}]}
    assert apply_recorded_configs(ln_gelu, manifest) == 1


def test_recorded_configs_are_pinned_when_not_retimed(ln_gelu):
    from kernelopt.codegen.standalone_module import EmitOptions
    _record_ln_gelu_config(ln_gelu)
    source = emit_python(ln_gelu, options=EmitOptions(retime_recorded=False))
    launch = ln_gelu.launches()[0]
    assert launch.attrs["config_source"] == "capture"
    assert launch.attrs["config"] == {"XBLOCK": 1, "R0_BLOCK": 1024, "num_warps": 8, "num_stages": 1,
                                      "grid": [8192, 1, 1]}
    assert "meta={'XBLOCK': 1, 'R0_BLOCK': 1024}, options={'num_warps': 8, 'num_stages': 1}" in source
    assert "Launch config sources: capture x1" in source


def test_a_recorded_config_is_timed_again_first_beside_inductors_list(ln_gelu):
    """A recorded pick is one process's noisy benchmark (an H100 capture's split-scan pick ran 1.2x slower than
    a fresh process's): a GPU module times it again at the first launch, first of the configs, as Inductor's
    runtime does in every process; under the interpreter the recorded one runs (`untimed=0`)."""
    _record_ln_gelu_config(ln_gelu)
    source = emit_python(ln_gelu)
    launch = ln_gelu.launches()[0]
    assert launch.attrs["config_source"] == "autotune"
    candidates = launch.attrs["config_candidates"]
    assert candidates[0] == {"XBLOCK": 1, "R0_BLOCK": 1024, "num_warps": 8, "num_stages": 1, "grid": [8192, 1, 1]}
    others = [c for c in heuristic_configs(ln_gelu.kernels[0])
              if (dict(c.kwargs), c.num_warps, c.num_stages) != ({"XBLOCK": 1, "R0_BLOCK": 1024}, 8, 1)]
    assert others and len(candidates) == 1 + len(others)
    assert "untimed=0" in source and "Launch config sources: autotune x1" in source


def test_unrecorded_configs_are_heuristic_with_a_remark():
    module = lift_file(str(FIXTURES / "ce.default.0.py"))
    remarks = []
    emit_python(module, remark=lambda op, message: remarks.append(message))
    assert all(op.attrs["config_source"] == "heuristic" for op in module.launches())
    assert remarks and all("heuristic config" in r for r in remarks)
    first = heuristic_configs(module.kernel(module.launches()[0].symbol))[0]
    assert isinstance(first, LaunchConfig) and first.num_warps


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.py")), ids=lambda p: p.stem)
def test_every_fixture_emits_valid_python_without_inductor(path):
    source = emit_python(lift_file(str(path)))
    compile(source, str(path), "exec")
    # Code only: the Inductor decorators the module keeps as data (strings, for lifting it again) and the
    # comments may name Inductor; nothing the module runs may.
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    code = "".join(t.string for t in tokens if t.type not in (tokenize.STRING, tokenize.COMMENT))
    assert "_inductor" not in code and "triton_heuristics" not in code
    assert code.count("_Launch(") >= 1


def test_emit_command_writes_module_and_reports_bad_input(tmp_path):
    out = tmp_path / "out.py"
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "emit", str(FIXTURES / "mlp.default.0.py"),
                           "-o", str(out)], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert "def call(args):" in out.read_text()
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "emit", str(tmp_path / "missing.py")],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2 and "no such file" in proc.stderr and "Traceback" not in proc.stderr
    patched = subprocess.run([sys.executable, "-m", "kernelopt.cli", "emit", str(FIXTURES / "mlp.default.0.py"),
                              "--style", "patched"], capture_output=True, text=True, cwd=REPO)
    assert patched.returncode == 0 and "Rewritten: none" in patched.stdout


def test_opt_pipeline_ending_in_emit_python_prints_python(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kernelopt.opt", str(FIXTURES / "ln_gelu.default.0.py"),
                           "-p", "emit-python"], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith('"""') and "def call(args):" in proc.stdout


def _runtime_namespace():
    """The emitted module's launch runtime (templates/module/runtime.py.j2), executed alone."""
    import os

    import torch

    from kernelopt.codegen.render import render

    namespace = {"os": os, "torch": torch}
    exec(compile(render("runtime.py.j2", {}), "runtime.py.j2", "exec"), namespace)
    return namespace


class _Src:
    """What the static launcher reads of Triton's ASTSource: parameter names, signature, constants."""

    def __init__(self, names, signature, constants=None):
        self.fn = type("fn", (), {"arg_names": names})
        self.signature = signature
        self.constants = constants or {}


def test_static_launch_passes_only_runtime_arguments_with_their_type_codes():
    codes = _runtime_namespace()["_StaticKernel"]._codes
    names = ["in_ptr0", "out_ptr0", "xnumel", "r0_numel", "XBLOCK", "R0_BLOCK"]
    signature = {"in_ptr0": "*bf16", "out_ptr0": "*fp32", "xnumel": "i32", "r0_numel": "i32",
                 "XBLOCK": "constexpr", "R0_BLOCK": "constexpr"}
    kernel = type("k", (), {"src": _Src(names, signature)})
    assert codes(kernel, 4) == ("OOii", None)           # all positional arguments: no per-launch rebuild
    # an integer argument equal to 1 is specialized into a constant by Triton: it is dropped
    signature_one = dict(signature, r0_numel="constexpr")
    assert codes(type("k", (), {"src": _Src(names, signature_one)}), 4) == ("OOi", (0, 1, 2))
    constants = {(3,): 1}                                  # Triton 3.x keys constants by (index,)
    assert codes(type("k", (), {"src": _Src(names, signature, constants)}), 4) == ("OOi", (0, 1, 2))


def test_static_launch_refuses_a_runtime_argument_passed_by_keyword():
    runtime = _runtime_namespace()
    names = ["in_ptr0", "xnumel", "XBLOCK"]
    kernel = type("k", (), {"src": _Src(names, {"in_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "i32"})})
    with pytest.raises(NotImplementedError):
        runtime["_StaticKernel"]._codes(kernel, 2)


def test_an_empty_hook_chain_is_no_hook():
    runtime = _runtime_namespace()
    chain = type("HookChain", (), {"calls": []})()
    assert runtime["_hook_active"](None) is False and runtime["_hook_active"](chain) is False
    chain.calls.append(print)
    assert runtime["_hook_active"](chain) is True and runtime["_hook_active"](print) is True


def test_helpers_follow_the_torch_release_that_wrote_the_module():
    guard = "tl.where(mean_1 == mean_2"
    assert guard not in helpers_source(["welford"], "2.11.0+cu130")      # torch 2.11/2.12 had no inf guard
    assert guard not in helpers_source(["welford"], "2.12.1")
    assert guard in helpers_source(["welford"], "2.13.0")
    assert guard in helpers_source(["welford"], None)                    # unknown writer: the current one
    assert "ilogb(safe_x)" not in helpers_source(["frexp"], "2.11.0")
    assert "ilogb(safe_x)" in helpers_source(["frexp"], "2.14.0.dev20261201")


def test_an_emitted_capture_uses_the_helpers_of_the_torch_that_captured_it():
    capture = CORPUS / "cuda-2.11-h200" / "ln_gelu" / "large.default" / "ln_gelu.default.0.py"
    text = emit_python(lift_file(str(capture)), options=None)
    assert "delta = mean_2 - mean_1" in text and "tl.where(mean_1 == mean_2" not in text


def _welford_of(helpers: str, row):
    """Mean, m2 and weight of `row` through the emitted Welford helpers, run in Triton's interpreter."""
    import types

    import torch
    import triton
    import triton.language as tl
    from triton.language.extra import libdevice  # noqa: F401  (the helpers' globals)

    namespace = {"types": types, "triton": triton, "tl": tl, "libdevice": libdevice}
    exec(compile(helpers + '''
@triton.jit
def welford_row(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))[None, :]
    mean, m2, weight = triton_helpers.welford(x, tl.zeros_like(x), tl.full(x.shape, 1.0, tl.float32), 1)
    tl.store(out_ptr + tl.arange(0, 1), mean)
    tl.store(out_ptr + 1 + tl.arange(0, 1), m2)
    tl.store(out_ptr + 2 + tl.arange(0, 1), weight)
''', "<welford>", "exec"), namespace)
    out = torch.empty(3)
    namespace["welford_row"][(1,)](torch.tensor(row, dtype=torch.float32), out, N=len(row))
    return out


def test_welford_eras_differ_only_where_torch_changed_them():
    import torch

    legacy = helpers_source(["welford"], "2.11.0")
    current = helpers_source(["welford"], "2.13.0")
    finite = torch.randn(8).tolist()
    torch.testing.assert_close(_welford_of(legacy, finite), _welford_of(current, finite), rtol=0, atol=0)
    overflowed = [float("inf")] * 4
    assert torch.isnan(_welford_of(legacy, overflowed)[0])          # inf - inf: torch 2.11's NaN mean
    assert _welford_of(current, overflowed)[0] == float("inf")      # torch 2.13's guarded combine


def test_the_emitted_module_allocates_through_torchs_cpp_entry_point_as_inductors_does(tmp_path):
    # Inductor's module allocates its buffers with torch's C++ empty_strided of its device: a Python wrapper
    # per buffer would be host time on every call that Inductor's module does not spend.
    import runpy

    import torch

    module = lift_file(str(CORPUS / "cpu-2.13" / "rmsnorm" / "small.default" / "rmsnorm.default.0.py"))
    path = tmp_path / "rmsnorm.py"
    path.write_text(emit_python(module, "standalone"))
    namespace = runpy.run_path(str(path))
    assert namespace["empty_strided"] is torch._C._dynamo.guards._empty_strided_cpu
    buffer = namespace["empty_strided"]((3, 5), (1, 3), torch.float16)
    assert buffer.shape == (3, 5) and buffer.stride() == (1, 3) and buffer.dtype == torch.float16


def test_a_recorded_config_without_a_list_to_retime_against_is_launched_as_recorded(ln_gelu):
    """A kernel whose source carries no Inductor decorator (nothing lists its configs) keeps the recorded config
    instead of failing the emit."""
    _record_ln_gelu_config(ln_gelu)
    kernel = ln_gelu.kernels[0]
    source = kernel.attrs["source"]
    start = source.index("@triton_heuristics.")
    kernel.attrs["source"] = source[:start] + source[source.index("@triton.jit"):]
    emit_python(ln_gelu)
    launch = ln_gelu.launches()[0]
    assert launch.attrs["config_source"] == "capture"
    assert launch.attrs["config"]["R0_BLOCK"] == 1024 and launch.attrs["config"]["num_warps"] == 8


def test_a_recorded_config_that_is_inductors_only_one_is_launched_as_recorded():
    """Nothing to time it against: a split scan whose decorator lists one configuration, the one recorded."""
    folder = Path(__file__).resolve().parents[1] / "fixtures" / "cuda-2.11-general" / "exclusive_cumsum"
    module = lift_file(str(folder / "exclusive_cumsum.default.0.py"))
    apply_recorded_configs(module, json.loads((folder / "manifest.json").read_text())["graphs"][0])
    emit_python(module)
    sources = {launch.symbol: launch.attrs["config_source"] for launch in module.launches()}
    assert sources == {"triton_spl_fused_cumsum_0": "capture", "triton_poi_fused_constant_pad_nd_slice_1": "autotune"}


def test_an_emitted_module_imported_directly_on_the_cpu_uses_the_fast_helper_reductions(tmp_path):
    """Imported straight (not through kernelopt's loader), an emitted module's own `triton_helpers` ran their
    reductions element by element under the interpreter: 4.2 s a call against 0.03 s for Inductor's module."""
    corpus = REPO / "tests" / "corpus" / "cpu-2.13" / "softmax" / "small.default"
    out = tmp_path / "softmax_emitted.py"
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "emit", str(corpus / "softmax.default.0.py"),
                           "-o", str(out)], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    child = f"""
import importlib.util, torch
from kernelopt.runtime.fast_reductions import FAST_HELPERS
spec = importlib.util.spec_from_file_location("emitted", {str(out)!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
used = [n for n in FAST_HELPERS if hasattr(module.triton_helpers, n)]
assert used and all(getattr(module.triton_helpers, n) is FAST_HELPERS[n] for n in used), used
args = torch.load({str(corpus / "inputs.pt")!r}, weights_only=False)["args"]
want = torch.load({str(corpus / "outputs.pt")!r}, weights_only=False)["outputs"]
got = module.call(list(args))
torch.testing.assert_close(got[0], want[0])
print("fast", used)
"""
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "TRITON_INTERPRET": "1"}, timeout=300)
    assert run.returncode == 0 and "fast" in run.stdout, run.stderr[-2000:]


_REUSE_OF_A_TUPLE_ELEMENT = '''
import torch
from torch._inductor.select_algorithm import extern_kernels
from torch._inductor.async_compile import AsyncCompile
async_compile = AsyncCompile()
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor


def call(args):
    arg0_1, arg1_1 = args
    args.clear()
    buf0 = torch.ops.aten.max.dim(arg0_1, 2)
    buf1 = buf0[0]
    del buf0
    buf2 = reinterpret_tensor(buf1, (3, 5), (1, 3), 0); del buf1  # reuse
    buf3 = empty_strided_cpu((5, 4), (4, 1), torch.float32)
    extern_kernels.mm(reinterpret_tensor(buf2, (5, 3), (3, 1), 0), arg1_1, out=buf3)
    buf4 = empty_strided_cpu((3, 3), (3, 1), torch.float32)
    extern_kernels.mm(buf2, reinterpret_tensor(buf2, (5, 3), (3, 1), 0), out=buf4)
    return (buf3, buf4, )
'''


def test_a_reused_buffer_of_unknown_layout_keeps_its_reinterpretation(tmp_path):
    """`buf2 = reinterpret_tensor(buf1, ...); del buf1  # reuse` where buf1 is an element of a library call's
    tuple (no type): the emitted module wrote `buf2 = buf1`, so the transposed view was lost (on the H100 a
    training graph's backward ran `mm(..., out=buf27)` on a [8, 16, 1024, 64] buffer that torch resized)."""
    import runpy

    import torch

    original = tmp_path / "reuse_original.py"
    original.write_text(_REUSE_OF_A_TUPLE_ELEMENT)
    emitted = tmp_path / "reuse_emitted.py"
    emitted.write_text(emit_python(lift_file(str(original)), "standalone"))
    assert "buf2 = reinterpret_tensor(buf1, (3, 5), (1, 3), 0)  # reuse" in emitted.read_text()
    for seed in range(3):
        generator = torch.Generator().manual_seed(seed)
        x, w = torch.randn(5, 3, 7, generator=generator), torch.randn(3, 4, generator=generator)
        want = runpy.run_path(str(original))["call"]([x, w])
        got = runpy.run_path(str(emitted))["call"]([x, w])
        for a, b in zip(want, got):
            assert a.shape == b.shape and torch.equal(a, b)


def test_a_rewrite_s_kernel_launches_through_the_static_launcher_once_its_key_was_compiled():
    # torch's C++ launcher does not run here: a stand-in records what _FastJIT hands it; the GPU runs of the
    # device sessions launch through the real one (benchmarks/results, the emitted modules' guards)
    import torch  # lazy: as _runtime_namespace, torch only where a test needs it

    runtime = _runtime_namespace()
    jit_calls, built, launched = [], [], []

    class Kernel:                                  # what Triton's JIT returns from a launch
        pass

    class JIT:                                     # a @triton.jit function: kernel[grid](*args, **meta)
        arg_names = ["x_ptr", "n", "XBLOCK"]

        def __getitem__(self, grid):
            return lambda *args, **meta: jit_calls.append((grid, args, meta)) or Kernel()

    class Static:
        fail = False

        def __init__(self, kernel, n_args):
            if Static.fail:
                raise NotImplementedError("refused")
            built.append(n_args)

        def launch(self, grid, stream, args):
            launched.append((grid, stream, args))

    runtime.update(_STATIC=object(), _StaticKernel=Static, get_raw_stream=lambda index: 100 + index,
                   _launch_hooks_installed=lambda: False)
    fast = runtime["_FastJIT"](JIT())
    x = torch.empty(64, device="meta")
    fast[(4,)](x, 64, XBLOCK=16)                   # first call: the JIT, then the kernel loaded
    fast[(4,)](x, 64, XBLOCK=16)                   # the same key: the launcher, grid padded, device 0's stream
    assert len(jit_calls) == 1 and built == [2] and launched == [((4, 1, 1), 100, (x, 64))]
    fast[(8, 2)](x, 64, XBLOCK=32)                 # another constexpr: its own key
    fast[(4,)](x[1:], 63, XBLOCK=16)               # unaligned tensor, another int: another key
    fast[(4,)](x, 65, XBLOCK=16)
    assert len(jit_calls) == 4 and len(launched) == 1
    fast[lambda meta: (1,)](x, 64, XBLOCK=16)      # a callable grid: always the JIT
    assert len(jit_calls) == 5
    Static.fail = True
    refused = runtime["_FastJIT"](JIT())
    for _ in range(3):
        refused[(1,)](x, 1, XBLOCK=16)             # the launcher refuses: the JIT each time, asked once
    assert len(jit_calls) == 8 and len(built) == 4 and len(launched) == 1
    Static.fail = False
    picky = runtime["_FastJIT"](JIT())
    picky[(2,)](x, 5, XBLOCK=16)
    picky.paths[next(iter(picky.paths))] = (lambda grid, stream, args: (_ for _ in ()).throw(TypeError("grid")), 0)
    picky[(2,)](x, 5, XBLOCK=16)                   # the launcher refuses at launch: this call and later ones JIT
    picky[(2,)](x, 5, XBLOCK=16)
    assert len(jit_calls) == 11 and len(launched) == 1 and list(picky.paths.values()) == [False]
    runtime["_launch_hooks_installed"] = lambda: True
    fast[(4,)](x, 64, XBLOCK=16)                   # a launch hook (the evaluator's capture) sees every launch
    assert len(jit_calls) == 12 and len(launched) == 1
    assert fast.arg_names == ["x_ptr", "n", "XBLOCK"]   # what else a run() reads is the kernel's own
