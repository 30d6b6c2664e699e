"""The pass API: what every pass is, and the context it runs in.

A pass is a frozen dataclass with a kebab-case `name`, a one-line `summary`, the `statistics` it
counts, its options as dataclass fields (`max_group: int = 4` is written `max-group=4` in a
pipeline), and `apply(ctx, module)`. A pass reads and writes only the IR and the context: results are
op attributes, so the next pass (and a FileCheck test) sees them in the printed IR.

    @dataclass(frozen=True)
    class CountLaunches(Pass):
        name = "count-launches"
        summary = "Count kernel launches"
        statistics = ("launches",)

        def apply(self, ctx, module):
            ctx.stat("launches", len(module.launches()))
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kernelopt.ir.core import Module, Op
from kernelopt.ir.diagnostics import Diagnostics


class PassFailure(Exception):
    """Raised by a pass that cannot complete; the pass manager reports it with the pass's name."""


@dataclass
class PassContext:
    """What passes share besides the IR: diagnostics, statistics, run options and artifacts.

    `options` holds driver-level settings every pass may read (e.g. `device`, `cache_dir`,
    `no_cache`); `artifacts` holds non-IR results a pass produces for the driver (the emitted Python
    source, a report). Nothing in here carries state from one pass to the next behind the IR's back.
    """

    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    statistics: dict[str, Counter] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    artifacts: dict[str, Any] = field(default_factory=dict)
    current_pass: str = ""

    def stat(self, name: str, amount: int = 1) -> None:
        self.statistics.setdefault(self.current_pass, Counter())[name] += amount

    def remark(self, op: Op | None, message: str) -> None:
        self.diagnostics.remark(f"[{self.current_pass}] {message}", op)

    def warning(self, op: Op | None, message: str) -> None:
        self.diagnostics.warning(f"[{self.current_pass}] {message}", op)

    def error(self, op: Op | None, message: str) -> None:
        self.diagnostics.error(f"[{self.current_pass}] {message}", op)

    def device(self) -> str:
        """The device passes run and time on: the driver's `device` option, else cuda when available."""
        device = self.options.get("device")
        if device:
            return str(device)
        # lazy: start-up: only when the driver named no device, so importing the pass API stays light
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass(frozen=True)
class Pass:
    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    statistics: ClassVar[tuple[str, ...]] = ()

    def apply(self, ctx: PassContext, module: Module) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def option_fields(cls) -> list[dataclasses.Field]:
        return [f for f in dataclasses.fields(cls) if f.init]

    @staticmethod
    def option_name(field_name: str) -> str:
        return field_name.replace("_", "-")

    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        """Each option's default by field name (a fresh copy of a list default); drivers take theirs from here."""
        return {f.name: f.default if f.default is not dataclasses.MISSING else (
                    f.default_factory() if f.default_factory is not dataclasses.MISSING else None)
                for f in cls.option_fields()}

    def pipeline_text(self) -> str:
        """This pass as it would be written in a pipeline, with its non-default options."""
        options = []
        defaults = self.option_defaults()
        for f in self.option_fields():
            value = getattr(self, f.name)
            default = defaults[f.name]
            if value != default:
                options.append(f"{self.option_name(f.name)}={_format_option(value)}")
        return self.name + ("{" + " ".join(options) + "}" if options else "")


def _format_option(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    text = str(value)
    return f'"{text}"' if " " in text else text
