"""The gate's float64 reference of one kernel reads its read-only inputs in their own dtype: each load is
converted to float64 as it is read, so the math is the same float64 math, but no float64 copy of the
inputs is made. On the H100 a layer norm's split reduction over 256 MB of fp32 could not hold that copy
within the job's memory bound (3x Inductor's peak): the reference was dropped, and reorder-only
candidates (a retune, split-row) were judged at the bare fp32 tolerance and rejected."""
import os

os.environ.setdefault("TRITON_INTERPRET", "1")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402

from kernelopt.inductor_source import float64_native_inputs_variant, kernel_sources  # noqa: E402
from kernelopt.legality import LaunchInputs, check_candidate, compare  # noqa: E402
from kernelopt.legality import cases as C  # noqa: E402
from kernelopt.legality import memory_budget as M  # noqa: E402
from kernelopt.legality.module import float64_module  # noqa: E402
from kernelopt.rewrite.evaluate import LaunchCapture  # noqa: E402
from kernelopt.runtime.loader import load_output_module  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LAYER_NORM = ROOT / "tests/fixtures/cuda-2.11-general/layer_norm_few_long_rows/layer_norm_few_long_rows.default.0.py"
SOFTMAX = ROOT / "tests/corpus/cpu-2.13/softmax/small.default"


def test_the_layer_norm_kernels_keep_their_input_pointers_and_upcast_each_load():
    for name, source in kernel_sources(LAYER_NORM.read_text()).items():
        variant = float64_native_inputs_variant(source)
        assert variant is not None, name
        assert "'in_ptr0': '*fp32'" in variant and "'out_ptr0': '*fp64'" in variant, name
        assert "tl.float32" not in variant.partition("@triton.jit")[2], name
        loads = variant.count("tl.load(in_ptr")
        assert loads and variant.count(").to(tl.float64)") >= loads, name


def test_an_input_used_other_than_by_a_load_keeps_the_float64_copy():
    source = ("@triton_heuristics.pointwise(triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32'}})\n"
              "@triton.jit\ndef k(in_ptr0, out_ptr0, XBLOCK : tl.constexpr):\n"
              "    block = tl.make_block_ptr(in_ptr0, [8], [1], [0], [8], [0])\n"
              "    tl.store(out_ptr0 + tl.arange(0, 8), tl.load(block))\n")
    assert float64_native_inputs_variant(source) is None


def test_the_native_reference_gives_the_bits_of_the_all_float64_one():
    """Both compute in float64 on the same values (fp32 -> float64 is exact): bit for bit the same."""
    module = str(next(SOFTMAX.glob("*.default.0.py")))
    inputs = torch.load(SOFTMAX / "inputs.pt")["args"]
    loaded = load_output_module(module, "cpu")
    capture = LaunchCapture(loaded, inputs)
    for name in loaded.kernels:
        native = float64_module(module, [name], "cpu", native_inputs=True)
        full = float64_module(module, [name], "cpu")
        assert native.native_inputs and not full.native_inputs
        for launch in capture.of(name):
            names = native.kernels[name].arg_names
            kept = [a.clone() if isinstance(a, torch.Tensor) and not n.startswith("in_ptr") and a.is_floating_point()
                    else a for a, n in zip(launch.args, names)]
            native_args = [a.double() if isinstance(a, torch.Tensor) and not n.startswith("in_ptr")
                           and a.is_floating_point() else a for a, n in zip(kept, names)]
            full_args = [a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                         for a in launch.args]
            native.kernels[name].run(*native_args)
            full.kernels[name].run(*full_args)
            for n, a, b in zip(names, native_args, full_args):
                if isinstance(a, torch.Tensor) and n.startswith("out_ptr"):
                    assert compare.same_bits(a, b), (name, n)


def _row_sums(rows: int, length: int):
    x = torch.randn(rows, length, generator=torch.Generator().manual_seed(0))
    return LaunchInputs((x, torch.empty(rows)))


def test_a_budget_that_holds_the_inputs_once_keeps_the_reference():
    """A long-row reduction (a 1M-element input, 8 outputs): at the smallest budget where the plan keeps a
    native reference, the all-float64 one (which copies the input to float64) would be dropped."""
    layout = C.make_layout(_row_sums(8, 1 << 17))
    chunk = min(compare.CHUNK_ELEMENTS, max(layout.base_sizes))

    def plan(budget, native):
        return M.place(M.MemoryBudget(budget), torch.device("cpu"), layout, {1}, True, chunk, sandbox_copy=True,
                       native_reference=native)
    budget = 1 << 16
    while plan(budget, True).reference is None:
        budget = int(budget * 1.02)
    assert plan(budget, False).reference is None


def test_a_reorder_only_candidate_is_judged_with_the_reference_at_that_budget(monkeypatch):
    """The gate gives the reference the fp32 input as it is and float64 outputs, keeps it at a budget too
    small for a float64 copy of the input, and accepts a sum in another order with the rounding allowance
    the reference gives (without it: judged at fp32's bare tolerance)."""
    seen = {}

    def original(x, out):
        out.copy_(x.sum(-1))

    def reference(x, out):
        seen["dtypes"] = (x.dtype, out.dtype)
        out.copy_(x.sum(-1, dtype=torch.float64))
    reference.native_inputs = True
    launch = _row_sums(8, 1 << 17)
    layout = C.make_layout(launch)
    chunk = min(compare.CHUNK_ELEMENTS, max(layout.base_sizes))
    budget = 1 << 16
    while M.place(M.MemoryBudget(budget), torch.device("cpu"), layout, {1}, True, chunk,
                  native_reference=True).reference is None:
        budget = int(budget * 1.02)
    monkeypatch.setenv(M.ENV, str(budget))
    reordered = ("import torch\n\ndef run(x, out):\n"
                 "    out.copy_(x.view(8, 512, 256).sum(-1).sum(-1))\n")
    verdict = check_candidate(original, reordered, [launch], output_args={1}, reference_fn=reference,
                              seeds=(1,), adversarial=(), timeout_floor_s=5.0)
    assert seen["dtypes"] == (torch.float32, torch.float64)
    assert not any("outputs compared with the original only" in n for n in verdict.notes), verdict.notes
    assert verdict.accepted, verdict.report()


def test_a_fusion_groups_reference_keeps_only_what_no_member_writes():
    """In a group (group norm: statistics, then normalize + SiLU) the module's input is read in its own
    dtype, and what one member writes and the next reads stays float64: the same bits as the
    all-float64 reference."""
    from kernelopt.lift import lift_file
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.classify_dispatch import ClassifyDispatch
    from kernelopt.passes.detect_fusion import DetectFusion
    from kernelopt.rewrite.evaluate import ModuleEvaluator, _native_inputs, _runner
    from kernelopt.rewrite.targets import group_target

    capture = ROOT / "tests/corpus/cpu-2.13/groupnorm_silu/small.default"
    module_path = str(next(capture.glob("*.default.0.py")))
    module = lift_file(module_path)
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = group_target(module, 0)
    assert target is not None, why
    keep = _native_inputs(target)
    assert isinstance(keep, dict) and any(keep.values()), keep          # the module's input, at least
    evaluator = ModuleEvaluator(module_path, torch.load(capture / "inputs.pt")["args"], device="cpu")
    reference = evaluator.reference_runner(target)
    assert reference.native_inputs
    kernels = tuple(sorted(k.name for k in target.kernels))
    full = _runner(float64_module(module_path, kernels, "cpu"), target)
    args = evaluator.group_args(target)
    slots_written = set(target.scratch_args)
    for launch, where in zip(target.launches, target.group_positions):
        slots_written |= {slot for arg, slot in zip(launch.args, where) if arg.written}
    native_args = [a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() and i in slots_written
                   else a for i, a in enumerate(args)]
    full_args = [a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a for a in args]
    reference(*native_args)
    full(*full_args)
    for i in sorted(slots_written - set(target.scratch_args)):
        assert compare.same_bits(native_args[i], full_args[i]), i


def test_each_input_load_is_upcast_whatever_its_index_expression():
    """Property: for any index expression (nested parentheses, calls, spaces), every load of a kept input
    becomes `tl.load(...).to(tl.float64)` around exactly that call, and the code still parses."""
    import ast

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from kernelopt.inductor_source import _upcast_loads

    leaves = st.sampled_from(["x0", "r0_1", "4096", "(x1 // 8)", "tl.full([1], 3, tl.int32)"])
    expressions = st.recursive(leaves, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from([" + ", "*", " - "]), inner).map(lambda t: "".join(t)),
        inner.map(lambda e: f"({e})")), max_leaves=8)

    @settings(max_examples=60, deadline=None)
    @given(expressions, expressions, st.sampled_from(["", " "]))
    def check(first, second, space):
        code = (f"    a = tl.load({space}in_ptr0 + ({first}), xmask, other=0.0)\n"
                f"    b = tl.load(in_ptr1 + {second}, None, eviction_policy='evict_last') * a\n"
                f"    c = tl.load(in_ptr2 + {first})\n")
        out = _upcast_loads(code, ["in_ptr0", "in_ptr1"])
        tree = ast.parse("def k():\n" + out)
        upcast = [node.func.value for node in ast.walk(tree) if isinstance(node, ast.Call)
                  and isinstance(node.func, ast.Attribute) and node.func.attr == "to"]
        loaded = sorted(ast.unparse(call.args[0]).split(" + ")[0] for call in upcast)
        assert loaded == ["in_ptr0", "in_ptr1"], out
        assert "tl.load(in_ptr2 + " in out and out.count(".to(tl.float64)") == 2
    check()
