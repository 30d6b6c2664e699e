"""A fusion group that `fuse` (or `epilogue`) cannot rewrite gets a remark saying why.

Both proposers worked out the reason (`explain`), but agentic-rewrite's remarks and the proposer census
ask for `declined`, so a group such as a cross-entropy's reduction followed by its loss kernel showed no
reason at all: the second holdout pass found four CPU captures whose groups were silent.
"""
import io
import os

os.environ.setdefault("TRITON_INTERPRET", "1")

from pathlib import Path

from fusion_helpers import grouped_module

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.pass_manager import PassManager
from kernelopt.passes.pipeline import parse_pipeline
from kernelopt.proposers.epilogue import EpilogueProposer
from kernelopt.proposers.fuse import FuseProposer
from kernelopt.rewrite.targets import epilogue_target, group_target, kernel_target

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# torch 2.13 on the CPU: a looped log-softmax reduction, then the loss kernel reading its row max
CROSS_ENTROPY = FIXTURES / "looped-cpu-2.13" / "cross_entropy.py"
# an H200 capture: addmm, then an erf-GELU the vendor epilogue does not compute
MLP = FIXTURES / "inductor-2.11-h200" / "mlp.default.0.py"


def _group(module, kind: str) -> int:
    return next(op.attrs["fusion_group"] for op in module.body if op.attrs.get("fusion_kind") == kind)


def test_the_search_remarks_why_fuse_left_a_group_with_a_reduction(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))
    module = lift_file(str(CROSS_ENTROPY))
    ctx = PassContext(options={"device": "cpu", "progress_stream": io.StringIO()})
    pipeline = ("classify-dispatch,detect-fusion,annotate-profile,"
                "agentic-rewrite{cost-model=static max-candidates=1 proposers=fuse,epilogue}")
    PassManager(parse_pipeline(pipeline)).run(module, ctx)
    remarks = [d.message for d in ctx.diagnostics]
    assert any("group:0: fuse declined: triton_red_fused__log_softmax_0 is a reduction kernel, not pointwise" in m
               for m in remarks), remarks
    # neither proposer speaks about targets that are not its kind: no "not a group" on each kernel, and the
    # epilogue says nothing about a group without a GEMM
    assert not any("epilogue declined" in m for m in remarks), remarks
    assert not any("fuse declined: not a group" in m for m in remarks), remarks


def test_each_proposer_declines_only_its_own_kind_of_group():
    module = grouped_module(CROSS_ENTROPY)
    vertical, why = group_target(module, _group(module, "vertical"))
    assert vertical is not None, why
    kernel = kernel_target(module, vertical.kernels[0].name)
    assert "reduction kernel, not pointwise" in FuseProposer.declined(vertical)
    assert FuseProposer.declined(kernel) == "" and EpilogueProposer.declined(kernel) == ""
    assert EpilogueProposer.declined(vertical) == ""

    mlp = grouped_module(MLP)
    epilogue, why = epilogue_target(mlp, _group(mlp, "epilogue"))
    assert epilogue is not None, why
    assert "another GELU" in EpilogueProposer.declined(epilogue)
    assert FuseProposer.declined(epilogue) == ""
