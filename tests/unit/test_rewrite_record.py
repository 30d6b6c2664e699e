"""The typed rewrite record and target id: one conversion to and from IR attributes, one text form,
and check-legality's commit going through the IR's erase / replace API (the IR stays verified)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from kernelopt.ir.verifier import verify
from kernelopt.lift import lift_file
from kernelopt.passes.pass_manager import PassManager
from kernelopt.ir import rewrite_record
from kernelopt.passes.base import PassContext
from kernelopt.passes.check_legality import CheckLegality
from kernelopt.ir.rewrite_record import RewriteRecord, TargetId
from kernelopt.passes.pipeline import parse_pipeline
from kernelopt.rewrite.targets import group_target

REPO = Path(__file__).resolve().parents[2]
H200 = REPO / "tests" / "corpus" / "cuda-2.11-h200"
VERDICT = SimpleNamespace(line=lambda: "ACCEPT", cases_run=3, worst_rel_err=0.0)


@pytest.mark.parametrize("text, kind", [("triton_poi_fused_gelu_0", "kernel"), ("group:3", "group"),
                                        ("vendor:0", "vendor")])
def test_target_ids_parse_and_print_one_way(text, kind):
    ref = TargetId.parse(text)
    assert ref.kind == kind and str(ref) == text


def test_a_record_round_trips_its_attribute_in_the_order_it_was_written():
    attrs = {"status": "proposed", "source": "def run(*args): pass", "proposer": "retune", "strategy": "XBLOCK=64",
             "launch_config": {"XBLOCK": 64}, "speedup": 1.2, "time_us": 1.0, "baseline_us": 1.2,
             "timed_by": "static-cost-model", "evidence": {"verdict": "ACCEPT"}, "candidates": 2,
             "search": "candidate budget spent", "group": 0, "group_kind": "vertical", "replaces": ["a", "b"],
             "group_positions": [[0, 1], [1, 2]], "from_a_newer_version": True}
    record = RewriteRecord.from_attrs(attrs)
    assert record.is_proposed and record.group == 0 and record.extra == {"from_a_newer_version": True}
    assert list(record.to_attrs().items()) == list(attrs.items())
    accepted = record.accepted({"verdict": "ACCEPT"}).to_attrs()
    assert accepted["status"] == "accepted" and list(accepted)[-2:] == ["recheck", "from_a_newer_version"]
    assert not RewriteRecord() and rewrite_record.read(None) is None


def _analysed(path: Path):
    module = lift_file(str(path))
    PassManager(parse_pipeline("classify-dispatch,detect-fusion")).run(module, PassContext(options={"device": "cpu"}))
    return module


def _def_use_errors(module) -> list[str]:
    return [str(e) for e in verify(module).errors if "use" in str(e) or "owner" in str(e)]


def test_committing_a_group_rewrite_leaves_the_ir_verified():
    module = _analysed(H200 / "cross_entropy" / "large.default" / "cross_entropy.default.0.py")
    target, why = group_target(module, 0)
    assert target is not None, why
    members = rewrite_record.group_members(module, 0)
    rewrite_record.write(members[-1], RewriteRecord(
        status="proposed", source="def run(*args):\n    pass\n", group=0, group_kind="vertical",
        replaces=[op.symbol for op in members], group_positions=[list(p) for p in target.group_positions]))
    CheckLegality._commit(module, members[-1], VERDICT)
    assert all(op.parent is None for op in members) and rewrite_record.group_members(module, 0)[0].attrs["rewrite_of"]
    assert _def_use_errors(module) == []
    assert not verify(module).errors


def test_committing_a_vendor_rewrite_leaves_the_ir_verified():
    module = _analysed(H200 / "depthwise_conv" / "small.default" / "depthwise_conv.default.0.py")
    (conv,) = rewrite_record.vendor_ops(module)
    rewrite_record.write(conv, RewriteRecord(status="proposed", source="def run(*args):\n    pass\n",
                                             replaces=[conv.callee]))
    result = conv.result
    CheckLegality._commit(module, conv, VERDICT)
    assert conv.parent is None and result.owner.name == "ko.alloc" and result.owner.parent is module
    assert _def_use_errors(module) == []
    assert not verify(module).errors
