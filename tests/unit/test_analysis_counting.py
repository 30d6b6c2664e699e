"""Byte and FLOP counting on hand-made modules (kernelopt.profile.counting / kernel_traffic)."""
from pathlib import Path

from kernelopt.ir.parser import parse_module
from kernelopt.lift import lift_file
from kernelopt.profile.ceilings import load_ceilings
from kernelopt.profile.counting import launch_cost, library_cost
from kernelopt.profile.kernel_traffic import analyze_kernel_source

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "inductor-2.11-h200"

ROW_NORM = '''
@triton.jit
def row_norm(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 128
    r0_numel = 256
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (r0_1 + 256*x0), None)
    tmp1 = tl.load(in_ptr1 + (x0), None)
    tmp2 = tl.load(in_ptr2 + (r0_1), None)
    tmp3 = tmp0 * tmp1
    tmp4 = tmp3 * tmp2
    tl.store(out_ptr0 + (r0_1 + 256*x0), tmp4, None)
'''

GATHER = '''
@triton.jit
def gather(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp1 = tl.load(in_ptr1 + (tmp0 + 1000*x0), None)
    tl.store(out_ptr0 + (x0), tmp1, None)
'''


def _module(kernel_source: str, body: str, signature: str) -> str:
    import json
    return (f'ko.module @m {{\n  ko.kernel @k {{kind = "pointwise", source = {json.dumps(kernel_source)}, '
            f'signature = {{{signature}}}}}\n{body}}}\n')


def test_broadcast_inputs_count_their_own_size_once():
    text = _module(ROW_NORM, """  %arg0_1 = ko.arg 0 : tensor<128x256xf32, [256, 1]>
  %arg1_1 = ko.arg 1 : tensor<128x1xf32, [1, 1]>
  %arg2_1 = ko.arg 2 : tensor<256xf32, [1]>
  %buf0 = ko.alloc : tensor<128x256xf32, [256, 1]>
  ko.launch @k(%arg0_1, %arg1_1, %arg2_1, %buf0, 128, 256)
  ko.return %buf0
""", 'in_ptr0 = "*fp32", in_ptr1 = "*fp32", in_ptr2 = "*fp32", out_ptr0 = "*fp32", xnumel = "i32", '
     'r0_numel = "i32", XBLOCK = "constexpr", R0_BLOCK = "constexpr"')
    module = parse_module(text)
    cost = launch_cost(module.launches()[0], module)
    assert cost.method == "source"
    assert cost.bytes_read == 128 * 256 * 4 + 128 * 4 + 256 * 4
    assert cost.bytes_written == 128 * 256 * 4
    assert cost.flops == 2 * 128 * 256   # two multiplies per element; address arithmetic not counted


def test_gather_counts_one_element_per_iteration_not_the_whole_table():
    text = _module(GATHER, """  %arg0_1 = ko.arg 0 : tensor<64xi64, [1]>
  %arg1_1 = ko.arg 1 : tensor<64x1000xbf16, [1000, 1]>
  %buf0 = ko.alloc : tensor<64xbf16, [1]>
  ko.launch @k(%arg0_1, %arg1_1, %buf0, 64)
  ko.return %buf0
""", 'in_ptr0 = "*i64", in_ptr1 = "*bf16", out_ptr0 = "*bf16", xnumel = "i32", XBLOCK = "constexpr"')
    module = parse_module(text)
    cost = launch_cost(module.launches()[0], module)
    assert cost.bytes_read == 64 * 8 + 64 * 2
    assert cost.bytes_written == 64 * 2
    assert any("gather" in note for note in cost.notes)


def test_source_analysis_sees_in_out_pointers_and_numels():
    facts = analyze_kernel_source(ROW_NORM)
    assert facts.numels == {"xnumel": 128, "r0_numel": 256}
    assert facts.pointers["out_ptr0"].stored and not facts.pointers["out_ptr0"].loaded
    assert facts.pointers["in_ptr1"].loaded and not facts.pointers["in_ptr1"].indirect


def test_unreadable_source_falls_back_to_read_write_sets():
    text = _module("def k(in_ptr0, out_ptr0, xnumel, XBLOCK): ...", """  %arg0_1 = ko.arg 0 : tensor<16xf32, [1]>
  %buf0 = ko.alloc : tensor<16xf32, [1]>
  ko.launch @k(%arg0_1, %buf0, 16)
  ko.return %buf0
""", 'in_ptr0 = "*fp32", out_ptr0 = "*fp32", xnumel = "i32", XBLOCK = "constexpr"')
    module = parse_module(text)
    cost = launch_cost(module.launches()[0], module)
    assert (cost.method, cost.bytes_read, cost.bytes_written) == ("effects", 64, 64)


def test_ce_capture_first_kernel_bytes():
    module = lift_file(FIXTURES / "ce.default.0.py")
    first, second = module.launches()
    cost = launch_cost(first, module)
    assert (cost.bytes_read, cost.bytes_written) == (4096 * 32000 * 2, 2 * 4096 * 4)
    assert load_ceilings("h200").floor_us(cost.bytes_total, cost.flops, cost.flop_class) > 60


def test_gemm_flops_and_bytes_from_shapes():
    module = parse_module("""ko.module @m {
  %a = ko.arg 0 : tensor<4x3x5xbf16, [15, 5, 1]>
  %b = ko.arg 1 : tensor<4x5x7xbf16, [35, 7, 1]>
  %c = ko.arg 2 : tensor<64x32xf32, [32, 1]>
  %d = ko.arg 3 : tensor<32x16xf32, [16, 1]>
  %bias = ko.arg 4 : tensor<16xf32, [1]>
  %o1 = ko.extern "extern_kernels.bmm"(%a, %b) : tensor<4x3x7xbf16, [21, 7, 1]>
  %o2 = ko.alloc : tensor<64x16xf32, [16, 1]>
  ko.extern "extern_kernels.addmm"(%bias, %c, %d, alpha=1, beta=1, out=%o2)
  ko.return %o1, %o2
}
""")
    bmm, addmm = module.ops_named("extern")
    cost = library_cost(bmm, module, "vendor.cublas")
    assert (cost.flops, cost.flop_class) == (2 * 4 * 3 * 7 * 5, "bf16")
    assert cost.bytes_read == (60 + 140) * 2 and cost.bytes_written == 84 * 2
    cost = library_cost(addmm, module, "vendor.cublas")
    assert cost.flops == 2 * 64 * 16 * 32 + 64 * 16
    assert cost.bytes_read == (16 + 64 * 32 + 32 * 16) * 4


def test_attention_flops_halve_when_causal():
    text = """ko.module @m {
  %q = ko.arg 0 : tensor<2x4x128x64xbf16, [32768, 8192, 64, 1]>
  %t = ko.call "torch.ops.aten._scaled_dot_product_flash_attention.default"(%q, %q, %q, 0.0, CAUSAL) : !tuple
  %o = ko.getitem %t, 0 : tensor<2x4x128x64xbf16, [32768, 8192, 64, 1]>
  ko.return %o
}
"""
    full = parse_module(text.replace("CAUSAL", "false"))
    causal = parse_module(text.replace("CAUSAL", "true"))
    full_cost = library_cost(full.ops_named("call")[0], full, "vendor.attention")
    causal_cost = library_cost(causal.ops_named("call")[0], causal, "vendor.attention")
    assert full_cost.flops == 4 * 2 * 4 * 128 * 128 * 64
    assert causal_cost.flops == full_cost.flops // 2
    assert full_cost.bytes_written == 2 * 4 * 128 * 64 * 2
