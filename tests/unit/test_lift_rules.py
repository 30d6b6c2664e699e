"""What each lifting rule produces (docs/IR.md, "Lifting conventions"), errors, and the unknown."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from kernelopt.errors import InputError
from kernelopt.ir.diagnostics import Diagnostics
from kernelopt.ir.parser import parse_module
from kernelopt.ir.printer import print_module
from kernelopt.ir.types import TensorType
from kernelopt.ir.verifier import verify
from kernelopt.lift import lift_file, lift_source

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "inductor-2.11-h200"
INPUTS = REPO / "tests" / "lit" / "lift" / "Inputs"


def lift(name: str):
    return lift_file(FIXTURES / name)


def by_name(module, name):
    return [op for op in module.body if op.name == name]


# -- kernels -------------------------------------------------------------------------------------
def test_reduction_kernel_attributes():
    kernel = lift("ce.default.0.py").kernels[0]
    attrs = kernel.attrs
    assert attrs["kind"] == "reduction"
    assert attrs["size_hints"] == {"x": 4096, "r0_": 32768}
    assert attrs["signature"]["in_ptr0"] == "*bf16"
    assert attrs["heuristics"] == {"reduction_hint": "ReductionHint.INNER"}
    assert attrs["num_load"] == 1 and attrs["num_store"] == 2 and attrs["mutated_arg_names"] == []
    assert attrs["device_str"] == "cuda"
    assert attrs["triton_meta"]["device"]["multi_processor_count"] == 132   # DeviceProperties(...) -> dict
    assert attrs["triton_meta"]["configs"][0]["(0,)"] == [["tt.divisibility", 16]]  # tuple keys -> strings
    assert attrs["inductor_meta"]["autotune_hints"] == []                   # set() -> []
    assert attrs["source"].lstrip().startswith("import triton")
    assert "@triton_heuristics.reduction(" in attrs["source"]


def test_kernel_source_is_verbatim():
    text = (FIXTURES / "ce.default.0.py").read_text()
    kernel = lift("ce.default.0.py").kernels[1]
    start = text.index("'''", text.index(f"{kernel.symbol} = async_compile.triton(")) + 3
    assert kernel.attrs["source"] == text[start:text.index("'''", start)]


def test_template_kernel_and_its_grid():
    module = lift("mlp.max-autotune-no-cudagraphs.0.py")
    template = module.kernel("triton_tem_fused_addmm_t_0")
    assert template.attrs["kind"] == "template"
    assert template.attrs["config_args"]["BLOCK_M"] == 128
    assert template.attrs["heuristics"] == {"num_stages": 3, "num_warps": 4}
    launch = module.launches()[0]
    assert launch.symbol == "triton_tem_fused_addmm_t_0"
    assert len(launch.args) == 4                      # the signature's parameters ...
    assert launch.attrs["grid"] == [1024, 1, 1]       # ... and the extra grid arguments apart
    assert launch.attrs["config"] == {"num_warps": 4, "num_stages": 3, "grid": [1024, 1, 1]}


def test_all_kernel_kinds_of_the_fixtures():
    kinds = {k.attrs["kind"] for p in FIXTURES.glob("*.py") for k in lift_file(p).kernels}
    assert kinds == {"pointwise", "reduction", "persistent_reduction", "template"}


# -- body ----------------------------------------------------------------------------------------
def test_args_are_typed_from_get_args():
    module = lift("ce.default.0.py")
    args = by_name(module, "ko.arg")
    assert [a.args[0].value for a in args] == [0, 1]
    assert args[0].result.type == TensorType((4096, 32000), (32000, 1), "bfloat16")
    assert args[1].result.type == TensorType((4096,), (1,), "int64")
    assert module.attrs["num_args"] == 2 and module.attrs["device"] == "cuda:0"


def test_launch_stream_provenance_and_reuse():
    module = lift("ce.default.0.py")
    first, second = module.launches()
    assert first.attrs["stream"] == 0
    assert first.attrs["aten"] == ["aten._to_copy", "prims.prepare_softmax_online"]
    assert first.attrs["source_nodes"] == ["float_1"]
    assert first.attrs["provenance"].startswith("Topologically Sorted Source Nodes: [float_1]")
    reuse = by_name(module, "ko.reuse")[0]
    assert reuse.result.name == "buf4" and reuse.args[0].value.name == "buf2"
    assert second.args[0].value is reuse.result
    assert [o.name for o in by_name(module, "ko.return")[0].operands()] == ["buf4"]
    lines = (FIXTURES / "ce.default.0.py").read_text().splitlines()
    run_line = next(i for i, line in enumerate(lines, 1) if ".run(" in line)
    assert first.loc.line == run_line and first.loc.file.endswith("ce.default.0.py")


def test_inline_reinterpret_tensor_becomes_a_view_before_its_user():
    module = lift("block.default.0.py")
    addmm = by_name(module, "ko.extern")[0]
    assert addmm.callee == "extern_kernels.addmm"
    assert addmm.keyword("alpha") == 1 and addmm.keyword("out").name == "buf4"
    view = addmm.args[1].value
    assert view.name == "buf3_v0" and view.owner.name == "ko.view"
    assert view.type == TensorType((8192, 1024), (1024, 1), "bfloat16")
    index = module.body.index(addmm)
    assert module.body[index - 2] is view.owner


def test_attention_call_tuple_and_getitem():
    module = lift("block.default.0.py")
    call = by_name(module, "ko.call")[0]
    assert call.callee == "torch.ops.aten._scaled_dot_product_cudnn_attention.default"
    assert str(call.result.type) == "!tuple"
    assert [a.value for a in call.args[3:]] == [None, False, 0.0, True]
    getitem = by_name(module, "ko.getitem")[0]
    assert getitem.args[0].value is call.result and getitem.args[1].value == 0
    assert getitem.result.type == TensorType((8, 16, 1024, 64), (1048576, 64, 1024, 1), "bfloat16")
    align = by_name(module, "ko.assert_alignment")[0]
    assert align.attrs["alignment"] == 16


def test_convolution_returns_its_result():
    module = lift("conv.default.0.py")
    conv = by_name(module, "ko.extern")[0]
    assert conv.callee == "extern_kernels.convolution"
    assert conv.result.name == "buf2"
    assert conv.keyword("stride") == (1, 1) and conv.keyword("bias") is None
    assert conv.result.type == TensorType((32, 64, 56, 56), (200704, 1, 3584, 64), "float32")


def test_reuse_through_reinterpret_tensor_has_the_view_type():
    module = lift("conv.default.0.py")
    reuse = by_name(module, "ko.reuse")[0]
    assert reuse.result.name == "buf3" and reuse.args[0].value.name == "buf0"
    assert reuse.result.type == TensorType((32, 64, 56, 56), (200704, 3136, 56, 1), "float32")


def test_del_becomes_free_and_reuse_del_does_not():
    module = lift("ce.default.0.py")
    freed = [op.args[0].value.name for op in by_name(module, "ko.free")]
    assert freed == ["arg0_1", "arg1_1", "buf0", "buf1"]


def test_return_of_a_view_emits_the_view_first():
    module = lift("gpt2_2l.default.0.py")
    ret = by_name(module, "ko.return")[0]
    last = ret.args[-1].value
    assert last.owner.name == "ko.view" and last.type.sizes == (8, 512, 50257)


# -- partitions, dynamic shapes, backward ---------------------------------------------------------
def test_graph_partitions_are_inlined_in_order():
    diagnostics = Diagnostics()
    module = lift_file(INPUTS / "partitions-devcopy.cuda-2.11.py", diagnostics)
    assert module.attrs["partitions"] == 2
    launches = module.launches()
    assert [op.attrs.get("partition") for op in launches] == [0, None, 1]
    assert module.kernel(launches[1].symbol).attrs["kind"] == "cpp"
    copies = by_name(module, "ko.copy")
    assert len(copies) == 2 and copies[0].attrs == {"non_blocking": False}
    cpu_buffer = copies[0].args[0].value
    assert cpu_buffer.type.device == "cpu"
    assert not verify(module).errors and not list(diagnostics)
    # the partition's argument arg0_1 comes back out of partition 0 and goes into partition 1
    assert launches[2].args[1].value is by_name(module, "ko.arg")[0].result


def test_dynamic_shapes_are_marked():
    module = lift_file(INPUTS / "dynamic-mm-softmax.cuda-2.11.py")
    assert module.attrs["symbolic_shapes"] is True
    assert module.attrs["symbols"] == {"s77": "arg0_1", "s27": "arg1_1", "s21": "arg3_1"}
    alloc = by_name(module, "ko.alloc")[0]
    assert alloc.result.type is None
    assert alloc.attrs == {"sizes": ["s77", "s21"], "strides": ["s21", 1], "dtype": "float32"}
    reuse = by_name(module, "ko.reuse")[0]
    assert reuse.attrs["sizes"] == ["s77", "s21"]
    launch = module.launches()[0]
    assert [a.value.name for a in launch.args[1:]] == ["arg3_1", "arg0_1", "arg3_1"]


def test_backward_graph_lifts():
    module = lift_file(INPUTS / "backward-gelu-mm.cuda-2.11.py")
    assert [op.result.name for op in by_name(module, "ko.arg")] == ["mm", "permute", "permute_1", "tangents_1"]
    assert len(by_name(module, "ko.extern")) == 2 and not verify(module).errors


# -- the unknown, and errors ---------------------------------------------------------------------
MINIMAL = '''
from torch._inductor.async_compile import AsyncCompile
async_compile = AsyncCompile()
def call(args):
    arg0_1, = args
    args.clear()
    buf0 = empty_strided_cuda((4, ), (1, ), torch.float32)
    extern_kernels.mm(arg0_1, arg0_1, out=buf0)
{extra}
    return (buf0, )
'''


def test_unknown_statement_becomes_generic_with_a_located_warning():
    text = MINIMAL.format(extra="    for i in range(3):\n        frobnicate(buf0, i)\n    weird = mystery(buf0)")
    diagnostics = Diagnostics()
    module = lift_source(text, "odd.py", diagnostics)
    generic = by_name(module, "ko.generic")
    assert [g.attrs["source"] for g in generic] == ["for i in range(3):\n        frobnicate(buf0, i)",
                                                    "weird = mystery(buf0)"]
    assert [o.name for o in generic[0].operands()] == ["buf0"]
    assert generic[1].result.name == "weird"
    messages = [str(d) for d in diagnostics]
    assert messages[0].startswith("odd.py:9:5: warning: unmodelled statement kept as ko.generic")
    assert messages[1].startswith("odd.py:11:5: warning:")
    assert not verify(module).errors
    printed = print_module(module)
    assert print_module(parse_module(printed)) == printed


def test_unknown_expression_inside_a_call_becomes_generic():
    text = MINIMAL.format(extra="    extern_kernels.mm(arg0_1, some_global, out=buf0)")
    diagnostics = Diagnostics()
    module = lift_source(text, "odd.py", diagnostics)
    assert len(by_name(module, "ko.extern")) == 2
    generic = by_name(module, "ko.generic")[0]
    assert generic.attrs["source"] == "some_global"
    assert "odd.py:9:31: warning: unmodelled expression" in str(list(diagnostics)[0])


def test_older_torch_module_level_call_with_grid_keyword():
    text = '''
async_compile = AsyncCompile()
triton_poi_0 = async_compile.triton('triton_poi_0', """
@triton_heuristics.pointwise(size_hints=[1024], filename=__file__, triton_meta={'signature': {0: '*fp32', 1: 'i32'}, 'device': 0, 'constants': {}, 'configs': [AttrsDescriptor(divisible_by_16=(0, 1), equal_to_1=())]}, inductor_meta={'kernel_name': 'triton_poi_0'})
@triton.jit
def triton_poi_0(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    pass
""", device_str='cuda')
def call(args):
    arg0_1, = args
    args.clear()
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        stream0 = get_raw_stream(0)
        triton_poi_0.run(arg0_1, 1024, grid=grid(1024), stream=stream0)
    return (arg0_1, )
'''
    diagnostics = Diagnostics()
    module = lift_source(text, "old.py", diagnostics)
    launch = module.launches()[0]
    assert launch.attrs["run_kwargs"] == {"grid": "grid(1024)"} and launch.attrs["stream"] == 0
    assert module.kernels[0].attrs["size_hints"] == [1024]
    assert module.kernels[0].attrs["signature"] == {"0": "*fp32", "1": "i32"}
    assert not list(diagnostics)
    printed = print_module(module)
    assert print_module(parse_module(printed)) == printed


def test_kernel_with_unparsable_source_is_kept_with_a_warning():
    text = MINIMAL.format(extra="").replace(
        "def call", "k0 = async_compile.triton('k0', '''def broken(:''', device_str='cuda')\ndef call")
    diagnostics = Diagnostics()
    module = lift_source(text, "k.py", diagnostics)
    assert module.kernel("k0").attrs["kind"] == "unknown"
    assert module.kernel("k0").attrs["source"] == "def broken(:"
    assert "k.py:4:1: warning: the source of kernel k0 is not valid Python" in str(list(diagnostics)[0])


def test_not_an_output_module():
    with pytest.raises(InputError, match=r"notes\.py: not an Inductor output module: found no `call\(args\)`"):
        lift_source("import torch\nprint(torch.ones(3))\n", "notes.py")
    with pytest.raises(InputError, match="async_compile"):
        lift_source("def call(args):\n    return args\n", "plain.py")


def test_syntax_error_names_line_and_column():
    with pytest.raises(InputError, match=r"^broken\.py:3:9: invalid Python syntax"):
        lift_source("import torch\ndef call(args):\n    x = (1,\n", "broken.py")


def test_float_specials_and_negative_literals():
    text = MINIMAL.format(extra="    torch.ops.aten.fill_.Scalar(buf0, -inf)\n"
                                "    torch.ops.aten.add_.Tensor(buf0, arg0_1, alpha=-2)")
    module = lift_source(text, "f.py")
    fill, add = by_name(module, "ko.call")
    assert fill.args[1].value == -math.inf and fill.attrs["mutates"] == [0]
    assert add.keyword("alpha") == -2


# -- the command ----------------------------------------------------------------------------------
def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "kernelopt.cli", "lift", *args], capture_output=True, text=True)


def test_cli_writes_the_ir(tmp_path):
    out = tmp_path / "ce.kir"
    proc = run_cli(str(FIXTURES / "ce.default.0.py"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().startswith("# kernelopt-output\nko.module @ce.default.0 version 1")   # -o: marker line first


def test_cli_errors_have_exit_codes(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def call(args:\n")
    proc = run_cli(str(bad))
    assert proc.returncode == 1 and "bad.py:1:" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli(str(tmp_path / "missing.py"))
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_damaged_modules_never_crash_the_lifter():
    """Lines dropped or duplicated at random: the lifter lifts (maybe with generic ops) or raises InputError."""
    import random

    rng = random.Random(7)
    sources = [p.read_text().splitlines() for p in sorted(FIXTURES.glob("*.py"))]
    for _ in range(60):
        lines = list(rng.choice(sources))
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(lines))
            if rng.random() < 0.5:
                del lines[i]
            else:
                lines.insert(i, lines[rng.randrange(len(lines))])
        try:
            module = lift_source("\n".join(lines), "damaged.py")
        except InputError:
            continue
        printed = print_module(module)
        assert print_module(parse_module(printed)) == printed
