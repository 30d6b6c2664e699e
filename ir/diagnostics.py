"""Located diagnostics (error, warning, remark), as MLIR reports them: `file:line:col: error: ...`."""
from __future__ import annotations

from dataclasses import dataclass

from .core import Location, Op

SEVERITIES = ("error", "warning", "remark")


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    message: str
    loc: Location | None = None

    def __str__(self) -> str:
        where = f"{self.loc}: " if self.loc is not None else ""
        return f"{where}{self.severity}: {self.message}"


class Diagnostics:
    """Collects diagnostics emitted by the verifier and by passes."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def emit(self, severity: str, message: str, where: Op | Location | None = None) -> Diagnostic:
        loc = where.loc if isinstance(where, Op) else where
        diag = Diagnostic(severity, message, loc)
        self.items.append(diag)
        return diag

    def error(self, message: str, where: Op | Location | None = None) -> Diagnostic:
        return self.emit("error", message, where)

    def warning(self, message: str, where: Op | Location | None = None) -> Diagnostic:
        return self.emit("warning", message, where)

    def remark(self, message: str, where: Op | Location | None = None) -> Diagnostic:
        return self.emit("remark", message, where)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)
