"""Build the optimize report: per kernel and per model, as JSON, markdown and a plot.

Per kernel (rows from kernel_rows.py): dispatch class, time before and after, floor, percent of roofline
before and after, the proposer and strategy that won, and the legality evidence; every launch of the
original module has a row, and an accepted fusion-group rewrite a row of its own after its members'.
Per model (on a GPU): end-to-end times of eager, Inductor default, max-autotune-no-cudagraphs,
max-autotune and KernelOPT, measured side by side in one run with fresh inputs per call; the headline
is the ratio against the best Inductor mode.
"""
from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import torch

from kernelopt.errors import UsageError
from kernelopt.ir.core import Module
from kernelopt.report.e2e import end_to_end
from kernelopt.report.kernel_rows import kernel_rows
from kernelopt.user_files import check_folder_writable


REPORT_FILES = ("report.md", "report.json", "report.png")
_MARKDOWN_TITLE = "# KernelOPT report"
# A tEXt chunk in the plot, so that a later job can tell its own plot from a picture the user keeps there.
_PLOT_METADATA = {"Software": "KernelOPT report"}


def _is_our_report_file(path: Path) -> bool:
    try:
        if path.suffix == ".md":
            with open(path, encoding="utf-8", errors="replace") as handle:
                return handle.readline().startswith(_MARKDOWN_TITLE)
        if path.suffix == ".json":
            report = json.loads(path.read_text())
            return isinstance(report, dict) and {"steps", "environment"} <= report.keys()
        return _PLOT_METADATA["Software"].encode() in path.read_bytes()[:4096]
    except (OSError, ValueError):
        return False


def check_report_writable(folder: str | Path, force: bool, job_files: tuple[Path, ...] = ()) -> None:
    """Refuse (exit 2), before the job starts, a `--report` folder that is a file or holds a report.md,
    report.json or report.png that KernelOPT did not write: the report would replace the user's file.
    An earlier job's report there is replaced; `--force` lifts the refusal. `job_files`: the files the job
    itself writes (the module and its sidecar), which the folder cannot be."""
    folder = Path(folder)
    if any(folder.resolve() == Path(path).resolve() for path in job_files):
        raise UsageError(f"--report {folder} is where the job writes its module or argument mapping: give a folder "
                         "of its own")
    check_folder_writable(folder, REPORT_FILES, force, "--report", _is_our_report_file, "was not written by KernelOPT",
                          "report", holds="report.md, report.json and report.png go there")


# With the static cost model no kernel is timed, yet the table has figures after and speedups: say whose.
STATIC_ESTIMATES_NOTE = ("Times after, speedups and % of roofline after are the static cost model's estimates "
                         "(`cost_model` static: deterministic figures for ranking candidates, not measurements).")


def _fmt(value, digits=1) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits + 2}g}"
    return str(value)


def _steps_table(report: dict[str, Any]) -> list[str]:
    """Steps with their time and, where measured, the job's device-memory peak and temp-disk growth."""
    memory = (report.get("device_memory") or {}).get("steps") or {}
    disk = (report.get("disk") or {}).get("steps") or {}
    lines = ["## Steps", "", "| step | status | detail | s | peak device memory | temp disk |",
             "| --- | --- | --- | --- | --- | --- |"]
    for s in report["steps"]:
        lines.append(f"| {s['name']} | {s['status']} | {s['detail']} | {s['seconds']} | "
                     f"{_bytes(memory.get(s['name']))} | {_bytes(disk.get(s['name']))} |")
    device, disk_figures = report.get("device_memory") or {}, report.get("disk") or {}
    if device.get("peak_bytes") is not None:
        lines.append(f"\nJob peak device memory (all its processes, NVML): {_bytes(device['peak_bytes'])} above "
                     f"the {_bytes(device.get('baseline_bytes'))} in use when it started.")
    elif device.get("reason"):
        lines.append(f"\nJob peak device memory: not measured ({device['reason']}).")
    if disk_figures.get("peak_growth_bytes") is not None:
        kept = disk_figures.get("folder") if disk_figures.get("removed") is False else None
        end = f"kept at {kept} (--keep-work)" if kept else "removed at the end"
        lines.append(f"\nJob work folder: peak {_bytes(disk_figures['peak_growth_bytes'])}, {end}.")
    return lines


def _bytes(value) -> str:
    if value is None:
        return "–"
    return f"{value / 2**30:.2f} GiB" if value >= 2**30 else f"{value / 2**20:.1f} MiB"


def write_minimal_report(folder: Path, steps, figures: dict[str, Any], work_dir: str | Path | None = None) -> dict[str, Any]:
    """The report when the full one cannot be built (no module, or building it failed): what ran, the
    job's status and why, and its memory and disk figures. Paths into `work_dir` (removed when the job
    ends) are made relative to it, as in the full report."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton

    folder.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"model": "", "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds"), "environment": {"device": None, "gpu": None, "torch": torch.__version__,
                                             "triton": triton.__version__},
        "precision": "", "steps": [dict(s.__dict__) for s in steps], "kernels": [],
        "plot_note": "no plot: the job ended before it had kernels to plot", **figures}
    if report.get("fallback_reason"):
        report["fallback_reason"] = without_work_dir(str(report["fallback_reason"]), work_dir)
    for step in report["steps"]:
        step["detail"] = without_work_dir(str(step.get("detail", "")), work_dir)
    (folder / "report.json").write_text(json.dumps(report, indent=1, default=str))
    lines = ["# KernelOPT report", "", f"**Status: {report.get('status')}**"
             + (f": {report['fallback_reason']}" if report.get("fallback_reason") else ""), ""]
    (folder / "report.md").write_text("\n".join(lines + _steps_table(report)) + "\n")
    # An earlier job's plot would otherwise sit beside this report, describing kernels of another run.
    (folder / "report.png").unlink(missing_ok=True)
    return report


def markdown(report: dict[str, Any]) -> str:
    env = report["environment"]
    lines = [f"# KernelOPT report: {report['model']}", "",
             f"{report['date']} · device {env.get('gpu') or env.get('device')} · torch {env['torch']} · "
             f"triton {env['triton']} · precision {report['precision']}"
             + (f" · starting from Inductor {report['base_mode']}" if report.get("base_mode") else ""), ""]
    if report.get("status") and report["status"] != "optimized":
        lines += [f"**Status: {report['status']}**" + (f": {report['fallback_reason']}" if report.get("fallback_reason")
                                                      else ""), ""]
    if report.get("headline"):
        lines += [f"**{report['headline']}**", ""]
    lines += _steps_table(report)
    e2e = report.get("end_to_end_ms")
    lines += ["", "## End to end", ""]
    if e2e:
        lines += ["| variant | ms per call | vs best Inductor | latency ms |", "| --- | --- | --- | --- |"]
        best = report.get("best_inductor_ms")
        latency = report.get("end_to_end_latency_ms") or {}
        for name, ms in e2e.items():
            ratio = f"{best / ms:.3f}x" if best and ms else "–"
            lines.append(f"| {name} | {_fmt(ms, 3)} | {ratio} | {_fmt(latency.get(name), 3)} |")
        if report.get("end_to_end_method"):
            lines += ["", report["end_to_end_method"]]
        if report.get("end_to_end_note"):       # a mode left out under the memory bound
            lines += ["", report["end_to_end_note"]]
    else:
        lines.append(report.get("end_to_end_note", "not measured"))
    lines += ["", "## Kernels", ""]
    if report.get("cost_model") == "static":
        lines += [STATIC_ESTIMATES_NOTE, ""]
    lines += kernel_table(report["kernels"])
    if report.get("remarks"):
        lines += ["", "## Remarks", ""] + [f"- {m}" for m in report["remarks"]]
    return "\n".join(lines) + "\n"


KERNEL_COLUMNS = ("op", "dispatch", "bound", "time µs", "after µs", "speedup", "floor µs", "% roofline before",
                  "% roofline after", "proposer", "strategy", "legality")


def kernel_table(rows: list[dict[str, Any]]) -> list[str]:
    """The per-kernel table: a replaced member of a fusion group says `→ groupN` where its time after
    would be, and the group's row (`**groupN**: member + member`) sums the members' times and floors."""
    lines = ["| " + " | ".join(KERNEL_COLUMNS) + " |", "|" + " --- |" * len(KERNEL_COLUMNS)]
    for r in rows:
        after = f"→ {r['replaced_by']}" if r.get("replaced_by") else _fmt(r["after_us"])
        speedup = f"{r['speedup']:.3g}x" if r.get("speedup") else "–"
        cells = [_op_cell(r), r["dispatch"], r["bound"], _fmt(r["time_us"]), after, speedup, _fmt(r["floor_us"]),
                 _fmt(r.get("roofline_before_pct")), _fmt(r["roofline_pct"]), _fmt(r["proposer"]),
                 _fmt(r["strategy"]), _fmt(r["legality"])]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return lines


def _op_cell(row: dict[str, Any]) -> str:
    if row.get("members"):
        return f"**{row['group']}**: " + " + ".join(str(m) for m in row["members"])
    return str(row["op"])


def plot_layout(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Where the per-launch bars go. Kernel names share long prefixes (`triton_per_fused__log_softmax_...`),
    so each launch is labelled by its number (`k1`, `k2`, ...) and the full names are listed under the plot.
    Each launch's bars (before, after when measured; floor always) are centred on its tick."""
    names = [str(r.get("group") or r["op"]) for r in rows]
    values = {"before": [r["time_us"] or 0 for r in rows], "after": [r["after_us"] or 0 for r in rows],
              "floor": [r["floor_us"] or 0 for r in rows]}
    shown = [s for s in ("before", "after") if any(values["before"])] + ["floor"]
    width = 0.8 / len(shown)
    series = {s: {"x": [i + (j - (len(shown) - 1) / 2) * width for i in range(len(rows))], "height": values[s],
                  "width": width} for j, s in enumerate(shown)}
    labels = [f"k{i + 1}" for i in range(len(rows))]
    return {"ticks": list(range(len(rows))), "labels": labels, "series": series,
            "legend": [f"{label}  {name}" for label, name in zip(labels, names)]}


def plot(report: dict[str, Any], path: Path) -> str | None:
    try:
        # lazy: optional dependency (extra 'plot')
        import matplotlib

        matplotlib.use("Agg")
        # lazy: optional dependency (extra 'plot'), after selecting the Agg backend
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed: no plot (pip install 'kernelopt[plot]')"
    rows = [r for r in report["kernels"] if r["floor_us"] and not r.get("replaced_by")]  # a group row sums its members
    layout = plot_layout(rows)
    legend_inches = 0.18 * len(layout["legend"]) + 0.4
    fig = plt.figure(figsize=(13, 4.5 + legend_inches))
    grid = fig.add_gridspec(2, 2, height_ratios=[4.5, legend_inches])
    axes = [fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])]
    for label, bars in layout["series"].items():
        axes[0].bar(bars["x"], bars["height"], bars["width"], label=label)
    axes[0].set_xticks(layout["ticks"], layout["labels"], fontsize=8)
    axes[0].set_ylabel("µs")
    axes[0].set_title("per launch: time and roofline floor")
    axes[0].legend()
    e2e = report.get("end_to_end_ms") or {}
    if e2e:
        axes[1].bar(list(e2e), list(e2e.values()), color="tab:gray")
        axes[1].set_ylabel("ms")
        axes[1].set_title("end to end (same run)")
        axes[1].tick_params(axis="x", rotation=30)
    else:
        axes[1].text(0.5, 0.5, report.get("end_to_end_note", "not measured"), ha="center", va="center", wrap=True)
        axes[1].axis("off")
    names = fig.add_subplot(grid[1, :])
    names.axis("off")
    names.text(0, 1, "\n".join(layout["legend"]), va="top", ha="left", family="monospace", fontsize=8,
               transform=names.transAxes)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata=_PLOT_METADATA)
    plt.close(fig)
    return None


def without_work_dir(text: str, work_dir: str | Path | None) -> str:
    """`text` with paths inside the job's work folder made relative to it: the folder is removed when the job
    ends, so the report names the file (`softmax.default.0.py:12: ...`), not a path that no longer exists."""
    if not work_dir:
        return text
    for form in {str(work_dir), str(Path(work_dir).resolve())}:
        text = text.replace(form.rstrip("/") + "/", "")
    return text


def write_report(folder: Path, module: Module, ctx, steps, manifest, module_path, out_path, model, options,
                 device, inputs, extra=None, work_dir: str | Path | None = None) -> dict[str, Any]:
    """`extra()`: the job's own figures (status, memory, disk), read last so they include the timing here.
    `work_dir`: the job's work folder, which no path in the report may point into (see without_work_dir)."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    import triton

    folder.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "model": (manifest or {}).get("name") or Path(module_path).stem,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "environment": {"device": device, "gpu": torch.cuda.get_device_name() if device == "cuda" else None,
                        "torch": torch.__version__, "triton": triton.__version__},
        "precision": options.precision, "base": options.base, "cost_model": options.cost_model,
        "base_mode": (manifest or {}).get("base_mode"), "output": str(out_path),
        "steps": [s.__dict__ for s in steps], "kernels": kernel_rows(module),
        "remarks": [without_work_dir(str(d), work_dir) for d in ctx.diagnostics
                    if d.severity in ("remark", "warning")],
        "statistics": {k: dict(v) for k, v in ctx.statistics.items()},
    }
    if device == "cuda" and (model or options.entry):
        timed = end_to_end(model, options, str(out_path), module_bytes=(manifest or {}).get("device_peak_bytes"))
        report["end_to_end_ms"], report["end_to_end_latency_ms"] = timed["per_call"], timed["latency"]
        if timed.get("note"):
            report["end_to_end_note"] = timed["note"]
        report["end_to_end_method"] = ("ms per call: median of batches of back-to-back calls with rotated fresh "
                                       "inputs (headline); latency: one synchronized call with the GPU idle")
        inductor = {k: v for k, v in report["end_to_end_ms"].items() if k.startswith("inductor")}
        if inductor and report["end_to_end_ms"].get("kernelopt"):
            best_name = min(inductor, key=inductor.get)
            report["best_inductor_ms"] = inductor[best_name]
            speedup = inductor[best_name] / report["end_to_end_ms"]["kernelopt"]
            report["headline"] = f"KernelOPT is {speedup:.3f}x the best Inductor mode ({best_name})"
    else:
        report["end_to_end_note"] = ("not measured: end-to-end timing needs a CUDA device" if device != "cuda"
                                     else "not measured: the input was an output module, not a model")
    report.update(extra() if extra else {})
    if report.get("fallback_reason"):
        report["fallback_reason"] = without_work_dir(str(report["fallback_reason"]), work_dir)
    for step in report["steps"]:
        step["detail"] = without_work_dir(str(step.get("detail", "")), work_dir)
    (folder / "report.json").write_text(json.dumps(report, indent=1, default=str))
    note = plot(report, folder / "report.png")
    if note:
        report["plot_note"] = note
        (folder / "report.png").unlink(missing_ok=True)      # an earlier job's plot, of another run's kernels
    (folder / "report.md").write_text(markdown(report))
    return report
