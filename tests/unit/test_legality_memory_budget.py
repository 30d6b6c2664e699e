"""The gate under a device memory budget: a fake, small KERNELOPT_DEVICE_MEMORY_BUDGET forces the degraded
paths (snapshots, candidate results and the float64 reference kept on the host, or the reference
dropped); the verdicts and check names stay those of the unlimited gate, and the notes say which path ran."""
import os

os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402
import torch  # noqa: E402

from kernelopt.legality import LaunchInputs, check_candidate, compare  # noqa: E402
from kernelopt.legality import memory_budget as M  # noqa: E402
from tests.adversarial.suite import run_case, suite_cases  # noqa: E402
from tests.adversarial.targets import TARGETS  # noqa: E402

CASES = {case.name: case for case in suite_cases()}


def test_sizes_and_the_budget_in_force(monkeypatch):
    assert M.parse_size("64MB") == 64_000_000 and M.parse_size("2GiB") == 2 << 30
    assert M.parse_size("1.5g") == 3 << 29 and M.parse_size("4096") == 4096
    with pytest.raises(ValueError):
        M.parse_size("lots")
    monkeypatch.delenv(M.ENV, raising=False)
    cpu = torch.device("cpu")
    assert M.resolve(None, cpu).limit is None                    # unlimited on the CPU by default
    assert M.resolve("2GiB", cpu).limit == 2 << 30 and M.resolve(1000, cpu).limit == 1000
    monkeypatch.setenv(M.ENV, "64MB")                            # the environment overrides the argument
    assert M.resolve(1000, cpu).limit == 64_000_000
    assert M.resolve(None, cpu).describe() == "memory budget 64.0 MB"


def _outputs(target):
    return target.output_args() & set(range(len(target.launches()[0].args)))


def _budget(target, want) -> int:
    """The smallest budget (in 1% steps) whose plan for the target's layout satisfies `want`."""
    from kernelopt.legality import cases as C
    layout = C.make_layout(target.launches()[0])
    chunk = min(compare.CHUNK_ELEMENTS, max(layout.base_sizes))
    budget = 256
    while budget < 1 << 30:
        plan = M.place(M.MemoryBudget(budget), torch.device("cpu"), layout, _outputs(target), True, chunk)
        if want(plan):
            return budget
        budget = int(budget * 1.01) + 1
    raise AssertionError("no budget gives the wanted plan")


HOST = ("the input snapshots are kept on the host", "the candidate's results are compared from the host",
        "float64 reference on the host")


def _all_on_host(plan):
    # on the CPU "host" and "device" are the same memory: the plan says where, in its note
    return plan.reference is not None and plan.notes and all(text in plan.notes[0] for text in HOST)


@pytest.mark.parametrize("name,expect", [
    ("gpt2_layernorm__accept_row_per_program", "accept"),
    ("gpt2_layernorm__near_tolerance_garbage", "less-accurate"),
    ("gpt2_layernorm__out_of_bounds", None),
    ("silu_mul__garbage_close_to_tolerance", None),
    ("ce_nll__mutates_input", None),
])
def test_small_budget_keeps_the_verdicts_and_says_how(monkeypatch, name, expect):
    """Everything the plan can move is on the host (the reference still runs), and the comparisons walk
    tiny chunks: the same verdict and check as the suite expects without a budget."""
    case = CASES[name]
    target = TARGETS[case.target]
    monkeypatch.setattr(compare, "CHUNK_ELEMENTS", 64)
    budget = _budget(target, _all_on_host)
    monkeypatch.setenv(M.ENV, str(budget))
    verdict = run_case(case).verdict
    got = "accept" if verdict.accepted else verdict.check
    assert got in case.expect and (expect is None or got == expect), verdict.report()
    note = next(n for n in verdict.notes if n.startswith("memory budget"))
    assert note == f"{M.MemoryBudget(budget).describe()}: " + "; ".join(HOST), note
    assert not any("outputs compared with the original only" in n for n in verdict.notes), verdict.notes


def test_reference_only_on_the_host(monkeypatch):
    case = CASES["gpt2_layernorm__near_tolerance_garbage"]
    target = TARGETS[case.target]
    budget = _budget(target, lambda plan: plan.notes and plan.notes[0].endswith(": float64 reference on the host"))
    monkeypatch.setenv(M.ENV, str(budget))
    verdict = run_case(case).verdict
    assert verdict.check == "less-accurate", verdict.report()
    assert f"{M.MemoryBudget(budget).describe()}: float64 reference on the host" in verdict.notes


def test_reference_that_cannot_fit_is_dropped_with_a_note(monkeypatch):
    """Too small for the float64 run: the reference is dropped and the note says it was the memory
    budget; every other check still runs (a candidate that leaves outputs unwritten is rejected)."""
    monkeypatch.setenv(M.ENV, "1kB")
    accept = run_case(CASES["gpt2_layernorm__accept_row_per_program"]).verdict
    assert accept.accepted, accept.report()
    dropped = [n for n in accept.notes if "float64 reference" in n]
    assert dropped and dropped[0].startswith("memory budget 1.0 kB: the float64 reference needs"), accept.notes
    assert dropped[0].endswith("outputs compared with the original only")
    wrong = run_case(CASES["silu_mul__garbage_close_to_tolerance"]).verdict
    assert wrong.check == "mismatch", wrong.report()


def test_float64_reference_never_writes_the_input_snapshot():
    """A float64 launch: the reference runs on copies, so the candidate still starts from poisoned
    outputs and one that writes nothing is caught as `unwritten` (not handed the reference's results)."""
    def original(x, out):
        out.copy_(x * 2)
    x = torch.randn(64, dtype=torch.float64)
    out = torch.empty(64, dtype=torch.float64)
    source = "def run(x, out):\n    pass\n"
    verdict = check_candidate(original, source, [LaunchInputs((x, out))], output_args={1}, reference_fn=original,
                              seeds=(), adversarial=(), timeout_floor_s=3.0)
    assert verdict.check == "unwritten", verdict.report()


def test_the_float64_reference_leaves_no_folder_in_the_temp_directory(tmp_path, monkeypatch):
    # One folder per float64 reference was left in /tmp (454 after one CI run): the disk is bounded only
    # if the job removes what it writes.
    import tempfile
    from pathlib import Path

    from kernelopt.legality.module import float64_reference
    from kernelopt.runtime.loader import load_output_module

    module = Path(__file__).resolve().parents[2] / "tests/corpus/cpu-2.13/softmax/small.default/softmax.default.0.py"
    kernel = next(iter(load_output_module(str(module), "cpu").kernels))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    reference = float64_reference(str(module), kernel, "cpu")
    assert reference is not None and callable(reference)
    # (kernelopt-kernels-<uid> is the interpreter's one shared kernel-source folder, reused by every job)
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("kernelopt-kernels-")] == []


def test_on_a_gpu_the_plan_counts_the_sandboxs_own_device_copy():
    """The sandboxed child runs the candidate on a device copy of the case's bases, in another process of
    the same job: a budget that holds the gate's own buffers with everything on the device no longer
    does once that copy is counted, and the plan moves the snapshots and results to the host instead."""
    from kernelopt.legality import cases as C
    target = TARGETS["gpt2_layernorm"] if "gpt2_layernorm" in TARGETS else next(iter(TARGETS.values()))
    layout = C.make_layout(target.launches()[0])
    chunk = min(compare.CHUNK_ELEMENTS, max(layout.base_sizes))
    budget = _budget(target, lambda plan: not plan.notes)       # the smallest with nothing moved
    alone = M.place(M.MemoryBudget(budget), torch.device("cpu"), layout, _outputs(target), True, chunk)
    counted = M.place(M.MemoryBudget(budget), torch.device("cpu"), layout, _outputs(target), True, chunk,
                      sandbox_copy=True)
    assert not alone.notes
    assert counted.notes and "kept on the host" in counted.notes[0], counted.notes


def test_a_bad_memory_setting_names_the_variable(monkeypatch):
    """A mistyped budget is the user's error, named with its variable, not a ValueError from inside a pass."""
    from kernelopt.errors import UsageError
    from kernelopt.rewrite.evaluate import capture_device_bytes

    monkeypatch.setenv(M.ENV, "lots")
    with pytest.raises(UsageError, match=r"^KERNELOPT_DEVICE_MEMORY_BUDGET: not a memory size: 'lots'"):
        M.resolve(None, torch.device("cpu"))
    monkeypatch.setenv("KERNELOPT_CAPTURE_DEVICE_BYTES", "2 lots")
    with pytest.raises(UsageError, match=r"^KERNELOPT_CAPTURE_DEVICE_BYTES: not a memory size"):
        capture_device_bytes()
    monkeypatch.setenv("KERNELOPT_CAPTURE_DEVICE_BYTES", "512MiB")
    assert capture_device_bytes() == 512 << 20
