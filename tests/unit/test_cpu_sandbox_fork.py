"""A CPU command forks the gate's zygote from its own process (`fork_cpu_sandbox_now`): no second interpreter
start-up (torch, triton and Inductor's helpers imported again, about 2 s of CPU per command), and the gate gives the
same verdicts through it. A GPU, or a process with a thread running, keeps the new interpreter."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

UNIT = Path(__file__).resolve().parent

# In a fresh process, as a command runs it: fork first, then evaluate a legal retune and a wrong candidate.
FORKED = r'''
import sys, threading
sys.path.insert(0, sys.argv[1])
from kernelopt.legality.sandbox import default_pool, fork_cpu_sandbox_now
assert not fork_cpu_sandbox_now("cuda"), "a GPU zygote must be a new interpreter"
if sys.argv[2] == "thread":
    stop = threading.Event()
    threading.Thread(target=stop.wait).start()
    forked = fork_cpu_sandbox_now("cpu")
    stop.set()
    print("forked" if forked else "declined")
    raise SystemExit(0)
assert fork_cpu_sandbox_now("cpu")
zygote = default_pool("cpu").process.pid
# forked: the zygote runs this very command line, not `python -m kernelopt.legality.worker`
assert open(f"/proc/{zygote}/cmdline", "rb").read() == open("/proc/self/cmdline", "rb").read()
import torch
from search_helpers import GELU, INPUTS, MODULE, ZEROS, verdict, widest_retunes
from kernelopt.lift import lift_file
from kernelopt.rewrite.evaluate import ModuleEvaluator, StaticCostModel
from kernelopt.rewrite.targets import kernel_target
target = kernel_target(lift_file(str(MODULE)), GELU)
evaluator = ModuleEvaluator(str(MODULE), torch.load(INPUTS)["args"], device="cpu", cost_model=StaticCostModel())
legal, wrong = (verdict(evaluator.evaluate(target, c)) for c in (widest_retunes(target)[0], ZEROS))
assert default_pool("cpu").process.pid == zygote, "the gate started another zygote"
print("verdicts", legal[:2], wrong[:2])
'''


def _run(mode: str) -> str:
    env = dict(os.environ, TRITON_INTERPRET="1")
    done = subprocess.run([sys.executable, "-c", FORKED, str(UNIT), mode], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_the_forked_zygote_serves_the_gate_with_the_same_verdicts():
    assert _run("gate") == "verdicts (True, 'ACCEPT') (False, 'mismatch')"


def test_a_process_with_a_thread_keeps_the_new_interpreter():
    assert _run("thread") == "declined"


def test_a_cpu_job_started_without_triton_interpret_forks_its_zygote_and_still_captures(tmp_path):
    # A user's shell has no TRITON_INTERPRET: the fork imports triton in this process before the capture, after the
    # CPU shims set it (once triton had loaded first, Inductor's CPU capture failed: "Cannot call @triton.jit'd
    # outside of the scope of a kernel").
    problem = UNIT.parents[0] / "fixtures" / "gemm-window-cpu-2.13" / "problem_linear_avgpool_tail.py"
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["KERNELOPT_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", str(problem), "-o", "out.py", "--device",
                           "cpu", "--cost-model", "static", "--proposers", "window-through-gemm", "--max-candidates",
                           "1"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "1 rewrite(s) accepted" in done.stderr, done.stderr[-3000:]


def test_ctrl_c_to_the_job_s_process_group_prints_no_traceback(tmp_path):
    # A terminal's Ctrl-C reaches every process of the group: the job says "interrupted" and exits 130; its zygote,
    # idle on its socket once the capture is done, printed a KeyboardInterrupt traceback until it ignored SIGINT.
    import signal

    problem = UNIT.parents[0] / "fixtures" / "gemm-window-cpu-2.13" / "problem_linear_avgpool_tail.py"
    env = dict(os.environ, TRITON_INTERPRET="1", KERNELOPT_CACHE_DIR=str(tmp_path / "cache"))
    job = subprocess.Popen([sys.executable, "-m", "kernelopt.cli", "optimize", str(problem), "-o", "out.py",
                            "--device", "cpu", "--cost-model", "static", "--proposers", "window-through-gemm"],
                           cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen = []
    for line in job.stderr:                 # the capture is done and the module lifted: the zygote is up and idle
        seen.append(line)
        if "lift:" in line:
            break
    os.killpg(job.pid, signal.SIGINT)
    rest = job.communicate(timeout=300)[1]
    err = "".join(seen) + rest
    assert job.returncode == 130, err[-3000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert "interrupted" in err
