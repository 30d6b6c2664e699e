"""How the search spreads its budget: a proposer whose candidates stop gaining is cut off so the next
proposer gets its turn, and each target gets its part of the job's time, so that the first-ranked kernel
cannot take a whole job (a layer norm's pointwise kernel, near its floor, took every candidate with
retunes while its reductions, where the schedule transforms apply, were never searched)."""
from __future__ import annotations

import io
import time

import pytest
import torch

from kernelopt.lift import lift_file
from kernelopt.rewrite import search as search_module
from kernelopt.rewrite.evaluate import ModuleEvaluator, StaticCostModel
from kernelopt.rewrite.search import Budget, Progress, search
from kernelopt.rewrite.targets import kernel_target
from hypothesis import given, settings, strategies as st

from kernelopt.proposers.base import RewriteTarget
from passes.agentic_rewrite import FIRST_TARGET_SHARE, MIN_ROOM_PART, _fair_share, gain_room
from search_helpers import CAPTURE, GELU, MODULE, ZEROS, WidestRetune, interpreter  # noqa: F401 (autouse fixture)


class ZerosOnly:
    name = "zeros"
    summary = "test proposer: one wrong candidate"

    def propose(self, target, history):
        yield ZEROS


def test_a_proposer_without_gains_is_cut_off_and_the_next_one_is_asked(monkeypatch):
    monkeypatch.setattr(search_module, "PATIENCE", 2)
    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    target = kernel_target(lift_file(str(MODULE)), GELU)
    log = io.StringIO()
    result = search(target, [WidestRetune(), ZerosOnly()],
                    ModuleEvaluator(str(MODULE), inputs, device="cpu", cost_model=StaticCostModel()),
                    Budget(max_candidates=24), min_speedup=1e9, progress=Progress(log))
    proposers = [candidate.proposer for candidate, _ in result.attempts]
    assert proposers == ["retune", "retune", "zeros"], proposers     # not 20+ retunes before the next idea
    assert "retune: 2 candidates in a row without a gain" in log.getvalue()
    assert result.best is None


@pytest.mark.parametrize("remaining, part", [(1, 1.0), (2, 0.5), (3, FIRST_TARGET_SHARE), (10, FIRST_TARGET_SHARE)])
def test_without_timings_each_target_gets_an_equal_part_of_what_is_left(remaining, part):
    deadline = time.monotonic() + 100.0
    gpu, wall = _fair_share(60.0, deadline, [None] * remaining)
    assert gpu == pytest.approx(60.0 * part)
    assert wall - time.monotonic() == pytest.approx(100.0 * part, abs=0.5)
    assert _fair_share(60.0, None, [None] * remaining)[1] is None          # no wall target: none per target either


def _timed(time_us, floor_us=None):
    return RewriteTarget(id="k", kernels=(), launches=(), time_us=time_us, floor_us=floor_us)


def test_a_timed_target_gets_the_part_its_gain_room_earns():
    """The H100 cross-entropy: a 205 us kernel with an 87 us floor, then a 6.3 us launch-bound one. Equal
    halves stopped the first after 7 candidates while the second spent 13 on a 6 us kernel."""
    main, small = _timed(205.0, 87.2), _timed(6.34, 0.03)
    assert gain_room(main) == pytest.approx(117.8) and gain_room(small) == pytest.approx(6.31)
    deadline = time.monotonic() + 100.0
    gpu, wall = _fair_share(60.0, deadline, [gain_room(main), gain_room(small)])
    assert gpu == pytest.approx(60.0 * 117.8 / (117.8 + 6.31))
    assert wall - time.monotonic() == pytest.approx(100.0 * 117.8 / (117.8 + 6.31), abs=0.5)
    # the small one, searched first, still gets a quarter of an equal part: the gap is only the profile's guess
    assert _fair_share(60.0, None, [gain_room(small), gain_room(main)])[0] == pytest.approx(60.0 * MIN_ROOM_PART / 2)
    # a fusion group has no floor of its own (fused, it moves less than its members): its whole time is its room
    assert gain_room(_timed(211.0)) == 211.0
    assert gain_room(_timed(10.0, 9.9)) == pytest.approx(1.0)        # at least a tenth of its time
    assert gain_room(_timed(None)) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(0.01, 1e4)), min_size=1, max_size=8))
def test_targets_that_spend_their_parts_never_take_more_than_the_job_has(rooms):
    """Whatever the profile says, the parts of targets searched one after another, each spending all of its
    part, add up to the whole budget (the last takes what is left) and never to more."""
    left, spent = 100.0, []
    for index in range(len(rooms)):
        part, _ = _fair_share(left, None, rooms[index:])
        assert 0.0 < part <= left + 1e-9
        spent.append(part)
        left -= part
    assert sum(spent) == pytest.approx(100.0) and left == pytest.approx(0.0, abs=1e-6)


def test_a_target_that_spends_its_share_says_so():
    """The job goes on with the next target: the stop reason must not read as the job's deadline."""
    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    target = kernel_target(lift_file(str(MODULE)), GELU)
    evaluator = ModuleEvaluator(str(MODULE), inputs, device="cpu", cost_model=StaticCostModel())
    past = time.monotonic() - 1.0
    shared = search(target, [WidestRetune()], evaluator, Budget(deadline=past, shared=True), min_speedup=1e9)
    alone = search(target, [WidestRetune()], evaluator, Budget(deadline=past), min_speedup=1e9)
    assert shared.stopped_because == "its share of the job's wall time reached", shared.stopped_because
    assert alone.stopped_because == "wall-clock deadline reached", alone.stopped_because


def test_a_target_without_a_winner_says_which_checks_rejected_and_why_the_search_stopped():
    from kernelopt.proposers.base import Candidate
    from kernelopt.rewrite.search import Evaluation, SearchResult
    from passes.agentic_rewrite import _entry

    target = kernel_target(lift_file(str(MODULE)), GELU)
    attempts = [(Candidate("", "retune", f"retune {i}"), Evaluation(False, reason))
                for i, reason in enumerate(["mismatch: output 0 differs", "timeout: over the limit",
                                            "mismatch: output 1 differs"])]
    attempts.append((Candidate("", "retune", "retune 3"), Evaluation(True, "ACCEPT", time_us=2.0, baseline_us=1.0)))
    entry = _entry(SearchResult(target, None, attempts, 0.0, "its share of the job's wall time reached"))
    assert entry["why"] == ("4 candidates, 1 legal (rejected: mismatch 2, timeout 1), none faster; first rejection: "
                            "mismatch: output 0 differs; search stopped: its share of the job's wall time reached")


def test_a_rejects_gate_notes_reach_the_search_log(monkeypatch):
    """What the gate compared with is part of why a candidate was rejected: a reject judged without its float64
    reference (dropped for memory) reads like a plain mismatch unless the log says so (the H100 runs' scans)."""
    monkeypatch.setenv("KERNELOPT_DEVICE_MEMORY_BUDGET", "1")
    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    target = kernel_target(lift_file(str(MODULE)), GELU)
    log = io.StringIO()
    result = search(target, [ZerosOnly()], ModuleEvaluator(str(MODULE), inputs, device="cpu", cost_model=StaticCostModel()),
                    Budget(max_candidates=2), min_speedup=1e9, progress=Progress(log))
    evaluation = result.attempts[0][1]
    assert not evaluation.accepted and "float64 reference" in evaluation.notes
    line = next(line for line in log.getvalue().splitlines() if "REJECT" in line)
    assert "[gate: memory budget 1 B" in line


def test_every_proposer_is_asked_before_any_offers_its_third_candidate():
    """Scouting: with room for only four candidates, the second proposer's idea is still tried (it used to wait
    until the first proposer had offered PATIENCE candidates: softmax_over_dim1 spent its share on outer-tile
    and never reached row-on-chip), and the first proposer's proposals then go on where they left off."""
    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    target = kernel_target(lift_file(str(MODULE)), GELU)
    result = search(target, [WidestRetune(), ZerosOnly()],
                    ModuleEvaluator(str(MODULE), inputs, device="cpu", cost_model=StaticCostModel()),
                    Budget(max_candidates=4), min_speedup=1e9)
    assert [candidate.proposer for candidate, _ in result.attempts] == ["retune", "retune", "zeros", "retune"]
    strategies = [candidate.strategy for candidate, _ in result.attempts]
    assert len(set(strategies)) == 4 and result.stopped_because == "candidate budget spent"


def test_a_search_stopped_on_its_share_resumes_from_its_attempts():
    """The first run stops on its share after one candidate; resumed with time, it goes on with new candidates
    (none evaluated twice), its first attempt stays a contender, and it is no longer resumable once ideas or
    candidates run out."""
    inputs = torch.load(CAPTURE / "inputs.pt")["args"]
    target = kernel_target(lift_file(str(MODULE)), GELU)
    evaluator = ModuleEvaluator(str(MODULE), inputs, device="cpu", cost_model=StaticCostModel())
    first = search(target, [WidestRetune()], evaluator,
                   Budget(max_candidates=3, deadline=time.monotonic() - 1.0, shared=True), min_speedup=1.0)
    assert len(first.attempts) == 1 and first.resumable and first.longest_s > 0
    alone = search(target, [WidestRetune()], evaluator, Budget(max_candidates=3, deadline=time.monotonic() - 1.0),
                   min_speedup=1.0)
    assert not alone.resumable                      # the job's own deadline: nothing to resume with
    resumed = search(target, [WidestRetune()], evaluator, Budget(max_candidates=3), min_speedup=1.0, resume=first)
    strategies = [candidate.strategy for candidate, _ in resumed.attempts]
    assert len(strategies) == 3 == len(set(strategies)) and resumed.attempts[0] == first.attempts[0]
    assert resumed.stopped_because == "candidate budget spent" and not resumed.resumable
    best = max((e.speedup, c.strategy) for c, e in resumed.attempts if e.accepted)
    assert resumed.best is not None and (resumed.best[1].speedup, resumed.best[0].strategy) == best


def test_the_second_sweep_gives_the_jobs_unused_time_to_a_target_stopped_on_its_share(monkeypatch):
    """The pass's first sweep gives each target a part of the job's time; where a target stopped on its part
    and time is left when every target had its turn, the second sweep resumes it, and its winner is recorded
    (conv + group norm + mean on the H100 stopped after one candidate of its group, with most of the job's
    search time unused)."""
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.pass_manager import PassManager
    from kernelopt.passes.pipeline import parse_pipeline
    import kernelopt.passes.agentic_rewrite as agentic

    sweeps = []

    def shares(gpu_left, deadline, remaining):
        # the first sweep's part ends before its first candidate does; the second sweep's is the job's rest
        sweeps.append(remaining)
        first_sweep = len(sweeps) == 1
        return gpu_left, (time.monotonic() - 1.0 if first_sweep else deadline)

    monkeypatch.setattr(agentic, "_fair_share", shares)
    capture = CAPTURE.parents[1] / "adaln_modulate" / "small.default"     # two kernels
    module = lift_file(str(capture / "adaln_modulate.default.0.py"))
    log = io.StringIO()
    ctx = PassContext(options={"device": "cpu", "inputs": torch.load(capture / "inputs.pt")["args"],
                               "progress_stream": log, "search_deadline": time.monotonic() + 3600})
    PassManager(parse_pipeline("classify-dispatch,annotate-profile,agentic-rewrite{cost-model=static "
                               "max-candidates=3 proposers=retune workers=none}")).run(module, ctx)
    lines = log.getvalue().splitlines()
    first = lines[0].split("] ")[1].split(":")[0]          # the target ranked first
    assert lines[1].split("] ")[1].split(":")[0] != first, lines     # one candidate, then the next target
    assert "second sweep: 1 target(s) stopped on their share" in log.getvalue(), lines
    rewrite = module.kernel(first).attrs["rewrite"]
    assert rewrite["status"] == "proposed" and rewrite["candidates"] == 3, rewrite
    assert ctx.statistics["agentic-rewrite"]["second-sweep-targets"] == 1
