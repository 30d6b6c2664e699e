"""annotate-profile: bytes, FLOPs and roofline floor of every launch and library call; measured
time, share and gap on a GPU.

Static figures (always): `bytes_read`, `bytes_written`, `flops`, `floor_us` = max(bytes / bandwidth,
flops / peak) from the ceilings table (`kernelopt/profile/ceilings.json`) of the chosen GPU,
`floor_basis` (memory | compute: the larger term), `count_method` (source | shapes | effects) and
`bound` (memory | compute | launch | near-optimal). Measured figures (CUDA device, `measure=true`, a
module lifted from a `.py` file): `time_us` (the op's device time: calls back to back in a CUDA graph on
rotated buffers, `time_method` says how), `launch_us` (the host's time to issue it once), `share` of the
whole module's device time, `gap_us` = time_us - floor_us. Measurements are cached on disk.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kernelopt.ir.core import Module, Op
from kernelopt.profile.ceilings import Ceilings, default_gpu, gpu_key_for_device_name, load_ceilings
from kernelopt.profile.counting import Cost, launch_cost, library_cost

from .base import Pass, PassContext
from .classify_dispatch import classify_library_call

if TYPE_CHECKING:
    from kernelopt.profile.timed_module import OpTime, ProfileTimes

NEAR_OPTIMAL_RATIO = 1.10   # measured within 10% of the floor
PROFILED_OPS = ("ko.launch", "ko.extern", "ko.call")


def _round(value: float) -> float:
    return float(f"{value:.4g}")


@dataclass(frozen=True)
class AnnotateProfile(Pass):
    name = "annotate-profile"
    summary = "Count bytes/FLOPs and roofline floor per launch and library call; on a GPU also measure time"
    statistics = ("annotated", "timed", "memory", "compute", "launch", "near-optimal")
    gpu: str = field(default="auto", metadata={"help": "ceilings table key (e.g. h200); auto: the CUDA device, else the table's default"})
    measure: bool = field(default=True, metadata={"help": "measure time_us on a CUDA device when one is present"})
    rounds: int = field(default=3, metadata={"help": "timing rounds per op (median of the rounds' mean time per call)"})

    def apply(self, ctx: PassContext, module: Module) -> None:
        ceilings = load_ceilings(self._gpu_key(ctx))
        module.attrs["profile_gpu"] = ceilings.gpu
        ops = [op for op in module.body if op.name in PROFILED_OPS]
        kernels = module.kernel_table()
        costs = {}
        for op in ops:
            cost = self._cost(op, module, kernels)
            costs[id(op)] = cost
            self._annotate_static(op, cost, ceilings)
            ctx.stat("annotated")
        times = self._measured_times(ctx, module, ops) if self.measure else None
        total = times.module_device_us if times else None
        for op in ops:
            timed = times.ops.get(id(op)) if times else None
            if timed is not None:
                self._annotate_measured(op, timed, total)
                ctx.stat("timed")
            bound = self._bound(op.attrs, costs[id(op)], ceilings, timed.time_us if timed else None,
                                timed.launch_us if timed else None)
            op.attrs["bound"] = bound
            ctx.stat(bound)
        if times and times.module_us:
            module.attrs["module_time_us"] = _round(times.module_us)
        if times and times.module_graph_us:
            module.attrs["module_graph_us"] = _round(times.module_graph_us)

    @staticmethod
    def _annotate_measured(op: Op, timed: "OpTime", total: float | None) -> None:
        op.attrs["time_us"] = _round(timed.time_us)
        op.attrs["time_method"] = timed.method
        if timed.launch_us is not None:
            op.attrs["launch_us"] = _round(timed.launch_us)
        op.attrs["gap_us"] = _round(timed.time_us - op.attrs["floor_us"])
        if total:
            op.attrs["share"] = _round(timed.time_us / total)

    # -- static figures --------------------------------------------------------------------------
    @staticmethod
    def _cost(op: Op, module: Module, kernels: dict[str, Op]) -> Cost:
        if op.name == "ko.launch":
            return launch_cost(op, module)
        return library_cost(op, module, classify_library_call(op.callee or ""))

    @staticmethod
    def _annotate_static(op: Op, cost: Cost, ceilings: Ceilings) -> None:
        memory_us = ceilings.memory_us(cost.bytes_total)
        compute_us = ceilings.compute_us(cost.flops, cost.flop_class)
        op.attrs["bytes_read"] = cost.bytes_read
        op.attrs["bytes_written"] = cost.bytes_written
        op.attrs["flops"] = cost.flops
        op.attrs["flop_class"] = cost.flop_class
        op.attrs["floor_us"] = _round(max(memory_us, compute_us))
        op.attrs["floor_basis"] = "compute" if compute_us > memory_us else "memory"
        op.attrs["count_method"] = cost.method
        if ceilings.status(cost.flop_class) != "measured" and compute_us > memory_us:
            op.attrs["floor_note"] = f"{cost.flop_class} peak is to be measured (datasheet placeholder)"

    @staticmethod
    def _bound(attrs: dict, cost: Cost, ceilings: Ceilings, time_us: float | None,
               launch_us: float | None = None) -> str:
        """`launch`: the op's device time is below what launching it costs, either on the GPU (the table's
        fixed cost, `ceilings.launch_us`) or on the host (`launch_us`, measured: issued as written, the GPU
        would sit idle waiting for the host, so a faster kernel would not make the module faster)."""
        floor = attrs["floor_us"]
        if time_us is not None:
            if floor > 0 and time_us <= NEAR_OPTIMAL_RATIO * floor:
                return "near-optimal"
            if time_us < max(ceilings.launch_us, launch_us or 0.0):
                return "launch"
        elif floor < ceilings.launch_us:
            return "launch"
        return attrs["floor_basis"]

    def _gpu_key(self, ctx: PassContext) -> str:
        if self.gpu != "auto":
            return self.gpu
        if _cuda_available():
            # lazy: start-up: kernelopt-opt imports every pass for its registry; torch takes seconds
            import torch

            key = gpu_key_for_device_name(torch.cuda.get_device_name())
            if key is not None:
                return key
            ctx.warning(None, f"no ceilings for '{torch.cuda.get_device_name()}'; using '{default_gpu()}' "
                              f"(add it to kernelopt/profile/ceilings.json)")
        return default_gpu()

    # -- measurement -----------------------------------------------------------------------------
    def _measured_times(self, ctx: PassContext, module: Module, ops: list[Op]) -> "ProfileTimes | None":
        device = ctx.options.get("device")
        if device == "cpu" or not _cuda_available():
            why = "no CUDA device" if not _cuda_available() else "the device is cpu"   # say only what is true
            ctx.remark(None, f"timing skipped ({why}): static figures only; bound is from arithmetic intensity")
            return None
        path = module.attrs.get("file")
        if not isinstance(path, str) or not path.endswith(".py") or not os.path.isfile(path):
            ctx.remark(None, "timing skipped: the module has no `file` attribute naming its output module "
                             "(.py): static figures only")
            return None
        # lazy: start-up: kernelopt-opt imports every pass for its registry; the timed module pulls torch
        from kernelopt.profile.timed_module import timed_ops

        try:
            return timed_ops(module, ops, path, rounds=self.rounds,
                             cache_dir=ctx.options.get("cache_dir"), use_cache=not ctx.options.get("no_cache"),
                             remark=lambda op, text: ctx.remark(op, text))
        except Exception as err:  # a module that fails on the device must not lose the static figures
            ctx.warning(None, f"timing failed ({type(err).__name__}: {err}); static figures only")
            return None


def _cuda_available() -> bool:
    try:
        # lazy: start-up: kernelopt-opt imports every pass for its registry; torch takes seconds
        import torch
    except ImportError:  # pragma: no cover
        return False
    return torch.cuda.is_available()


