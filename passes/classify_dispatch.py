"""classify-dispatch: say, for every op, who executes it (a vendor library, a Triton kernel, glue).

Sets `dispatch` on every body op and on every kernel definition, and `optimizable = true|false`
(with a `reason` when false) on launches and library calls: the rewrite pass spends effort only on
optimizable ops. Vendor GEMMs, convolutions and attention are near the hardware limit already and are
kept unless a measured replacement wins, so they are `optimizable = false` with that reason.
"""
from __future__ import annotations

from dataclasses import dataclass

from kernelopt.ir.callees import op_basename
from kernelopt.ir.core import Module, Op

from .base import Pass, PassContext

GEMM_CALLEES = ("mm", "addmm", "bias_addmm", "bmm", "baddbmm", "matmul", "_int_mm", "addmv", "mv", "dot",
                "_scaled_mm", "linear", "addbmm", "_addmm_activation")
CONV_CALLEES = ("convolution", "conv1d", "conv2d", "conv3d", "_convolution", "conv_transpose",
                "cudnn_convolution", "miopen_convolution")
ATTENTION_MARKERS = ("scaled_dot_product", "flash_attention", "efficient_attention", "cudnn_attention",
                     "_flash_attention_forward", "_efficient_attention_forward")

TRITON_KINDS = {
    "pointwise": "triton.pointwise",
    "reduction": "triton.reduction",
    "persistent_reduction": "triton.persistent_reduction",
    "template": "triton.template",
    "foreach": "triton.foreach",
    "split_scan": "triton.scan",
    "scan": "triton.scan",
    "cooperative_reduction": "triton.reduction",
    "user_autotune": "triton.other",
}
GLUE = {
    "ko.alloc": "glue.alloc", "ko.view": "glue.view", "ko.reuse": "glue.reuse", "ko.free": "glue.free",
    "ko.copy": "glue.copy", "ko.zero": "glue.copy", "ko.arg": "glue.meta", "ko.return": "glue.meta", "ko.kernel": "glue.meta",
    "ko.assert_size_stride": "glue.meta", "ko.assert_alignment": "glue.meta", "ko.getitem": "glue.meta",
}


def classify_library_call(callee: str) -> str:
    lowered = callee.lower()
    if any(marker in lowered for marker in ATTENTION_MARKERS):
        return "vendor.attention"
    base = op_basename(callee)
    if base in ("copy_", "copy"):
        return "glue.copy"
    base = base.rstrip("_")  # in-place variants (`addmm_`, `baddbmm_`) run the same library kernel
    if base in GEMM_CALLEES:
        return "vendor.cublas"
    if base in CONV_CALLEES or "convolution" in lowered:
        return "vendor.cudnn"
    return "vendor.aten"


def classify_kernel(kernel: Op | None) -> str:
    if kernel is None:
        return "unknown"
    kind = str(kernel.attrs.get("kind", ""))
    return TRITON_KINDS.get(kind, "triton.other")


@dataclass(frozen=True)
class ClassifyDispatch(Pass):
    name = "classify-dispatch"
    summary = "Mark every op vendor (cublas/cudnn/attention/aten), triton (by kind), glue or unknown"
    statistics = ("vendor.cublas", "vendor.cudnn", "vendor.attention", "vendor.aten",
                  "triton.pointwise", "triton.reduction", "triton.persistent_reduction", "triton.template",
                  "triton.foreach", "triton.scan", "triton.other", "glue.alloc", "glue.view", "glue.reuse",
                  "glue.free", "glue.copy", "glue.meta", "unknown")

    def apply(self, ctx: PassContext, module: Module) -> None:
        kernels = module.kernel_table()
        for op in module.kernels:
            op.attrs["dispatch"] = classify_kernel(op)
        for op in module.body:
            dispatch = self.classify(op, kernels)
            op.attrs["dispatch"] = dispatch
            ctx.stat(dispatch)
            self.mark_optimizable(op, dispatch)

    @staticmethod
    def classify(op: Op, kernels: dict[str, Op]) -> str:
        if op.name == "ko.launch":
            return classify_kernel(kernels.get(op.symbol or ""))
        if op.name in ("ko.extern", "ko.call"):
            return classify_library_call(op.callee or "")
        return GLUE.get(op.name, "unknown")

    @staticmethod
    def mark_optimizable(op: Op, dispatch: str) -> None:
        if op.name not in ("ko.launch", "ko.extern", "ko.call", "ko.generic"):
            return
        if dispatch.startswith("triton.") and dispatch != "triton.other":
            op.attrs["optimizable"] = True
            return
        op.attrs["optimizable"] = False
        op.attrs["reason"] = {
            "vendor.cublas": "vendor GEMM (cuBLAS) is near the hardware limit; kept unless a measured replacement wins",
            "vendor.cudnn": "vendor convolution (cuDNN) is near the hardware limit; kept unless a measured replacement wins",
            "vendor.attention": "vendor attention kernel; kept unless a measured replacement wins",
            "vendor.aten": "library op without a Triton body to rewrite",
            "triton.other": "Triton kernel of a kind the proposers do not handle",
            "unknown": "construct not modelled by the IR",
        }.get(dispatch, "not a kernel")
