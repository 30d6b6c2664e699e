"""The report's per-kernel rows: one per launch or library call of the original module, and one per
accepted fusion-group rewrite.

A row holds the op's dispatch class (classify-dispatch), its bound, measured time and roofline floor
(annotate-profile), the time after the rewrites, the percent of roofline before and after, and, when a
rewrite was tried, its proposer, strategy, speedup and legality evidence (check-legality's re-check).

An accepted kernel rewrite is recorded on its `ko.kernel` (`rewrite = {status = "accepted", ...}`) and
its launches stay in the IR. An accepted group rewrite does not: check-legality replaces the group's
launches by one launch of a candidate kernel (`rewrite_of`, `fusion_group`) and keeps what the analysis
passes had recorded on them in its `replaced` attribute. Each member gets its row from there, marked as
replaced by the group, right before the group's row, which sums the members' times and floors. A library
call replaced on its own (a vendor target) keeps a single row under its own name.
"""
from __future__ import annotations

from typing import Any

from kernelopt.ir.core import Module, Op
from kernelopt.ir import rewrite_record
from kernelopt.ir.rewrite_record import RewriteRecord

NONE = RewriteRecord()   # no rewrite (or none re-checked): every field absent

PROFILED_OPS = ("ko.launch", "ko.extern", "ko.call")


def kernel_rows(module: Module) -> list[dict[str, Any]]:
    """The rows of `module` (after check-legality)."""
    rows: list[dict[str, Any]] = []
    for op in module.body:
        if op.name not in PROFILED_OPS:
            continue
        if op.attrs.get("rewrite_of") and "fusion_group" not in op.attrs:
            rows.append(replacement_row(module, op))
        elif op.attrs.get("rewrite_of"):
            rows += group_rows(module, op)
        else:
            rows.append(op_row(module, op))
    return rows


# -- one launch or library call --------------------------------------------------------------------

def op_row(module: Module, op: Op) -> dict[str, Any]:
    kernel = module.kernel(op.symbol or "") if op.name == "ko.launch" else None
    rewrite = _rewrite(kernel) or _rewrite(op)  # a kernel rewrite, or a group's not yet re-checked
    row = _figures(op.symbol or op.callee, op)
    after = _after_time(row["time_us"], rewrite) if rewrite.is_accepted else row["time_us"]
    row.update(_after(after, row["floor_us"]))
    row.update(_outcome(rewrite, _rejections(kernel, op)))
    return row


def _rewrite(op: Op | None) -> RewriteRecord:
    return rewrite_record.read(op) or NONE


def _rejections(kernel: Op | None, op: Op) -> str | None:
    """Why check-legality reverted a rewrite of the kernel, or of the fusion group this launch ends."""
    found = []
    if kernel is not None and kernel.attrs.get("rewrite_rejected"):
        found.append(str(kernel.attrs["rewrite_rejected"]))
    if op.attrs.get("rewrite_rejected"):
        found.append(f"group{op.attrs.get('fusion_group', '?')}: {op.attrs['rewrite_rejected']}")
    return "; ".join(found) or None


def _figures(name: str | None, op: Op | None, attrs: dict | None = None) -> dict[str, Any]:
    """The row of an original op (or of the figures kept for it), before any rewrite."""
    attrs = attrs if attrs is not None else op.attrs if op is not None else {}
    time_us, floor_us = attrs.get("time_us"), attrs.get("floor_us")
    return {"op": name, "group": None, "replaced_by": None, "members": None,
            "dispatch": attrs.get("dispatch", ""), "bound": attrs.get("bound", ""),
            "time_us": time_us, "floor_us": floor_us, "roofline_before_pct": _pct(floor_us, time_us)}


def _after_time(before_us, rewrite: RewriteRecord):
    """The time after an accepted rewrite, on the same footing as the time before.

    The search times the original and its candidate side by side (`speedup`), under its own method
    (fresh inputs, its own L2 state); annotate-profile times the op inside the whole module. Mixing
    the profile's "before" with the search's absolute "after" showed a rewrite 1.03x faster side by side
    as 18 % slower. The profile's time divided by the side-by-side speedup keeps one method per row."""
    if before_us and rewrite.speedup:
        return round(before_us / rewrite.speedup, 3)
    return rewrite.time_us


def _after(after_us, floor_us) -> dict[str, Any]:
    return {"after_us": after_us, "roofline_pct": _pct(floor_us, after_us)}


def _pct(floor_us, time_us) -> float | None:
    return round(100 * floor_us / time_us, 1) if floor_us and time_us else None


# -- rewrite outcome and legality evidence ---------------------------------------------------------

def _outcome(rewrite: RewriteRecord, rejected: str | None) -> dict[str, Any]:
    accepted = rewrite.is_accepted
    return {"proposer": rewrite.proposer if accepted else None,
            "strategy": rewrite.strategy if accepted else None,
            "speedup": rewrite.speedup if accepted else None,
            "legality": legality(rewrite, rejected),
            "evidence": (rewrite.recheck or rewrite.evidence) if accepted else None}


def legality(rewrite: RewriteRecord, rejected: str | None) -> str | None:
    """One line of legality evidence: `ACCEPT, 12 cases, worst rel err 3.1e-07`, `REJECT: why`, or None."""
    if rejected:
        return f"REJECT: {rejected}"
    if not rewrite:
        return None
    if not rewrite.is_accepted:
        return f"{rewrite.status or 'unknown'}, not re-checked"
    recheck = rewrite.recheck or rewrite.evidence or {}
    parts = [str(recheck.get("verdict") or "ACCEPT")]
    if recheck.get("cases_run") is not None:
        parts.append(f"{recheck['cases_run']} cases")
    if recheck.get("worst_rel_err") is not None:
        parts.append(f"worst rel err {float(recheck['worst_rel_err']):.2g}")
    return ", ".join(parts)


# -- a library call replaced on its own ------------------------------------------------------------

def replacement_row(module: Module, launch: Op) -> dict[str, Any]:
    """A vendor call check-legality replaced by a kernel (a vendor target, no fusion group): one row
    under the call's name, with the figures kept for it and the replacement's time after."""
    kept = next((f for f in launch.attrs.get("replaced") or [] if isinstance(f, dict)), {})
    rewrite = _rewrite(module.kernel(launch.symbol or ""))
    row = _figures(str(kept.get("op") or launch.attrs["rewrite_of"][0]), None, kept)
    row.update(_after(_after_time(row["time_us"], rewrite) if rewrite.is_accepted else None, row["floor_us"]))
    row.update(_outcome(rewrite, None))
    return row


# -- an accepted fusion-group rewrite --------------------------------------------------------------

def group_rows(module: Module, launch: Op) -> list[dict[str, Any]]:
    """The rows of the group's members (replaced), then the row of the launch that replaced them."""
    label = f"group{launch.attrs.get('fusion_group', '?')}"
    kept = {str(f.get("op")): f for f in launch.attrs.get("replaced") or [] if isinstance(f, dict)}
    member_rows = [_figures(str(name), None, kept.get(str(name), {})) | {"replaced_by": label}
                   | _after(None, None) | _outcome(NONE, None) for name in launch.attrs["rewrite_of"]]
    rewrite = _rewrite(module.kernel(launch.symbol or ""))
    return member_rows + [_group_row(launch, label, rewrite, member_rows)]


def _group_row(launch: Op, label: str, rewrite: RewriteRecord, member_rows: list[dict]) -> dict[str, Any]:
    before = _sum(r["time_us"] for r in member_rows)
    if before is None:
        before = rewrite.baseline_us  # the group timed side by side with its replacement
    floor_us = _sum(r["floor_us"] for r in member_rows)
    bounds = sorted({r["bound"] for r in member_rows if r["bound"]})
    row = {"op": launch.symbol, "group": label, "replaced_by": None, "members": [r["op"] for r in member_rows],
           "dispatch": f"group.{rewrite.group_kind or 'vertical'}", "bound": "/".join(bounds),
           "time_us": before, "floor_us": floor_us, "roofline_before_pct": _pct(floor_us, before)}
    row.update(_after(_after_time(before, rewrite) if rewrite.is_accepted else None, floor_us))
    row.update(_outcome(rewrite, None))
    return row


def _sum(values) -> float | None:
    values = list(values)
    if not values or any(v is None for v in values):
        return None
    return round(sum(values), 6)
