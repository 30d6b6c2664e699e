"""The whole-module guard of `optimize`: the decision it takes from two side-by-side timings, and what
`optimize` says on a machine without a GPU (the timing itself needs one: test_runtime_gpu-style tests)."""
from __future__ import annotations

import pytest

from kernelopt.guard import TOLERANCE, UNCHANGED_TOLERANCE, GuardResult, tolerance_for


@pytest.mark.parametrize("original_ms,emitted_ms,keep", [
    (1.00, 0.60, True),           # faster: keep
    (1.00, 1.00, True),           # equal: keep (every rewrite in it was measured faster alone)
    (1.00, 1.00 * TOLERANCE, True),
    (1.00, 1.005, False),         # slower at all: the original stays (no module-level win to offer)
    (1.00, 1.03, False),
    (0.02, 0.05, False),
])
def test_the_emitted_module_is_kept_only_when_it_is_not_slower(original_ms, emitted_ms, keep):
    result = GuardResult(original_ms, emitted_ms)
    assert result.keep_emitted is keep
    assert ("written out unchanged" in result.detail()) is (not keep)
    assert f"{original_ms:.4f} ms" in result.detail() and f"{emitted_ms:.4f} ms" in result.detail()


@pytest.mark.parametrize("original_ms,emitted_ms,keep", [
    (0.1299, 0.1299, False),      # a tie: the Inductor module, which the user knows, is written
    (1.00, 0.995, False),         # within one run's spread
    (1.00, 0.99, True),           # 1 % faster (e.g. CUDA-graph replay, the direct launch path): kept
    (1.00, 0.80, True),
])
def test_with_no_rewrite_kept_the_emitted_module_must_be_measurably_faster(original_ms, emitted_ms, keep):
    result = GuardResult(original_ms, emitted_ms, tolerance_for(0))
    assert result.keep_emitted is keep
    if not keep:
        assert "no rewrite was kept" in result.detail() and "written out unchanged" in result.detail()


def test_the_stricter_tolerance_applies_only_when_no_rewrite_was_kept():
    assert tolerance_for(0) == UNCHANGED_TOLERANCE < TOLERANCE
    assert tolerance_for(1) == tolerance_for(5) == TOLERANCE


def test_a_zero_original_time_never_keeps_the_emitted_module():
    assert GuardResult(0.0, 0.1).keep_emitted is False


@pytest.mark.gpu
@pytest.mark.skipif(not __import__("torch").cuda.is_available(), reason="needs a CUDA GPU")
def test_an_emitted_capture_is_timed_side_by_side_with_its_original(tmp_path):
    from pathlib import Path

    from kernelopt.codegen import emit_python
    from kernelopt.guard import time_side_by_side
    from kernelopt.lift import lift_file

    original = next(Path("tests/corpus/cuda-2.11-h200/rmsnorm/large.default").glob("*.py"))
    emitted = tmp_path / "rmsnorm_emitted.py"
    emitted.write_text(emit_python(lift_file(str(original)), options=None))
    result = time_side_by_side(str(original), str(emitted), None, rounds=3)
    assert result.original_ms > 0 and result.emitted_ms > 0
    assert result.ratio < 1.10, result.detail()      # the same kernel, the same configuration family


@pytest.mark.parametrize("decision, dropped, graphs_kept", [
    ("off (replay 163.9 us vs plain 156.1 us per call)", ["replay"], False),  # replay itself lost: graphs off
    ("kept (replay 173.8 us vs plain 262.1 us per call)", [], True),
    ("undecided", ["copy"], True),          # only the copy path lost: new buffers run plain, held ones replay
    (None, [], True),                                                  # graphs never decided (e.g. all calls copied)
])
def test_a_module_whose_replay_lost_while_the_guard_timed_it_is_written_with_graphs_off(decision, dropped,
                                                                                         graphs_kept):
    """Left on `auto`, each process would time replay against the plain launches again on a few calls and could
    keep the slower replay; the guard's verdict on replay itself is written into the module instead."""
    import io
    from pathlib import Path

    from kernelopt.codegen.graph_runtime import GRAPH_RUNTIME_MARKER
    from kernelopt.lift import lift_file
    from kernelopt.optimize_job import Steps, _settle_graphs
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.emit_python import EmitPython

    capture = Path(__file__).resolve().parents[1] / "fixtures" / "inductor-2.11-h200" / "ce.default.0.py"
    module = lift_file(str(capture))
    ctx = PassContext(options={"device": "cuda"})
    EmitPython().apply(ctx, module)
    source = ctx.artifacts["python"]
    assert GRAPH_RUNTIME_MARKER in source                          # a GPU module is emitted with graphs on auto
    said = io.StringIO()
    written = _settle_graphs(source, {"decision": decision, "dropped": dropped}, module, ctx, Steps(said))
    assert (GRAPH_RUNTIME_MARKER in written) is graphs_kept
    assert ("written with CUDA graphs off" in said.getvalue()) is (not graphs_kept)
