"""The data-flow graph (RAW/WAR/WAW edges) and detect-fusion's groups and legality."""
from kernelopt.ir.parser import parse_module
from kernelopt.passes.base import PassContext
from kernelopt.passes.detect_fusion import DetectFusion

KERNELS = """  ko.kernel @k {kind = "pointwise", source = "", signature = {in_ptr0 = "*fp32", out_ptr0 = "*fp32", xnumel = "i32", XBLOCK = "constexpr"}}
  ko.kernel @k2 {kind = "pointwise", source = "", signature = {in_ptr0 = "*fp32", in_ptr1 = "*fp32", out_ptr0 = "*fp32", xnumel = "i32", XBLOCK = "constexpr"}}
  ko.kernel @inplace {kind = "pointwise", source = "", signature = {in_out_ptr0 = "*fp32", xnumel = "i32", XBLOCK = "constexpr"}}
"""


def module(body: str):
    args = "".join(f"  %arg{i}_1 = ko.arg {i} : tensor<64xf32, [1]>\n" for i in range(3))
    allocs = "".join(f"  %buf{i} = ko.alloc : tensor<64xf32, [1]>\n" for i in range(4))
    return parse_module("ko.module @m {\n" + KERNELS + args + allocs + body + "}\n")


def run(mod, **options):
    ctx = PassContext(current_pass="detect-fusion")
    DetectFusion(**options).apply(ctx, mod)
    return ctx


def groups(mod):
    found = {}
    for op in mod.launches():
        if "fusion_group" in op.attrs:
            found.setdefault(op.attrs["fusion_group"], []).append(op.attrs["fusion_role"])
    return found


def test_dataflow_graph_has_raw_war_and_waw_edges_on_storage():
    mod = module("""  ko.launch @k(%arg0_1, %buf0, 64)
  %v = ko.view %buf0 : tensor<8x8xf32, [8, 1]>
  ko.launch @k(%v, %buf1, 64)
  ko.launch @k(%arg1_1, %buf0, 64)
  ko.launch @k(%arg2_1, %buf0, 64)
  ko.return %buf0, %buf1
""")
    graph = mod.dataflow()
    index = {id(op): i for i, op in enumerate(mod.body)}
    first, second, third, fourth = (index[id(op)] for op in mod.launches())
    assert "raw" in graph.edges[first, second]["kinds"]        # read through a view of the same storage
    assert "war" in graph.edges[second, third]["kinds"]        # third overwrites what second read
    assert "waw" in graph.edges[third, fourth]["kinds"]
    assert graph.edges[first, second]["storage"] == "buf0"


def test_producer_consumer_chain_is_one_vertical_group():
    mod = module("""  ko.launch @k(%arg0_1, %buf0, 64)
  ko.launch @k(%buf0, %buf1, 64)
  ko.launch @inplace(%buf1, 64)
  ko.return %buf1
""")
    ctx = run(mod)
    assert groups(mod) == {0: ["producer", "consumer", "consumer"]}
    assert all(op.attrs["fusion_kind"] == "vertical" for op in mod.launches())
    assert ctx.statistics["detect-fusion"]["vertical"] == 1


def test_an_intervening_writer_splits_the_group():
    mod = module("""  ko.launch @k(%arg0_1, %buf0, 64)
  ko.launch @k(%arg2_1, %arg1_1, 64)
  ko.launch @k2(%buf0, %arg1_1, %buf1, 64)
  ko.return %buf1
""")
    ctx = run(mod)
    first, writer, consumer = mod.launches()
    # the writer of %arg1_1 depends on nothing the first kernel wrote; the consumer reads both:
    # {first, consumer} would have to run around the writer, which changes a buffer they use.
    assert "fusion_group" not in first.attrs or first.attrs["fusion_group"] != consumer.attrs.get("fusion_group")
    assert any("writes a buffer the group uses in between" in d.message for d in ctx.diagnostics)


def test_a_refusal_names_the_group_as_it_stood_then():
    """A fourth-holdout layer norm read "not fusing _4 with _0: _3 writes a buffer the group uses in between" and
    then "the group already has max-group=4 ops", _3 by then in the group: the first now names the group it meant."""
    mod = module("""  ko.launch @k(%arg0_1, %buf0, 64)
  ko.launch @k(%buf0, %buf2, 64)
  ko.launch @k(%arg2_1, %arg1_1, 64)
  ko.launch @k2(%buf2, %arg1_1, %buf1, 64)
  ko.return %buf1
""")
    ctx = run(mod)
    refusals = [d.message for d in ctx.diagnostics if "writes a buffer the group uses in between" in d.message]
    assert refusals and all("(the group then: @k, @k): @k" in m for m in refusals), refusals


def test_max_group_caps_group_size_and_says_why():
    body = "  ko.launch @k(%arg0_1, %buf0, 64)\n" + "".join(
        f"  ko.launch @k(%buf{i}, %buf{i + 1}, 64)\n" for i in range(3)) + "  ko.return %buf3\n"
    mod = module(body)
    ctx = run(mod, max_group=2)
    assert groups(mod) == {0: ["producer", "consumer"], 1: ["producer", "consumer"]}
    assert any("max-group=2" in d.message for d in ctx.diagnostics)
    mod = module(body)
    run(mod)
    assert groups(mod) == {0: ["producer", "consumer", "consumer", "consumer"]}


def test_independent_readers_of_one_input_are_horizontal_siblings():
    mod = module("""  ko.launch @k(%arg0_1, %buf0, 64)
  ko.launch @k(%arg0_1, %buf1, 64)
  ko.launch @k(%arg0_1, %buf2, 64)
  ko.return %buf0, %buf1, %buf2
""")
    run(mod)
    assert groups(mod) == {0: ["sibling", "sibling", "sibling"]}
    assert mod.launches()[0].attrs["fusion_kind"] == "horizontal"


def test_escaping_intermediates_are_listed_on_the_producer():
    mod = module("""  ko.launch @k(%arg0_1, %buf0, 64)
  ko.launch @k(%buf0, %buf1, 64)
  ko.launch @k2(%buf0, %buf1, %buf2, 64)
  ko.free %buf1
  ko.launch @k2(%buf0, %arg1_1, %buf3, 64)
  ko.return %buf2, %buf3
""")
    run(mod, max_group=3)
    producer = mod.launches()[0]
    assert producer.attrs["fusion_group"] == mod.launches()[2].attrs["fusion_group"]
    assert producer.attrs["escapes"] == ["buf0"]     # buf1 is consumed inside the group only
