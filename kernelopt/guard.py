"""The last step of `optimize`: the emitted module must not be slower than the module it replaces.

Each rewrite was measured faster on its own, but the whole module is what a user runs: host work,
launches and allocations add up differently. So on a GPU the emitted module and the Inductor module
it came from run side by side in one process, on the same (rotated) inputs, issued back to back as a
model loop issues them, in interleaved rounds. When the emitted module's median time exceeds the
original's, `optimize` writes the Inductor module out unchanged and the report says why: when nothing
wins, the original stays. A module in which no rewrite was kept (the same kernels, relaunched) must be
measurably faster, by more than one run's spread, or the original stays too.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

import torch

from kernelopt.runtime.execute import validate_inputs
from kernelopt.runtime.loader import load_output_module
from kernelopt.runtime.timing import back_to_back_ms, rotating
from kernelopt.tensor_layout import layout_copy

# emitted/original above this keeps the original. Not the 2% spread of repeated runs: a module whose
# rewrites show no module-level win has nothing to offer its user, and a module kept within that
# spread could show up slower in the results table (measured: benchmarks/results/).
TOLERANCE = 1.0
# The same, for an emitted module in which no rewrite was kept: nothing in it was measured faster on its own,
# and a tie is no reason to hand a user a module that re-picks its launch configurations in every process.
# On an H200 an argmax module the guard timed at 1.000x (0.1299 ms each) measured 0.900x in a fresh
# process (benchmarks/results/2026-12-06-h200). 1 %: the spread of one side-by-side run.
UNCHANGED_TOLERANCE = 0.99


def tolerance_for(rewrites: int) -> float:
    """The ratio (emitted / original) at or below which the emitted module is kept."""
    return TOLERANCE if rewrites else UNCHANGED_TOLERANCE


@dataclass
class GuardResult:
    original_ms: float
    emitted_ms: float
    tolerance: float = TOLERANCE
    graphs: dict | None = None    # the emitted module's cuda_graphs.stats() after timing (None: no graphs)

    @property
    def ratio(self) -> float:
        """emitted / original: below 1 the emitted module is faster."""
        return self.emitted_ms / self.original_ms if self.original_ms > 0 else float("inf")

    @property
    def keep_emitted(self) -> bool:
        return self.ratio <= self.tolerance

    def detail(self) -> str:
        figures = (f"emitted {self.emitted_ms:.4f} ms vs original {self.original_ms:.4f} ms per call "
                   f"(side by side, back to back{graphs_summary(self.graphs)})")
        if self.keep_emitted:
            return f"{figures}: {self.original_ms / self.emitted_ms:.3f}x"
        if self.tolerance < TOLERANCE:
            return (f"{figures}: no rewrite was kept and the emitted module is {self.ratio:.3f}x the original's "
                    f"time (not below {self.tolerance}), so the Inductor module is written out unchanged")
        return (f"{figures}: the emitted module is {self.ratio:.3f}x the original's time (> {self.tolerance}), "
                "so the Inductor module is written out unchanged")


def time_side_by_side(original_path: str, emitted_path: str, inputs: list | None, rounds: int = 5,
                      tolerance: float = TOLERANCE) -> GuardResult:
    """Median ms per call of both modules' call(), interleaved rounds, on a CUDA device."""
    original = load_output_module(original_path, "cuda", hooks=False)
    emitted = load_output_module(emitted_path, "cuda", hooks=False)
    args = ([a.cuda() if isinstance(a, torch.Tensor) else a for a in inputs] if inputs is not None
            else original.get_args())
    validate_inputs(emitted, args)
    run_original = rotating(original.call, args)
    run_emitted = rotating(emitted.call, args, run_original.copies)
    times: dict[str, list[float]] = {"original": [], "emitted": []}
    for _ in range(max(1, rounds)):
        times["original"].append(back_to_back_ms(run_original))
        times["emitted"].append(back_to_back_ms(run_emitted))
    graphs = emitted.namespace.get("cuda_graphs")
    return GuardResult(statistics.median(times["original"]), statistics.median(times["emitted"]), tolerance,
                       graphs=graphs.stats() if graphs is not None else None)


# Inputs the CPU check runs the emitted module on (Triton's interpreter runs each kernel program by program): past
# this many elements in all, it is not run, and the report says so.
RUN_ONCE_MAX_ELEMENTS = 1 << 20


class OriginalDoesNotRun(Exception):
    """The Inductor module itself fails on the inputs at hand: run_once_on_cpu has nothing to compare with."""


def run_once_on_cpu(original_path: str, emitted_path: str, inputs: list) -> str:
    """Where no GPU times the two modules: the emitted module's call() run once on the CPU (Triton's interpreter),
    beside the original's. '' when it runs and returns what the original returns (as many outputs, the same
    shapes and dtypes); else what went wrong. Each rewrite was proven by the legality gate on its own: this
    catches the module around them (a launch of a name the module does not define, arguments out of order)."""
    original = load_output_module(original_path, "cpu", hooks=False)
    emitted = load_output_module(emitted_path, "cpu", hooks=False)

    def copies() -> list:  # with the inputs' own strides (a broadcast input stays broadcast): the modules assert them
        return [layout_copy(a) if isinstance(a, torch.Tensor) else a for a in inputs]

    try:
        want = original.call(copies())
    except Exception as err:  # noqa: BLE001 - nothing to compare with: the check does not apply
        raise OriginalDoesNotRun(f"{type(err).__name__}: {str(err)[:200]}") from None
    try:
        got = emitted.call(copies())
    except Exception as err:  # noqa: BLE001 - any failure of the written module is the finding
        return f"the emitted module fails when called: {type(err).__name__}: {str(err)[:300]}"
    want, got = tuple(want or ()), tuple(got or ())
    if len(want) != len(got):
        return f"the emitted module returns {len(got)} outputs, the original {len(want)}"
    for index, (w, g) in enumerate(zip(want, got)):
        if isinstance(w, torch.Tensor) != isinstance(g, torch.Tensor) or isinstance(w, torch.Tensor) and \
                (w.shape != g.shape or w.dtype != g.dtype):
            return f"output {index}: the emitted module returns {_describe(g)}, the original {_describe(w)}"
    return ""


def _describe(value) -> str:
    return f"{value.dtype} {list(value.shape)}" if isinstance(value, torch.Tensor) else type(value).__name__


def graphs_summary(stats: dict | None) -> str:
    """`; CUDA graphs ...`: what the emitted module's graphs did while it was timed, and the device memory
    they hold (the extra memory a user pays for them)."""
    if not stats:
        return ""
    if stats.get("off"):
        return f"; CUDA graphs off: {stats['off']}"
    twins = f" ({stats['twins']} with a twin for outputs the caller held)" if stats.get("twins") else ""
    return (f"; CUDA graphs {stats['decision']}: {stats['graphs']} graph(s) + "
            f"{'a' if stats['copy_graph'] else 'no'} copy graph{twins} holding {stats['memory_bytes'] / 2**20:.1f} MiB, "
            f"{stats['replay']} replays, {stats['copy']} copied calls, {stats['capture']} captures")


def write_candidate(folder: Path, source: str) -> Path:
    path = folder / "emitted_for_guard.py"
    path.write_text(source)
    return path
