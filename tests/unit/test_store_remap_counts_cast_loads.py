"""store-remap's decline counts a kernel's loads truly when a load is cast as it is read
(`tmp0 = tl.load(in_out_ptr0 + (x0), xmask).to(tl.float32)`, what Inductor writes for every bf16 load). The third
holdout pass (a bf16 SwiGLU: silu(Linear(x)) * Linear(x), torch 2.13 on the CPU) found store-remap declining the
GEMM's epilogue group with "0 loads and 1 stores": the kernel has two loads, both cast; only a bare
`name = tl.load(...)` was counted."""
import os

os.environ.setdefault("TRITON_INTERPRET", "1")

from pathlib import Path

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.store_remap import StoreRemapProposer
from kernelopt.rewrite.targets import epilogue_target

SWIGLU = Path(__file__).resolve().parents[1] / "fixtures" / "swiglu-bf16-cpu-2.13" / "swiglu_linear_bf16.py"


def test_a_kernel_with_two_cast_loads_is_declined_for_its_two_loads():
    module = lift_file(str(SWIGLU))
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = epilogue_target(module, 0)
    assert target is not None, why
    assert list(StoreRemapProposer().propose(target, [])) == []
    remark = StoreRemapProposer.declined(target)
    assert "2 loads and 1 stores" in remark, remark
