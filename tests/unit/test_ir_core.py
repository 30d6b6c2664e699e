"""The IR's contract: text round-trip, use lists, effects and data flow, verifier diagnostics."""
import math

import pytest

from kernelopt.ir.attributes import DType, SymbolRef, TypeAttr
from kernelopt.ir.core import Arg, Module, Op, Value
from kernelopt.ir.effects import dataflow_graph, effects, storage_root
from kernelopt.ir.parser import KirParseError, parse_module
from kernelopt.ir.printer import print_module
from kernelopt.ir.types import TensorType
from kernelopt.ir.verifier import verify

F32 = lambda *sizes: TensorType(tuple(sizes), tuple(_contiguous(sizes)), "float32")


def _contiguous(sizes):
    strides, acc = [], 1
    for s in reversed(sizes):
        strides.insert(0, acc)
        acc *= s
    return strides


def build_module() -> Module:
    m = Module("built", {"device": "cuda:0"})
    m.add_kernel(Op("ko.kernel", symbol="scale", attrs={
        "kind": "pointwise", "source": "@triton.jit\ndef scale(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):\n    ...",
        "signature": {"in_out_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "constexpr"}}))
    arg = Value("arg0_1", F32(8, 4))
    m.append(Op("ko.arg", results=[arg], args=[Arg(0)]))
    buf = Value("buf0", F32(8, 4))
    m.append(Op("ko.alloc", results=[buf]))
    m.append(Op("ko.copy", args=[Arg(buf), Arg(arg)]))
    view = Value("buf0_v0", TensorType((4, 8), (1, 4), "float32"))
    m.append(Op("ko.view", results=[view], args=[Arg(buf)]))
    m.append(Op("ko.launch", symbol="scale", args=[Arg(view), Arg(32)], attrs={"config": {"XBLOCK": 32}}))
    m.append(Op("ko.return", args=[Arg(buf)]))
    return m


def test_printed_module_parses_back_to_the_same_text():
    text = print_module(build_module())
    assert print_module(parse_module(text)) == text
    assert "\\n" in text and text.count("\n") == 9  # the kernel source stays on one line


@pytest.mark.parametrize("value", [
    0, -7, 1.5, 1e-05, 1e20, math.inf, -math.inf, "quote \" and \\ and \n", True, False, None,
    [1, [2, 3]], (1,), (), (1, "a"), {"x": 4096, "r0_": 2}, {"odd key": 1, 3: 2},
    SymbolRef("k"), DType("bfloat16"), TypeAttr(F32(2, 3)),
])
def test_every_attribute_kind_round_trips(value):
    m = Module("attrs", {"value": value})
    parsed = parse_module(print_module(m)).attrs["value"]
    assert parsed == value and type(parsed) is type(value)


def test_nan_round_trips():
    m = parse_module(print_module(Module("n", {"v": math.nan})))
    assert math.isnan(m.attrs["v"])


def test_use_lists_follow_edits():
    m = build_module()
    buf = m.body[1].result
    assert [u.name for u, _ in buf.uses] == ["ko.copy", "ko.view", "ko.return"]
    other = m.body[0].result
    m.body[-1].set_arg(0, other)
    assert [u.name for u, _ in buf.uses] == ["ko.copy", "ko.view"]
    with pytest.raises(ValueError, match="still used"):
        m.erase(m.body[1])


def test_in_out_pointer_through_a_view_writes_the_viewed_buffer():
    m = build_module()
    launch = m.launches()[0]
    eff = effects(launch, m)
    assert [storage_root(v).name for v in eff.writes] == ["buf0"]
    assert [storage_root(v).name for v in eff.reads] == ["buf0"]


def test_dataflow_graph_orders_reads_after_writes():
    m = build_module()
    graph = dataflow_graph(m)
    copy, launch, ret = 2, 4, 5
    assert "raw" in graph.edges[copy, launch]["kinds"]     # the launch reads what the copy wrote
    assert "waw" in graph.edges[copy, launch]["kinds"]
    assert "raw" in graph.edges[launch, ret]["kinds"]


def test_out_keyword_of_a_vendor_call_is_written():
    text = """ko.module @m {
  %a = ko.arg 0 : tensor<4x4xf32, [4, 1]>
  %b = ko.alloc : tensor<4x4xf32, [4, 1]>
  ko.extern "extern_kernels.mm"(%a, %a, out=%b)
  ko.return %b
}
"""
    m = parse_module(text)
    eff = effects(m.body[2], m)
    assert [v.name for v in eff.writes] == ["b"] and [v.name for v in eff.reads] == ["a", "a"]


def test_parse_error_names_line_column_and_shows_a_caret():
    with pytest.raises(KirParseError) as info:
        parse_module("ko.module @m {\n  %a = ko.alloc : tensor<4xf32, [1]>\n  ko.free %a %a\n}\n", "f.kir")
    message = str(info.value)
    assert message.startswith("f.kir:3:14: error: unexpected '%a'")
    assert message.splitlines()[1] == "  ko.free %a %a"
    assert message.splitlines()[2] == " " * 13 + "^"


def test_verifier_reports_use_before_definition_with_location():
    m = parse_module("ko.module @m {\n  ko.free %b\n  %b = ko.alloc : tensor<4xf32, [1]>\n}\n", "x.kir")
    errors = verify(m).errors
    assert len(errors) == 1
    assert str(errors[0]) == "x.kir:2:3: error: value %b is used before its definition (defined at line 3)"


def test_verifier_catches_a_stale_use_left_by_removing_an_op_behind_the_irs_back():
    m = build_module()
    assert not verify(m).errors
    copy = m.body[2]
    m.body.remove(copy)            # what Module.erase exists for: the values still list the copy as a user
    errors = [str(e) for e in verify(m).errors]
    assert any("%buf0 lists a use by a 'ko.copy' that is no longer in the module" in e for e in errors)
    assert any("%arg0_1 lists a use by a 'ko.copy'" in e for e in errors)


def test_verifier_catches_an_argument_missing_from_its_values_uses():
    m = build_module()
    launch = m.launches()[0]
    launch.args[0].value = m.body[1].result   # set_arg would have moved the use
    errors = [str(e) for e in verify(m).errors]
    assert any("argument 0 (%buf0) is missing from the value's uses" in e for e in errors)
    assert any("%buf0_v0 lists argument 0 of this op as a use, but that argument is something else" in e
               for e in errors)


def test_replace_hands_a_used_result_to_the_new_op_and_keeps_the_module_verified():
    m = build_module()
    alloc = m.body[1]
    buf = alloc.result
    fresh = Op("ko.alloc", results=[buf], attrs={"note": "new"})
    m.replace(alloc, [fresh])
    assert m.body[1] is fresh and buf.owner is fresh and alloc.parent is None
    assert not verify(m).errors
    with pytest.raises(ValueError, match="no new op defines it"):
        m.replace(fresh, [Op("ko.alloc", results=[Value("other", F32(8, 4))])])


def test_move_after_keeps_def_use_links():
    m = build_module()
    ret, launch = m.body[-1], m.launches()[0]
    m.move_after(m.body[0], [launch])     # before the view it reads is defined: the verifier says so
    assert m.body[1] is launch
    assert [str(e) for e in verify(m).errors] == [
        "error: value %buf0_v0 is used before its definition"]
    m.move_after(m.body[-2], [launch])
    assert m.body[-1] is ret and m.body[-2] is launch and not verify(m).errors
