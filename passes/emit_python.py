"""emit-python: write the optimized module as Python source to `ctx.artifacts["python"]`.

`standalone` (default): a module that needs only torch and triton on a GPU: plain `@triton.jit`
kernels, explicit launch configurations, the same `call(args)` contract as the input.
`patched`: the input module's text with only the rewritten kernels and their launches changed.
Launches get `config` (with `grid`) and `config_source` attributes in the IR as a side effect, so a
test can pin the launch configurations that were emitted.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kernelopt.cuda_graph_options import CUDA_GRAPHS_HELP, OUTPUTS_HELP, check_graph_options
from kernelopt.errors import UsageError
from kernelopt.inductor_source import unsupported_parts
from kernelopt.ir.core import Module
from kernelopt.ir.user_errors import InputError

from .base import Pass, PassContext, PassFailure


@dataclass(frozen=True)
class EmitPython(Pass):
    name = "emit-python"
    summary = "Emit the module as Python: standalone (torch + triton only) or patched (minimal diff)"
    statistics = ("kernels", "launches", "rewritten", "config.capture", "config.measured", "config.heuristic",
                  "config.template", "config.retune", "config.autotune")
    style: str = field(default="standalone", metadata={"help": "standalone | patched"})
    config_policy: str = field(default="auto", metadata={
        "help": "for launches without a recorded config: auto (autotune for a GPU module, most-work for a CPU "
                "one) | autotune (timed at the first launch) | first (Inductor's first heuristic config) | most-work"})
    retime_recorded: bool = field(default=True, metadata={
        "help": "a GPU module times a capture's recorded config again at the first launch, first among Inductor's "
                "heuristic configs, as Inductor's runtime does in every process (a recorded pick is one noisy "
                "benchmark); false launches the recorded config"})
    cuda_graphs: str = field(default="auto", metadata={"help": "auto | on | off: " + CUDA_GRAPHS_HELP})
    outputs: str = field(default="fresh", metadata={"help": "fresh | static: " + OUTPUTS_HELP})

    def apply(self, ctx: PassContext, module: Module) -> None:
        # lazy: start-up: kernelopt-opt imports every pass for its registry; codegen pulls jinja2
        from kernelopt.codegen import STYLES, emit_python
        from kernelopt.codegen.standalone_module import EmitOptions, accepted_rewrite

        if self.style not in STYLES:
            raise PassFailure(f"unknown style {self.style!r}: use one of {', '.join(STYLES)}")
        try:
            check_graph_options(self.cuda_graphs, self.outputs)
        except UsageError as err:
            raise PassFailure(str(err).replace("--cuda-graphs", "cuda-graphs").replace("--outputs", "outputs")) from None
        unsupported = unsupported_parts(module)
        if unsupported.cpp_kernels:
            raise PassFailure(f"@{unsupported.cpp_kernels[0]} is a C++ kernel (Inductor's CPU backend); emit-python "
                              "writes Triton kernels only (keep the Inductor module for this one)")
        if unsupported.symbolic_shapes:
            symbols = ", ".join(unsupported.symbols) or "symbolic sizes"
            raise PassFailure(f"the module has symbolic sizes ({symbols}); emit-python writes static-shape "
                              "modules only (keep the Inductor module for this one)")
        options = EmitOptions(config_policy=self.config_policy, gpu=ctx.options.get("gpu"),
                              retime_recorded=self.retime_recorded, cuda_graphs=self.cuda_graphs, outputs=self.outputs)
        try:
            source = emit_python(module, self.style, options=options, remark=ctx.remark)
        except InputError as err:
            raise PassFailure(str(err)) from None
        ctx.artifacts["python"] = source
        ctx.stat("kernels", len(module.kernels))
        ctx.stat("launches", len(module.launches()))
        ctx.stat("rewritten", sum(1 for op in module.walk() if accepted_rewrite(op) is not None))
        for launch in module.launches():
            if "config_source" in launch.attrs:
                ctx.stat(f"config.{launch.attrs['config_source']}")
