"""Two example passes a third party could ship.

`example-tag` writes its options onto every launch, so tests can see how pipeline options of each
type (int, float, bool, str, list) arrive. `example-break` deliberately leaves invalid IR (a use of a
freed buffer), so tests can exercise `--verify-each` and `--print-ir-after-failure`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kernelopt.ir.core import Arg, Op
from kernelopt.passes.base import Pass


@dataclass(frozen=True)
class ExampleTag(Pass):
    name = "example-tag"
    summary = "Tag every launch with this pass's options (an example plugin)"
    statistics = ("tagged",)
    label: str = "tag"
    count: int = 1
    ratio: float = 0.5
    enabled: bool = True
    names: list[str] = field(default_factory=list)

    def apply(self, ctx, module):
        if not self.enabled:
            return
        for op in module.launches():
            op.attrs["tag"] = {"label": self.label, "count": self.count, "ratio": self.ratio,
                               "names": list(self.names)}
            ctx.stat("tagged")
            ctx.remark(op, f"tagged with {self.label}")


@dataclass(frozen=True)
class ExampleBreak(Pass):
    name = "example-break"
    summary = "Free the first allocated buffer right after its allocation (breaks the IR on purpose)"

    def apply(self, ctx, module):
        for index, op in enumerate(module.body):
            if op.name == "ko.alloc":
                module.insert(index + 1, Op("ko.free", args=[Arg(op.result)]))
                return
